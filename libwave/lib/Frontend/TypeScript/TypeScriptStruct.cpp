//===- TypeScriptStruct.cpp - TypeScript dialect: classes of plain data ---===//
//
// Classes of plain data of the TypeScript dialect
// (formats/kernel-languages.md §12, "Classes of plain data"), mapped onto
// the HIR structs the Rust dialect makes (RustStruct.cpp):
//
//   class Complex {
//     re: f32; im: f32;                          // the struct's fields
//     constructor(re: f32, im: f32) { this.re = re; this.im = im; }
//     add(o: Complex): Complex { return new Complex(this.re + o.re, ...); }
//     norm2(): f32 { return this.re * this.re + this.im * this.im; }
//   }
//
// A class with an instance field or a constructor, and no static member
// or decorator, is a class of plain data: a hir::StructDecl of its name.
// Its constructor becomes the function "Complex::constructor" that
// returns the struct literal of its `this.f = e` assignments (after the
// fields of its parameter properties, `constructor(public re: f32)`), and
// `new Complex(a, b)` a call of it; every
// instance method becomes "Complex::name" with a first parameter `this`
// (by reference if the method assigns a field of `this`, else by value).
// Lowering inlines all of them. TypeScript has no operator overloading, so
// `a + b` on classes stays Sema's error. Everything else a class of plain
// data could hold (static members, accessors, field initialisers,
// inheritance, generics) is rejected, one located error each.
//
//===----------------------------------------------------------------------===//
#include "TypeScriptParser.h"

using namespace wave;
using namespace wave::fe;
using hir::Type;
using llvm::cast;
using llvm::dyn_cast;
using llvm::isa;

void TSParser::prescanClasses() {
  hir::DiagnosticEngine Quiet; // The parser reports the lexer's errors.
  TSLexer L(Buffer, Quiet);
  std::vector<TSToken> T;
  do
    T.push_back(L.next());
  while (!T.back().is(TSTok::Eof) && T.size() < (1u << 22));
  if (!T.back().is(TSTok::Eof))
    T.emplace_back(); // An Eof, so that T[J + 1] of an identifier exists.
  for (size_t I = 0; I + 1 < T.size(); ++I) {
    if (!T[I].isIdent("class") || !T[I + 1].is(TSTok::Ident))
      continue;
    llvm::StringRef Name = T[I + 1].Text;
    AllClasses.insert(Name);
    size_t J = I + 2;
    while (J < T.size() && !T[J].is("{") && !T[J].is(TSTok::Eof))
      ++J;
    // The members one level inside the body.
    // Mixed: a static member or a decorator makes it a class of static
    // methods, whose parser rejects the fields and instance members.
    bool Plain = false, Static = false, Mixed = false;
    std::vector<llvm::StringRef> Members;
    unsigned Depth = 0;
    for (; J < T.size() && !T[J].is(TSTok::Eof); ++J) {
      const TSToken &K = T[J];
      if (K.is("{") || K.is("(") || K.is("[")) {
        ++Depth;
        continue;
      }
      if (K.is("}") || K.is(")") || K.is("]")) {
        if (--Depth == 0)
          break;
        if (Depth == 1 && K.is("}"))
          Static = false; // A method body ends the member.
        continue;
      }
      if (Depth != 1)
        continue;
      if (K.is("@"))
        Mixed = true;
      if (K.is(";")) {
        Static = false;
        continue;
      }
      if (!K.is(TSTok::Ident))
        continue;
      if (K.Text == "static") {
        Static = true;
        Mixed = true;
        continue;
      }
      const TSToken &N = T[J + 1];
      bool AfterColon = T[J - 1].is(":");
      if (N.is("(") && !AfterColon) {
        if (K.Text == "constructor") {
          Plain = true;
          // Parameter properties (`constructor(public re: f32)`).
          unsigned D = 0;
          for (size_t P = J + 1; P + 1 < T.size() && !T[P].is(TSTok::Eof);
               ++P) {
            if (T[P].is("(") || T[P].is("[") || T[P].is("{"))
              ++D;
            else if ((T[P].is(")") || T[P].is("]") || T[P].is("}")) && --D == 0)
              break;
            else if (D == 1 && T[P].is(TSTok::Ident) &&
                     llvm::is_contained(
                         {"public", "private", "protected", "readonly"},
                         T[P].Text) &&
                     T[P + 1].is(TSTok::Ident))
              Members.push_back(T[P + 1].Text);
          }
        } else if (!Static)
          Members.push_back(K.Text);
        continue;
      }
      if (!AfterColon && !Static &&
          (N.is(":") || N.is("?") || N.is("!") || N.is("=") || N.is(";"))) {
        Plain = true;
        Members.push_back(K.Text);
      }
    }
    if (Plain && !Mixed) {
      PlainClasses.insert(Name);
      for (llvm::StringRef M : Members)
        PlainMembers.insert(M);
    }
  }
}

