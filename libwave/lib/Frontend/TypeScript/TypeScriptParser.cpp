//===- TypeScriptParser.cpp - TypeScript dialect: functions and types -----===//
//
// The entry point wave::fe::parseTypeScript and the top level of the
// TypeScript dialect (formats/kernel-languages.md, "TypeScript"): function
// declarations marked as kernels by `export` or a `// @kernel` comment
// (with an optional `workgroup_size(x, y, z)`), `import ... from "wave"`,
// parameter types (`f32[]`, `Float32Array`, `readonly f32[]`,
// `ReadonlyArray<f32>` buffers and scalars), and the rejection of
// everything else a TypeScript module may hold at the top level (abstract
// classes, interfaces, type aliases, enums, namespaces, variables,
// statements). Classes of static methods are TypeScriptClass.cpp's.
//
//===----------------------------------------------------------------------===//
#include "TypeScriptParser.h"

#include "../StrayChar.h"

#include "wave/Frontend/Frontend.h"
#include "wave/Frontend/NumberLiteral.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"

using namespace wave;
using namespace wave::fe;
using hir::Scalar;
using hir::Type;

/// Nested blocks or expressions beyond this are "nesting too deep".
static constexpr unsigned MaxDepth = 256;

//===----------------------------------------------------------------------===//
// Tokens, diagnostics and recovery
//===----------------------------------------------------------------------===//

const TSToken &TSParser::tok(unsigned Ahead) {
  if (Fatal)
    return EofTok;
  while (Toks.size() <= Pos + Ahead) {
    if (!Toks.empty() && Toks.back().is(TSTok::Eof))
      return Toks.back();
    Toks.push_back(Lex.next());
  }
  return Toks[Pos + Ahead];
}

TSToken TSParser::consume() {
  TSToken T = tok();
  if (!T.is(TSTok::Eof))
    ++Pos;
  return T;
}

bool TSParser::consumeIf(llvm::StringRef S) {
  if (!is(S))
    return false;
  consume();
  return true;
}

void TSParser::error(llvm::SMLoc Loc, const llvm::Twine &Msg) {
  if (!Fatal)
    Diags.error(Loc, Msg);
}

void TSParser::note(llvm::SMLoc Loc, const llvm::Twine &Msg) {
  if (!Fatal)
    Diags.note(Loc, Msg);
}

std::string TSParser::describe(const TSToken &T) {
  switch (T.K) {
  case TSTok::Eof:
    return "end of file";
  case TSTok::String:
    return "a string literal";
  case TSTok::Template:
    return "a template literal";
  case TSTok::Unknown:
    return describeStrayChar(T.Text);
  default:
    return "'" + T.Text.str() + "'";
  }
}

bool TSParser::expect(llvm::StringRef S, const llvm::Twine &Context) {
  if (consumeIf(S))
    return true;
  const TSToken &T = tok();
  error(T.loc(),
        "expected '" + S + "' " + Context + ", found " + describe(T));
  return false;
}

void TSParser::skipBalanced() {
  // A stack of the open brackets: a `}` that closes nothing opened here
  // belongs to an enclosing block and stops the skip.
  std::string Stack;
  do {
    const TSToken &T = tok();
    if (T.is(TSTok::Punct) && T.Text.size() == 1) {
      char C = T.Text[0];
      if (C == '(' || C == '[' || C == '{') {
        Stack += C;
      } else if (C == ')' || C == ']' || C == '}') {
        char Open = C == ')' ? '(' : C == ']' ? '[' : '{';
        size_t At = Stack.rfind(Open);
        if (At == std::string::npos) {
          if (C == '}')
            return;
        } else {
          Stack.resize(At);
        }
      }
    }
    consume();
  } while (!Stack.empty() && !atEof());
}

/// Keywords that start a statement; after a line break they end a skip.
static bool isStatementKeyword(const TSToken &T) {
  return T.is(TSTok::Ident) &&
         llvm::is_contained({"let", "const", "var", "if", "while", "for", "do",
                             "return", "break", "continue", "switch", "try",
                             "throw", "function", "class"},
                            T.Text);
}

