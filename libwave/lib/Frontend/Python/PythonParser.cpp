//===- PythonParser.cpp - Module level of the Python kernel dialect -------===//
//
// The top of the Python frontend (formats/kernel-languages.md, "Python"):
// parsePython(); the module level (`import wave`, `from wave import ...`,
// docstrings, function definitions); `@kernel` and
// `@wave.kernel(workgroup_size=...)` decorators; parameter, return and
// variable type annotations, with the shapes of shaped buffer parameters
// (`a: f32[M, N]`) resolved against the parameter list; and the token,
// diagnostic and recovery helpers. Statements are in PythonStmt.cpp,
// expressions in PythonExpr.cpp.
//
//===----------------------------------------------------------------------===//
#include "PythonParser.h"

#include "wave/Frontend/Frontend.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"

using namespace wave;
using namespace wave::fe;
using llvm::dyn_cast;
using llvm::isa;
using llvm::SMLoc;
using llvm::StringRef;

//===----------------------------------------------------------------------===//
// Tokens, diagnostics, recovery
//===----------------------------------------------------------------------===//

void PythonParser::error(SMLoc Loc, const llvm::Twine &Msg) {
  if (!Fatal)
    Diags.error(Loc, Msg);
}

void PythonParser::flushLexErrors(bool All) {
  while (NextLexError < LexErrors.size() &&
         (All || LexErrors[NextLexError].TokIndex <= Pos)) {
    const PyLexError &E = LexErrors[NextLexError++];
    error(E.Loc, E.Msg);
  }
}

void PythonParser::note(SMLoc Loc, const llvm::Twine &Msg) {
  if (!Fatal)
    Diags.note(Loc, Msg);
}

std::string PythonParser::describe(const PyToken &T) const {
  switch (T.K) {
  case PyTok::Ident:
  case PyTok::Number: {
    StringRef S = T.Text;
    if (S.size() > 32)
      return "'" + S.take_front(32).str() + "...'";
    return "'" + S.str() + "'";
  }
  case PyTok::String:
    return "a string";
  case PyTok::Indent:
    return "an indented line";
  case PyTok::Dedent:
    return "the end of the block";
  case PyTok::Unknown: {
    unsigned char C = T.Text.empty() ? 0 : T.Text[0];
    if (C >= 0x80)
      return "a non-ASCII character";
    if (llvm::isPrint(C))
      return "'" + std::string(1, C) + "'";
    return "'\\x" + llvm::utohexstr(C, /*LowerCase=*/true, 2) + "'";
  }
  default:
    return pyTokSpelling(T.K).str();
  }
}

bool PythonParser::expectClose(PyTok K, const PyToken &Open,
                               const llvm::Twine &Msg) {
  if (consumeIf(K))
    return true;
  error(tok().loc(), Msg + ", found " + describe(tok()));
  note(Open.loc(), "to match this " + pyTokSpelling(Open.K));
  return false;
}

PythonParser::DepthGuard::DepthGuard(PythonParser &P) : P(P) {
  Ok = ++P.Depth <= MaxDepth && !P.Fatal;
  if (!Ok && !P.Fatal) {
    P.error(P.tok().loc(), "nesting too deep (more than " +
                               llvm::Twine(MaxDepth) +
                               " nested expressions or blocks)");
    P.Fatal = true;
    P.Pos = P.Toks.size() - 1;
  }
}

void PythonParser::skipToLineEnd() {
  while (!is(PyTok::Newline) && !is(PyTok::Eof))
    consume();
}

void PythonParser::skipStatement() {
  // The clauses of a rejected `try` belong to it: skip them too.
  bool IsTry = isIdent("try");
  do {
    skipToLineEnd();
    consumeIf(PyTok::Newline);
    if (is(PyTok::Indent))
      skipBlock();
  } while (IsTry &&
           (isIdent("except") || isIdent("else") || isIdent("finally")));
}

