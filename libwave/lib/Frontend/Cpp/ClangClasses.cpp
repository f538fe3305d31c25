//===- ClangClasses.cpp - Clang's AST to HIR: class objects ---------------===//
//
// Class objects scalarised into one HIR variable per member, and the
// inlining of member functions, operators, constructors and functions that
// take or return classes (formats/kernel-languages.md, "Through Clang").
//
//===----------------------------------------------------------------------===//
#include "ClangLowering.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/Stmt.h"

using namespace wave;
using namespace wave::fe::clangfe;

//===----------------------------------------------------------------------===//
// Structs and classes
//===----------------------------------------------------------------------===//
//
// A class object is scalarised: one HIR variable per scalar member, named
// by its path ("z.re"; nested members "p.pos.x"). Calls of member
// functions, operators, constructors and functions that take or return a
// class are inlined: the callee's body becomes a block before the statement
// that calls it, its parameters and locals renamed under "inlN.", its
// object's members the caller's variables, and its result a variable
// "inlN.ret" (or the members "inlN.ret.re", ...). HIR and MIR see only
// scalars (issue 26: structs "scalarised in lowering; MIR need not change").

const clang::CXXRecordDecl *Lowering::recordOf(clang::QualType T) {
  const clang::CXXRecordDecl *RD = T.getNonReferenceType()->getAsCXXRecordDecl();
  return RD ? RD->getDefinition() : nullptr;
}

bool Lowering::fieldsOf(clang::QualType T, clang::SourceLocation L,
                        std::vector<Field> &Out, const std::string &Prefix) {
  const clang::CXXRecordDecl *RD = recordOf(T);
  if (!RD) {
    unsupported(L, "a value of type '" + T.getAsString() + "'");
    return false;
  }
  if (RD->getNumBases() || RD->isUnion() || RD->isPolymorphic()) {
    unsupported(L, "a class with base classes, a union or a class with "
                   "virtual functions as a value");
    return false;
  }
  size_t Before = Out.size();
  for (const clang::FieldDecl *FD : RD->fields()) {
    clang::QualType FT = FD->getType();
    std::string Path = Prefix + "." + FD->getNameAsString();
    if (std::optional<hir::Scalar> S = scalar(FT); S && !FD->isBitField()) {
      Out.push_back({Path, *S});
    } else if (recordOf(FT) && !FT->isReferenceType()) {
      if (!fieldsOf(FT, FD->getLocation(), Out, Path))
        return false;
    } else {
      Diags.error(loc(FD->getLocation()),
                  "a member of type '" + FT.getAsString() +
                      "' is not supported in WAVE kernels (members are "
                      "numbers, bools or classes of them)");
      return false;
    }
  }
  if (Out.size() == Before && Prefix.empty()) {
    unsupported(L, "a class without data members as a value");
    return false;
  }
  return true;
}

bool Lowering::needsInlining(const clang::FunctionDecl *F) const {
  if (llvm::isa<clang::CXXMethodDecl>(F))
    return true;
  if (recordOf(F->getReturnType()))
    return true;
  for (const clang::ParmVarDecl *P : F->parameters())
    if (recordOf(P->getType()) || P->getType()->isReferenceType())
      return true;
  return false;
}

/// \p E without the nodes that do not change an object's identity.
static const clang::Expr *skipWrappers(const clang::Expr *E) {
  while (true) {
    E = E->IgnoreParens();
    if (const auto *C = llvm::dyn_cast<clang::ImplicitCastExpr>(E);
        C && (C->getCastKind() == clang::CK_NoOp ||
              C->getCastKind() == clang::CK_LValueToRValue ||
              C->getCastKind() == clang::CK_UncheckedDerivedToBase))
      E = C->getSubExpr();
    else if (const auto *M = llvm::dyn_cast<clang::MaterializeTemporaryExpr>(E))
      E = M->getSubExpr();
    else if (const auto *W = llvm::dyn_cast<clang::ExprWithCleanups>(E))
      E = W->getSubExpr();
    else if (const auto *B = llvm::dyn_cast<clang::CXXBindTemporaryExpr>(E))
      E = B->getSubExpr();
    else if (const auto *K = llvm::dyn_cast<clang::ConstantExpr>(E))
      E = K->getSubExpr();
    else
      return E;
  }
}