/// Words that start a top-level item; after a line break they end a skip.
static bool isTopLevelStart(const TSToken &T) {
  return T.is("@") ||
         (T.is(TSTok::Ident) &&
          llvm::is_contained({"function", "export", "import", "const", "let",
                              "var", "class", "interface", "type", "enum",
                              "namespace", "module", "declare", "async",
                              "abstract"},
                             T.Text));
}

/// A token that can end an expression: a line break after it before an
/// identifier ends the statement (automatic semicolon insertion).
static bool endsOperand(const TSToken &T) {
  return T.is(TSTok::Ident) || T.is(TSTok::Number) || T.is(TSTok::String) ||
         T.is(TSTok::Template) || T.is(")") || T.is("]");
}

void TSParser::skipStatement() {
  while (!atEof()) {
    const TSToken &T = tok();
    if (T.NewlineBefore &&
        (isStatementKeyword(T) ||
         (T.is(TSTok::Ident) && Pos > 0 && endsOperand(Toks[Pos - 1]))))
      return;
    if (T.is(";")) {
      consume();
      return;
    }
    if (T.is("}"))
      return;
    if (T.is("{")) {
      skipBalanced();
      return;
    }
    if (T.is("(") || T.is("["))
      skipBalanced();
    else
      consume();
  }
}

void TSParser::skipTopLevel() {
  while (!atEof()) {
    const TSToken &T = tok();
    if (T.NewlineBefore && isTopLevelStart(T))
      return;
    // In a class body, the `}` that closes the class and a line that
    // starts a member end the skip too.
    if (!CurClass.empty() &&
        (T.is("}") || (T.NewlineBefore && isMemberStart(T))))
      return;
    if (T.is(";")) {
      consume();
      return;
    }
    if (T.is("{")) {
      skipBalanced();
      consumeIf(";");
      return;
    }
    if (T.is("(") || T.is("["))
      skipBalanced();
    else
      consume();
  }
}

TSParser::DepthGuard::DepthGuard(TSParser &P) : P(P) {
  if (++P.Depth > MaxDepth && !P.Fatal) {
    P.error(P.tok().loc(), "nesting too deep");
    P.Fatal = true;
  }
}

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

/// Scalar type names of the dialect.
static std::optional<Scalar> scalarWord(llvm::StringRef W) {
  return llvm::StringSwitch<std::optional<Scalar>>(W)
      .Case("f32", Scalar::F32)
      .Cases({"f64", "number"}, Scalar::F64)
      .Case("f16", Scalar::F16)
      .Case("i32", Scalar::I32)
      .Case("u32", Scalar::U32)
      .Cases({"boolean", "bool"}, Scalar::Bool)
      .Default(std::nullopt);
}

/// Typed-array classes that are buffers.
static std::optional<Scalar> typedArrayWord(llvm::StringRef W) {
  return llvm::StringSwitch<std::optional<Scalar>>(W)
      .Case("Float32Array", Scalar::F32)
      .Case("Float64Array", Scalar::F64)
      .Case("Float16Array", Scalar::F16)
      .Case("Int32Array", Scalar::I32)
      .Case("Uint32Array", Scalar::U32)
      .Default(std::nullopt);
}

static bool isUnsupportedTypeWord(llvm::StringRef W) {
  return llvm::is_contained(
      {"string", "any", "unknown", "object", "bigint", "symbol", "never",
       "undefined", "null", "Object", "String", "Number", "Boolean",
       "Int8Array", "Uint8Array", "Uint8ClampedArray", "Int16Array",
       "Uint16Array", "BigInt64Array", "BigUint64Array", "ArrayBuffer",
       "DataView", "Function", "Map", "Set", "Promise"},
      W);
}

