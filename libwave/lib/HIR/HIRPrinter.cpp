//===- HIRPrinter.cpp - HIR as text ---------------------------------------===//
#include "wave/HIR/HIRPrinter.h"

#include "llvm/Support/Format.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

using namespace wave::hir;
using llvm::cast;
using llvm::dyn_cast;
using llvm::isa;

namespace {

/// The shortest decimal text that reads back as \p V, with a '.' or an
/// exponent so that it reads as a float.
std::string floatText(double V) {
  if (std::isnan(V))
    return "nan";
  if (std::isinf(V))
    return V < 0 ? "-inf" : "inf";
  char Buf[64];
  for (int Prec = 1; Prec <= 17; ++Prec) {
    std::snprintf(Buf, sizeof Buf, "%.*g", Prec, V);
    if (std::strtod(Buf, nullptr) == V)
      break;
  }
  std::string S = Buf;
  if (S.find_first_of(".en") == std::string::npos)
    S += ".0";
  return S;
}

class Printer {
public:
  explicit Printer(llvm::raw_ostream &OS) : OS(OS) {}

  void function(const FunctionDecl &F) {
    if (F.Link == Linkage::Export)
      OS << "export ";
    else if (F.Link == Linkage::Declaration)
      OS << "declare ";
    OS << (F.IsKernel ? "kernel " : "func ") << F.Name << '(';
    for (size_t I = 0; I < F.Params.size(); ++I) {
      const Param &P = F.Params[I];
      OS << (I ? ", " : "") << P.Name << ": "
         << (P.ByRef ? (P.Mutable ? "&mut " : "&") : "") << typeName(P.Ty);
    }
    OS << ')';
    if (!F.ReturnTy.isVoid())
      OS << " -> " << typeName(F.ReturnTy);
    if (F.WorkgroupSize)
      OS << " workgroup_size(" << (*F.WorkgroupSize)[0] << ", "
         << (*F.WorkgroupSize)[1] << ", " << (*F.WorkgroupSize)[2] << ')';
    if (F.SharedBytes)
      OS << " shared_bytes(" << F.SharedBytes << ')';
    if (F.isDeclaration()) {
      OS << '\n';
      return;
    }
    OS << ' ';
    if (F.Body)
      block(*F.Body);
    else
      OS << "{}";
    OS << '\n';
  }

