//===- ClangLowering.cpp - Clang's AST to HIR: functions, statements ------===//
//
// The definitions a kernel file lowers (every non-template function, the
// template instantiations and overloads calls need, each with its HIR
// name), and their statements and expressions. Clang's implicit conversions
// are dropped: HIR Sema applies the dialect's rules (ClangLowering.h).
//
//===----------------------------------------------------------------------===//
#include "ClangLowering.h"

#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/Stmt.h"
#include "clang/AST/StmtCXX.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringMap.h"

using namespace wave;
using namespace wave::fe::clangfe;

bool Lowering::isIntrinsic(const clang::FunctionDecl *F) const {
  const clang::SourceManager &CSM = Ctx.getSourceManager();
  clang::SourceLocation L = CSM.getFileLoc(F->getLocation());
  return CSM.getFileID(L) != CSM.getMainFileID() &&
         CSM.getFilename(L).ends_with("wave_prelude.h");
}

std::optional<hir::Scalar> Lowering::scalar(clang::QualType T) const {
  T = T.getCanonicalType().getUnqualifiedType();
  if (const auto *B = T->getAs<clang::BuiltinType>()) {
    switch (B->getKind()) {
    case clang::BuiltinType::Bool:
      return hir::Scalar::Bool;
    case clang::BuiltinType::Int:
      return hir::Scalar::I32;
    case clang::BuiltinType::UInt:
      return hir::Scalar::U32;
    case clang::BuiltinType::Float:
      return hir::Scalar::F32;
    case clang::BuiltinType::Double:
      return hir::Scalar::F64;
    case clang::BuiltinType::Float16:
      return hir::Scalar::F16;
    default:
      return std::nullopt;
    }
  }
  return std::nullopt;
}

std::optional<hir::Type> Lowering::paramType(const clang::ParmVarDecl *P) {
  clang::QualType T = P->getType();
  if (const auto *PT = T->getAs<clang::PointerType>()) {
    clang::QualType E = PT->getPointeeType();
    if (auto S = scalar(E))
      return hir::Type::buffer(*S, E.isConstQualified());
  } else if (auto S = scalar(T.getNonReferenceType())) {
    // By value, or by reference (`float& v`: the caller's variable;
    // `const float& v`: a copy).
    return hir::Type::scalar(*S);
  } else if (recordOf(T)) {
    // A class by value, by const reference (a copy) or by reference.
    if (hir::StructDecl *SD = structOf(T, P->getLocation()))
      return hir::Type::structType(SD);
    return std::nullopt;
  }
  Diags.error(loc(P->getLocation()),
              "parameter type '" + T.getAsString() +
                  "' is not supported in WAVE kernels");
  return std::nullopt;
}

std::string
Lowering::templateSuffix(llvm::ArrayRef<clang::TemplateArgument> Args) const {
  std::string Suffix;
  for (const clang::TemplateArgument &A : Args) {
    Suffix += '.';
    if (A.getKind() == clang::TemplateArgument::Type) {
      std::optional<hir::Scalar> S = scalar(A.getAsType());
      Suffix += S ? hir::scalarName(*S).str() : "t";
    } else if (A.getKind() == clang::TemplateArgument::Integral) {
      llvm::APSInt V = A.getAsIntegral();
      Suffix +=
          V.isNegative() ? "n" + llvm::toString(-V, 10) : llvm::toString(V, 10);
    } else {
      Suffix += "a";
    }
  }
  return Suffix;
}

std::string Lowering::nameOf(const clang::FunctionDecl *F) {
  F = F->getCanonicalDecl();
  auto It = Names.find(F);
  if (It != Names.end())
    return It->second;
  return Names[F] = F->getNameAsString();
}

void Lowering::require(const clang::FunctionDecl *F) {
  const clang::FunctionDecl *Def = F->getDefinition();
  F = F->getCanonicalDecl();
  if (Names.count(F))
    return;
  std::string Name = F->isOverloadedOperator()
                         ? "op_" + operatorName(F->getOverloadedOperator())
                         : F->getNameAsString();
  if (const auto *MD = llvm::dyn_cast<clang::CXXMethodDecl>(F)) {
    Name = methodName(MD);
  } else if (const clang::TemplateArgumentList *Args =
          F->getTemplateSpecializationArgs()) {
    // An instantiation: the template's name and its arguments
    // (`sumN<float, 4>` is sumN.f32.4).
    Name += templateSuffix(Args->asArray());
  } else if (Overloaded.count(Name)) {
    // One of several functions of this name: its parameter types
    // (`twice(float)` is twice.f32, `fill(int*, unsigned)` fill.pi32.u32).
    for (const clang::ParmVarDecl *P : F->parameters()) {
      Name += '.';
      clang::QualType T = P->getType();
      if (const auto *PT = T->getAs<clang::PointerType>())
        T = PT->getPointeeType(), Name += "p";
      std::optional<hir::Scalar> S = scalar(T);
      Name += S ? hir::scalarName(*S).str() : "t";
    }
  }
  Names[F] = Name;
  Work.push_back(Def ? Def : F);
}