std::optional<Type> TSParser::parseType(llvm::StringRef What) {
  const TSToken &T = tok();
  if (!T.is(TSTok::Ident)) {
    error(T.loc(), "expected a " + What + " type, found " + describe(T));
    return std::nullopt;
  }
  TSToken W = consume();
  // Element type of an array form: a scalar name other than boolean.
  auto ElemType = [&](const TSToken &E) -> std::optional<Scalar> {
    std::optional<Scalar> S =
        E.is(TSTok::Ident) ? scalarWord(E.Text) : std::nullopt;
    if (!S) {
      error(E.loc(), "expected a buffer element type (f32, u32, i32, f16 or "
                     "f64), found " +
                         describe(E));
      return std::nullopt;
    }
    if (*S == Scalar::Bool) {
      error(E.loc(), "buffers of '" + E.Text + "' are not supported in WAVE "
                     "kernels; use u32[]");
      return std::nullopt;
    }
    return S;
  };
  auto RejectMoreDims = [&]() -> bool {
    if (is("[") && is("]", 1)) {
      error(tok().loc(),
            "arrays of arrays are not supported in WAVE kernels");
      consume();
      consume();
      return true;
    }
    return false;
  };

  if (W.Text == "readonly" || W.Text == "ReadonlyArray" ||
      W.Text == "Array") {
    bool ReadOnly = W.Text != "Array";
    std::optional<Scalar> S;
    if (W.Text == "readonly") {
      TSToken E = consume();
      S = ElemType(E);
      if (!S)
        return std::nullopt;
      if (!is("[") || !is("]", 1)) {
        error(tok().loc(), "expected '[]' after 'readonly " + E.Text +
                               "': only arrays can be 'readonly'");
        return std::nullopt;
      }
      consume();
      consume();
    } else {
      if (!expect("<", "after '" + W.Text + "'"))
        return std::nullopt;
      TSToken E = consume();
      S = ElemType(E);
      if (!S)
        return std::nullopt;
      if (!expect(">", "to close '" + W.Text + "<'"))
        return std::nullopt;
    }
    if (RejectMoreDims())
      return std::nullopt;
    return Type::buffer(*S, ReadOnly);
  }
  if (std::optional<Scalar> S = typedArrayWord(W.Text)) {
    if (RejectMoreDims())
      return std::nullopt;
    return Type::buffer(*S);
  }
  if (W.Text == "void") {
    if (What != "return") {
      error(W.loc(), "'void' is only valid as a return type");
      return std::nullopt;
    }
    return Type::voidType();
  }
  if (std::optional<Scalar> S = scalarWord(W.Text)) {
    if (is("[") && is("]", 1)) {
      std::optional<Scalar> E = ElemType(W);
      consume();
      consume();
      if (!E || RejectMoreDims())
        return std::nullopt;
      return Type::buffer(*E);
    }
    return Type::scalar(*S);
  }
  if (hir::StructDecl *S = plainStruct(W.Text, W.loc())) {
    if (is("[") && is("]", 1)) {
      error(tok().loc(), "arrays of classes are not supported in WAVE "
                         "kernels");
      return std::nullopt;
    }
    return Type::structType(S);
  }
  if (isUnsupportedTypeWord(W.Text))
    error(W.loc(), "type '" + W.Text + "' is not supported in WAVE kernels");
  else
    error(W.loc(), "unknown type '" + W.Text + "'");
  if (is("<"))
    while (!atEof() && !consumeIf(">") && !is(")") && !is("{") && !is(","))
      consume();
  while (is("[") && is("]", 1)) {
    consume();
    consume();
  }
  return std::nullopt;
}

//===----------------------------------------------------------------------===//
// Top level
//===----------------------------------------------------------------------===//

std::unique_ptr<hir::Module> TSParser::parseModule() {
  M = std::make_unique<hir::Module>(hir::Language::TypeScript);
  prescanClasses();
  while (!atEof()) {
    size_t Start = Pos;
    parseTopLevel();
    // Every item consumes something, so that the loop ends.
    if (Pos == Start)
      consume();
  }
  resolveClassCalls();
  return std::move(M);
}