  void expr(const Expr &E, bool Nested = false) {
    switch (E.kind()) {
    case Expr::Kind::IntLit: {
      const auto &L = cast<IntLitExpr>(E);
      OS << L.Value;
      if (L.Suffix)
        OS << scalarName(*L.Suffix);
      return;
    }
    case Expr::Kind::FloatLit: {
      const auto &L = cast<FloatLitExpr>(E);
      OS << floatText(L.Value);
      if (L.Suffix)
        OS << scalarName(*L.Suffix);
      return;
    }
    case Expr::Kind::BoolLit:
      OS << (cast<BoolLitExpr>(E).Value ? "true" : "false");
      return;
    case Expr::Kind::Name:
      OS << cast<NameExpr>(E).Name;
      return;
    case Expr::Kind::Unary: {
      const auto &U = cast<UnaryExpr>(E);
      OS << unaryOpSpelling(U.Op);
      expr(*U.Operand, true);
      return;
    }
    case Expr::Kind::Binary: {
      const auto &B = cast<BinaryExpr>(E);
      if (Nested)
        OS << '(';
      expr(*B.LHS, true);
      OS << ' ' << binaryOpSpelling(B.Op) << ' ';
      expr(*B.RHS, true);
      if (Nested)
        OS << ')';
      return;
    }
    case Expr::Kind::CompareChain: {
      const auto &C = cast<CompareChainExpr>(E);
      if (Nested)
        OS << '(';
      for (size_t I = 0; I < C.Operands.size(); ++I) {
        if (I)
          OS << ' ' << binaryOpSpelling(C.Ops[I - 1]) << ' ';
        expr(*C.Operands[I], true);
      }
      if (Nested)
        OS << ')';
      return;
    }
    case Expr::Kind::Conditional: {
      const auto &C = cast<ConditionalExpr>(E);
      if (Nested)
        OS << '(';
      expr(*C.Cond, true);
      OS << " ? ";
      expr(*C.Then, true);
      OS << " : ";
      expr(*C.Else, true);
      if (Nested)
        OS << ')';
      return;
    }
    case Expr::Kind::Call: {
      const auto &C = cast<CallExpr>(E);
      OS << (C.Intrinsic == IntrinsicId::None ? llvm::StringRef(C.Callee)
                                              : intrinsicName(C.Intrinsic))
         << '(';
      for (size_t I = 0; I < C.Args.size(); ++I) {
        if (I)
          OS << ", ";
        expr(*C.Args[I]);
      }
      OS << ')';
      return;
    }
    case Expr::Kind::Index: {
      const auto &X = cast<IndexExpr>(E);
      expr(*X.Base, true);
      OS << '[';
      expr(*X.Index);
      OS << ']';
      return;
    }
    case Expr::Kind::Cast: {
      const auto &C = cast<CastExpr>(E);
      OS << (C.Implicit ? "convert<" : "cast<") << scalarName(C.To) << ">(";
      expr(*C.Operand);
      OS << ')';
      return;
    }
    case Expr::Kind::StructLit: {
      const auto &L = cast<StructLitExpr>(E);
      if (L.Tuple) {
        OS << '(';
        for (size_t I = 0; I < L.Inits.size(); ++I) {
          OS << (I ? ", " : "");
          if (L.Inits[I].Value)
            expr(*L.Inits[I].Value);
        }
        OS << (L.Inits.size() == 1 ? ",)" : ")");
        return;
      }
      OS << L.Struct->Name << " {";
      for (size_t I = 0; I < L.Inits.size(); ++I) {
        OS << (I ? ", " : " ") << L.Inits[I].Name << ": ";
        if (L.Inits[I].Value)
          expr(*L.Inits[I].Value);
      }
      OS << " }";
      return;
    }
    case Expr::Kind::Member: {
      const auto &Mem = cast<MemberExpr>(E);
      expr(*Mem.Base, true);
      OS << '.' << Mem.Name;
      return;
    }
    }
  }

  /// A statement without indentation or newline (for-loop headers).
  void simpleStmt(const Stmt &S) {
    if (const auto *V = dyn_cast<VarDecl>(&S)) {
      OS << (V->Mutable ? "var " : "const ") << V->Name;
      if (!V->Ty.isInvalid())
        OS << ": " << typeName(V->Ty);
      else if (V->DeclaredTy)
        OS << ": " << scalarName(*V->DeclaredTy);
      else if (V->DeclaredStruct)
        OS << ": " << V->DeclaredStruct->Name;
      if (V->Init) {
        OS << " = ";
        expr(*V->Init);
      }
    } else if (const auto *A = dyn_cast<AssignStmt>(&S)) {
      if (A->Declares) {
        OS << "var ";
        expr(*A->Target);
        OS << ": " << typeName(A->Declares->Ty);
      } else {
        expr(*A->Target);
      }
      OS << ' ' << (A->Op ? binaryOpSpelling(*A->Op).str() : "") << "= ";
      expr(*A->Value);
    } else if (const auto *E = dyn_cast<ExprStmt>(&S)) {
      expr(*E->E);
    }
  }

