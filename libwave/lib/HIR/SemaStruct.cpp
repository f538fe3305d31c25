//===- SemaStruct.cpp - Plain-data structs in HIR Sema --------------------===//
//
// Struct declarations, struct literals, field access, and the operator
// traits (formats/kernel-languages.md §8, "Plain-data structs"). An
// operator whose left operand is a struct becomes a call of the trait
// impl's method
// (`a + b` on V2 is `V2::add(a, b)`; `a += b` is `V2::add_assign(a, b)`),
// so that every later walk (recursion, barriers, buffer access, lowering)
// sees an ordinary call.
//
//===----------------------------------------------------------------------===//
#include "SemaInternal.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"

#include <functional>

using namespace wave::hir;
using llvm::cast;
using llvm::dyn_cast;
using llvm::isa;

static std::string quoted(const Type &T) { return "'" + typeName(T) + "'"; }

/// The Python method of an operator trait ("Div" -> "__truediv__",
/// "AddAssign" -> "__iadd__").
static std::string pythonDunder(llvm::StringRef Trait) {
  bool InPlace = Trait.consume_back("Assign");
  llvm::StringRef Op = llvm::StringSwitch<llvm::StringRef>(Trait)
                           .Case("Div", "truediv")
                           .Case("Rem", "mod")
                           .Default("");
  std::string Name = Op.empty() ? Trait.lower() : Op.str();
  return "__" + std::string(InPlace ? "i" : "") + Name + "__";
}

/// A fresh, unchecked copy of a place (a name, or fields of one).
static ExprPtr clonePlace(const Expr &E) {
  if (const auto *N = dyn_cast<NameExpr>(&E))
    return std::make_unique<NameExpr>(N->loc(), N->Name);
  if (const auto *Mem = dyn_cast<MemberExpr>(&E))
    if (ExprPtr B = clonePlace(*Mem->Base))
      return std::make_unique<MemberExpr>(Mem->loc(), std::move(B), Mem->Name);
  return nullptr;
}

void Sema::checkStructs() {
  // A struct may not contain itself, directly or through other structs.
  llvm::DenseSet<const StructDecl *> Done, Active;
  std::function<bool(const StructDecl &)> Cyclic =
      [&](const StructDecl &S) -> bool {
    if (Done.contains(&S))
      return false;
    if (!Active.insert(&S).second)
      return true;
    bool C = false;
    for (const StructDecl::Field &F : S.Fields)
      if (F.Ty.isStruct() && F.Ty.Decl)
        C |= Cyclic(*F.Ty.Decl);
    Active.erase(&S);
    Done.insert(&S);
    return C;
  };
  for (const auto &S : M.Structs) {
    if (!S->Defined) {
      Diags.error(S->FirstUse, "unknown type '" + S->Name + "'");
      continue;
    }
    llvm::StringMap<const StructDecl::Field *> Names;
    for (const StructDecl::Field &F : S->Fields)
      if (!Names.try_emplace(F.Name, &F).second)
        Diags.error(F.Loc, "duplicate field '" + F.Name + "' in struct '" +
                               S->Name + "'");
    Done.clear();
    if (Cyclic(*S))
      Diags.error(S->Loc, "struct '" + S->Name +
                              "' contains itself; it would have no size");
  }
}

void Sema::expectType(Expr &E, const Type &To) {
  if (!To.isStruct() || !To.Decl || !To.Decl->Tuple)
    return;
  if (auto *L = dyn_cast<StructLitExpr>(&E)) {
    if (L->Tuple && L->Inits.size() == To.Decl->Fields.size())
      L->Struct = M.structNamed(To.Decl->Name);
  } else if (auto *C = dyn_cast<ConditionalExpr>(&E)) {
    expectType(*C->Then, To);
    expectType(*C->Else, To);
  }
}

Type Sema::checkTupleLit(StructLitExpr &L) {
  std::vector<Type> Elems;
  bool Ok = true;
  for (StructLitExpr::Init &I : L.Inits) {
    Type T = checkExpr(I.Value);
    if (T.isLiteral()) {
      std::optional<Scalar> S = defaultScalar(T, I.Value->loc());
      T = S ? Type::scalar(*S) : Type::invalid();
    }
    if (!T.isScalar() && !T.isStruct()) {
      if (!T.isInvalid())
        Diags.error(I.Value->loc(),
                    "a tuple holds numbers, bools, structs and tuples, not " +
                        quoted(T));
      Ok = false;
    }
    Elems.push_back(T);
  }
  if (!Ok)
    return Type::invalid();
  StructDecl *D = M.getTuple(Elems, L.loc());
  for (size_t F = 0; F < L.Inits.size(); ++F) {
    L.Inits[F].Field = int(F);
    Ok &= coerceTo(L.Inits[F].Value, Elems[F],
                   "element " + std::to_string(F) + " of the tuple");
  }
  if (!Ok)
    return Type::invalid();
  // The quiet pass leaves it unset: a context may still type it.
  if (!Quiet)
    L.Struct = D;
  return Type::structType(D);
}