std::optional<std::string> Lowering::objectPath(const clang::Expr *E) {
  E = skipWrappers(E);
  if (const auto *DR = llvm::dyn_cast<clang::DeclRefExpr>(E)) {
    const auto *V = llvm::dyn_cast<clang::VarDecl>(DR->getDecl());
    if (V && V->isLocalVarDeclOrParm())
      return varName(V);
    return std::nullopt;
  }
  if (const auto *U = llvm::dyn_cast<clang::UnaryOperator>(E);
      U && U->getOpcode() == clang::UO_Deref &&
      llvm::isa<clang::CXXThisExpr>(skipWrappers(U->getSubExpr())) &&
      !ThisBase.empty())
    return ThisBase;
  if (const auto *ME = llvm::dyn_cast<clang::MemberExpr>(E)) {
    const auto *FD = llvm::dyn_cast<clang::FieldDecl>(ME->getMemberDecl());
    if (!FD)
      return std::nullopt;
    const clang::Expr *Base = skipWrappers(ME->getBase());
    std::optional<std::string> B;
    if (llvm::isa<clang::CXXThisExpr>(Base)) {
      if (!ThisBase.empty())
        B = ThisBase;
    } else if (!ME->isArrow()) {
      B = objectPath(Base);
    }
    if (B)
      return *B + "." + FD->getNameAsString();
  }
  return std::nullopt;
}

void Lowering::declare(std::vector<hir::StmtPtr> &Out, SMLoc L,
                       const std::string &N, hir::Scalar T,
                       hir::ExprPtr Init) {
  Out.push_back(std::make_unique<hir::VarDecl>(L, N, T, std::move(Init)));
}

bool Lowering::structValue(const clang::Expr *E,
                           std::vector<hir::ExprPtr> &Out) {
  E = skipWrappers(E);
  SMLoc L = loc(E->getExprLoc());
  std::vector<Field> Fs;
  if (!fieldsOf(E->getType(), E->getExprLoc(), Fs))
    return false;
  auto Named = [&](const std::string &Base) {
    for (const Field &F : Fs)
      Out.push_back(std::make_unique<hir::NameExpr>(L, Base + F.Path));
    return true;
  };
  if (std::optional<std::string> P = objectPath(E))
    return Named(*P);
  if (const auto *FC = llvm::dyn_cast<clang::CXXFunctionalCastExpr>(E))
    return structValue(FC->getSubExpr(), Out);
  if (const auto *DA = llvm::dyn_cast<clang::CXXDefaultArgExpr>(E))
    return structValue(DA->getExpr(), Out);
  if (const auto *DI = llvm::dyn_cast<clang::CXXDefaultInitExpr>(E))
    return structValue(DI->getExpr(), Out);
  if (const auto *IL = llvm::dyn_cast<clang::InitListExpr>(E)) {
    // An aggregate: {re, im}; members without a value are 0.
    const clang::CXXRecordDecl *RD = recordOf(IL->getType());
    unsigned I = 0;
    for (const clang::FieldDecl *FD : RD->fields()) {
      const clang::Expr *Init =
          I < IL->getNumInits() ? IL->getInit(I) : nullptr;
      ++I;
      if (recordOf(FD->getType())) {
        if (Init) {
          if (!structValue(Init, Out))
            return false;
        } else {
          std::vector<Field> Sub;
          fieldsOf(FD->getType(), E->getExprLoc(), Sub);
          for (size_t K = 0; K != Sub.size(); ++K)
            Out.push_back(std::make_unique<hir::IntLitExpr>(L, 0));
        }
      } else {
        Out.push_back(Init ? expr(Init)
                           : std::make_unique<hir::IntLitExpr>(L, 0));
      }
    }
    return true;
  }
  if (llvm::isa<clang::ImplicitValueInitExpr>(E) ||
      llvm::isa<clang::CXXScalarValueInitExpr>(E)) {
    for (size_t K = 0; K != Fs.size(); ++K)
      Out.push_back(std::make_unique<hir::IntLitExpr>(L, 0));
    return true;
  }
  if (const auto *CE = llvm::dyn_cast<clang::CXXConstructExpr>(E)) {
    const clang::CXXConstructorDecl *Ctor = CE->getConstructor();
    if (Ctor->isTrivial() && Ctor->isCopyOrMoveConstructor())
      return structValue(CE->getArg(0), Out);
    if (Ctor->isTrivial() && Ctor->isDefaultConstructor()) {
      for (size_t K = 0; K != Fs.size(); ++K)
        Out.push_back(std::make_unique<hir::IntLitExpr>(L, 0));
      return true;
    }
    llvm::SmallVector<const clang::Expr *, 4> Args(CE->arguments());
    std::optional<Inlined> R = inlineCall(Ctor, nullptr, Args,
                                          E->getExprLoc());
    return R && Named(R->Name);
  }
  const clang::FunctionDecl *F = nullptr;
  const clang::Expr *Obj = nullptr;
  llvm::SmallVector<const clang::Expr *, 4> Args;
  if (inlineParts(E, F, Obj, Args)) {
    std::optional<Inlined> R = inlineCall(F, Obj, Args, E->getExprLoc());
    if (!R)
      return false;
    if (R->K == Inlined::Object)
      return Named(R->Name);
  }
  unsupported(E->getExprLoc(), "this expression of class type");
  return false;
}

