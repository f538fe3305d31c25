//===- RustParser.cpp - Parser of the Rust kernel dialect: items ----------===//
//
// The entry point parseRust() and the item level of the Rust dialect
// (formats/kernel-languages.md, "Rust"): `#[kernel]` / `#[wave::kernel]`
// attributes with an optional `workgroup_size = (x, y, z)`, other outer
// and inner attributes (skipped), visibility, `use wave::...;`, `fn`
// items with slice and scalar parameters, and the rejection of every other
// item kind. Also the token cursor, diagnostics and error-recovery helpers
// shared by RustStmt.cpp and RustExpr.cpp.
//
//===----------------------------------------------------------------------===//
#include "RustParser.h"

#include "wave/Frontend/Frontend.h"
#include "wave/Frontend/NumberLiteral.h"

#include "llvm/ADT/StringSwitch.h"

using namespace wave;
using namespace wave::fe;
using llvm::SMLoc;

namespace {
/// Deepest nesting of blocks and expressions before "nesting too deep".
constexpr unsigned MaxDepth = 256;

} // namespace

bool wave::fe::isRustKeyword(llvm::StringRef S) {
  return llvm::StringSwitch<bool>(S)
      .Cases({"as", "break", "const", "continue", "crate", "else", "enum"},
             true)
      .Cases({"extern", "false", "fn", "for", "if", "impl", "in", "let"}, true)
      .Cases({"loop", "match", "mod", "move", "mut", "pub", "ref", "return"},
             true)
      .Cases({"self", "Self", "static", "struct", "super", "trait", "true"},
             true)
      .Cases({"type", "unsafe", "use", "where", "while", "async", "await"},
             true)
      .Cases({"dyn", "_"}, true)
      .Default(false);
}

RustBlock::RustBlock() = default;
RustBlock::RustBlock(RustBlock &&) = default;
RustBlock &RustBlock::operator=(RustBlock &&) = default;
RustBlock::~RustBlock() = default;

//===----------------------------------------------------------------------===//
// Tokens and diagnostics
//===----------------------------------------------------------------------===//

const RustToken &RustParser::tok(unsigned Ahead) const {
  if (TooDeep)
    return Toks.back();
  size_t I = Pos + Ahead;
  return I < Toks.size() ? Toks[I] : Toks.back();
}

RustToken RustParser::consume() {
  RustToken T = tok();
  if (!T.is(RustTok::Eof))
    ++Pos;
  return T;
}

bool RustParser::consumePunct(llvm::StringRef S) {
  if (!isPunct(S))
    return false;
  consume();
  return true;
}

void RustParser::error(SMLoc Loc, const llvm::Twine &Msg) {
  if (!TooDeep)
    Diags.error(Loc, Msg);
}

void RustParser::note(SMLoc Loc, const llvm::Twine &Msg) {
  if (!TooDeep)
    Diags.note(Loc, Msg);
}

std::string RustParser::describe(const RustToken &T) {
  if (T.is(RustTok::Eof))
    return "end of file";
  llvm::StringRef Text = T.Text;
  if (Text.size() > 20)
    return "'" + Text.take_front(20).str() + "...'";
  return "'" + Text.str() + "'";
}

bool RustParser::expectPunct(llvm::StringRef S, const llvm::Twine &Context) {
  if (consumePunct(S))
    return true;
  error(tok().loc(), "expected '" + S + "' " + Context + ", found " +
                         describe(tok()));
  return false;
}

bool RustParser::expectName(RustToken &Out, const llvm::Twine &What) {
  if (tok().is(RustTok::Ident) && !isRustKeyword(tok().Text)) {
    Out = consume();
    return true;
  }
  error(tok().loc(), "expected " + What + ", found " + describe(tok()));
  return false;
}