void Lowering::collectFunctions(
    const clang::DeclContext *DC,
    std::vector<const clang::FunctionDecl *> &Out) const {
  for (const clang::Decl *D : DC->decls()) {
    if (const auto *NS = llvm::dyn_cast<clang::NamespaceDecl>(D))
      collectFunctions(NS, Out);
    else if (const auto *LS = llvm::dyn_cast<clang::LinkageSpecDecl>(D))
      collectFunctions(LS, Out);
    else if (const auto *F = llvm::dyn_cast<clang::FunctionDecl>(D);
             F && !isIntrinsic(F) && !F->isTemplated() &&
             !llvm::isa<clang::CXXMethodDecl>(F))
      Out.push_back(F);
  }
}

void Lowering::rejectVirtualClasses(const clang::DeclContext *DC) {
  for (const clang::Decl *D : DC->decls()) {
    if (const auto *NS = llvm::dyn_cast<clang::NamespaceDecl>(D)) {
      rejectVirtualClasses(NS);
    } else if (const auto *RD = llvm::dyn_cast<clang::CXXRecordDecl>(D);
               RD && RD->isThisDeclarationADefinition()) {
      for (const clang::CXXMethodDecl *MD : RD->methods())
        if (MD->isVirtual() && !MD->isImplicit())
          Diags.error(loc(MD->getLocation()),
                      "virtual functions are not supported in WAVE kernels "
                      "(WAVE has no indirect calls)");
      rejectVirtualClasses(RD);
    }
  }
}

std::vector<const clang::FunctionDecl *> Lowering::topLevelFunctions() const {
  std::vector<const clang::FunctionDecl *> Out;
  collectFunctions(Ctx.getTranslationUnitDecl(), Out);
  return Out;
}

std::unique_ptr<hir::Module> Lowering::run() {
  M = std::make_unique<hir::Module>(hir::Language::Cpp);
  // Every function of the file where it is defined (a function only
  // declared: where it is first declared), as the dialect's parser orders
  // them; template instantiations after them, as calls require them.
  llvm::StringMap<const clang::FunctionDecl *> Seen;
  for (const clang::FunctionDecl *F : topLevelFunctions()) {
    auto [It, New] = Seen.try_emplace(F->getName(), F->getCanonicalDecl());
    if (!New && It->second != F->getCanonicalDecl())
      Overloaded.insert(F->getName());
  }
  rejectVirtualClasses(Ctx.getTranslationUnitDecl());
  for (const clang::FunctionDecl *F : topLevelFunctions()) {
    const clang::FunctionDecl *Def = F->getDefinition();
    if (!Def || Def == F)
      require(F);
  }
  while (!Work.empty()) {
    const clang::FunctionDecl *F = Work.front();
    Work.pop_front();
    lowerFunction(F);
  }
  return std::move(M);
}