void PythonParser::skipBlock() {
  unsigned Level = 0;
  while (!is(PyTok::Eof)) {
    if (is(PyTok::Indent))
      ++Level;
    else if (is(PyTok::Dedent) && --Level == 0) {
      consume();
      return;
    }
    consume();
  }
}

void PythonParser::skipBracketRest() {
  unsigned Level = 1;
  while (!is(PyTok::Newline) && !is(PyTok::Eof)) {
    PyTok K = consume().K;
    if (K == PyTok::LParen || K == PyTok::LBracket || K == PyTok::LBrace)
      ++Level;
    else if ((K == PyTok::RParen || K == PyTok::RBracket ||
              K == PyTok::RBrace) &&
             --Level == 0)
      return;
  }
}

//===----------------------------------------------------------------------===//
// Module level
//===----------------------------------------------------------------------===//

std::unique_ptr<hir::Module> PythonParser::parseModule() {
  auto M = std::make_unique<hir::Module>(hir::Language::Python);
  OutMod = M.get();
  collectClassNames();
  flushLexErrors();
  bool First = true;
  while (!is(PyTok::Eof)) {
    if (is(PyTok::Newline) || is(PyTok::Dedent)) {
      consume();
      continue;
    }
    if (is(PyTok::Indent)) {
      error(tok().loc(), "unexpected indent");
      skipBlock();
      continue;
    }
    if (First && atDocstring()) {
      skipDocstring();
      First = false;
      continue;
    }
    First = false;
    if (isIdent("class") || (is(PyTok::At) && atDataclassDecorator())) {
      parseClassDef(*M);
      continue;
    }
    if (is(PyTok::At) || isIdent("def")) {
      parseFunctionDef(*M);
      continue;
    }
    if (isIdent("import") || isIdent("from")) {
      parseImport();
      continue;
    }
    if (is(PyTok::String)) {
      if (!tok().Reported)
        error(tok().loc(), "strings are not supported in WAVE kernels");
    } else if (!rejectUnsupportedStatement())
      error(tok().loc(), "statements outside a function are not supported "
                         "in WAVE kernels; only 'def', 'import wave' and "
                         "'from wave import ...' may appear at the top level");
    skipStatement();
  }
  flushLexErrors(/*All=*/true);
  propagateSelfMutation();
  return M;
}

bool PythonParser::atDocstring() const {
  if (!is(PyTok::String))
    return false;
  unsigned I = 0;
  while (is(PyTok::String, I))
    ++I;
  return is(PyTok::Newline, I) || is(PyTok::Eof, I);
}

void PythonParser::skipDocstring() {
  while (is(PyTok::String))
    consume();
  consumeIf(PyTok::Newline);
}

/// `import wave` or `from wave import names | * | (names)`; anything else
/// is reported. Accepted imports produce nothing.
void PythonParser::parseImport() {
  if (!isIdent("from") || !isIdent("dataclasses", 1) || !isIdent("import", 2) ||
      !isIdent("dataclass", 3) || isIdent("as", 4)) {
    parseImportOf();
    return;
  }
  // `from dataclasses import dataclass`: the one name it may import.
  for (unsigned I = 0; I < 4; ++I)
    consume();
  if (!is(PyTok::Newline) && !is(PyTok::Semi) && !is(PyTok::Eof)) {
    error(tok().loc(),
          "expected a newline after the import, found " + describe(tok()));
    skipStatement();
    return;
  }
  consumeIf(PyTok::Semi);
  consumeIf(PyTok::Newline);
}