void RustParser::unexpected(const RustToken &T, const llvm::Twine &Context) {
  switch (T.K) {
  case RustTok::String:
    error(T.loc(), "string literals are not supported in WAVE kernels");
    return;
  case RustTok::Char:
    error(T.loc(), "character literals are not supported in WAVE kernels");
    return;
  case RustTok::Lifetime:
    error(T.loc(),
          "lifetimes and loop labels are not supported in WAVE kernels");
    return;
  case RustTok::Unknown:
    error(T.loc(), "unexpected character " + describe(T));
    return;
  default:
    error(T.loc(), Context + ", found " + describe(T));
  }
}

bool RustParser::enterNesting() {
  if (TooDeep)
    return false;
  if (++Depth > MaxDepth) {
    error(tok().loc(), "nesting too deep");
    TooDeep = true;
    --Depth;
    return false;
  }
  return true;
}

void RustParser::skipBalanced() {
  unsigned Level = 0;
  while (!atEof()) {
    const RustToken &T = tok();
    if (T.isPunct("(") || T.isPunct("[") || T.isPunct("{"))
      ++Level;
    else if (T.isPunct(")") || T.isPunct("]") || T.isPunct("}")) {
      consume();
      if (Level <= 1)
        return;
      --Level;
      continue;
    }
    consume();
    if (Level == 0)
      return;
  }
}

void RustParser::skipStatement() {
  unsigned Paren = 0, Brace = 0;
  while (!atEof()) {
    const RustToken &T = tok();
    if (T.isPunct("}")) {
      if (Brace == 0)
        return; // Closes the enclosing block.
      consume();
      if (--Brace == 0 && Paren == 0) {
        if (isIdent("else"))
          continue;
        consumePunct(";");
        return;
      }
      continue;
    }
    if (T.isPunct("{"))
      ++Brace;
    else if (T.isPunct("(") || T.isPunct("["))
      ++Paren;
    else if ((T.isPunct(")") || T.isPunct("]")) && Paren > 0)
      --Paren;
    else if (T.isPunct(";") && Brace == 0) {
      consume();
      return;
    }
    consume();
  }
}

void RustParser::skipItem() {
  unsigned Level = 0;
  bool First = true;
  while (!atEof()) {
    const RustToken &T = tok();
    if (Level == 0 && !First &&
        (T.isIdent("fn") || T.isPunct("#") || T.isIdent("pub") ||
         T.isIdent("use")))
      return;
    First = false;
    if (T.isPunct("(") || T.isPunct("[") || T.isPunct("{")) {
      ++Level;
    } else if (T.isPunct(")") || T.isPunct("]") || T.isPunct("}")) {
      consume();
      if (Level <= 1 && T.isPunct("}"))
        return;
      if (Level > 0)
        --Level;
      continue;
    } else if (T.isPunct(";") && Level == 0) {
      consume();
      return;
    }
    consume();
  }
}

//===----------------------------------------------------------------------===//
// Items
//===----------------------------------------------------------------------===//

std::unique_ptr<hir::Module> RustParser::parseModule() {
  auto M = std::make_unique<hir::Module>(hir::Language::Rust);
  Mod = M.get();
  collectStructNames();
  collectModuleConsts();
  while (!atEof()) {
    size_t Before = Pos;
    parseItem(*M);
    if (Pos == Before)
      consume();
  }
  return M;
}