bool TSParser::rejectTopLevelKeyword() {
  const TSToken &T = tok();
  if (!T.is(TSTok::Ident))
    return false;
  llvm::StringRef W = T.Text;
  const char *Msg = nullptr;
  if (W == "const" && isIdent("enum", 1))
    Msg = "enums are not supported in WAVE kernels";
  else if (W == "const" || W == "let" || W == "var")
    Msg = "top-level variables are not supported in WAVE kernels";
  else if (W == "abstract" && isIdent("class", 1))
    Msg = "abstract classes are not supported in WAVE kernels";
  else if (W == "interface")
    Msg = "interfaces are not supported in WAVE kernels";
  else if (W == "type" && tok(1).is(TSTok::Ident))
    Msg = "type aliases are not supported in WAVE kernels";
  else if (W == "enum")
    Msg = "enums are not supported in WAVE kernels";
  else if (W == "namespace" || (W == "module" && !tok(1).is(TSTok::Punct)))
    Msg = "namespaces are not supported in WAVE kernels";
  else if (W == "declare")
    Msg = "'declare' is supported only before 'function' in WAVE kernels";
  else if (W == "async" && isIdent("function", 1))
    Msg = "async functions are not supported in WAVE kernels";
  else if (W == "default")
    Msg = "default exports are not supported in WAVE kernels";
  if (!Msg)
    return false;
  error(T.loc(), Msg);
  consume();
  skipTopLevel();
  return true;
}

void TSParser::parseTopLevel() {
  if (consumeIf(";"))
    return;
  if (isIdent("import")) {
    parseImport();
    return;
  }
  llvm::StringRef Comment = tok().KernelComment;
  llvm::SMLoc ExportComment = tok().ExportComment;
  bool DecoratorKernel = false;
  if (is("@")) {
    llvm::SMLoc First = tok().loc();
    std::vector<size_t> Decorators = skipDecorators(&DecoratorKernel);
    // TypeScript allows decorators on classes and their members only; on a
    // class they are not WAVE's (one error each), before anything else
    // they are not TypeScript (one error for the group).
    bool OnClass = isIdent("class") ||
                   (isIdent("export") && isIdent("class", 1)) ||
                   (isIdent("abstract") && isIdent("class", 1));
    if (OnClass) {
      for (size_t At : Decorators)
        error(Toks[At].loc(), "decorators on classes are not supported in "
                              "WAVE kernels; put '@kernel' on a static "
                              "method of the class");
    } else {
      error(First, "decorators are not valid TypeScript on functions; "
                   "mark a kernel with a '// @kernel' comment or decorate "
                   "a static method of a class with '@kernel'");
    }
    if (Comment.empty())
      Comment = tok().KernelComment;
    if (!ExportComment.isValid())
      ExportComment = tok().ExportComment;
  }
  if (isIdent("class") || (isIdent("export") && isIdent("class", 1))) {
    if (isIdent("export"))
      consume();
    if (!Comment.empty() || ExportComment.isValid())
      error(!Comment.empty() ? llvm::SMLoc::getFromPointer(Comment.data())
                             : ExportComment,
            "'// @kernel' and '// @export' comments mark functions; in a "
            "class, decorate a static method with '@kernel'");
    parseClass();
    return;
  }
  if (isIdent("declare") && isIdent("function", 1)) {
    consume();
    std::optional<std::array<uint32_t, 3>> WG;
    if (!Comment.empty())
      parseKernelComment(Comment, WG);
    parseFunction(DecoratorKernel || !Comment.empty(), WG, ExportComment,
                  /*Declaration=*/true);
    return;
  }
  bool Exported = false;
  if (isIdent("export")) {
    consume();
    Exported = true;
    if (Comment.empty())
      Comment = tok().KernelComment;
    if (!ExportComment.isValid())
      ExportComment = tok().ExportComment;
    if (!isIdent("function")) {
      if (rejectTopLevelKeyword())
        return;
      error(tok().loc(), "only functions can be exported in WAVE kernels");
      skipTopLevel();
      return;
    }
  }
  if (isIdent("function")) {
    std::optional<std::array<uint32_t, 3>> WG;
    if (!Comment.empty())
      parseKernelComment(Comment, WG);
    parseFunction(Exported || DecoratorKernel || !Comment.empty(), WG,
                  ExportComment);
    return;
  }
  if (rejectTopLevelKeyword())
    return;
  const TSToken &T = tok();
  if (T.is(TSTok::Ident) || T.is(TSTok::Number))
    error(T.loc(), "top-level statements are not supported in WAVE kernels; "
                   "expected a function declaration");
  else
    error(T.loc(), "expected a function declaration, found " + describe(T));
  skipTopLevel();
}