void PythonParser::parseImportOf() {
  const PyToken &Kw = consume();
  if (Kw.isIdent("import")) {
    do {
      if (!isName()) {
        error(tok().loc(), "expected a module name after 'import', found " +
                               describe(tok()));
        skipStatement();
        return;
      }
      const PyToken &Mod = consume();
      std::string Name = Mod.Text.str();
      while (is(PyTok::Dot) && is(PyTok::Ident, 1)) {
        consume();
        Name += "." + consume().Text.str();
      }
      if (Name != "wave" && Name != "dataclasses") {
        error(Mod.loc(), "importing '" + Name +
                             "' is not supported in WAVE kernels; only "
                             "'import wave' and 'from wave import ...' are "
                             "allowed");
        skipStatement();
        return;
      }
      if (isIdent("as")) {
        error(tok().loc(), "'import wave as ...' is not supported; write "
                           "'import wave'");
        skipStatement();
        return;
      }
    } while (consumeIf(PyTok::Comma));
  } else {
    if (!isIdent("wave") || is(PyTok::Dot, 1)) {
      error(tok().loc(), "only 'from wave import ...' is supported in WAVE "
                         "kernels");
      skipStatement();
      return;
    }
    consume();
    if (!isIdent("import")) {
      error(tok().loc(),
            "expected 'import' after 'from wave', found " + describe(tok()));
      skipStatement();
      return;
    }
    consume();
    if (!consumeIf(PyTok::Star)) {
      const PyToken *Open = is(PyTok::LParen) ? &consume() : nullptr;
      do {
        if (Open && is(PyTok::RParen))
          break;
        if (!is(PyTok::Ident)) {
          error(tok().loc(),
                "expected a name to import, found " + describe(tok()));
          skipStatement();
          return;
        }
        consume();
        if (isIdent("as")) {
          error(tok().loc(), "renaming imports with 'as' is not supported "
                             "in WAVE kernels");
          skipStatement();
          return;
        }
      } while (consumeIf(PyTok::Comma));
      if (Open && !expectClose(PyTok::RParen, *Open,
                               "expected ')' to close the import list")) {
        skipStatement();
        return;
      }
    }
  }
  if (!is(PyTok::Newline) && !is(PyTok::Semi) && !is(PyTok::Eof)) {
    error(tok().loc(),
          "expected a newline after the import, found " + describe(tok()));
    skipStatement();
    return;
  }
  consumeIf(PyTok::Semi);
  consumeIf(PyTok::Newline);
}

bool PythonParser::rejectUnsupportedStatement() {
  const PyToken &T = tok();
  if (!T.is(PyTok::Ident))
    return false;
  StringRef W = T.Text;
  StringRef Msg = llvm::StringSwitch<StringRef>(W)
                      .Case("class", "classes are not supported in WAVE "
                                     "kernels")
                      .Case("with", "'with' statements are not supported in "
                                    "WAVE kernels")
                      .Case("async", "'async' is not supported in WAVE "
                                     "kernels")
                      .Case("await", "'await' is not supported in WAVE "
                                     "kernels")
                      .Cases({"global", "nonlocal"},
                             "global and nonlocal declarations are not "
                             "supported in WAVE kernels")
                      .Case("del", "'del' statements are not supported in "
                                   "WAVE kernels")
                      .Case("assert", "'assert' statements are not "
                                      "supported in WAVE kernels")
                      .Case("yield", "generators ('yield') are not supported "
                                     "in WAVE kernels")
                      .Case("lambda", "lambda expressions are not supported "
                                      "in WAVE kernels")
                      .Default("");
  if (W == "try" || W == "except" || W == "finally" || W == "raise") {
    error(T.loc(),
          "exception handling ('" + W + "') is not supported in WAVE kernels");
    return true;
  }
  if (W == "async" && isIdent("def", 1)) {
    error(T.loc(), "'async' functions are not supported in WAVE kernels");
    return true;
  }
  if (W == "match" && (isName(1) || is(PyTok::Number, 1))) {
    error(T.loc(), "'match' statements are not supported in WAVE kernels");
    return true;
  }
  if (Msg.empty())
    return false;
  error(T.loc(), Msg);
  return true;
}

//===----------------------------------------------------------------------===//
// Functions, decorators, types
//===----------------------------------------------------------------------===//

std::optional<hir::Scalar> wave::fe::pythonScalarType(StringRef Name) {
  return llvm::StringSwitch<std::optional<hir::Scalar>>(Name)
      .Case("f32", hir::Scalar::F32)
      .Case("float", hir::Scalar::F32)
      .Case("f16", hir::Scalar::F16)
      .Case("f64", hir::Scalar::F64)
      .Case("i32", hir::Scalar::I32)
      .Case("int", hir::Scalar::I32)
      .Case("u32", hir::Scalar::U32)
      .Case("bool", hir::Scalar::Bool)
      .Default(std::nullopt);
}