hir::StructDecl *TSParser::plainStruct(llvm::StringRef Name, llvm::SMLoc Loc) {
  if (!PlainClasses.contains(Name))
    return nullptr;
  return M->getStruct(Name, Loc);
}

void TSParser::parsePlainClass(const TSToken &Name) {
  hir::StructDecl *S = M->getStruct(Name.Text, Name.loc());
  hir::StructDecl *Target = S;
  if (S->Defined) {
    // "redefinition of class" is reported already. The members still parse
    // (for their own errors) into a struct the module owns, since the
    // methods they make point at it; lookups by name find the first one.
    S = nullptr;
    M->Structs.push_back(
        std::make_unique<hir::StructDecl>(Name.loc(), Name.Text.str()));
    Target = M->Structs.back().get();
  }
  Target->Defined = true;
  Target->Loc = Name.loc();
  TSToken Open = consume(); // {
  unsigned Errors = Diags.numErrors();
  CurClass = Name.Text.str();
  while (!is("}") && !atEof()) {
    size_t Start = Pos;
    parsePlainMember(*Target);
    if (Pos == Start && !is("}") && !atEof())
      consume();
  }
  CurClass.clear();
  if (!consumeIf("}") && !Fatal) {
    error(tok().loc(), "expected '}' at the end of class '" + Name.Text +
                           "', found " + describe(tok()));
    note(Open.loc(), "to match this '{'");
  }
  if (S && S->Fields.empty() && Diags.numErrors() == Errors)
    error(Name.loc(), "class '" + Name.Text +
                          "' has no fields; a class of plain data in WAVE "
                          "kernels holds at least one");
  if (S && !M->function(Name.Text.str() + "::constructor") &&
      !S->Fields.empty())
    error(Name.loc(), "class '" + Name.Text +
                          "' has no constructor; WAVE kernels need one that "
                          "assigns every field");
}