void Lowering::lowerFunction(const clang::FunctionDecl *F) {
  auto FD = std::make_unique<hir::FunctionDecl>(
      loc(F->getLocation()), nameOf(F), hasNote(F, KernelNote));
  if (hasNote(F, ExportNote)) {
    FD->Link = hir::Linkage::Export;
    FD->ExportLoc = loc(note(F, ExportNote)->getLocation());
  }
  if (hasNote(F, "wave.cuda_global"))
    Diags.error(loc(F->getLocation()),
                "'__global__' is CUDA's; mark WAVE kernels with __kernel");
  if (const auto *WG = note(F, WorkgroupNote)) {
    std::array<uint32_t, 3> Size = {1, 1, 1};
    unsigned I = 0;
    for (clang::Expr *E : WG->args()) {
      std::optional<llvm::APSInt> V = E->getIntegerConstantExpr(Ctx);
      if (!V || V->getSExtValue() < 1 || V->getSExtValue() > 1024) {
        Diags.error(loc(E), "workgroup size must be an integer from 1 to "
                            "1024");
        continue;
      }
      Size[I++] = uint32_t(V->getZExtValue());
    }
    FD->WorkgroupSize = Size;
  }
  const auto *MD = llvm::dyn_cast<clang::CXXMethodDecl>(F);
  const auto *Ctor = llvm::dyn_cast<clang::CXXConstructorDecl>(F);
  hir::StructDecl *Owner =
      MD ? structOf(Ctx.getCanonicalTagType(MD->getParent()),
                    F->getLocation())
         : nullptr;
  if (MD && !Owner)
    return;
  clang::QualType RT = F->getReturnType();
  // `C& operator+=(...)` ends in `return *this;`: a function of the
  // object (`this` by reference) that returns nothing.
  ReturnsThis = MD && RT->isReferenceType() && recordOf(RT) == MD->getParent();
  if (Ctor)
    FD->ReturnTy = hir::Type::structType(Owner);
  else if (ReturnsThis || RT->isVoidType())
    FD->ReturnTy = hir::Type::voidType();
  else if (std::optional<hir::Type> T = valueType(RT, F->getLocation()))
    FD->ReturnTy = *T;
  if (MD) {
    FD->Owner = Owner;
    if (!Ctor && MD->isInstance()) {
      // The object: the caller's (a reference) where the function may
      // change it, a copy otherwise (so temporaries can call const ones).
      bool Changes = !MD->isConst();
      FD->Params.emplace_back(loc(F->getLocation()), "this",
                              hir::Type::structType(Owner), Changes);
      FD->Params.back().ByRef = Changes;
    }
  }
  LocalNames.clear();
  for (const clang::ParmVarDecl *P : F->parameters()) {
    LocalNames[P->getName()].push_back(P);
    std::optional<hir::Type> T = paramType(P);
    if (!T)
      continue;
    clang::QualType PT = P->getType();
    bool ByRef =
        PT->isReferenceType() && !PT.getNonReferenceType().isConstQualified();
    bool Mutable = ByRef || !(T->isScalar() && PT.isConstQualified());
    FD->Params.emplace_back(loc(P->getLocation()), P->getNameAsString(), *T,
                            Mutable);
    FD->Params.back().ByRef = ByRef;
  }
  if (F->hasBody()) {
    InConstructor = Ctor != nullptr;
    FD->Body = block(F->getBody());
    FD->EndLoc = loc(F->getBody()->getEndLoc());
    if (Ctor)
      constructorBody(Ctor, Owner, *FD);
    InConstructor = ReturnsThis = false;
  } else {
    FD->Link = hir::Linkage::Declaration;
  }
  M->Functions.push_back(std::move(FD));
}

std::unique_ptr<hir::BlockStmt> Lowering::block(const clang::Stmt *S) {
  auto B = std::make_unique<hir::BlockStmt>(loc(S));
  if (const auto *CS = llvm::dyn_cast<clang::CompoundStmt>(S)) {
    for (const clang::Stmt *Sub : CS->body())
      stmt(Sub, B->Body);
  } else {
    stmt(S, B->Body);
  }
  return B;
}

void Lowering::varDecl(const clang::VarDecl *V,
                       std::vector<hir::StmtPtr> &Out) {
  SMLoc L = loc(V->getLocation());
  clang::QualType T = V->getType();
  if (!T->isReferenceType() || !V->hasInit())
    LocalNames[V->getName()].push_back(V);
  if (hasNote(V, SharedNote)) {
    const auto *AT = Ctx.getAsConstantArrayType(T);
    auto S = AT ? scalar(AT->getElementType()) : std::nullopt;
    if (!S) {
      Diags.error(L, "a __shared__ array has one dimension of a scalar type");
      return;
    }
    // The size as written (`16 * 16`), which the checker folds; the
    // constant Clang computed when the type has no written size.
    hir::ExprPtr Size;
    if (const clang::TypeSourceInfo *TSI = V->getTypeSourceInfo())
      if (auto TL = TSI->getTypeLoc().getAs<clang::ConstantArrayTypeLoc>())
        if (const clang::Expr *SE = TL.getSizeExpr())
          Size = expr(SE);
    if (!Size)
      Size = std::make_unique<hir::IntLitExpr>(L,
                                               AT->getSize().getZExtValue());
    Out.push_back(std::make_unique<hir::SharedDecl>(L, V->getNameAsString(),
                                                    *S, std::move(Size)));
    return;
  }
  if (T->isArrayType()) {
    Diags.error(L, "local arrays are not supported in WAVE kernels; use "
                   "__shared__ for workgroup memory");
    return;
  }
  if (V->isStaticLocal()) {
    unsupported(V->getLocation(), "a static local variable");
    return;
  }
  std::string Name = V->getNameAsString();
  if (T->isReferenceType() && V->hasInit()) {
    const clang::Expr *Init = V->getInit();
    if (const auto *EWC = llvm::dyn_cast<clang::ExprWithCleanups>(Init))
      Init = EWC->getSubExpr();
    if (!llvm::isa<clang::MaterializeTemporaryExpr>(Init)) {
      // `float& r = x;`: no variable of its own, each use of r is x
      // (refPlace).
      if (isPlace(Init))
        RefAliases[V] = Init;
      else
        Diags.error(loc(Init),
                    "a reference to this expression is not supported in "
                    "WAVE kernels; a reference names a variable, a "
                    "parameter or a member of one (copy a buffer element "
                    "into a variable, and store it back)");
      return;
    }
    // `const float& r = x + 1;` binds a temporary: a constant copy.
    T = T.getNonReferenceType();
  }
  if (recordOf(T) && !T->isReferenceType()) {
    // A class object: a HIR struct value (scalarised by lowering).
    hir::StructDecl *SD = structOf(T, V->getLocation());
    if (!SD)
      return;
    hir::ExprPtr Init = V->hasInit() ? expr(V->getInit()) : zeroValue(SD, L);
    auto D = std::make_unique<hir::VarDecl>(L, Name, std::nullopt,
                                            std::move(Init),
                                            !T.isConstQualified());
    D->DeclaredStruct = SD;
    Out.push_back(std::move(D));
    return;
  }
  std::optional<hir::Scalar> S = scalar(T);
  if (!S) {
    Diags.error(L, "a variable of type '" + T.getAsString() +
                       "' is not supported in WAVE kernels");
    return;
  }
  bool Auto = T->getContainedAutoType() != nullptr ||
              llvm::isa<clang::AutoType>(V->getType().getTypePtr());
  hir::ExprPtr Init = V->hasInit() ? expr(V->getInit()) : nullptr;
  bool Mutable = !T.isConstQualified();
  Out.push_back(std::make_unique<hir::VarDecl>(
      L, Name, Auto ? std::nullopt : std::optional(*S), std::move(Init),
      Mutable));
}