Type Sema::checkStructLit(StructLitExpr &L) {
  if (L.Tuple && !L.Struct)
    return checkTupleLit(L);
  bool Ok = L.Struct->Defined;
  std::vector<bool> Given(L.Struct->Fields.size(), false);
  for (StructLitExpr::Init &I : L.Inits) {
    int Field = L.Struct->fieldIndex(I.Name);
    if (Field >= 0)
      expectType(*I.Value, L.Struct->Fields[Field].Ty);
    checkExpr(I.Value);
    I.Field = L.Struct->fieldIndex(I.Name);
    if (!L.Struct->Defined)
      continue;
    if (I.Field < 0) {
      Diags.error(I.Loc, "struct '" + L.Struct->Name + "' has no field '" +
                             I.Name + "'");
      Ok = false;
      continue;
    }
    if (Given[I.Field]) {
      Diags.error(I.Loc, "field '" + I.Name + "' is given twice");
      Ok = false;
      continue;
    }
    Given[I.Field] = true;
    Ok &= coerceTo(I.Value, L.Struct->Fields[I.Field].Ty,
                   (L.Tuple ? "element " + I.Name + " of '"
                            : "field '" + I.Name + "' of '") +
                       L.Struct->Name + "'");
  }
  if (!Ok)
    return Type::invalid();
  std::string Missing;
  for (size_t F = 0; F < Given.size(); ++F)
    if (!Given[F])
      Missing +=
          (Missing.empty() ? "'" : ", '") + L.Struct->Fields[F].Name + "'";
  if (!Missing.empty()) {
    Diags.error(L.loc(), "missing field(s) " + Missing +
                             " in the literal of '" + L.Struct->Name + "'");
    return Type::invalid();
  }
  return Type::structType(L.Struct);
}

Type Sema::checkMember(MemberExpr &Mem) {
  Type B = checkExpr(Mem.Base);
  Mem.Field = -1;
  if (B.isInvalid())
    return B;
  bool Element = !Mem.Name.empty() && llvm::isDigit(Mem.Name[0]);
  if (!B.isStruct()) {
    Diags.error(Mem.loc(), "field access '." + Mem.Name + "' on " + quoted(B) +
                               ", which is not a " +
                               (Element ? "tuple" : "struct"));
    return Type::invalid();
  }
  Mem.Field = B.Decl->fieldIndex(Mem.Name);
  if (Mem.Field < 0) {
    if (B.Decl->Tuple)
      Diags.error(Mem.loc(), "tuple '" + B.Decl->Name + "' has no element " +
                                 Mem.Name + " (it has " +
                                 std::to_string(B.Decl->Fields.size()) + ")");
    else
      Diags.error(Mem.loc(), "struct '" + B.Decl->Name + "' has no field '" +
                                 Mem.Name + "'");
    return Type::invalid();
  }
  return B.Decl->Fields[Mem.Field].Ty;
}

bool Sema::coerceTo(ExprPtr &E, const Type &To, const llvm::Twine &What) {
  if (E->Ty.isInvalid() || To.isInvalid())
    return false;
  if (To.isStruct() || E->Ty.isStruct()) {
    if (E->Ty == To)
      return true;
    Diags.error(E->loc(), "expected " + quoted(To) + " in " + What +
                              ", found " + quoted(E->Ty));
    return false;
  }
  return coerce(E, To.Elem, What);
}

const FunctionDecl *Sema::traitMethod(const StructDecl &S,
                                      llvm::StringRef Method) {
  const FunctionDecl *F = M.function(S.Name + "::" + Method.str());
  return F && !F->Trait.empty() ? F : nullptr;
}