void TSParser::parsePlainMember(hir::StructDecl &S) {
  if (consumeIf(";"))
    return;
  const TSToken &First = tok();
  if (!First.KernelComment.empty() || First.ExportComment.isValid())
    error(First.KernelComment.empty()
              ? First.ExportComment
              : llvm::SMLoc::getFromPointer(First.KernelComment.data()),
          "'// @kernel' and '// @export' comments mark top-level functions; "
          "not members of a class of plain data");
  if (is("@")) {
    error(tok().loc(), "decorators are not supported in a class of plain "
                       "data; '@kernel' marks static methods of a class "
                       "without fields");
    skipTopLevel();
    return;
  }
  while (tok().is(TSTok::Ident) &&
         llvm::is_contained({"public", "private", "protected", "readonly",
                             "static", "async", "abstract", "override",
                             "declare", "accessor"},
                            tok().Text) &&
         (tok(1).is(TSTok::Ident) || tok(1).is("[") || tok(1).is("#") ||
          tok(1).is("{") || tok(1).is("*"))) {
    TSToken Mod = consume();
    if (Mod.Text == "static") {
      error(Mod.loc(), "static members are not supported in a class of "
                       "plain data ('" +
                           S.Name +
                           "' has fields); put static methods in a class "
                           "without fields");
      skipTopLevel();
      return;
    }
    if (!llvm::is_contained({"public", "private", "protected", "readonly"},
                            Mod.Text))
      error(Mod.loc(),
            "'" + Mod.Text + "' members are not supported in WAVE kernels");
  }
  if ((isIdent("get") || isIdent("set")) && tok(1).is(TSTok::Ident)) {
    error(tok().loc(),
          "accessors ('" + tok().Text + "') are not supported in WAVE kernels");
    skipTopLevel();
    return;
  }
  if (!tok().is(TSTok::Ident)) {
    error(tok().loc(),
          is("[")   ? "index signatures and computed member names are not "
                      "supported in WAVE kernels"
          : is("#") ? "private names are not supported in WAVE kernels"
                    : "expected a class member, found " + describe(tok()));
    skipTopLevel();
    return;
  }
  TSToken Name = consume();
  if (is("?")) {
    error(tok().loc(), "optional members are not supported in WAVE kernels");
    skipTopLevel();
    return;
  }
  if (is("!")) {
    error(tok().loc(), "definite assignment assertions ('!') are not "
                       "supported in WAVE kernels");
    consume();
  }
  if (is("(") || is("<")) {
    // A constructor or an instance method.
    bool Ctor = Name.Text == "constructor";
    size_t Before = M->Functions.size();
    InMethod = !Ctor;
    InConstructor = Ctor;
    ThisWritten = false;
    ConstructorThis.clear();
    CtorProperties.clear();
    parseFunctionRest(Name.loc(), Name, /*IsKernel=*/false, std::nullopt,
                      llvm::SMLoc(), /*Declaration=*/false);
    InMethod = InConstructor = false;
    if (M->Functions.size() == Before)
      return;
    hir::FunctionDecl &F = *M->Functions.back();
    F.Owner = &S;
    if (Ctor) {
      finishConstructor(F, S);
      return;
    }
    F.Name = S.Name + "::" + F.Name;
    F.Params.emplace(F.Params.begin(), Name.loc(), "this", Type::structType(&S),
                     /*Mutable=*/ThisWritten);
    F.Params.front().ByRef = ThisWritten;
    return;
  }
  // A field: `name: T;`.
  if (!is(":")) {
    error(Name.loc(), "field '" + Name.Text +
                          "' needs a type in WAVE kernels (a scalar type or "
                          "a class of plain data)");
    skipTopLevel();
    return;
  }
  consume();
  std::optional<Type> Ty = parseType("field");
  if (!Ty) {
    skipTopLevel();
    return;
  }
  if (!Ty->isScalar() && !Ty->isStruct()) {
    error(Name.loc(), "field '" + Name.Text + "' has type '" +
                          hir::typeName(*Ty) +
                          "'; fields of a class of plain data have a scalar "
                          "type or the type of a class of plain data");
    skipTopLevel();
    return;
  }
  if (is("=")) {
    error(tok().loc(), "field initializers are not supported in WAVE "
                       "kernels; assign '" +
                           Name.Text + "' in the constructor");
    skipTopLevel();
    return;
  }
  S.Fields.push_back({Name.loc(), Name.Text.str(), *Ty});
  if (!endStatement("the field"))
    skipTopLevel();
}

/// Whether \p E is `this.f`.
static const hir::MemberExpr *thisField(const hir::Expr &E) {
  const auto *Mem = dyn_cast<hir::MemberExpr>(&E);
  if (!Mem)
    return nullptr;
  const auto *N = dyn_cast<hir::NameExpr>(Mem->Base.get());
  return N && N->Name == "this" ? Mem : nullptr;
}