void Lowering::stmt(const clang::Stmt *S, std::vector<hir::StmtPtr> &Out) {
  if (!S)
    return;
  llvm::scope_exit Leave([&] { --Depth; });
  if (!enter(S->getBeginLoc()))
    return;
  switch (S->getStmtClass()) {
  case clang::Stmt::NullStmtClass:
    return;
  case clang::Stmt::AttributedStmtClass:
    return stmt(llvm::cast<clang::AttributedStmt>(S)->getSubStmt(), Out);
  case clang::Stmt::CompoundStmtClass:
    Out.push_back(block(S));
    return;
  case clang::Stmt::DeclStmtClass:
    for (const clang::Decl *D : llvm::cast<clang::DeclStmt>(S)->decls()) {
      if (const auto *V = llvm::dyn_cast<clang::VarDecl>(D))
        varDecl(V, Out);
      else if (!llvm::isa<clang::UsingDirectiveDecl>(D) &&
               !llvm::isa<clang::StaticAssertDecl>(D))
        unsupported(D->getLocation(), "this declaration");
    }
    return;
  case clang::Stmt::IfStmtClass: {
    const auto *If = llvm::cast<clang::IfStmt>(S);
    if (If->isConstexpr() && !If->getInit()) {
      // Clang has decided it: only the kept branch is code.
      if (std::optional<const clang::Stmt *> Kept =
              If->getNondiscardedCase(Ctx))
        if (*Kept)
          Out.push_back(block(*Kept));
      return;
    }
    if (If->getInit() || If->getConditionVariable()) {
      unsupported(If->getBeginLoc(), "this form of 'if'");
      return;
    }
    hir::StmtPtr Else;
    if (const clang::Stmt *E = If->getElse()) {
      if (llvm::isa<clang::IfStmt>(E)) {
        std::vector<hir::StmtPtr> One;
        stmt(E, One);
        if (!One.empty())
          Else = std::move(One.front());
      } else {
        Else = block(E);
      }
    }
    Out.push_back(std::make_unique<hir::IfStmt>(
        loc(If), expr(If->getCond()), block(If->getThen()), std::move(Else)));
    return;
  }
  case clang::Stmt::WhileStmtClass: {
    const auto *W = llvm::cast<clang::WhileStmt>(S);
    hir::ExprPtr Cond = expr(W->getCond());
    Out.push_back(std::make_unique<hir::WhileStmt>(loc(W), std::move(Cond),
                                                   block(W->getBody())));
    return;
  }
  case clang::Stmt::DoStmtClass: {
    const auto *D = llvm::cast<clang::DoStmt>(S);
    hir::ExprPtr Cond = expr(D->getCond());
    Out.push_back(std::make_unique<hir::WhileStmt>(
        loc(D), std::move(Cond), block(D->getBody()), /*DoWhile=*/true));
    return;
  }
  case clang::Stmt::ForStmtClass: {
    const auto *F = llvm::cast<clang::ForStmt>(S);
    auto FS = std::make_unique<hir::ForStmt>(loc(F));
    if (const clang::Stmt *Init = F->getInit()) {
      std::vector<hir::StmtPtr> One;
      stmt(Init, One);
      if (One.size() > 1)
        unsupported(Init->getBeginLoc(), "more than one loop variable");
      if (!One.empty())
        FS->Init = std::move(One.front());
    }
    if (F->getCond())
      FS->Cond = expr(F->getCond());
    if (F->getInc())
      FS->Step = simpleStmt(F->getInc());
    FS->Body = block(F->getBody());
    Out.push_back(std::move(FS));
    return;
  }
  case clang::Stmt::BreakStmtClass:
    Out.push_back(std::make_unique<hir::BreakStmt>(loc(S)));
    return;
  case clang::Stmt::ContinueStmtClass:
    Out.push_back(std::make_unique<hir::ContinueStmt>(loc(S)));
    return;
  case clang::Stmt::ReturnStmtClass: {
    const auto *R = llvm::cast<clang::ReturnStmt>(S);
    hir::ExprPtr V;
    if (InConstructor)
      V = std::make_unique<hir::NameExpr>(loc(R), "this");
    else if (R->getRetValue() && !ReturnsThis)
      V = expr(R->getRetValue());
    else if (R->getRetValue() &&
             !llvm::isa<clang::CXXThisExpr>(
                 R->getRetValue()->IgnoreParenImpCasts()) &&
             !(llvm::isa<clang::UnaryOperator>(
                   R->getRetValue()->IgnoreParenImpCasts()) &&
               llvm::isa<clang::CXXThisExpr>(
                   llvm::cast<clang::UnaryOperator>(
                       R->getRetValue()->IgnoreParenImpCasts())
                       ->getSubExpr()
                       ->IgnoreParenImpCasts())))
      unsupported(R->getBeginLoc(),
                  "returning a reference to anything but '*this'");
    Out.push_back(std::make_unique<hir::ReturnStmt>(loc(R), std::move(V)));
    return;
  }
  default:
    if (llvm::isa<clang::Expr>(S)) {
      if (hir::StmtPtr One = simpleStmt(S))
        Out.push_back(std::move(One));
      return;
    }
    unsupported(S->getBeginLoc(),
                "'" + llvm::StringRef(S->getStmtClassName()) + "'");
  }
}

