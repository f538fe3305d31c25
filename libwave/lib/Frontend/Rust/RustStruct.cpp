//===- RustStruct.cpp - Structs, impls and operator traits of Rust -------===//
//
// Plain-data structs of the Rust dialect (formats/kernel-languages.md §8,
// §11): `struct V2 { x: f32, y: f32 }` becomes a hir::StructDecl; the
// functions of `impl V2 { ... }` become HIR functions named "V2::name"
// with Owner set (a `self` parameter first for methods); an operator
// trait's impl (`impl Add for V2 { type Output = V2; fn add(self, o: V2)
// -> V2 { ... } }`) marks its method with the trait, and Sema dispatches
// `a + b` on a V2 to it. Struct literals, field access and method calls
// are parsed in RustExpr.cpp.
//
//===----------------------------------------------------------------------===//
#include "RustParser.h"

#include "llvm/ADT/StringSwitch.h"

using namespace wave;
using namespace wave::fe;
using llvm::SMLoc;

/// The method an operator trait the dialect supports defines ("Add" ->
/// "add"); empty for any other trait. `Copy` and `Clone` have none.
static llvm::StringRef traitMethodName(llvm::StringRef Trait) {
  return llvm::StringSwitch<llvm::StringRef>(Trait)
      .Case("Add", "add")
      .Case("Sub", "sub")
      .Case("Mul", "mul")
      .Case("Div", "div")
      .Case("Rem", "rem")
      .Case("Neg", "neg")
      .Case("AddAssign", "add_assign")
      .Case("SubAssign", "sub_assign")
      .Case("MulAssign", "mul_assign")
      .Case("DivAssign", "div_assign")
      .Case("RemAssign", "rem_assign")
      .Default("");
}

void RustParser::collectStructNames() {
  for (size_t I = 0; I + 1 < Toks.size(); ++I) {
    if (Toks[I].isIdent("struct") && Toks[I + 1].is(RustTok::Ident)) {
      StructNames.insert(Toks[I + 1].Text);
      continue;
    }
    if (!Toks[I].isIdent("impl"))
      continue;
    // The functions with a `self` parameter one level inside the impl.
    size_t J = I + 1;
    while (J < Toks.size() && !Toks[J].isPunct("{") && !Toks[J].isPunct(";") &&
           !Toks[J].is(RustTok::Eof))
      ++J;
    unsigned Depth = 0;
    for (; J < Toks.size() && !Toks[J].is(RustTok::Eof); ++J) {
      if (Toks[J].isPunct("{")) {
        ++Depth;
      } else if (Toks[J].isPunct("}")) {
        if (--Depth == 0)
          break;
      } else if (Depth == 1 && Toks[J].isIdent("fn") && J + 3 < Toks.size() &&
                 Toks[J + 2].isPunct("(")) {
        size_t K = J + 3;
        if (Toks[K].isPunct("&"))
          ++K;
        if (Toks[K].isIdent("mut"))
          ++K;
        if (Toks[K].isIdent("self"))
          MethodNames.insert(Toks[J + 1].Text);
      }
    }
  }
}

hir::StructDecl *RustParser::structFor(llvm::StringRef Name, SMLoc Loc) {
  if (Name == "Self")
    return CurImpl;
  if (!StructNames.count(Name))
    return nullptr;
  return Mod->getStruct(Name, Loc);
}