void RustParser::parseItem(hir::Module &M) {
  Attrs A;
  while (isPunct("#")) {
    if (isPunct("!", 1)) {
      // Inner attribute `#![...]`: skipped.
      consume();
      consume();
      if (isPunct("["))
        skipBalanced();
      else
        error(tok().loc(), "expected '[' after '#!'");
      continue;
    }
    parseOuterAttribute(A);
  }
  if (isIdent("pub")) {
    consume();
    if (isPunct("("))
      skipBalanced(); // pub(crate), pub(super), pub(in path)
  }
  const RustToken &T = tok();
  if (T.is(RustTok::Eof)) {
    if (A.Kernel)
      error(A.KernelLoc, "expected a function after '#[kernel]'");
    return;
  }
  if (auto It = ConstItemEnds.find(Pos); It != ConstItemEnds.end()) {
    // A `const` or `enum` item: parsed by collectModuleConsts().
    if (A.Kernel)
      error(A.KernelLoc, "'kernel' applies to functions only");
    if (A.ExportLoc.isValid())
      error(A.ExportLoc, "'export' applies to functions only");
    Pos = It->second;
    return;
  }
  if (T.isIdent("fn")) {
    if (std::unique_ptr<hir::FunctionDecl> F = parseFunction(A))
      M.Functions.push_back(std::move(F));
    return;
  }
  if (T.isIdent("struct") || T.isIdent("impl")) {
    if (A.Kernel)
      error(A.KernelLoc, "'kernel' applies to functions only");
    if (A.ExportLoc.isValid())
      error(A.ExportLoc, "'export' applies to functions only");
    if (T.isIdent("struct"))
      parseStructItem(M);
    else
      parseImplItem(M);
    return;
  }
  if (T.isIdent("use")) {
    if (A.ExportLoc.isValid())
      error(A.ExportLoc, "'export' applies to functions only");
    parseUse();
    return;
  }
  if (T.isIdent("extern") &&
      (isPunct("{", 1) || (tok(1).is(RustTok::String) && isPunct("{", 2)))) {
    if (A.Kernel)
      error(A.KernelLoc, "'kernel' applies to functions only");
    if (A.ExportLoc.isValid())
      error(A.ExportLoc, "'export' applies to function definitions only");
    parseExternBlock(M);
    return;
  }
  llvm::StringRef W = T.Text;
  std::string Msg;
  if (T.is(RustTok::Ident)) {
    if (W == "const")
      Msg = "'const fn' is not supported in WAVE kernels";
    else if (W == "extern" && isIdent("crate", 1))
      Msg = "'extern crate' is not supported in WAVE kernels";
    else if (W == "macro_rules" && isPunct("!", 1))
      Msg = "macros ('macro_rules!') are not supported in WAVE kernels";
    else
      Msg = llvm::StringSwitch<std::string>(W)
                .Case("extern", "only 'extern \"C\" { fn ...; }' blocks "
                                "of function declarations are supported "
                                "in WAVE kernels")
                .Case("mod", "modules are not supported in WAVE kernels")
                .Case("union", "unions are not supported in WAVE kernels")
                .Case("trait", "traits are not supported in WAVE kernels")
                .Case("type", "type aliases are not supported in WAVE kernels")
                .Case("static",
                      "'static' items are not supported in WAVE kernels")
                .Case("unsafe",
                      "'unsafe' items are not supported in WAVE kernels")
                .Case("async",
                      "'async' functions are not supported in WAVE kernels")
                .Default("");
  }
  if (!Msg.empty())
    error(T.loc(), Msg);
  else if (T.isIdent("let") || T.is(RustTok::Number))
    error(T.loc(), "statements must be inside a function");
  else if (T.is(RustTok::Ident) || T.is(RustTok::Punct))
    error(T.loc(), "expected an item ('fn' or 'use wave::...'), found " +
                       describe(T));
  else
    unexpected(T, "expected an item ('fn' or 'use wave::...')");
  skipItem();
}