Type Sema::checkOperatorCall(ExprPtr &Self, llvm::SMLoc Loc, llvm::StringRef Sp,
                             llvm::StringRef Trait, ExprPtr &LHS,
                             ExprPtr *RHS) {
  const StructDecl &S = *LHS->Ty.Decl;
  std::string Method = Trait.lower();
  const FunctionDecl *F = Trait.empty() ? nullptr : traitMethod(S, Method);
  if (!F) {
    std::string Operands =
        RHS ? quoted(LHS->Ty) + " and " + quoted((*RHS)->Ty) : quoted(LHS->Ty);
    Diags.error(Loc,
                "no operator '" + Sp + "' for " + Operands +
                    (M.Lang == Language::TypeScript
                         ? std::string("; TypeScript has no operator "
                                       "overloading: call a method")
                     : Trait.empty() ? std::string("")
                     : M.Lang == Language::Python
                         ? "; define '" + pythonDunder(Trait) +
                               "' in dataclass '" + S.Name + "'"
                         : "; implement it: impl " + Trait.str() + " for " +
                               S.Name + " { ... }"));
    Self->Ty = Type::invalid();
    return Self->Ty;
  }
  auto C = std::make_unique<CallExpr>(Loc, F->Name);
  C->Args.push_back(std::move(LHS));
  if (RHS)
    C->Args.push_back(std::move(*RHS));
  Self = std::move(C); // Destroys the operator node.
  return checkExpr(Self);
}

void Sema::checkCompoundStructAssign(StmtPtr &SP) {
  auto &A = cast<AssignStmt>(*SP);
  Type TT = placeType(*A.Target);
  llvm::StringRef Sp = binaryOpSpelling(*A.Op);
  llvm::StringRef Trait = llvm::StringSwitch<llvm::StringRef>(Sp)
                              .Case("+", "add_assign")
                              .Case("-", "sub_assign")
                              .Case("*", "mul_assign")
                              .Case("/", "div_assign")
                              .Case("%", "rem_assign")
                              .Default("");
  const FunctionDecl *F =
      Trait.empty() ? nullptr : traitMethod(*TT.Decl, Trait);
  if (!F && !Trait.empty() && M.Lang == Language::Python) {
    // Python: without `__iadd__`, `a += b` is `a = a + b` ("add_assign"
    // less "_assign" is "add").
    const FunctionDecl *B = traitMethod(*TT.Decl, Trait.drop_back(7));
    if (ExprPtr Copy = B ? clonePlace(*A.Target) : nullptr) {
      auto C = std::make_unique<CallExpr>(A.loc(), B->Name);
      C->Args.push_back(std::move(Copy));
      C->Args.push_back(std::move(A.Value));
      A.Value = std::move(C);
      A.Op.reset();
      checkStmt(SP);
      return;
    }
  }
  if (!F) {
    checkExpr(A.Value);
    std::string T = llvm::StringSwitch<std::string>(Sp)
                        .Case("+", "AddAssign")
                        .Case("-", "SubAssign")
                        .Case("*", "MulAssign")
                        .Case("/", "DivAssign")
                        .Case("%", "RemAssign")
                        .Default("");
    Diags.error(A.loc(),
                "no operator '" + Sp + "=' for " + quoted(TT) +
                    (T.empty() ? std::string("")
                     : M.Lang == Language::Python
                         ? "; define '" + pythonDunder(T) + "' or '" +
                               pythonDunder(T.substr(0, T.size() - 6)) +
                               "' in dataclass '" + TT.Decl->Name + "'"
                               : "; implement it: impl " + T + " for " +
                                     TT.Decl->Name + " { ... }"));
    return;
  }
  llvm::SMLoc Loc = A.loc();
  auto C = std::make_unique<CallExpr>(Loc, F->Name);
  C->Args.push_back(std::move(A.Target));
  C->Args.push_back(std::move(A.Value));
  SP = std::make_unique<ExprStmt>(Loc, std::move(C));
  checkStmt(SP);
}

Type Sema::placeType(const Expr &E) const {
  if (const auto *N = dyn_cast<NameExpr>(&E)) {
    const Binding *B = lookup(N->Name);
    if (!B || B->Shared)
      return Type::invalid();
    return B->Var ? B->Var->Ty : B->Parm->Ty;
  }
  if (const auto *Mem = dyn_cast<MemberExpr>(&E)) {
    Type B = placeType(*Mem->Base);
    if (!B.isStruct() || !B.Decl)
      return Type::invalid();
    int I = B.Decl->fieldIndex(Mem->Name);
    return I < 0 ? Type::invalid() : B.Decl->Fields[I].Ty;
  }
  return Type::invalid();
}

const NameExpr *Sema::placeRoot(const Expr &E) {
  const Expr *X = &E;
  while (const auto *Mem = dyn_cast<MemberExpr>(X))
    X = Mem->Base.get();
  const auto *N = dyn_cast<NameExpr>(X);
  return N && (N->Var || (N->Parm && !N->Parm->Ty.isArray())) ? N : nullptr;
}