  void stmt(const Stmt &S) {
    indent();
    switch (S.kind()) {
    case Stmt::Kind::Block:
      block(cast<BlockStmt>(S));
      OS << '\n';
      return;
    case Stmt::Kind::VarDecl:
    case Stmt::Kind::Assign:
    case Stmt::Kind::ExprStmt:
      simpleStmt(S);
      OS << ";\n";
      return;
    case Stmt::Kind::SharedDecl: {
      const auto &D = cast<SharedDecl>(S);
      OS << "shared " << D.Name << ": " << scalarName(D.Elem) << '[';
      if (D.Ty.K == Type::Shared)
        OS << D.Ty.Count << "] at " << D.Offset;
      else if (D.Size) {
        expr(*D.Size);
        OS << ']';
      }
      OS << ";\n";
      return;
    }
    case Stmt::Kind::If: {
      const auto *I = &cast<IfStmt>(S);
      OS << "if (";
      expr(*I->Cond);
      OS << ") ";
      block(*I->Then);
      while (I->Else) {
        if (const auto *Next = dyn_cast<IfStmt>(I->Else.get())) {
          OS << " else if (";
          expr(*Next->Cond);
          OS << ") ";
          block(*Next->Then);
          I = Next;
          continue;
        }
        OS << " else ";
        block(cast<BlockStmt>(*I->Else));
        break;
      }
      OS << '\n';
      return;
    }
    case Stmt::Kind::While: {
      const auto &W = cast<WhileStmt>(S);
      if (W.DoWhile) {
        OS << "do ";
        block(*W.Body);
        OS << " while (";
        expr(*W.Cond);
        OS << ");\n";
        return;
      }
      OS << "while (";
      expr(*W.Cond);
      OS << ") ";
      block(*W.Body);
      OS << '\n';
      return;
    }
    case Stmt::Kind::For: {
      const auto &F = cast<ForStmt>(S);
      OS << "for (";
      if (F.Init)
        simpleStmt(*F.Init);
      OS << "; ";
      if (F.Cond)
        expr(*F.Cond);
      OS << "; ";
      if (F.Step)
        simpleStmt(*F.Step);
      OS << ") ";
      block(*F.Body);
      OS << '\n';
      return;
    }
    case Stmt::Kind::ForRange: {
      const auto &F = cast<ForRangeStmt>(S);
      OS << "for " << F.Var->Name;
      if (!F.Var->Ty.isInvalid())
        OS << ": " << typeName(F.Var->Ty);
      OS << " in " << (F.Inclusive ? "range_inclusive(" : "range(");
      if (F.Start)
        expr(*F.Start);
      else
        OS << '0';
      OS << ", ";
      if (F.End)
        expr(*F.End);
      OS << ", ";
      if (F.Step)
        expr(*F.Step);
      else
        OS << '1';
      OS << ") ";
      block(*F.Body);
      OS << '\n';
      return;
    }
    case Stmt::Kind::Break:
      OS << "break;\n";
      return;
    case Stmt::Kind::Continue:
      OS << "continue;\n";
      return;
    case Stmt::Kind::Return: {
      const auto &R = cast<ReturnStmt>(S);
      OS << "return";
      if (R.Value) {
        OS << ' ';
        expr(*R.Value);
      }
      OS << ";\n";
      return;
    }
    }
  }

  void block(const BlockStmt &B) {
    OS << "{\n";
    ++Depth;
    for (const StmtPtr &S : B.Body)
      stmt(*S);
    --Depth;
    indent();
    OS << '}';
  }

private:
  void indent() { OS.indent(2 * Depth); }

  llvm::raw_ostream &OS;
  unsigned Depth = 0;
};

} // namespace

void wave::hir::printModule(const Module &M, llvm::raw_ostream &OS) {
  OS << "; HIR (" << languageName(M.Lang) << ")\n";
  Printer P(OS);
  for (const auto &S : M.Structs) {
    if (S->Tuple)
      continue; // Its name spells it.
    OS << "\nstruct " << S->Name << " {";
    for (size_t I = 0; I < S->Fields.size(); ++I)
      OS << (I ? ", " : " ") << S->Fields[I].Name << ": "
         << typeName(S->Fields[I].Ty);
    OS << (S->Fields.empty() ? "}\n" : " }\n");
  }
  for (const auto &F : M.Functions) {
    OS << '\n';
    P.function(*F);
  }
}

void wave::hir::printExpr(const Expr &E, llvm::raw_ostream &OS) {
  Printer(OS).expr(E);
}
