//===- ClangClasses.cpp - Clang's AST to HIR: classes ---------------------===//
//
// C++ classes of plain data become HIR structs (formats/kernel-languages.md
// §8, "Plain-data structs"; "Through Clang"): members, aggregate
// initialisation, constructors, member functions and operators map onto
// struct literals, member expressions and functions named `Class::name`
// with the object first (`this`: the caller's object where the function
// changes it, a copy otherwise). HIR's lowering scalarises the values and
// inlines every function that takes or returns one, so MIR stays scalar.
//
//===----------------------------------------------------------------------===//
#include "ClangLowering.h"

#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"

using namespace wave;
using namespace wave::fe::clangfe;

const clang::CXXRecordDecl *Lowering::recordOf(clang::QualType T) {
  const clang::CXXRecordDecl *RD =
      T.getNonReferenceType()->getAsCXXRecordDecl();
  return RD ? RD->getDefinition() : nullptr;
}

hir::StructDecl *Lowering::structOf(clang::QualType T,
                                    clang::SourceLocation L) {
  const clang::CXXRecordDecl *RD = recordOf(T);
  if (!RD) {
    unsupported(L, "a value of type '" + T.getAsString() + "'");
    return nullptr;
  }
  if (auto It = Structs.find(RD); It != Structs.end())
    return It->second;
  if (RD->getNumBases() || RD->isUnion() || RD->isPolymorphic()) {
    unsupported(L, "a class with base classes, a union or a class with "
                   "virtual functions as a value");
    Structs[RD] = nullptr;
    return nullptr;
  }
  // A class template's instantiation is named by its arguments (V.f32).
  std::string Name = RD->getNameAsString();
  if (const auto *Spec =
          llvm::dyn_cast<clang::ClassTemplateSpecializationDecl>(RD))
    Name += templateSuffix(Spec->getTemplateArgs().asArray());
  hir::StructDecl *SD = M->getStruct(Name, loc(RD->getLocation()));
  Structs[RD] = SD; // before the members: a member of its own type errs
  SD->Loc = loc(RD->getLocation());
  for (const clang::FieldDecl *FD : RD->fields()) {
    clang::QualType FT = FD->getType();
    std::optional<hir::Type> Ty;
    if (std::optional<hir::Scalar> S = scalar(FT); S && !FD->isBitField())
      Ty = hir::Type::scalar(*S);
    else if (recordOf(FT) && !FT->isReferenceType() && recordOf(FT) != RD)
      if (hir::StructDecl *Sub = structOf(FT, FD->getLocation()))
        Ty = hir::Type::structType(Sub);
    if (!Ty) {
      Diags.error(loc(FD->getLocation()),
                  "a member of type '" + FT.getAsString() +
                      "' is not supported in WAVE kernels (members are "
                      "numbers, bools or classes of them)");
      Structs[RD] = nullptr;
      return nullptr;
    }
    SD->Fields.push_back(
        {loc(FD->getLocation()), FD->getNameAsString(), *Ty});
  }
  if (SD->Fields.empty()) {
    unsupported(L, "a class without data members as a value");
    Structs[RD] = nullptr;
    return nullptr;
  }
  SD->Defined = true;
  return SD;
}

std::optional<hir::Type> Lowering::valueType(clang::QualType T,
                                             clang::SourceLocation L) {
  if (std::optional<hir::Scalar> S = scalar(T))
    return hir::Type::scalar(*S);
  if (recordOf(T) && !T->isReferenceType())
    if (hir::StructDecl *SD = structOf(T, L))
      return hir::Type::structType(SD);
  Diags.error(loc(L), "type '" + T.getAsString() +
                          "' is not supported in WAVE kernels");
  return std::nullopt;
}

std::string Lowering::operatorName(clang::OverloadedOperatorKind K) {
  switch (K) {
  case clang::OO_Plus:
    return "add";
  case clang::OO_Minus:
    return "sub";
  case clang::OO_Star:
    return "mul";
  case clang::OO_Slash:
    return "div";
  case clang::OO_Percent:
    return "rem";
  case clang::OO_PlusEqual:
    return "add_assign";
  case clang::OO_MinusEqual:
    return "sub_assign";
  case clang::OO_StarEqual:
    return "mul_assign";
  case clang::OO_SlashEqual:
    return "div_assign";
  case clang::OO_PercentEqual:
    return "rem_assign";
  case clang::OO_EqualEqual:
    return "eq";
  case clang::OO_ExclaimEqual:
    return "ne";
  case clang::OO_Less:
    return "lt";
  case clang::OO_Greater:
    return "gt";
  case clang::OO_LessEqual:
    return "le";
  case clang::OO_GreaterEqual:
    return "ge";
  case clang::OO_Subscript:
    return "index";
  case clang::OO_Call:
    return "call";
  case clang::OO_Equal:
    return "assign";
  default:
    return "op" + std::to_string(unsigned(K));
  }
}

std::string Lowering::methodName(const clang::CXXMethodDecl *MD) {
  const hir::StructDecl *SD =
      structOf(Ctx.getCanonicalTagType(MD->getParent()), MD->getLocation());
  std::string Base = llvm::isa<clang::CXXConstructorDecl>(MD) ? "ctor"
                     : MD->isOverloadedOperator()
                         ? operatorName(MD->getOverloadedOperator())
                         : MD->getNameAsString();
  // `-a` and `a - b` are both operator-: the unary one is `neg`.
  if (MD->getOverloadedOperator() == clang::OO_Minus && MD->param_empty())
    Base = "neg";
  std::string Name = (SD ? SD->Name : "?") + "::" + Base;
  unsigned Same = 0;
  for (const clang::CXXMethodDecl *O : MD->getParent()->methods())
    if (O->getDeclName() == MD->getDeclName() && !O->isImplicit())
      ++Same;
  if (Same > 1 || llvm::isa<clang::CXXConstructorDecl>(MD))
    for (const clang::ParmVarDecl *P : MD->parameters()) {
      Name += '.';
      clang::QualType T = P->getType().getNonReferenceType();
      std::optional<hir::Scalar> S = scalar(T);
      const clang::CXXRecordDecl *RD = recordOf(T);
      Name += S ? hir::scalarName(*S).str()
              : RD ? RD->getNameAsString()
                   : "t";
    }
  return Name;
}