/// Maps a C++ binary (or compound-assignment) operator onto HIR's.
static std::optional<hir::BinaryOp> binaryOp(clang::BinaryOperatorKind K) {
  using clang::BinaryOperatorKind;
  switch (K) {
  case clang::BO_Mul:
  case clang::BO_MulAssign:
    return hir::BinaryOp::Mul;
  case clang::BO_Div:
  case clang::BO_DivAssign:
    return hir::BinaryOp::Div;
  case clang::BO_Rem:
  case clang::BO_RemAssign:
    return hir::BinaryOp::Rem;
  case clang::BO_Add:
  case clang::BO_AddAssign:
    return hir::BinaryOp::Add;
  case clang::BO_Sub:
  case clang::BO_SubAssign:
    return hir::BinaryOp::Sub;
  case clang::BO_Shl:
  case clang::BO_ShlAssign:
    return hir::BinaryOp::Shl;
  case clang::BO_Shr:
  case clang::BO_ShrAssign:
    return hir::BinaryOp::Shr;
  case clang::BO_And:
  case clang::BO_AndAssign:
    return hir::BinaryOp::BitAnd;
  case clang::BO_Or:
  case clang::BO_OrAssign:
    return hir::BinaryOp::BitOr;
  case clang::BO_Xor:
  case clang::BO_XorAssign:
    return hir::BinaryOp::BitXor;
  case clang::BO_LAnd:
    return hir::BinaryOp::LogicalAnd;
  case clang::BO_LOr:
    return hir::BinaryOp::LogicalOr;
  case clang::BO_EQ:
    return hir::BinaryOp::Eq;
  case clang::BO_NE:
    return hir::BinaryOp::Ne;
  case clang::BO_LT:
    return hir::BinaryOp::Lt;
  case clang::BO_LE:
    return hir::BinaryOp::Le;
  case clang::BO_GT:
    return hir::BinaryOp::Gt;
  case clang::BO_GE:
    return hir::BinaryOp::Ge;
  default:
    return std::nullopt;
  }
}