void PythonParser::parseFunctionDef(hir::Module &M) {
  Shapes.clear();
  ShapeParams.clear();
  FlatBuffers.clear();
  NonStructParams.clear();
  KernelMark K;
  while (is(PyTok::At))
    parseDecorator(K);
  if (!isIdent("def")) {
    if (!rejectUnsupportedStatement())
      error(tok().loc(),
            "expected 'def' after the decorator, found " + describe(tok()));
    skipStatement();
    return;
  }
  if (CurClass && K.IsKernel)
    error(tok().loc(), "a kernel cannot be a method; define it outside the "
                       "class");
  if (CurClass && K.ExportLoc.isValid()) {
    error(K.ExportLoc, "a method cannot be exported; export a function "
                       "outside the class");
    K.ExportLoc = SMLoc();
  }
  K.IsKernel &= !CurClass;
  consume();
  if (!isName()) {
    error(tok().loc(),
          "expected a function name after 'def', found " + describe(tok()));
    skipStatement();
    return;
  }
  const PyToken &NameTok = consume();
  auto F = std::make_unique<hir::FunctionDecl>(NameTok.loc(),
                                               NameTok.Text.str(), K.IsKernel);
  F->WorkgroupSize = K.WorkgroupSize;
  if (K.ExportLoc.isValid()) {
    F->Link = hir::Linkage::Export;
    F->ExportLoc = K.ExportLoc;
  }
  bool HeaderOk = parseParams(*F);
  if (HeaderOk && is(PyTok::Arrow)) {
    consume();
    std::optional<PyTypeRef> R = parseType();
    if (!R) {
      HeaderOk = false;
    } else if (R->IsBuffer) {
      error(R->Loc, "functions cannot return buffers in WAVE kernels");
    } else if (R->Struct) {
      F->ReturnTy = hir::Type::structType(R->Struct);
    } else if (R->Valid) {
      F->ReturnTy = hir::Type::scalar(R->S);
    }
  }
  if (!HeaderOk) {
    // Still parse the body, for its errors; the function is dropped.
    skipToLineEnd();
    parseIndentedBlock(NameTok.loc(), "function definition", /*Quiet=*/true);
    return;
  }
  if (CurClass && parseEllipsisBody()) {
    error(NameTok.loc(), "method '" + NameTok.Text +
                             "' has no body (only '...'); methods of a "
                             "dataclass are definitions");
    return;
  }
  if (parseEllipsisBody()) {
    if (F->Link == hir::Linkage::Export)
      error(F->ExportLoc, "'@export' marks a definition; '" + F->Name +
                              "' has no body (only '...')");
    F->Link = hir::Linkage::Declaration;
    M.Functions.push_back(std::move(F));
    return;
  }
  size_t BodyBegin = Pos;
  F->Body = parseSuite("function definition", /*AllowDocstring=*/true);
  // The implicit return is at the end of the body's last line: its
  // NEWLINE token sits just past the line's last token.
  for (size_t I = Pos; I-- > 0;)
    if (Toks[I].is(PyTok::Newline)) {
      F->EndLoc = Toks[I].loc();
      break;
    }
  if (CurClass)
    finishMethod(*F, NameTok, BodyBegin, Pos);
  M.Functions.push_back(std::move(F));
}