bool Lowering::inlineParts(const clang::Expr *E,
                           const clang::FunctionDecl *&F,
                           const clang::Expr *&Obj,
                           llvm::SmallVectorImpl<const clang::Expr *> &Args) {
  E = skipWrappers(E);
  if (const auto *MC = llvm::dyn_cast<clang::CXXMemberCallExpr>(E)) {
    F = MC->getMethodDecl();
    Obj = MC->getImplicitObjectArgument();
    Args.append(MC->arg_begin(), MC->arg_end());
    return F != nullptr;
  }
  if (const auto *OC = llvm::dyn_cast<clang::CXXOperatorCallExpr>(E)) {
    F = OC->getDirectCallee();
    if (!F || isIntrinsic(F))
      return false;
    const auto *MD = llvm::dyn_cast<clang::CXXMethodDecl>(F);
    if (MD && MD->isTrivial())
      return false; // implicit assignment: member-wise (simpleStmt)
    unsigned First = MD ? 1 : 0;
    Obj = MD ? OC->getArg(0) : nullptr;
    for (unsigned I = First; I < OC->getNumArgs(); ++I)
      Args.push_back(OC->getArg(I));
    return needsInlining(F);
  }
  if (const auto *C = llvm::dyn_cast<clang::CallExpr>(E)) {
    F = C->getDirectCallee();
    if (!F || isIntrinsic(F) || !needsInlining(F))
      return false;
    Obj = nullptr;
    Args.append(C->arg_begin(), C->arg_end());
    return true;
  }
  return false;
}

/// Whether \p S contains a return statement (lambdas aside).
static bool containsReturn(const clang::Stmt *S) {
  if (!S)
    return false;
  if (llvm::isa<clang::ReturnStmt>(S))
    return true;
  if (llvm::isa<clang::LambdaExpr>(S))
    return false;
  for (const clang::Stmt *C : S->children())
    if (containsReturn(C))
      return true;
  return false;
}