hir::StmtPtr Lowering::simpleStmt(const clang::Stmt *S) {
  const auto *E = llvm::cast<clang::Expr>(S)->IgnoreParens();
  if (const auto *EWC = llvm::dyn_cast<clang::ExprWithCleanups>(E))
    E = EWC->getSubExpr()->IgnoreParens();
  // `a = b` on class objects with the implicit (member-wise) assignment.
  if (const auto *Op = llvm::dyn_cast<clang::CXXOperatorCallExpr>(E);
      Op && Op->getOperator() == clang::OO_Equal && Op->getNumArgs() == 2) {
    const auto *MD = llvm::dyn_cast_or_null<clang::CXXMethodDecl>(
        Op->getDirectCallee());
    if (MD && MD->isTrivial())
      return std::make_unique<hir::AssignStmt>(loc(Op->getOperatorLoc()),
                                               expr(Op->getArg(0)),
                                               expr(Op->getArg(1)));
  }
  if (const auto *B = llvm::dyn_cast<clang::BinaryOperator>(E)) {
    if (B->getOpcode() == clang::BO_Assign)
      return std::make_unique<hir::AssignStmt>(
          loc(B->getOperatorLoc()), expr(B->getLHS()), expr(B->getRHS()));
    if (B->isCompoundAssignmentOp())
      return std::make_unique<hir::AssignStmt>(
          loc(B->getOperatorLoc()), expr(B->getLHS()), expr(B->getRHS()),
          binaryOp(B->getOpcode()));
  }
  if (const auto *U = llvm::dyn_cast<clang::UnaryOperator>(E);
      U && U->isIncrementDecrementOp()) {
    SMLoc L = loc(U->getOperatorLoc());
    return std::make_unique<hir::AssignStmt>(
        L, expr(U->getSubExpr()), std::make_unique<hir::IntLitExpr>(L, 1),
        U->isIncrementOp() ? hir::BinaryOp::Add : hir::BinaryOp::Sub);
  }
  return std::make_unique<hir::ExprStmt>(loc(E), expr(E));
}

bool Lowering::isPlace(const clang::Expr *E) const {
  E = E->IgnoreParenNoopCasts(Ctx);
  if (const auto *DR = llvm::dyn_cast<clang::DeclRefExpr>(E)) {
    const auto *V = llvm::dyn_cast<clang::VarDecl>(DR->getDecl());
    return V && V->isLocalVarDeclOrParm() && !V->getType()->isPointerType() &&
           !V->getType()->isArrayType() && !hasNote(V, SharedNote);
  }
  if (const auto *ME = llvm::dyn_cast<clang::MemberExpr>(E)) {
    if (!llvm::isa<clang::FieldDecl>(ME->getMemberDecl()))
      return false;
    const clang::Expr *Base = ME->getBase()->IgnoreParenImpCasts();
    if (llvm::isa<clang::CXXThisExpr>(Base))
      return true;
    return !ME->isArrow() && isPlace(ME->getBase());
  }
  return false;
}

hir::ExprPtr Lowering::refPlace(const clang::Expr *E, SMLoc L) {
  E = E->IgnoreParenNoopCasts(Ctx);
  if (const auto *ME = llvm::dyn_cast<clang::MemberExpr>(E)) {
    const clang::Expr *Base = ME->getBase()->IgnoreParenImpCasts();
    hir::ExprPtr B = llvm::isa<clang::CXXThisExpr>(Base)
                         ? std::make_unique<hir::NameExpr>(L, "this")
                         : refPlace(ME->getBase(), L);
    return std::make_unique<hir::MemberExpr>(
        L, std::move(B), ME->getMemberDecl()->getNameAsString());
  }
  const auto *V =
      llvm::cast<clang::VarDecl>(llvm::cast<clang::DeclRefExpr>(E)->getDecl());
  if (auto It = RefAliases.find(V); It != RefAliases.end())
    return refPlace(It->second, L); // A reference to a reference.
  // HIR finds a variable by its name: another variable of that name
  // declared since might hide the one referred to.
  if (LocalNames.lookup(V->getName()).size() > 1)
    Diags.error(L, "a reference to '" + varName(V) +
                       "' in a function with another variable named '" +
                       varName(V) +
                       "' is not supported in WAVE kernels; rename one");
  return std::make_unique<hir::NameExpr>(L, varName(V));
}