void RustParser::parseOuterAttribute(Attrs &A) {
  consume(); // '#'
  size_t Open = Pos;
  if (!isPunct("[")) {
    error(tok().loc(), "expected '[' after '#', found " + describe(tok()));
    return;
  }
  consume();
  SMLoc NameLoc = tok().loc();
  bool IsKernel = false;
  bool IsExport = false;
  if (isIdent("export") && isPunct("]", 1)) {
    IsExport = true;
    consume();
  } else if (isIdent("wave") && isPunct("::", 1) && isIdent("export", 2) &&
             isPunct("]", 3)) {
    IsExport = true;
    Pos += 3;
  }
  if (IsExport) {
    if (A.ExportLoc.isValid())
      error(NameLoc, "duplicate 'export' attribute");
    A.ExportLoc = NameLoc;
    consume(); // ']'
    return;
  }
  if (isIdent("kernel")) {
    IsKernel = true;
    consume();
  } else if (isIdent("wave") && isPunct("::", 1) && isIdent("kernel", 2)) {
    IsKernel = true;
    Pos += 3;
  }
  if (!IsKernel) {
    // #[inline], #[allow(...)], ...: skipped.
    Pos = Open;
    skipBalanced();
    return;
  }
  if (A.Kernel)
    error(NameLoc, "duplicate 'kernel' attribute");
  A.Kernel = true;
  A.KernelLoc = NameLoc;
  if (isPunct("("))
    parseKernelArgs(A);
  if (!consumePunct("]")) {
    error(tok().loc(), "expected ']' to close the attribute, found " +
                           describe(tok()));
    note(Toks[Open].loc(), "to match this '['");
    Pos = Open;
    skipBalanced();
  }
}

void RustParser::parseKernelArgs(Attrs &A) {
  size_t Open = Pos;
  consume(); // '('
  auto Fail = [&] {
    Pos = Open;
    skipBalanced();
  };
  while (!isPunct(")")) {
    if (!isIdent("workgroup_size")) {
      error(tok().loc(), "expected 'workgroup_size' in the kernel attribute, "
                         "found " +
                             describe(tok()));
      return Fail();
    }
    SMLoc WgLoc = consume().loc();
    if (!expectPunct("=", "after 'workgroup_size'"))
      return Fail();
    std::array<uint32_t, 3> Size = {1, 1, 1};
    bool Ok = true;
    if (isPunct("(")) {
      SMLoc LParen = consume().loc();
      unsigned N = 0;
      while (!isPunct(")")) {
        if (N == 3) {
          error(tok().loc(), "a workgroup size has at most 3 dimensions");
          return Fail();
        }
        std::optional<uint32_t> D = parseWorkgroupDim();
        if (!D)
          return Fail();
        Size[N++] = *D;
        if (!consumePunct(",") && !isPunct(")")) {
          error(tok().loc(), "expected ',' or ')' in the workgroup size, "
                             "found " +
                                 describe(tok()));
          note(LParen, "to match this '('");
          return Fail();
        }
      }
      consume(); // ')'
      if (N == 0) {
        error(WgLoc, "a workgroup size needs 1 to 3 dimensions");
        Ok = false;
      }
    } else {
      std::optional<uint32_t> D = parseWorkgroupDim();
      if (!D)
        return Fail();
      Size[0] = *D;
    }
    if (Ok) {
      if (A.WorkgroupSize)
        error(WgLoc, "duplicate 'workgroup_size'");
      A.WorkgroupSize = Size;
    }
    if (!consumePunct(",") && !isPunct(")")) {
      error(tok().loc(), "expected ')' after the kernel attribute arguments, "
                         "found " +
                             describe(tok()));
      return Fail();
    }
  }
  consume(); // ')'
}

std::optional<uint32_t> RustParser::parseWorkgroupDim() {
  const RustToken &T = tok();
  if (T.is(RustTok::Number)) {
    NumberLiteral N =
        scanNumber(T.Text, DigitSeparator::Underscore, /*CLegacyOctal=*/false);
    bool SuffixOk = N.Suffix.empty() || N.Suffix == "u32" ||
                    N.Suffix == "usize" || N.Suffix == "i32";
    if (N.Error.empty() && !N.IsFloat && SuffixOk && !N.Overflow &&
        N.IntValue >= 1 && N.IntValue <= 1024) {
      consume();
      return static_cast<uint32_t>(N.IntValue);
    }
  }
  error(T.loc(), "workgroup size values must be integer literals from 1 to "
                 "1024, found " +
                     describe(T));
  return std::nullopt;
}