bool PythonParser::parseEllipsisBody() {
  if (!is(PyTok::Colon))
    return false;
  unsigned I = 1;
  bool Indented = false;
  if (is(PyTok::Newline, I) && is(PyTok::Indent, I + 1)) {
    I += 2;
    Indented = true;
    // A docstring first: strings, then the end of their line.
    unsigned J = I;
    while (is(PyTok::String, J))
      ++J;
    if (J != I && is(PyTok::Newline, J))
      I = J + 1;
  }
  if (!is(PyTok::Ellipsis, I))
    return false;
  ++I;
  if (!is(PyTok::Newline, I) && !is(PyTok::Eof, I))
    return false;
  if (is(PyTok::Newline, I))
    ++I;
  if (Indented) {
    if (!is(PyTok::Dedent, I) && !is(PyTok::Eof, I))
      return false; // More statements follow: a body, not a declaration.
    if (is(PyTok::Dedent, I))
      ++I;
  }
  Pos += I;
  return true;
}

void PythonParser::parseDecorator(KernelMark &K) {
  consume(); // '@'
  bool Qualified = false;
  if (isIdent("wave") && is(PyTok::Dot, 1)) {
    consume();
    consume();
    Qualified = true;
  }
  if (is(PyTok::Ident) && tok().Text == "export") {
    if (K.ExportLoc.isValid())
      error(tok().loc(), "duplicate '@export' decorator");
    K.ExportLoc = tok().loc();
    consume();
    if (is(PyTok::LParen)) {
      error(tok().loc(), "'@export' takes no arguments");
      skipToLineEnd();
    } else if (!is(PyTok::Newline)) {
      error(tok().loc(),
            "expected a newline after the decorator, found " + describe(tok()));
      skipToLineEnd();
    }
    consumeIf(PyTok::Newline);
    return;
  }
  if (!is(PyTok::Ident) || tok().Text != "kernel") {
    if (is(PyTok::Ident) && CurClass)
      error(tok().loc(), "decorator '@" +
                             llvm::Twine(Qualified ? "wave." : "") +
                             tok().Text +
                             "' is not supported on methods of a dataclass "
                             "in WAVE kernels");
    else if (is(PyTok::Ident))
      error(tok().loc(), "decorator '@" +
                             llvm::Twine(Qualified ? "wave." : "") +
                             tok().Text +
                             "' is not supported; kernels are marked with "
                             "'@kernel' or '@wave.kernel', exported "
                             "functions with '@export'");
    else
      error(tok().loc(),
            "expected a decorator name after '@', found " + describe(tok()));
    skipToLineEnd();
    consumeIf(PyTok::Newline);
    return;
  }
  if (K.IsKernel)
    error(tok().loc(), "duplicate '@kernel' decorator");
  K.IsKernel = true;
  consume();
  if (is(PyTok::LParen)) {
    const PyToken &Open = consume();
    while (!is(PyTok::RParen)) {
      if (isName() && is(PyTok::Equal, 1)) {
        const PyToken &Key = consume();
        consume();
        if (Key.Text == "workgroup_size") {
          parseWorkgroupSize(K);
        } else {
          error(Key.loc(), "unknown argument '" + Key.Text +
                               "' of '@kernel'; expected 'workgroup_size'");
          if (!parseExpr())
            break;
        }
      } else {
        error(tok().loc(), "'@kernel' takes only the keyword argument "
                           "'workgroup_size'");
        if (!parseExpr())
          break;
      }
      if (!consumeIf(PyTok::Comma))
        break;
    }
    if (!expectClose(PyTok::RParen, Open,
                     "expected ')' to close the decorator arguments")) {
      skipToLineEnd();
      consumeIf(PyTok::Newline);
      return;
    }
  }
  if (!is(PyTok::Newline)) {
    error(tok().loc(),
          "expected a newline after the decorator, found " + describe(tok()));
    skipToLineEnd();
  }
  consumeIf(PyTok::Newline);
}