hir::ExprPtr Lowering::expr(const clang::Expr *E) {
  SMLoc L = loc(E->getExprLoc());
  llvm::scope_exit Leave([&] { --Depth; });
  if (!enter(E->getExprLoc()))
    return std::make_unique<hir::IntLitExpr>(L, 0);
  auto Bad = [&](const llvm::Twine &What) -> hir::ExprPtr {
    unsupported(E->getExprLoc(), What);
    return std::make_unique<hir::IntLitExpr>(L, 0);
  };
  switch (E->getStmtClass()) {
  case clang::Stmt::ImplicitCastExprClass:
  case clang::Stmt::ParenExprClass:
  case clang::Stmt::ExprWithCleanupsClass:
  case clang::Stmt::MaterializeTemporaryExprClass:
  case clang::Stmt::CXXBindTemporaryExprClass:
    return expr(llvm::cast<clang::Expr>(*E->child_begin()));
  case clang::Stmt::ConstantExprClass:
    return expr(llvm::cast<clang::ConstantExpr>(E)->getSubExpr());
  case clang::Stmt::SubstNonTypeTemplateParmExprClass:
    return expr(
        llvm::cast<clang::SubstNonTypeTemplateParmExpr>(E)->getReplacement());
  case clang::Stmt::IntegerLiteralClass: {
    const auto *I = llvm::cast<clang::IntegerLiteral>(E);
    std::optional<hir::Scalar> Suffix;
    if (!I->getType()->isSpecificBuiltinType(clang::BuiltinType::Int))
      Suffix = scalar(I->getType());
    return std::make_unique<hir::IntLitExpr>(L, I->getValue().getZExtValue(),
                                             Suffix);
  }
  case clang::Stmt::FloatingLiteralClass: {
    const auto *F = llvm::cast<clang::FloatingLiteral>(E);
    std::optional<hir::Scalar> Suffix;
    if (!F->getType()->isSpecificBuiltinType(clang::BuiltinType::Double))
      Suffix = scalar(F->getType());
    return std::make_unique<hir::FloatLitExpr>(L, F->getValueAsApproximateDouble(),
                                               Suffix);
  }
  case clang::Stmt::CXXBoolLiteralExprClass:
    return std::make_unique<hir::BoolLitExpr>(
        L, llvm::cast<clang::CXXBoolLiteralExpr>(E)->getValue());
  case clang::Stmt::DeclRefExprClass: {
    const auto *D = llvm::cast<clang::DeclRefExpr>(E)->getDecl();
    if (const auto *V = llvm::dyn_cast<clang::VarDecl>(D)) {
      // A constexpr variable of a template or namespace scope: its value.
      if (!V->isLocalVarDeclOrParm()) {
        if (const clang::APValue *C = V->evaluateValue(); C && C->isInt())
          return std::make_unique<hir::IntLitExpr>(
              L, C->getInt().getZExtValue(), scalar(V->getType()));
        return Bad("a global variable");
      }
      if (auto It = RefAliases.find(V); It != RefAliases.end())
        return refPlace(It->second, L);
      return std::make_unique<hir::NameExpr>(L, varName(V));
    }
    if (const auto *EC = llvm::dyn_cast<clang::EnumConstantDecl>(D))
      return std::make_unique<hir::IntLitExpr>(
          L, EC->getInitVal().getZExtValue());
    return Bad("a reference to '" + D->getNameAsString() + "'");
  }
  case clang::Stmt::UnaryOperatorClass: {
    const auto *U = llvm::cast<clang::UnaryOperator>(E);
    hir::UnaryOp Op;
    switch (U->getOpcode()) {
    case clang::UO_Minus:
      Op = hir::UnaryOp::Neg;
      break;
    case clang::UO_Plus:
      Op = hir::UnaryOp::Plus;
      break;
    case clang::UO_LNot:
      Op = hir::UnaryOp::LogicalNot;
      break;
    case clang::UO_Not:
      Op = hir::UnaryOp::BitNot;
      break;
    case clang::UO_Deref:
      if (llvm::isa<clang::CXXThisExpr>(U->getSubExpr()->IgnoreParenImpCasts()))
        return std::make_unique<hir::NameExpr>(L, "this");
      return Bad("pointer dereference");
    case clang::UO_AddrOf:
      return Bad("taking an address");
    default:
      return Bad("'++'/'--' inside an expression");
    }
    return std::make_unique<hir::UnaryExpr>(L, Op, expr(U->getSubExpr()));
  }
  case clang::Stmt::BinaryOperatorClass: {
    const auto *B = llvm::cast<clang::BinaryOperator>(E);
    std::optional<hir::BinaryOp> Op = binaryOp(B->getOpcode());
    if (!Op || B->isAssignmentOp())
      return Bad(B->isAssignmentOp() ? "assignment inside an expression"
                                     : "the comma operator");
    hir::ExprPtr LHS = expr(B->getLHS());
    hir::ExprPtr RHS = expr(B->getRHS());
    return std::make_unique<hir::BinaryExpr>(L, *Op, std::move(LHS),
                                             std::move(RHS));
  }
  case clang::Stmt::ConditionalOperatorClass: {
    const auto *C = llvm::cast<clang::ConditionalOperator>(E);
    hir::ExprPtr Cond = expr(C->getCond());
    hir::ExprPtr Then = expr(C->getTrueExpr()), Else = expr(C->getFalseExpr());
    return std::make_unique<hir::ConditionalExpr>(
        loc(C->getQuestionLoc()), std::move(Cond), std::move(Then),
        std::move(Else));
  }
  case clang::Stmt::ArraySubscriptExprClass: {
    const auto *A = llvm::cast<clang::ArraySubscriptExpr>(E);
    return std::make_unique<hir::IndexExpr>(
        lbracket(A), expr(A->getBase()), expr(A->getIdx()));
  }
  case clang::Stmt::CStyleCastExprClass:
  case clang::Stmt::CXXFunctionalCastExprClass:
  case clang::Stmt::CXXStaticCastExprClass: {
    const auto *C = llvm::cast<clang::ExplicitCastExpr>(E);
    if (recordOf(C->getType()))
      return expr(C->getSubExpr()); // `Complex(a, b)`, `Complex{a, b}`
    std::optional<hir::Scalar> To = scalar(C->getTypeAsWritten());
    if (!To)
      return Bad("a cast to '" + C->getTypeAsWritten().getAsString() + "'");
    return std::make_unique<hir::CastExpr>(L, *To, expr(C->getSubExpr()));
  }
  case clang::Stmt::CallExprClass:
    return call(llvm::cast<clang::CallExpr>(E));
  case clang::Stmt::CXXMemberCallExprClass: {
    const auto *MC = llvm::cast<clang::CXXMemberCallExpr>(E);
    llvm::SmallVector<const clang::Expr *, 4> Args(MC->arguments());
    return memberCall(MC->getMethodDecl(), MC->getImplicitObjectArgument(),
                      Args, MC->getExprLoc());
  }
  case clang::Stmt::CXXOperatorCallExprClass: {
    const auto *OC = llvm::cast<clang::CXXOperatorCallExpr>(E);
    const clang::FunctionDecl *F = OC->getDirectCallee();
    llvm::SmallVector<const clang::Expr *, 4> Args(OC->arguments());
    if (const auto *MD = llvm::dyn_cast_or_null<clang::CXXMethodDecl>(F)) {
      if (MD->isTrivial())
        return Bad("assignment inside an expression");
      return memberCall(MD, Args[0], llvm::ArrayRef(Args).drop_front(),
                        OC->getOperatorLoc());
    }
    return call(OC); // a free operator function
  }
  case clang::Stmt::MemberExprClass: {
    // A member of a class value: of a variable `z.re`, of `*this`, of a
    // temporary.
    const auto *ME = llvm::cast<clang::MemberExpr>(E);
    const auto *FD = llvm::dyn_cast<clang::FieldDecl>(ME->getMemberDecl());
    if (!FD)
      return Bad("this member");
    const clang::Expr *Base = ME->getBase()->IgnoreParenImpCasts();
    hir::ExprPtr B = llvm::isa<clang::CXXThisExpr>(Base)
                         ? std::make_unique<hir::NameExpr>(L, "this")
                     : ME->isArrow() ? Bad("'->' on a pointer")
                                     : expr(ME->getBase());
    return std::make_unique<hir::MemberExpr>(loc(ME->getMemberLoc()),
                                             std::move(B),
                                             FD->getNameAsString());
  }
  case clang::Stmt::CXXConstructExprClass:
  case clang::Stmt::CXXTemporaryObjectExprClass:
    return construct(llvm::cast<clang::CXXConstructExpr>(E));
  case clang::Stmt::CXXDefaultArgExprClass:
    return expr(llvm::cast<clang::CXXDefaultArgExpr>(E)->getExpr());
  case clang::Stmt::CXXDefaultInitExprClass:
    return expr(llvm::cast<clang::CXXDefaultInitExpr>(E)->getExpr());
  case clang::Stmt::InitListExprClass: {
    // A scalar's braces: `float b{x}`, `T x{}`.
    const auto *IL = llvm::cast<clang::InitListExpr>(E);
    if (recordOf(IL->getType()))
      return aggregate(IL);
    if (!scalar(IL->getType()))
      return Bad("an initializer list of type '" +
                 IL->getType().getAsString() + "'");
    if (IL->getNumInits() == 0)
      return std::make_unique<hir::IntLitExpr>(L, 0);
    return expr(IL->getInit(0));
  }
  case clang::Stmt::ImplicitValueInitExprClass:
  case clang::Stmt::CXXScalarValueInitExprClass:
    if (recordOf(E->getType()))
      if (hir::StructDecl *SD = structOf(E->getType(), E->getExprLoc()))
        return zeroValue(SD, L);
    return std::make_unique<hir::IntLitExpr>(L, 0);
  default:
    return Bad("'" + llvm::StringRef(E->getStmtClassName()) + "'");
  }
}

hir::ExprPtr Lowering::call(const clang::CallExpr *C) {
  SMLoc L = loc(C->getExprLoc());
  const clang::FunctionDecl *F = C->getDirectCallee();
  if (!F) {
    unsupported(C->getExprLoc(), "an indirect call");
    return std::make_unique<hir::IntLitExpr>(L, 0);
  }
  std::string Callee;
  if (isIntrinsic(F)) {
    Callee = F->getNameAsString();
  } else {
    require(F);
    Callee = nameOf(F);
  }
  if (const auto *Ref = llvm::dyn_cast<clang::DeclRefExpr>(
          C->getCallee()->IgnoreImplicit()))
    L = loc(Ref->getNameInfo().getLoc());
  auto Call = std::make_unique<hir::CallExpr>(L, Callee);
  for (const clang::Expr *A : C->arguments())
    if (!llvm::isa<clang::CXXDefaultArgExpr>(A))
      Call->Args.push_back(expr(A));
  return Call;
}