void TSParser::parseImport() {
  TSToken Import = consume();
  std::string Alias;
  bool Ok = true;
  if (isIdent("type")) {
    error(tok().loc(), "type-only imports are not supported in WAVE kernels");
    skipTopLevel();
    return;
  }
  if (consumeIf("{")) {
    while (!is("}") && !atEof()) {
      if (!tok().is(TSTok::Ident)) {
        error(tok().loc(), "expected a name to import, found " +
                               describe(tok()));
        Ok = false;
        break;
      }
      consume();
      if (isIdent("as")) {
        error(tok().loc(),
              "renaming imports is not supported in WAVE kernels");
        consume();
        if (tok().is(TSTok::Ident))
          consume();
      }
      if (!consumeIf(","))
        break;
    }
    if (Ok && !expect("}", "to close the import list"))
      Ok = false;
  } else if (consumeIf("*")) {
    if (!isIdent("as")) {
      error(tok().loc(), "expected 'as' after 'import *', found " +
                             describe(tok()));
      Ok = false;
    } else {
      consume();
      if (tok().is(TSTok::Ident)) {
        Alias = consume().Text.str();
      } else {
        error(tok().loc(), "expected a namespace name, found " +
                               describe(tok()));
        Ok = false;
      }
    }
  } else if (tok().is(TSTok::Ident) && !isIdent("from")) {
    error(tok().loc(), "default imports are not supported in WAVE kernels; "
                       "use 'import * as wave from \"wave\"'");
    Ok = false;
  }
  bool SideEffectOnly = tok().is(TSTok::String);
  if (Ok && !SideEffectOnly && !isIdent("from")) {
    error(tok().loc(), "expected 'from' in the import, found " +
                           describe(tok()));
    Ok = false;
  }
  if (!Ok) {
    skipTopLevel();
    return;
  }
  if (!SideEffectOnly)
    consume();
  const TSToken &Mod = tok();
  if (!Mod.is(TSTok::String)) {
    error(Mod.loc(), "expected a module name string, found " +
                         describe(Mod));
    skipTopLevel();
    return;
  }
  llvm::StringRef Name = Mod.Text;
  if (Name.size() < 2 || Name.back() != Name.front()) {
    error(Mod.loc(), "unterminated string literal");
  } else if (Name.drop_front().drop_back() != "wave") {
    error(Mod.loc(), "only the 'wave' module can be imported in WAVE "
                     "kernels, found '" +
                         Name.drop_front().drop_back() + "'");
    note(Import.loc(), "imports of other modules are not supported");
  } else if (!Alias.empty() && Alias != "wave") {
    WaveAlias = Alias;
  }
  consume();
  if (!endStatement("the import"))
    skipTopLevel();
}