/// `(x, y, z)`, `(x, y)`, `(x,)` or `x`: integer literals in 1..1024.
void PythonParser::parseWorkgroupSize(KernelMark &K) {
  SMLoc Loc = tok().loc();
  std::vector<hir::ExprPtr> Dims;
  if (is(PyTok::LParen)) {
    const PyToken &Open = consume();
    while (!is(PyTok::RParen)) {
      hir::ExprPtr E = parseExpr();
      if (!E)
        return;
      Dims.push_back(std::move(E));
      if (!consumeIf(PyTok::Comma))
        break;
    }
    if (!expectClose(PyTok::RParen, Open,
                     "expected ')' to close the workgroup size"))
      return;
  } else {
    hir::ExprPtr E = parseExpr();
    if (!E)
      return;
    Dims.push_back(std::move(E));
  }
  if (Dims.empty() || Dims.size() > 3) {
    error(Loc, "the workgroup size needs 1 to 3 dimensions, found " +
                   llvm::Twine(Dims.size()));
    return;
  }
  std::array<uint32_t, 3> Size = {1, 1, 1};
  bool Ok = true;
  for (size_t I = 0; I < Dims.size(); ++I) {
    const auto *L = dyn_cast<hir::IntLitExpr>(Dims[I].get());
    if (!L) {
      error(Dims[I]->loc(), "the workgroup size must be integer literals");
      Ok = false;
    } else if (L->Value < 1 || L->Value > 1024) {
      error(L->loc(), "workgroup size " + llvm::Twine(L->Value) +
                          " is out of range; each dimension must be "
                          "between 1 and 1024");
      Ok = false;
    } else {
      Size[I] = static_cast<uint32_t>(L->Value);
    }
  }
  if (Ok)
    K.WorkgroupSize = Size;
}

bool PythonParser::parseParams(hir::FunctionDecl &F) {
  if (!is(PyTok::LParen)) {
    error(tok().loc(),
          "expected '(' after the function name, found " + describe(tok()));
    return false;
  }
  const PyToken &Open = consume();
  std::vector<PyTypeRef> Types; // One per F.Params entry.
  while (!is(PyTok::RParen)) {
    if (is(PyTok::Star) || is(PyTok::StarStar) || is(PyTok::Slash)) {
      const PyToken &Mark = consume();
      if (Mark.is(PyTok::Slash))
        error(Mark.loc(), "positional-only parameters ('/') are not "
                          "supported in WAVE kernels");
      else if (Mark.is(PyTok::Star) && !isName())
        error(Mark.loc(), "keyword-only parameters ('*') are not supported "
                          "in WAVE kernels");
      else
        error(Mark.loc(),
              llvm::Twine(Mark.is(PyTok::Star) ? "'*args'" : "'**kwargs'") +
                  " parameters are not supported in WAVE "
                  "kernels");
      // Skip the rest of this parameter.
      while (!is(PyTok::Comma) && !is(PyTok::RParen) && !is(PyTok::Newline) &&
             !is(PyTok::Eof))
        consume();
    } else {
      if (!isName()) {
        error(tok().loc(),
              "expected a parameter name, found " + describe(tok()));
        return false;
      }
      const PyToken &Name = consume();
      hir::Type Ty = hir::Type::invalid();
      PyTypeRef Written;
      bool First = F.Params.empty() && Types.empty();
      if (CurClass && First && Name.Text != "self")
        error(Name.loc(), "a method of a dataclass takes 'self' first; "
                          "static and class methods are not supported in "
                          "WAVE kernels");
      if (CurClass && First && Name.Text == "self" && !is(PyTok::Colon)) {
        Ty = hir::Type::structType(CurClass); // `self`
      } else if (consumeIf(PyTok::Colon)) {
        std::optional<PyTypeRef> T = parseType();
        if (!T)
          return false;
        Written = *T;
        if (T->IsNone)
          error(T->Loc, "'None' is not a parameter type");
        else if (T->Struct)
          Ty = hir::Type::structType(T->Struct);
        else if (T->IsBuffer && T->Valid)
          Ty = hir::Type::buffer(T->S);
        else if (T->Valid)
          Ty = hir::Type::scalar(T->S);
        if (!T->Struct)
          NonStructParams[Name.Text] = true;
      } else if (!CurClass || !First) {
        error(Name.loc(), "parameter '" + Name.Text +
                              "' needs a type annotation, e.g. '" + Name.Text +
                              ": f32' or '" + Name.Text + ": f32[:]'");
      }
      if (is(PyTok::Equal)) {
        error(tok().loc(), "default parameter values are not supported in "
                           "WAVE kernels");
        consume();
        if (!parseExpr())
          return false;
      }
      F.Params.emplace_back(Name.loc(), Name.Text.str(), Ty);
      Types.push_back(std::move(Written));
    }
    if (!consumeIf(PyTok::Comma))
      break;
  }
  if (!expectClose(PyTok::RParen, Open,
                   "expected ')' to close the parameter list"))
    return false;
  resolveShapes(F, Types);
  return true;
}