void RustParser::parseUse() {
  SMLoc UseLoc = consume().loc();
  if (consumePunct("::")) {
    // `use ::wave::...`
  }
  // `use std::ops::{Add, Mul};` names the operator traits (RustStruct.cpp).
  bool Ops = (isIdent("std") || isIdent("core")) && isPunct("::", 1) &&
             isIdent("ops", 2);
  if (!Ops && (!isIdent("wave") || !(isPunct("::", 1) || isPunct(";", 1)))) {
    error(tok().loc(), "only 'use wave::...' and 'use std::ops::...' imports "
                       "are supported in WAVE kernels");
    skipItem();
    return;
  }
  // Everything under wave:: and std::ops:: is accepted and ignored.
  while (!atEof() && !isPunct(";")) {
    if (isPunct("{")) {
      skipBalanced();
      continue;
    }
    if (isIdent("fn") || isPunct("#") || isPunct("}")) {
      error(tok().loc(), "expected ';' after the 'use' declaration");
      note(UseLoc, "'use' is here");
      return;
    }
    consume();
  }
  if (!consumePunct(";"))
    error(tok().loc(), "expected ';' after the 'use' declaration");
}

void RustParser::parseExternBlock(hir::Module &M) {
  consume(); // 'extern'
  if (tok().is(RustTok::String)) {
    const RustToken &Abi = consume();
    if (Abi.Text != "\"C\"")
      error(Abi.loc(), "expected the ABI \"C\" after 'extern', found " +
                           describe(Abi));
  }
  SMLoc Open = consume().loc(); // '{'
  while (!atEof() && !isPunct("}")) {
    Attrs A;
    while (isPunct("#") && !isPunct("!", 1))
      parseOuterAttribute(A);
    if (A.Kernel)
      error(A.KernelLoc, "a kernel cannot be declared; kernels are defined "
                         "in the file that launches them");
    if (A.ExportLoc.isValid())
      error(A.ExportLoc, "'export' applies to function definitions only");
    if (isIdent("pub")) {
      consume();
      if (isPunct("("))
        skipBalanced();
    }
    if (isIdent("safe") || isIdent("unsafe"))
      consume(); // Rust 2024 item safety: every call is allowed anyway.
    if (!isIdent("fn")) {
      error(tok().loc(), "expected a function declaration ('fn NAME(...);') "
                         "in the extern block, found " +
                             describe(tok()));
      skipItem();
      continue;
    }
    Attrs None;
    if (std::unique_ptr<hir::FunctionDecl> F =
            parseFunction(None, /*Declaration=*/true))
      M.Functions.push_back(std::move(F));
  }
  if (!consumePunct("}")) {
    error(tok().loc(), "expected '}' to close the extern block, found " +
                           describe(tok()));
    note(Open, "to match this '{'");
  }
}