void TSParser::parseKernelComment(
    llvm::StringRef Comment, std::optional<std::array<uint32_t, 3>> &WGSize) {
  llvm::StringRef Rest = Comment.drop_front(7).ltrim(" \t");
  if (Rest.empty())
    return;
  TSLexer Sub(Rest, Diags);
  TSToken T = Sub.next();
  if (!T.isIdent("workgroup_size")) {
    error(T.loc(), "expected 'workgroup_size(...)' after '@kernel', found " +
                       describe(T));
    return;
  }
  TSToken Open = Sub.next();
  if (!Open.is("(")) {
    error(Open.loc(), "expected '(' after 'workgroup_size', found " +
                          describe(Open));
    return;
  }
  std::array<uint32_t, 3> Dims = {1, 1, 1};
  unsigned N = 0;
  bool Ok = true;
  while (true) {
    T = Sub.next();
    if (!T.is(TSTok::Number)) {
      error(T.loc(), "expected an integer workgroup size, found " +
                         describe(T));
      return;
    }
    NumberLiteral L = scanNumber(T.Text, DigitSeparator::Underscore,
                                 /*CLegacyOctal=*/false);
    if (L.IsFloat || !L.Suffix.empty() || !L.Error.empty() || L.Overflow ||
        L.IntValue < 1 || L.IntValue > 1024) {
      error(T.loc(), "workgroup size '" + T.Text +
                         "' must be an integer from 1 to 1024");
      Ok = false;
    } else if (N < 3) {
      Dims[N] = static_cast<uint32_t>(L.IntValue);
    }
    if (++N == 4) {
      error(T.loc(), "workgroup_size takes at most 3 values");
      return;
    }
    T = Sub.next();
    if (T.is(")"))
      break;
    if (!T.is(",")) {
      error(T.loc(), "expected ',' or ')' in 'workgroup_size', found " +
                         describe(T));
      note(Open.loc(), "to match this '('");
      return;
    }
  }
  T = Sub.next();
  if (!T.is(TSTok::Eof)) {
    error(T.loc(), "unexpected " + describe(T) + " after 'workgroup_size(...)'");
    return;
  }
  if (Ok)
    WGSize = Dims;
}

//===----------------------------------------------------------------------===//
// Functions
//===----------------------------------------------------------------------===//

/// Reserved words of TypeScript that cannot name a variable or function.
static bool isReservedWord(llvm::StringRef W) {
  return llvm::is_contained(
      {"break",  "case",   "catch",      "class",    "const",  "continue",
       "debugger", "default", "delete",  "do",       "else",   "enum",
       "export", "extends", "false",     "finally",  "for",    "function",
       "if",     "import", "in",         "instanceof", "new",  "null",
       "return", "super",  "switch",     "this",     "throw",  "true",
       "try",    "typeof", "var",        "void",     "while",  "with",
       "let",    "yield",  "await"},
      W);
}

bool TSParser::parseParam(hir::FunctionDecl &F) {
  if (is("...")) {
    error(tok().loc(), "rest parameters are not supported in WAVE kernels");
    consume();
  }
  if (is("{") || is("[")) {
    error(tok().loc(),
          "destructuring parameters are not supported in WAVE kernels");
    return false;
  }
  if (isIdent("this")) {
    error(tok().loc(), "'this' parameters are not supported in WAVE kernels");
    return false;
  }
  // A parameter property of a constructor of a class of plain data
  // (`constructor(public re: f32)`): also a field (finishConstructor).
  bool Property = false;
  while (InConstructor && tok().is(TSTok::Ident) &&
         llvm::is_contained({"public", "private", "protected", "readonly"},
                            tok().Text) &&
         tok(1).is(TSTok::Ident)) {
    consume();
    Property = true;
  }
  const TSToken &N = tok();
  if (!N.is(TSTok::Ident) || isReservedWord(N.Text)) {
    error(N.loc(), "expected a parameter name, found " + describe(N));
    return false;
  }
  TSToken Name = consume();
  if (Property)
    CtorProperties.push_back(Name);
  if (is("?")) {
    error(tok().loc(),
          "optional parameters are not supported in WAVE kernels");
    consume();
  }
  if (!is(":")) {
    error(Name.loc(),
          "parameter '" + Name.Text + "' needs a type annotation");
    if (!is("="))
      return is(",") || is(")");
  } else {
    consume();
    std::optional<Type> Ty = parseType("parameter");
    if (!Ty)
      return false;
    // A class-typed parameter is a copy of the caller's value; JavaScript
    // would share the object, so its fields are read-only (as `this` in a
    // method that assigns none).
    F.Params.emplace_back(Name.loc(), Name.Text.str(), *Ty,
                          /*Mutable=*/!Ty->isStruct());
  }
  if (is("=")) {
    error(tok().loc(),
          "default parameter values are not supported in WAVE kernels");
    consume();
    parseConditional();
  }
  return true;
}