void RustParser::parseStructItem(hir::Module &M) {
  consume(); // 'struct'
  RustToken Name;
  if (!expectName(Name, "a struct name after 'struct'")) {
    skipItem();
    return;
  }
  if (isPunct("<")) {
    error(tok().loc(), "generic structs are not supported in WAVE kernels");
    skipItem();
    return;
  }
  if (isPunct("(")) {
    error(tok().loc(), "tuple structs are not supported in WAVE kernels; "
                       "name the fields: struct " +
                           Name.Text + " { ... }");
    skipItem();
    return;
  }
  if (isPunct(";")) {
    error(Name.loc(), "struct '" + Name.Text +
                          "' has no fields; WAVE "
                          "structs hold at least one");
    consume();
    return;
  }
  if (isIdent("where")) {
    error(tok().loc(), "'where' clauses are not supported in WAVE kernels");
    skipItem();
    return;
  }
  if (!isPunct("{")) {
    error(tok().loc(),
          "expected '{' after the struct name, found " + describe(tok()));
    skipItem();
    return;
  }
  hir::StructDecl *S = M.getStruct(Name.Text, Name.loc());
  if (S->Defined) {
    error(Name.loc(), "redefinition of struct '" + Name.Text + "'");
    note(S->Loc, "'" + Name.Text + "' is first defined here");
    skipItem();
    return;
  }
  S->Defined = true;
  S->Loc = Name.loc();
  SMLoc LBrace = consume().loc();
  bool Broken = false; // A field was reported.
  while (!consumePunct("}")) {
    if (atEof()) {
      error(tok().loc(),
            "expected '}' to close the struct, found " + describe(tok()));
      note(LBrace, "to match this '{'");
      return;
    }
    while (isPunct("#")) { // Attributes of fields are ignored.
      consume();
      if (isPunct("["))
        skipBalanced();
    }
    if (isIdent("pub")) {
      consume();
      if (isPunct("("))
        skipBalanced();
    }
    RustToken Field;
    bool Ok = expectName(Field, "a field name") &&
              expectPunct(":", "after the field name");
    std::optional<hir::Type> T;
    if (Ok)
      T = parseType("as the field type");
    if (T)
      S->Fields.push_back({Field.loc(), Field.Text.str(), *T});
    Broken |= !T;
    if (!T) // Skip to the next field.
      while (!atEof() && !isPunct(",") && !isPunct("}")) {
        if (isPunct("(") || isPunct("[") || isPunct("{"))
          skipBalanced();
        else
          consume();
      }
    if (!consumePunct(",") && !isPunct("}") && !atEof()) {
      error(tok().loc(),
            "expected ',' or '}' after the field, found " + describe(tok()));
      while (!atEof() && !isPunct("}"))
        consume();
    }
  }
  if (S->Fields.empty() && !Broken)
    error(Name.loc(), "struct '" + Name.Text +
                          "' has no fields; WAVE "
                          "structs hold at least one");
}

void RustParser::parseImplItem(hir::Module &M) {
  consume(); // 'impl'
  if (isPunct("<")) {
    error(tok().loc(), "generic impls are not supported in WAVE kernels");
    skipItem();
    return;
  }
  // `impl V2`, `impl Add for V2`, `impl std::ops::Add for V2`,
  // `impl Mul<f32> for V2`.
  RustToken First;
  if (!expectName(First, "a type or trait name after 'impl'")) {
    skipItem();
    return;
  }
  RustToken Last = First;
  while (isPunct("::") && tok(1).is(RustTok::Ident)) {
    consume();
    Last = consume();
  }
  if (isPunct("<")) {
    // The trait's right-hand type (`Mul<f32>`): the method's parameter
    // says it again, and Sema checks that.
    consume();
    if (!parseType("as the trait's type argument") || !consumePunct(">")) {
      skipItem();
      return;
    }
  }
  std::string Trait;
  RustToken TypeName = Last;
  if (isIdent("for")) {
    consume();
    Trait = Last.Text.str();
    if (!expectName(TypeName, "a struct name after 'for'")) {
      skipItem();
      return;
    }
  }
  if (isPunct("<")) {
    error(tok().loc(), "generic arguments are not supported in WAVE kernels");
    skipItem();
    return;
  }
  hir::StructDecl *S = TypeName.Text == "Self"
                           ? nullptr
                           : structFor(TypeName.Text, TypeName.loc());
  if (!S) {
    error(TypeName.loc(), "'impl' blocks are only supported for the structs "
                          "of the file; '" +
                              TypeName.Text + "' is not one");
    skipItem();
    return;
  }
  bool Marker = Trait == "Copy" || Trait == "Clone";
  if (!Trait.empty() && !Marker && traitMethodName(Trait).empty()) {
    error(Last.loc(),
          "trait '" + Trait +
              "' is not supported in WAVE kernels "
              "(the operator traits Add, Sub, Mul, Div, Rem, Neg and "
              "their *Assign forms are)");
    skipItem();
    return;
  }
  if (!isPunct("{")) {
    error(tok().loc(),
          "expected '{' to start the impl block, found " + describe(tok()));
    skipItem();
    return;
  }
  SMLoc LBrace = consume().loc();
  CurImpl = S;
  while (!consumePunct("}")) {
    if (atEof()) {
      error(tok().loc(),
            "expected '}' to close the impl block, found " + describe(tok()));
      note(LBrace, "to match this '{'");
      break;
    }
    size_t Before = Pos;
    Attrs A;
    while (isPunct("#"))
      parseOuterAttribute(A);
    if (A.Kernel)
      error(A.KernelLoc, "a kernel cannot be a method; declare it outside "
                         "the impl block");
    if (isIdent("pub")) {
      consume();
      if (isPunct("("))
        skipBalanced();
    }
    if (isIdent("type") && !Trait.empty()) {
      // `type Output = V2;`: the method's return type says it again.
      while (!atEof() && !isPunct(";") && !isPunct("}"))
        consume();
      consumePunct(";");
      continue;
    }
    if (isIdent("fn")) {
      if (Marker) {
        error(tok().loc(),
              "'" + Trait +
                  "' needs no methods in WAVE kernels "
                  "(structs are copied by value); derive it instead");
        skipItem();
        continue;
      }
      std::unique_ptr<hir::FunctionDecl> F = parseFunction(A);
      if (!F)
        continue;
      if (!Trait.empty() && F->Name != traitMethodName(Trait))
        error(F->Loc, "method '" + F->Name + "' is not a member of trait '" +
                          Trait + "' (its method is '" +
                          traitMethodName(Trait) + "')");
      F->Name = S->Name + "::" + F->Name;
      F->Owner = S;
      F->Trait = Trait;
      M.Functions.push_back(std::move(F));
      continue;
    }
    if (isIdent("const"))
      error(tok().loc(), "associated constants are not supported in WAVE "
                         "kernels; use a module 'const'");
    else
      error(tok().loc(),
            "expected 'fn' in the impl block, found " + describe(tok()));
    skipItem();
    if (Pos == Before)
      consume();
  }
  CurImpl = nullptr;
}