std::unique_ptr<hir::FunctionDecl> RustParser::parseFunction(const Attrs &A,
                                                             bool Declaration) {
  consume(); // 'fn'
  RustToken Name;
  if (!expectName(Name, "a function name")) {
    skipItem();
    return nullptr;
  }
  auto F = std::make_unique<hir::FunctionDecl>(Name.loc(), Name.Text.str(),
                                               A.Kernel);
  F->WorkgroupSize = A.WorkgroupSize;
  if (A.ExportLoc.isValid()) {
    F->Link = hir::Linkage::Export;
    F->ExportLoc = A.ExportLoc;
  }
  if (isPunct("<")) {
    error(tok().loc(), "generic functions are not supported in WAVE kernels");
    skipItem();
    return nullptr;
  }
  if (!isPunct("(")) {
    error(tok().loc(), "expected '(' after the function name, found " +
                           describe(tok()));
    skipItem();
    return nullptr;
  }
  SMLoc LParen = consume().loc();
  while (!isPunct(")")) {
    if (atEof() || isPunct("{")) {
      error(tok().loc(), "expected ')' to close the parameter list, found " +
                             describe(tok()));
      note(LParen, "to match this '('");
      break;
    }
    if (!parseParam(*F)) {
      // Skip to the next parameter.
      while (!atEof() && !isPunct(",") && !isPunct(")") && !isPunct("{")) {
        if (isPunct("(") || isPunct("["))
          skipBalanced();
        else
          consume();
      }
    }
    if (!consumePunct(",") && !isPunct(")") && !isPunct("{") && !atEof()) {
      error(tok().loc(), "expected ',' or ')' in the parameter list, found " +
                             describe(tok()));
      note(LParen, "to match this '('");
      while (!atEof() && !isPunct(")") && !isPunct("{"))
        consume();
    }
  }
  consumePunct(")");
  if (consumePunct("->")) {
    if (isPunct("(") && isPunct(")", 1)) {
      Pos += 2; // -> () is void.
    } else if (isPunct("!")) {
      error(consume().loc(), "the never type '!' is not supported in WAVE "
                             "kernels");
    } else if (std::optional<hir::Type> T = parseType("as the return type")) {
      F->ReturnTy = *T;
    } else {
      while (!atEof() && !isPunct("{") && !isPunct(";") && !isIdent("where"))
        consume();
    }
  }
  if (isIdent("where")) {
    error(tok().loc(), "'where' clauses are not supported in WAVE kernels");
    while (!atEof() && !isPunct("{"))
      consume();
  }
  if (Declaration) {
    if (isPunct("{")) {
      error(tok().loc(), "a function in an extern block has no body; "
                         "expected ';'");
      skipBalanced();
      return nullptr;
    }
    if (!expectPunct(";", "after the function declaration")) {
      skipItem();
      return nullptr;
    }
    F->Link = hir::Linkage::Declaration;
    return F;
  }
  if (!isPunct("{")) {
    if (isPunct(";"))
      error(tok().loc(), "a function needs a body; declare functions of "
                         "other objects in an 'extern \"C\" { ... }' block");
    else
      error(tok().loc(), "expected '{' to start the function body, found " +
                             describe(tok()));
    skipItem();
    return nullptr;
  }
  // Parameters hide constants of the same name; hidden variables are
  // numbered per function.
  size_t NamesMark = Names.size();
  for (const hir::Param &P : F->Params)
    declareLocal(P.Name);
  NextHidden = 0;
  HasSelf = CurImpl && !F->Params.empty() && F->Params[0].Name == "self";
  RustBlock B = parseBlock();
  HasSelf = false;
  Names.resize(NamesMark);
  F->EndLoc = Toks[Pos - 1].loc(); // The closing '}'.
  bool ReturnsValue = !F->ReturnTy.isVoid();
  // Statements a converted tail needs go before its return.
  auto FlushPre = [&] {
    for (hir::StmtPtr &S : Pre)
      B.Block->Body.push_back(std::move(S));
    Pre.clear();
  };
  if (B.TailMatch) {
    B.Block->Body.push_back(matchToStmt(
        std::move(B.TailMatch),
        ValueSink{ReturnsValue ? ValueSink::Return : ValueSink::Discard, ""}));
  } else if (B.TailIf && ReturnsValue &&
             (B.TailIf->ElseIf || B.TailIf->Else) &&
             ifNeedsStmts(*B.TailIf)) {
    B.Block->Body.push_back(
        ifToStmt(std::move(B.TailIf), ValueSink{ValueSink::Return, ""}));
  } else if (B.Tail) {
    // The body's value is the function's result; a void function's tail
    // call is a plain call.
    if (!ReturnsValue && llvm::isa<hir::CallExpr>(*B.Tail)) {
      SMLoc L = B.Tail->loc();
      B.Block->Body.push_back(
          std::make_unique<hir::ExprStmt>(L, std::move(B.Tail)));
    } else {
      SMLoc L = B.Tail->loc();
      B.Block->Body.push_back(
          std::make_unique<hir::ReturnStmt>(L, std::move(B.Tail)));
    }
  } else if (B.TailIf) {
    if (ReturnsValue) {
      SMLoc L = B.TailIf->Loc;
      hir::ExprPtr E = ifToExpr(std::move(B.TailIf));
      FlushPre();
      if (E)
        B.Block->Body.push_back(
            std::make_unique<hir::ReturnStmt>(L, std::move(E)));
    } else {
      B.Block->Body.push_back(ifToStmt(std::move(B.TailIf), ValueSink{}));
    }
  }
  F->Body = std::move(B.Block);
  return F;
}