std::optional<Lowering::Inlined>
Lowering::inlineCall(const clang::FunctionDecl *F, const clang::Expr *Obj,
                     llvm::ArrayRef<const clang::Expr *> Args,
                     clang::SourceLocation CallLoc) {
  SMLoc L = loc(CallLoc);
  if (!Pre) {
    unsupported(CallLoc,
                "calling '" + F->getNameAsString() +
                    "' (a member function, or a function that takes or "
                    "returns a class, is inlined) in a loop condition, on "
                    "the right of && or ||, or in an arm of ?:");
    return std::nullopt;
  }
  const clang::FunctionDecl *Def = F->getDefinition();
  const auto *Body =
      Def ? llvm::dyn_cast_or_null<clang::CompoundStmt>(Def->getBody())
          : nullptr;
  if (!Body) {
    Diags.error(L, "'" + F->getQualifiedNameAsString() +
                       "' is inlined and must be defined in the file");
    return std::nullopt;
  }
  if (InlineDepth >= 32) {
    Diags.error(L, "inlining '" + F->getQualifiedNameAsString() +
                       "' goes deeper than 32 calls; recursion is not "
                       "supported in WAVE kernels");
    return std::nullopt;
  }
  const clang::Stmt *Last = Body->body_empty() ? nullptr : Body->body_back();
  for (const clang::Stmt *S : Body->body())
    if (S != Last ? containsReturn(S)
                  : !llvm::isa<clang::ReturnStmt>(S) && containsReturn(S)) {
      Diags.error(loc(S->getBeginLoc()),
                  "'" + F->getQualifiedNameAsString() +
                      "' is inlined (it is a member function or takes or "
                      "returns a class) and may return only at its end");
      return std::nullopt;
    }

  std::string Prefix = "inl" + std::to_string(++InlineCount);
  const auto *Ctor = llvm::dyn_cast<clang::CXXConstructorDecl>(Def);
  Inlined R;
  clang::QualType RT = F->getReturnType();
  std::vector<Field> ResultFields;
  if (Ctor) {
    R = {Inlined::Object, Prefix + ".this"};
    if (!fieldsOf(Ctx.getCanonicalTagType(Ctor->getParent()), CallLoc,
                  ResultFields))
      return std::nullopt;
    for (const Field &Fd : ResultFields)
      declare(*Pre, L, R.Name + Fd.Path, Fd.Ty);
  } else if (RT->isVoidType()) {
    R.K = Inlined::Void;
  } else if (RT->isReferenceType() && recordOf(RT)) {
    R.K = Inlined::Object; // `return *this;`: the object itself
  } else if (recordOf(RT)) {
    R = {Inlined::Object, Prefix + ".ret"};
    if (!fieldsOf(RT, CallLoc, ResultFields))
      return std::nullopt;
    for (const Field &Fd : ResultFields)
      declare(*Pre, L, R.Name + Fd.Path, Fd.Ty);
  } else if (std::optional<hir::Scalar> S = scalar(RT)) {
    R = {Inlined::Scalar, Prefix + ".ret"};
    declare(*Pre, L, R.Name, *S);
  } else {
    unsupported(CallLoc, "a function returning '" + RT.getAsString() + "'");
    return std::nullopt;
  }

  // The object: the caller's variables, or a copy of a temporary.
  std::string NewThis;
  if (Ctor) {
    NewThis = R.Name;
  } else if (Obj) {
    const clang::Expr *O = skipWrappers(Obj);
    if (llvm::isa<clang::CXXThisExpr>(O) && !ThisBase.empty()) {
      NewThis = ThisBase;
    } else if (std::optional<std::string> P = objectPath(O)) {
      NewThis = *P;
    } else {
      std::vector<Field> Fs;
      std::vector<hir::ExprPtr> Vals;
      if (!fieldsOf(O->getType(), CallLoc, Fs) || !structValue(O, Vals))
        return std::nullopt;
      NewThis = Prefix + ".obj";
      for (size_t I = 0; I != Fs.size(); ++I)
        declare(*Pre, L, NewThis + Fs[I].Path, Fs[I].Ty, std::move(Vals[I]));
    }
  }
  if (R.K == Inlined::Object && R.Name.empty())
    R.Name = NewThis;

  // Parameters, evaluated in the caller.
  auto B = std::make_unique<hir::BlockStmt>(L);
  llvm::DenseMap<const clang::ValueDecl *, std::string> Bound;
  for (unsigned I = 0; I != Def->getNumParams(); ++I) {
    const clang::ParmVarDecl *P = Def->getParamDecl(I);
    const clang::Expr *A =
        I < Args.size() ? Args[I] : P->getDefaultArg();
    if (!A)
      return std::nullopt;
    if (const auto *DA = llvm::dyn_cast<clang::CXXDefaultArgExpr>(A))
      A = DA->getExpr();
    clang::QualType PT = P->getType();
    std::string PN = Prefix + "." +
                     (P->getName().empty() ? "arg" + std::to_string(I)
                                           : P->getNameAsString());
    bool MutRef = PT->isReferenceType() &&
                  !PT.getNonReferenceType().isConstQualified();
    if (MutRef || PT->isPointerType()) {
      // Bound to the caller's object, variable or buffer.
      std::optional<std::string> Path = objectPath(A);
      if (!Path) {
        unsupported(A->getExprLoc(),
                    "passing this to a reference or pointer parameter (pass "
                    "a variable)");
        return std::nullopt;
      }
      Bound[P] = *Path;
    } else if (recordOf(PT)) {
      std::vector<Field> Fs;
      std::vector<hir::ExprPtr> Vals;
      if (!fieldsOf(PT, A->getExprLoc(), Fs) || !structValue(A, Vals))
        return std::nullopt;
      for (size_t K = 0; K != Fs.size(); ++K)
        declare(B->Body, L, PN + Fs[K].Path, Fs[K].Ty, std::move(Vals[K]));
      Bound[P] = PN;
    } else if (std::optional<hir::Scalar> S = scalar(PT)) {
      declare(B->Body, L, PN, *S, expr(A));
      Bound[P] = PN;
    } else {
      unsupported(P->getLocation(),
                  "a parameter of type '" + PT.getAsString() + "'");
      return std::nullopt;
    }
  }

  // The body, with the callee's names.
  std::string SavedThis = ThisBase, SavedPrefix = InlinePrefix;
  std::vector<hir::StmtPtr> *SavedPre = Pre;
  for (auto &[D, N] : Bound)
    Renames[D] = N;
  ThisBase = NewThis;
  InlinePrefix = Prefix;
  ++InlineDepth;
  Pre = &B->Body;
  if (Ctor) {
    for (const clang::CXXCtorInitializer *Init : Ctor->inits()) {
      const clang::FieldDecl *FD = Init->getMember();
      if (!FD || !Init->getInit())
        continue;
      std::string To = NewThis + "." + FD->getNameAsString();
      if (recordOf(FD->getType())) {
        std::vector<Field> Fs;
        std::vector<hir::ExprPtr> Vals;
        if (fieldsOf(FD->getType(), Init->getSourceLocation(), Fs) &&
            structValue(Init->getInit(), Vals))
          for (size_t K = 0; K != Fs.size(); ++K)
            B->Body.push_back(std::make_unique<hir::AssignStmt>(
                L, std::make_unique<hir::NameExpr>(L, To + Fs[K].Path),
                std::move(Vals[K])));
      } else {
        B->Body.push_back(std::make_unique<hir::AssignStmt>(
            L, std::make_unique<hir::NameExpr>(L, To),
            expr(Init->getInit())));
      }
    }
  }
  for (const clang::Stmt *S : Body->body()) {
    const auto *Ret = llvm::dyn_cast<clang::ReturnStmt>(S);
    if (!Ret || !Ret->getRetValue()) {
      if (!Ret)
        stmt(S, B->Body);
      continue;
    }
    Pre = &B->Body;
    SMLoc RL = loc(Ret);
    if (R.K == Inlined::Scalar) {
      B->Body.push_back(std::make_unique<hir::AssignStmt>(
          RL, std::make_unique<hir::NameExpr>(RL, R.Name),
          expr(Ret->getRetValue())));
    } else if (RT->isReferenceType()) {
      if (objectPath(Ret->getRetValue()) != NewThis)
        unsupported(Ret->getBeginLoc(), "returning a reference to anything "
                                        "but '*this'");
    } else if (R.K == Inlined::Object) {
      std::vector<hir::ExprPtr> Vals;
      if (structValue(Ret->getRetValue(), Vals))
        for (size_t K = 0; K != ResultFields.size(); ++K)
          B->Body.push_back(std::make_unique<hir::AssignStmt>(
              RL,
              std::make_unique<hir::NameExpr>(RL,
                                              R.Name + ResultFields[K].Path),
              std::move(Vals[K])));
    } else {
      std::vector<hir::StmtPtr> One;
      stmt(S, One); // a void function returning a void call
    }
  }
  --InlineDepth;
  ThisBase = SavedThis;
  InlinePrefix = SavedPrefix;
  Pre = SavedPre;
  for (auto &[D, N] : Bound)
    Renames.erase(D);
  Pre->push_back(std::move(B));
  return R;
}