bool RustParser::parseSelfParam(hir::FunctionDecl &F, bool Mutable) {
  SMLoc Loc = tok().loc();
  bool ByRef = false;
  if (consumePunct("&")) {
    ByRef = true;
    if (isIdent("mut")) {
      consume();
      Mutable = true;
    }
  }
  SMLoc SelfLoc = consume().loc(); // 'self'
  if (!F.Params.empty()) {
    error(Loc, "'self' must be the first parameter");
    return false;
  }
  if (isPunct(":")) {
    error(tok().loc(), "typed 'self' parameters are not supported in WAVE "
                       "kernels; write self, &self or &mut self");
    return false;
  }
  F.Params.emplace_back(SelfLoc, "self", hir::Type::structType(CurImpl),
                        Mutable);
  F.Params.back().ByRef = ByRef;
  return true;
}

hir::ExprPtr RustParser::parseStructLit(const RustToken &Name,
                                        hir::StructDecl *S) {
  SMLoc LBrace = consume().loc(); // '{'
  auto L = std::make_unique<hir::StructLitExpr>(Name.loc(), S);
  while (!consumePunct("}")) {
    if (isPunct("..")) {
      error(tok().loc(), "struct update syntax ('..base') is not supported "
                         "in WAVE kernels");
      return nullptr;
    }
    RustToken Field;
    if (!expectName(Field, "a field name in the struct literal")) {
      note(LBrace, "in this struct literal");
      return nullptr;
    }
    hir::ExprPtr V;
    if (consumePunct(":")) {
      V = parseExpr();
      if (!V)
        return nullptr;
    } else {
      // Shorthand `V2 { x, y }`: the variables of the fields' names.
      V = resolveName(Field.Text, Field.loc());
      if (!V)
        V = std::make_unique<hir::NameExpr>(Field.loc(), Field.Text.str());
    }
    L->Inits.push_back({Field.loc(), Field.Text.str(), std::move(V), -1});
    if (!consumePunct(",") && !isPunct("}")) {
      error(tok().loc(), "expected ',' or '}' in the struct literal, found " +
                             describe(tok()));
      note(LBrace, "to match this '{'");
      return nullptr;
    }
  }
  return L;
}