bool RustParser::parseParam(hir::FunctionDecl &F) {
  bool Mutable = false;
  if (isIdent("mut")) {
    consume();
    Mutable = true;
  }
  if (isIdent("self") ||
      (isPunct("&") && (isIdent("self", 1) ||
                        (isIdent("mut", 1) && isIdent("self", 2))))) {
    if (CurImpl)
      return parseSelfParam(F, Mutable);
    error(tok().loc(), "'self' parameters are only allowed in the methods "
                       "of an 'impl' block");
    return false;
  }
  RustToken Name;
  if (!tok().is(RustTok::Ident) || isRustKeyword(tok().Text)) {
    if (isIdent("_") || isPunct("(") || isPunct("["))
      error(tok().loc(), "parameter patterns are not supported in WAVE "
                         "kernels; use a name");
    else
      error(tok().loc(), "expected a parameter name, found " +
                             describe(tok()));
    return false;
  }
  Name = consume();
  if (!expectPunct(":", "after the parameter name"))
    return false;
  if (isPunct("&") || isPunct("&&")) {
    SMLoc AmpLoc = consume().loc();
    if (tok().is(RustTok::Lifetime)) {
      error(tok().loc(), "lifetimes are not supported in WAVE kernels");
      consume();
    }
    bool Writable = false;
    if (isIdent("mut")) {
      consume();
      Writable = true;
    }
    if (!isPunct("[")) {
      if (tok().is(RustTok::Ident) && structFor(tok().Text, tok().loc()))
        error(AmpLoc, "structs are passed by value in WAVE kernels; write '" +
                          Name.Text + ": " + tok().Text + "'");
      else
        error(AmpLoc, "only slices ('&[T]' and '&mut [T]') can be passed by "
                      "reference in WAVE kernels");
      return false;
    }
    SMLoc LBracket = consume().loc();
    std::optional<hir::Scalar> Elem =
        parseScalarType("as the slice element type");
    if (!Elem)
      return false;
    if (isPunct(";")) {
      error(tok().loc(), "array types are not supported in WAVE kernels; use "
                         "a slice '&[T]'");
      return false;
    }
    if (!consumePunct("]")) {
      error(tok().loc(), "expected ']' to close the slice type, found " +
                             describe(tok()));
      note(LBracket, "to match this '['");
      return false;
    }
    F.Params.emplace_back(Name.loc(), Name.Text.str(),
                          hir::Type::buffer(*Elem, /*ReadOnly=*/!Writable),
                          Mutable);
    return true;
  }
  if (isPunct("*")) {
    error(tok().loc(), "raw pointers are not supported in WAVE kernels; use "
                       "'&[T]' or '&mut [T]'");
    return false;
  }
  std::optional<hir::Type> T = parseType("as the parameter type");
  if (!T)
    return false;
  F.Params.emplace_back(Name.loc(), Name.Text.str(), *T, Mutable);
  return true;
}