std::optional<PyTypeRef> PythonParser::parseType() {
  PyTypeRef T;
  T.Loc = tok().loc();
  if (isIdent("None")) {
    consume();
    T.IsNone = true;
    T.Spelling = "None";
    return T;
  }
  if (is(PyTok::String)) {
    // A forward reference `"Complex"`: the name of a dataclass.
    const PyToken &Str = consume();
    StringRef Q = Str.Text;
    SMLoc In = SMLoc::getFromPointer(Q.data() + 1);
    StringRef Inner = Q.size() >= 2 &&
                              (Q.front() == '"' || Q.front() == '\'') &&
                              Q.back() == Q.front()
                          ? Q.drop_front().drop_back()
                          : StringRef();
    T.Spelling = Inner.str();
    if (ClassNames.count(Inner)) {
      T.Struct = OutMod->getStruct(Inner, In);
    } else if (!Inner.empty() && pythonScalarType(Inner)) {
      T.Valid = true;
      T.S = *pythonScalarType(Inner);
    } else {
      error(Str.loc(), "unknown type " + Q +
                           "; a quoted annotation names a '@dataclass' of "
                           "the file or a WAVE type such as 'f32'");
    }
    return T;
  }
  if (isIdent("wave") && is(PyTok::Dot, 1)) {
    consume();
    consume();
  }
  if (!is(PyTok::Ident)) {
    error(tok().loc(), "expected a type, found " + describe(tok()));
    return std::nullopt;
  }
  const PyToken &Name = consume();
  T.Spelling = Name.Text.str();
  if (is(PyTok::Dot)) {
    std::string Full = T.Spelling;
    while (is(PyTok::Dot) && is(PyTok::Ident, 1)) {
      consume();
      Full += "." + consume().Text.str();
    }
    error(Name.loc(), "qualified type '" + Full +
                          "' is not supported; write a WAVE type such as "
                          "'f32' or 'wave.f32'");
  } else if (std::optional<hir::Scalar> S = pythonScalarType(T.Spelling)) {
    T.Valid = true;
    T.S = *S;
  } else if (ClassNames.count(T.Spelling)) {
    T.Struct = OutMod->getStruct(T.Spelling, Name.loc());
  } else {
    error(Name.loc(), "unknown type '" + T.Spelling +
                          "'; expected f32, f16, f64, i32, u32, bool, int "
                          "or float");
  }
  if (is(PyTok::LBracket)) {
    consume();
    T.IsBuffer = true;
    if (is(PyTok::Colon) && is(PyTok::RBracket, 1)) {
      consume();
      consume();
    } else if (!parseShape(T)) {
      T.BadShape = true;
      T.Dims.clear();
      skipBracketRest();
    }
    if (T.Valid && T.S == hir::Scalar::Bool) {
      error(T.Loc, "buffers of 'bool' are not supported in WAVE kernels");
      T.Valid = false;
    }
    if (T.Struct) {
      error(T.Loc, "buffers of dataclasses are not supported in WAVE "
                   "kernels; pass one buffer per field");
      T.Struct = nullptr;
    }
  }
  return T;
}