hir::ExprPtr Lowering::zeroValue(const hir::StructDecl *S, SMLoc L) {
  auto Lit = std::make_unique<hir::StructLitExpr>(
      L, const_cast<hir::StructDecl *>(S));
  for (const hir::StructDecl::Field &F : S->Fields)
    Lit->Inits.push_back(
        {L, F.Name,
         F.Ty.isStruct() ? zeroValue(F.Ty.Decl, L)
                         : std::make_unique<hir::IntLitExpr>(L, 0)});
  return Lit;
}

hir::ExprPtr Lowering::aggregate(const clang::InitListExpr *IL) {
  SMLoc L = loc(IL->getBeginLoc());
  hir::StructDecl *SD = structOf(IL->getType(), IL->getBeginLoc());
  if (!SD)
    return std::make_unique<hir::IntLitExpr>(L, 0);
  auto Lit = std::make_unique<hir::StructLitExpr>(L, SD);
  for (unsigned I = 0; I != SD->Fields.size(); ++I) {
    const hir::StructDecl::Field &F = SD->Fields[I];
    const clang::Expr *Init = I < IL->getNumInits() ? IL->getInit(I) : nullptr;
    hir::ExprPtr V = Init ? expr(Init)
                     : F.Ty.isStruct()
                         ? zeroValue(F.Ty.Decl, L)
                         : std::make_unique<hir::IntLitExpr>(L, 0);
    Lit->Inits.push_back({L, F.Name, std::move(V)});
  }
  return Lit;
}

hir::ExprPtr Lowering::construct(const clang::CXXConstructExpr *CE) {
  SMLoc L = loc(CE->getBeginLoc());
  const clang::CXXConstructorDecl *Ctor = CE->getConstructor();
  if (Ctor->isTrivial() && Ctor->isCopyOrMoveConstructor())
    return expr(CE->getArg(0));
  hir::StructDecl *SD = structOf(CE->getType(), CE->getBeginLoc());
  if (!SD)
    return std::make_unique<hir::IntLitExpr>(L, 0);
  if (Ctor->isTrivial() && Ctor->isDefaultConstructor())
    return zeroValue(SD, L);
  require(Ctor);
  auto Call = std::make_unique<hir::CallExpr>(L, nameOf(Ctor));
  for (const clang::Expr *A : CE->arguments())
    Call->Args.push_back(expr(A));
  return Call;
}

hir::ExprPtr Lowering::memberCall(const clang::CXXMethodDecl *MD,
                                  const clang::Expr *Recv,
                                  llvm::ArrayRef<const clang::Expr *> Args,
                                  clang::SourceLocation L) {
  SMLoc At = loc(L);
  if (MD->isVirtual() || !MD->isInstance()) {
    if (!MD->isInstance()) {
      // A static member function: an ordinary function of the class.
      require(MD);
      auto Call = std::make_unique<hir::CallExpr>(At, nameOf(MD));
      for (const clang::Expr *A : Args)
        Call->Args.push_back(expr(A));
      return Call;
    }
    unsupported(L, "calling a virtual function");
    return std::make_unique<hir::IntLitExpr>(At, 0);
  }
  require(MD);
  auto Call = std::make_unique<hir::CallExpr>(At, nameOf(MD));
  const clang::Expr *O = Recv->IgnoreParenImpCasts();
  Call->Args.push_back(llvm::isa<clang::CXXThisExpr>(O)
                           ? std::make_unique<hir::NameExpr>(At, "this")
                           : expr(Recv));
  for (const clang::Expr *A : Args)
    Call->Args.push_back(expr(A));
  return Call;
}

void Lowering::constructorBody(const clang::CXXConstructorDecl *Ctor,
                               const hir::StructDecl *S,
                               hir::FunctionDecl &FD) {
  SMLoc L = FD.Loc;
  std::vector<hir::StmtPtr> Head;
  auto This = std::make_unique<hir::VarDecl>(L, "this", std::nullopt,
                                             zeroValue(S, L));
  This->DeclaredStruct = S;
  Head.push_back(std::move(This));
  for (const clang::CXXCtorInitializer *Init : Ctor->inits()) {
    const clang::FieldDecl *F = Init->getMember();
    // Written initializers and default member initializers; members
    // without either keep their zero.
    if (!F || !Init->getInit() ||
        (!Init->isWritten() &&
         !llvm::isa<clang::CXXDefaultInitExpr>(Init->getInit())))
      continue;
    SMLoc At = loc(Init->getSourceLocation());
    Head.push_back(std::make_unique<hir::AssignStmt>(
        At,
        std::make_unique<hir::MemberExpr>(
            At, std::make_unique<hir::NameExpr>(At, "this"),
            F->getNameAsString()),
        expr(Init->getInit())));
  }
  for (hir::StmtPtr &St : FD.Body->Body)
    Head.push_back(std::move(St));
  Head.push_back(std::make_unique<hir::ReturnStmt>(
      FD.EndLoc, std::make_unique<hir::NameExpr>(FD.EndLoc, "this")));
  FD.Body->Body = std::move(Head);
}