std::optional<hir::Scalar>
RustParser::parseScalarType(const llvm::Twine &Context) {
  const RustToken &T = tok();
  if (!T.is(RustTok::Ident)) {
    if (T.isPunct("&") || T.isPunct("&&"))
      error(T.loc(), "references are only supported as buffer parameters "
                     "('&[T]', '&mut [T]')");
    else if (T.isPunct("("))
      error(T.loc(), "a tuple type is not supported " + Context +
                         " in WAVE kernels (buffers and shared arrays hold "
                         "scalars: use one per element)");
    else if (T.isPunct("["))
      error(T.loc(), "array and slice types are only supported as buffer "
                     "parameters ('&[T]', '&mut [T]')");
    else
      error(T.loc(), "expected a type " + Context + ", found " +
                         describe(T));
    return std::nullopt;
  }
  RustToken Ty = consume();
  std::optional<hir::Scalar> S =
      llvm::StringSwitch<std::optional<hir::Scalar>>(Ty.Text)
          .Case("f32", hir::Scalar::F32)
          .Case("f64", hir::Scalar::F64)
          .Case("f16", hir::Scalar::F16)
          .Case("i32", hir::Scalar::I32)
          .Case("u32", hir::Scalar::U32)
          .Case("bool", hir::Scalar::Bool)
          .Case("usize", hir::Scalar::U32) // WAVE is 32-bit.
          .Case("isize", hir::Scalar::I32)
          .Default(std::nullopt);
  if (S)
    return S;
  bool Known = llvm::StringSwitch<bool>(Ty.Text)
                   .Cases({"u8", "i8", "u16", "i16", "u64", "i64", "u128",
                           "i128", "char", "str", "String", "Vec"},
                          true)
                   .Cases({"Option", "Box", "f128", "Self"}, true)
                   .Default(false);
  if (auto E = Enums.find(Ty.Text); E != Enums.end())
    return E->second->Repr; // A C-like enum is its representation.
  if (Known)
    error(Ty.loc(), "type '" + Ty.Text + "' is not supported in WAVE kernels "
                    "(scalars are f32, f64, f16, i32, u32 and bool)");
  else
    error(Ty.loc(), "unknown type '" + Ty.Text + "'");
  return std::nullopt;
}

std::optional<hir::Type> RustParser::parseType(const llvm::Twine &Context) {
  const RustToken &T = tok();
  if (T.isPunct("(")) {
    // A tuple type `(f32, u32)`, `(T,)`: an anonymous HIR struct whose
    // fields are named 0, 1, ...; `(T)` is T.
    SMLoc LParen = consume().loc();
    if (isPunct(")")) {
      error(LParen, "the unit type '()' is not supported " + Context +
                        " in WAVE kernels");
      consume();
      return std::nullopt;
    }
    std::vector<hir::Type> Elems;
    bool Comma = false;
    while (!isPunct(")")) {
      std::optional<hir::Type> E = parseType("in a tuple type");
      if (!E)
        return std::nullopt;
      Elems.push_back(*E);
      if (consumePunct(",")) {
        Comma = true;
        continue;
      }
      if (!isPunct(")")) {
        error(tok().loc(), "expected ',' or ')' in the tuple type, found " +
                               describe(tok()));
        note(LParen, "to match this '('");
        return std::nullopt;
      }
    }
    consume(); // ')'
    if (Elems.size() == 1 && !Comma)
      return Elems[0];
    return hir::Type::structType(Mod->getTuple(Elems, LParen));
  }
  if (T.is(RustTok::Ident))
    if (hir::StructDecl *S = structFor(T.Text, T.loc())) {
      consume();
      if (isPunct("<")) {
        error(tok().loc(), "generic arguments are not supported in WAVE "
                           "kernels");
        return std::nullopt;
      }
      return hir::Type::structType(S);
    }
  if (std::optional<hir::Scalar> S = parseScalarType(Context))
    return hir::Type::scalar(*S);
  return std::nullopt;
}

std::unique_ptr<hir::Module>
wave::fe::parseRust(const llvm::SourceMgr &SM, unsigned BufferID,
                    hir::DiagnosticEngine &Diags) {
  RustParser P(SM.getMemoryBuffer(BufferID)->getBuffer(), Diags);
  return P.parseModule();
}