void TSParser::finishConstructor(hir::FunctionDecl &F, hir::StructDecl &S) {
  if (!F.ReturnTy.isVoid())
    error(F.Loc, "a constructor has no return type");
  F.Name = S.Name + "::constructor";
  F.ReturnTy = Type::structType(&S);
  auto L = std::make_unique<hir::StructLitExpr>(F.Loc, &S);
  // Parameter properties: fields assigned from their parameters first.
  for (const TSToken &P : CtorProperties) {
    auto It = llvm::find_if(
        F.Params, [&](const hir::Param &X) { return X.Loc == P.loc(); });
    if (It == F.Params.end()) // Its type was reported.
      continue;
    if (!It->Ty.isScalar() && !It->Ty.isStruct()) {
      error(P.loc(), "field '" + P.Text + "' has type '" +
                         hir::typeName(It->Ty) +
                         "'; fields of a class of plain data have a scalar "
                         "type or the type of a class of plain data");
      continue;
    }
    S.Fields.push_back({P.loc(), P.Text.str(), It->Ty});
    L->Inits.push_back({P.loc(), P.Text.str(),
                        std::make_unique<hir::NameExpr>(P.loc(), P.Text.str()),
                        -1});
  }
  CtorProperties.clear();
  // Where statement \p I starts (an assignment's target), or the end.
  auto StartOf = [&](size_t I) -> const char * {
    if (I == F.Body->Body.size())
      return F.EndLoc.isValid() ? F.EndLoc.getPointer() : nullptr;
    const hir::Stmt &St = *F.Body->Body[I];
    if (const auto *A = dyn_cast<hir::AssignStmt>(&St)) {
      const hir::Expr *X = A->Target.get();
      while (const auto *Mem = dyn_cast<hir::MemberExpr>(X))
        X = Mem->Base.get();
      return X->loc().getPointer();
    }
    return St.loc().getPointer();
  };
  for (size_t I = 0; F.Body && I < F.Body->Body.size(); ++I) {
    hir::StmtPtr &St = F.Body->Body[I];
    auto *A = dyn_cast<hir::AssignStmt>(St.get());
    const hir::MemberExpr *Mem = A && !A->Op ? thisField(*A->Target) : nullptr;
    if (!Mem) {
      error(St->loc(),
            "a constructor of a class of plain data only "
            "assigns fields in WAVE kernels ('this." +
                (S.Fields.empty() ? std::string("x") : S.Fields.front().Name) +
                " = ...;')");
      continue;
    }
    // `this` in the assigned value (up to the next statement).
    const char *End = StartOf(I + 1);
    for (llvm::SMLoc T : ConstructorThis)
      if (T.getPointer() > Mem->Base->loc().getPointer() &&
          (!End || T.getPointer() < End))
        error(T, "'this' is only assigned fields in a constructor in WAVE "
                 "kernels; its fields cannot be read before it is built");
    L->Inits.push_back(
        {Mem->loc(), Mem->Name, std::move(A->Value), /*Field=*/-1});
  }
  ConstructorThis.clear();
  llvm::SMLoc End = F.Body ? F.Body->loc() : F.Loc;
  F.Body = std::make_unique<hir::BlockStmt>(End);
  F.Body->Body.push_back(
      std::make_unique<hir::ReturnStmt>(F.Loc, std::move(L)));
}

hir::ExprPtr TSParser::parseNew() {
  TSToken New = consume(); // new
  const TSToken &N = tok();
  hir::StructDecl *S =
      N.is(TSTok::Ident) && is("(", 1) ? plainStruct(N.Text, N.loc()) : nullptr;
  if (!S) {
    if (N.is(TSTok::Ident) && AllClasses.contains(N.Text))
      error(New.loc(), "class '" + N.Text +
                           "' is a namespace of static methods in WAVE "
                           "kernels; only classes of plain data have "
                           "instances");
    else
      error(New.loc(), "'new' is not supported in WAVE kernels; declare "
                       "workgroup arrays with shared(T, N)");
    return nullptr;
  }
  TSToken Name = consume();
  return parseCallArgs(std::make_unique<hir::CallExpr>(
      Name.loc(), Name.Text.str() + "::constructor"));
}

hir::ExprPtr TSParser::parseMemberAccess(hir::ExprPtr E) {
  consume(); // .
  TSToken Name = consume();
  if (is("(")) {
    auto C = std::make_unique<hir::CallExpr>(Name.loc(), Name.Text.str());
    C->Method = true;
    C->Args.push_back(std::move(E));
    return parseCallArgs(std::move(C));
  }
  return std::make_unique<hir::MemberExpr>(Name.loc(), std::move(E),
                                           Name.Text.str());
}