void TSParser::parseFunction(bool IsKernel,
                             std::optional<std::array<uint32_t, 3>> WGSize,
                             llvm::SMLoc ExportLoc, bool Declaration) {
  TSToken Kw = consume(); // function
  if (is("*")) {
    error(tok().loc(), "generator functions are not supported in WAVE kernels");
    consume();
  }
  const TSToken &N = tok();
  if (!N.is(TSTok::Ident) || isReservedWord(N.Text)) {
    error(N.loc(), "expected a function name after 'function', found " +
                       describe(N));
    skipTopLevel();
    return;
  }
  TSToken Name = consume();
  TopLevelFunctions.insert(Name.Text);
  parseFunctionRest(Kw.loc(), Name, IsKernel, WGSize, ExportLoc, Declaration);
}

void TSParser::parseFunctionRest(llvm::SMLoc KwLoc, const TSToken &Name,
                                 bool IsKernel,
                                 std::optional<std::array<uint32_t, 3>> WGSize,
                                 llvm::SMLoc ExportLoc, bool Declaration) {
  auto F = std::make_unique<hir::FunctionDecl>(Name.loc(), Name.Text.str(),
                                               IsKernel);
  F->WorkgroupSize = WGSize;
  if (ExportLoc.isValid()) {
    F->Link = hir::Linkage::Export;
    F->ExportLoc = ExportLoc;
  }
  if (is("<")) {
    error(tok().loc(), "generic functions are not supported in WAVE kernels");
    while (!atEof() && !is("(") && !is("{"))
      consume();
  }
  TSToken Open = tok();
  if (!expect("(", "after the function name")) {
    skipTopLevel();
    return;
  }
  while (!is(")") && !atEof() && !is("{")) {
    if (!parseParam(*F)) {
      // Skip to the next parameter or the end of the list.
      while (!atEof() && !is(",") && !is(")") && !is("{")) {
        if (is("(") || is("["))
          skipBalanced();
        else
          consume();
      }
    }
    if (is(")"))
      break;
    if (!is(",")) {
      error(tok().loc(), "expected ',' or ')' in the parameter list, found " +
                             describe(tok()));
      note(Open.loc(), "to match this '('");
      while (!atEof() && !is(")") && !is("{"))
        consume();
      break;
    }
    consume(); // ,
  }
  consumeIf(")");
  if (consumeIf(":")) {
    if (std::optional<Type> Ty = parseType("return")) {
      if (Ty->K == Type::Buffer)
        error(KwLoc, "functions cannot return buffers in WAVE kernels");
      else
        F->ReturnTy = *Ty;
    }
  }
  if (Declaration) {
    if (ExportLoc.isValid())
      error(ExportLoc, "'@export' marks a definition; '" + F->Name +
                           "' is only declared");
    if (is("{")) {
      error(tok().loc(), "a 'declare function' has no body; expected ';'");
      skipBalanced();
      return;
    }
    if (!endStatement("the function declaration")) {
      skipTopLevel();
      return;
    }
    F->Link = hir::Linkage::Declaration;
    M->Functions.push_back(std::move(F));
    return;
  }
  if (!is("{")) {
    if (is(";") || atImplicitSemicolon())
      error(tok().loc(), "function declarations without a body are not "
                         "supported in WAVE kernels; declare functions of "
                         "other objects with 'declare function'");
    else
      error(tok().loc(), "expected '{' to begin the body of '" + Name.Text +
                             "', found " + describe(tok()));
    skipTopLevel();
    return;
  }
  F->Body = parseBlock();
  F->EndLoc = Toks[Pos - 1].loc(); // The closing '}'.
  M->Functions.push_back(std::move(F));
}

bool TSParser::isQualifier(llvm::StringRef Name) const {
  return Name == "wave" || Name == "Math" ||
         (!WaveAlias.empty() && Name == WaveAlias);
}

std::unique_ptr<hir::Module>
wave::fe::parseTypeScript(const llvm::SourceMgr &SM, unsigned BufferID,
                          hir::DiagnosticEngine &Diags) {
  TSParser P(SM.getMemoryBuffer(BufferID)->getBuffer(), Diags);
  return P.parseModule();
}