bool PythonParser::parseShape(PyTypeRef &T) {
  auto Malformed = [&](const PyToken &At, llvm::StringRef What) {
    // An unknown element type was reported already.
    if (T.Valid)
      error(At.loc(), "buffer types are written '" + T.Spelling + "[:]', or '" +
                          T.Spelling +
                          "[M, N]' with each dimension an "
                          "integer parameter or literal; " +
                          What + " " + describe(At));
    return false;
  };
  do {
    if (is(PyTok::RBracket) && !T.Dims.empty())
      break; // A trailing comma: `f32[N,]`.
    const PyToken &D = tok();
    if (isName()) {
      T.Dims.push_back({D.loc(), D.Text.str(), 0});
    } else if (D.is(PyTok::Number) && !D.IsFloat) {
      if (D.IntValue < 1 || D.IntValue > UINT32_MAX) {
        error(D.loc(), "a buffer dimension must be between 1 and 4294967295, "
                       "found " +
                           describe(D));
        return false;
      }
      T.Dims.push_back({D.loc(), "", D.IntValue});
    } else {
      return Malformed(D, "found");
    }
    consume();
  } while (consumeIf(PyTok::Comma));
  if (!is(PyTok::RBracket))
    return Malformed(tok(), "expected ',' or ']' after a dimension, found");
  consume();
  if (T.Dims.size() > MaxDims) {
    error(T.Dims[MaxDims].Loc, "buffers have at most " + llvm::Twine(MaxDims) +
                                   " dimensions, found " +
                                   llvm::Twine(T.Dims.size()));
    T.BadShape = true;
    T.Dims.clear();
  }
  return true;
}

void PythonParser::resolveShapes(const hir::FunctionDecl &F,
                                 const std::vector<PyTypeRef> &Types) {
  for (size_t I = 0; I < Types.size(); ++I) {
    const PyTypeRef &T = Types[I];
    const hir::Param &P = F.Params[I];
    if (!T.IsBuffer)
      continue;
    if (T.Dims.empty() && !T.BadShape) {
      FlatBuffers.try_emplace(P.Name, T.Loc, T.Spelling + "[:]");
      continue;
    }
    PyShapedBuffer S;
    S.Loc = T.Loc;
    // An unknown element type was reported: so is nothing about its shape.
    S.Bad = T.BadShape || !T.Valid;
    if (S.Bad) {
      Shapes.try_emplace(P.Name, std::move(S));
      continue;
    }
    S.Spelling = T.Spelling + "[";
    for (const PyDim &D : T.Dims) {
      PyDim R = D;
      if (&D != &T.Dims.front())
        S.Spelling += ", ";
      S.Spelling += D.Name.empty() ? std::to_string(D.Value) : D.Name;
      if (!D.Name.empty()) {
        const hir::Param *Dim = nullptr;
        for (const hir::Param &Q : F.Params)
          if (Q.Name == D.Name) {
            Dim = &Q;
            break;
          }
        if (!Dim) {
          error(D.Loc, "the shape of '" + P.Name + "' names '" + D.Name +
                           "', which is not a parameter of '" + F.Name +
                           "'; a dimension is an 'i32' or 'u32' parameter "
                           "or an integer literal");
          S.Bad = true;
        } else if (!Dim->Ty.isScalar(hir::Scalar::U32) &&
                   !Dim->Ty.isScalar(hir::Scalar::I32)) {
          if (!Dim->Ty.isInvalid()) {
            error(D.Loc, "the shape of '" + P.Name + "' names '" + D.Name +
                             "', which is '" + hir::typeName(Dim->Ty) +
                             "'; a dimension must be an 'i32' or 'u32' "
                             "parameter");
            note(Dim->Loc, "'" + D.Name + "' is declared here");
          }
          S.Bad = true;
        } else {
          R.Signed = Dim->Ty.isScalar(hir::Scalar::I32);
          ShapeParams.try_emplace(D.Name, P.Name, D.Loc);
        }
      }
      S.Dims.push_back(R);
    }
    S.Spelling += "]";
    Shapes.try_emplace(P.Name, std::move(S));
  }
}

std::unique_ptr<hir::Module>
wave::fe::parsePython(const llvm::SourceMgr &SM, unsigned BufferID,
                      hir::DiagnosticEngine &Diags) {
  PythonParser P(SM.getMemoryBuffer(BufferID)->getBuffer(), Diags);
  return P.parseModule();
}
