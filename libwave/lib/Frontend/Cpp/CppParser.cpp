//===- CppParser.cpp - C++ kernel dialect: functions and types ------------===//
//
// The entry point wave::fe::parseCpp and the top level of the C++ dialect
// (formats/kernel-languages.md, "C++"): function definitions marked as
// kernels by `__kernel` or `[[wave::kernel]]`, `[[wave::workgroup_size]]`,
// parameters (`T*`, `T[]`, `const T*` buffers and scalars), the type words
// of the dialect, and the rejection of everything else a C++ file may hold
// at namespace scope (classes, templates, globals, namespaces, ...).
//
//===----------------------------------------------------------------------===//
#include "CppParser.h"

#include "../StrayChar.h"

#include "wave/Frontend/Frontend.h"
#include "wave/Frontend/NumberLiteral.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"

using namespace wave;
using namespace wave::fe;
using hir::Scalar;

/// Nested blocks or expressions beyond this are "nesting too deep".
static constexpr unsigned MaxDepth = 256;

//===----------------------------------------------------------------------===//
// Tokens and diagnostics
//===----------------------------------------------------------------------===//

CppToken CppParser::tok(unsigned Ahead) {
  if (Fatal)
    return EofTok;
  while (Toks.size() <= Pos + Ahead) {
    if (!Toks.empty() && Toks.back().is(CppTok::Eof))
      return Toks.back();
    Toks.push_back(Lex.next());
  }
  return Toks[Pos + Ahead];
}

CppToken CppParser::consume() {
  CppToken T = tok();
  if (!T.is(CppTok::Eof))
    ++Pos;
  return T;
}

bool CppParser::consumeIf(CppTok K) {
  if (!is(K))
    return false;
  consume();
  return true;
}

void CppParser::error(llvm::SMLoc Loc, const llvm::Twine &Msg) {
  if (!Fatal)
    Diags.error(Loc, Msg);
}

void CppParser::note(llvm::SMLoc Loc, const llvm::Twine &Msg) {
  if (!Fatal)
    Diags.note(Loc, Msg);
}

std::string CppParser::describe(const CppToken &T) {
  switch (T.K) {
  case CppTok::Eof:
    return "end of file";
  case CppTok::String:
    return "a string literal";
  case CppTok::Char:
    return "a character literal";
  case CppTok::Unknown:
    return describeStrayChar(T.Text);
  default:
    return "'" + T.Text.str() + "'";
  }
}

bool CppParser::expect(CppTok K, const llvm::Twine &Context) {
  if (consumeIf(K))
    return true;
  const CppToken &T = tok();
  if (T.is(CppTok::Comma))
    error(T.loc(), "the comma operator is not supported in WAVE kernels");
  else
    error(T.loc(), "expected '" + cppTokSpelling(K) + "' " + Context +
                       ", found " + describe(T));
  return false;
}

void CppParser::skipBalanced() {
  CppTok Open = tok().K;
  CppTok Close = Open == CppTok::LParen     ? CppTok::RParen
                 : Open == CppTok::LBracket ? CppTok::RBracket
                                            : CppTok::RBrace;
  consume();
  unsigned Level = 1;
  while (!is(CppTok::Eof)) {
    CppTok K = consume().K;
    if (K == Open)
      ++Level;
    else if (K == Close && --Level == 0)
      return;
  }
}

void CppParser::skipStatement() {
  while (!is(CppTok::Eof)) {
    switch (tok().K) {
    case CppTok::Semi:
      consume();
      return;
    case CppTok::RBrace:
      return;
    case CppTok::LBrace:
      skipBalanced();
      return;
    case CppTok::LParen:
    case CppTok::LBracket:
      skipBalanced();
      break;
    default:
      consume();
      break;
    }
  }
}

CppParser::DepthGuard::DepthGuard(CppParser &P) : P(P) {
  if (++P.Depth > MaxDepth && !P.Fatal) {
    P.error(P.tok().loc(), "nesting too deep");
    P.Fatal = true;
  }
}

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

/// Scalar type words of the dialect (one token each).
static std::optional<Scalar> scalarWord(llvm::StringRef W) {
  return llvm::StringSwitch<std::optional<Scalar>>(W)
      .Cases({"float", "f32"}, Scalar::F32)
      .Cases({"double", "f64"}, Scalar::F64)
      .Cases({"half", "_Float16", "f16"}, Scalar::F16)
      .Cases({"int32_t", "i32"}, Scalar::I32)
      .Cases({"uint32_t", "uint", "u32"}, Scalar::U32)
      .Case("bool", Scalar::Bool)
      .Default(std::nullopt);
}

/// Integer (and other) type words the dialect rejects as not 32-bit.
static bool isUnsupportedIntWord(llvm::StringRef W) {
  return llvm::is_contained(
      {"long", "short", "char", "wchar_t", "char8_t", "char16_t", "char32_t",
       "int8_t", "int16_t", "int64_t", "uint8_t", "uint16_t", "uint64_t",
       "size_t", "ssize_t", "ptrdiff_t", "intptr_t", "uintptr_t", "__int128",
       "i8", "i16", "i64", "u8", "u16", "u64"},
      W);
}

/// Words that only qualify a parameter or declaration and are ignored.
static bool isIgnoredQualifier(llvm::StringRef W) {
  return llvm::is_contained(
      {"__restrict__", "__restrict", "__global", "__global__"}, W);
}

static bool isTypeWord(llvm::StringRef W) {
  return scalarWord(W) || isUnsupportedIntWord(W) || W == "int" ||
         W == "signed" || W == "unsigned" || W == "void";
}

bool CppParser::isTypeStart(unsigned Ahead, bool AllowAuto) {
  const CppToken &T = tok(Ahead);
  if (!T.is(CppTok::Ident))
    return false;
  if (T.Text == "std")
    return is(CppTok::ColonColon, Ahead + 1) &&
           tok(Ahead + 2).is(CppTok::Ident) && isTypeWord(tok(Ahead + 2).Text);
  return isTypeWord(T.Text) || T.Text == "const" || T.Text == "volatile" ||
         isIgnoredQualifier(T.Text) || (AllowAuto && T.Text == "auto");
}

std::optional<Scalar> CppParser::functionalCastType(unsigned Ahead,
                                                    unsigned &Words) {
  const CppToken &T = tok(Ahead);
  if (!T.is(CppTok::Ident))
    return std::nullopt;
  llvm::StringRef W = T.Text;
  Words = 1;
  if (W == "std" && is(CppTok::ColonColon, Ahead + 1) &&
      tok(Ahead + 2).is(CppTok::Ident)) {
    W = tok(Ahead + 2).Text;
    Words = 3;
    if (W != "int32_t" && W != "uint32_t")
      return std::nullopt;
  }
  // f32(x) and the other WAVE names stay calls (Sema makes them casts).
  if (Words == 1 && llvm::is_contained({"f32", "f16", "f64", "i32", "u32"}, W))
    return std::nullopt;
  if (W == "int" || W == "signed")
    return Scalar::I32;
  if (W == "unsigned")
    return Scalar::U32;
  return scalarWord(W);
}

CppTypeSpec CppParser::parseTypeSpec(bool AllowAuto) {
  CppTypeSpec TS;
  TS.Loc = tok().loc();
  std::optional<Scalar> Base;
  llvm::StringRef BaseWord;
  bool Signed = false, Unsigned = false, Int = false, Bad = false;
  llvm::SMLoc SignLoc;
  auto SetBase = [&](llvm::StringRef W, llvm::SMLoc Loc) {
    if (!BaseWord.empty() || TS.IsAuto) {
      if (!Bad)
        error(Loc, "cannot combine '" + W + "' with '" +
                       (TS.IsAuto ? llvm::StringRef("auto") : BaseWord) +
                       "' in a type");
      Bad = true;
      return false;
    }
    BaseWord = W;
    return true;
  };
  while (is(CppTok::Ident)) {
    const CppToken T = tok();
    llvm::StringRef W = T.Text;
    if (W == "std" && isTypeStart()) {
      consume();
      consume();
      const CppToken N = consume();
      if (N.Text == "int32_t" || N.Text == "uint32_t") {
        if (SetBase(N.Text, N.loc()))
          Base = N.Text == "int32_t" ? Scalar::I32 : Scalar::U32;
      } else {
        error(N.loc(), "'std::" + N.Text +
                           "' is not supported; WAVE integers are 32-bit");
        Bad = true;
      }
      TS.Valid = true;
      continue;
    }
    if (W == "const") {
      TS.Const = true;
    } else if (W == "volatile") {
      error(T.loc(), "'volatile' is not supported in WAVE kernels");
    } else if (isIgnoredQualifier(W)) {
      // Address-space and aliasing qualifiers: no meaning in WAVE.
    } else if (W == "signed" || W == "unsigned") {
      if (Signed || Unsigned) {
        error(T.loc(), "duplicate '" + W + "' in a type");
        Bad = true;
      }
      (W == "signed" ? Signed : Unsigned) = true;
      SignLoc = T.loc();
      TS.Valid = true;
    } else if (W == "int") {
      if (Int) {
        error(T.loc(), "duplicate 'int' in a type");
        Bad = true;
      }
      Int = true;
      TS.Valid = true;
    } else if (isUnsupportedIntWord(W)) {
      error(T.loc(), "'" + W + "' is not supported; WAVE integers are 32-bit");
      Bad = true;
      TS.Valid = true;
    } else if (W == "void") {
      if (SetBase(W, T.loc()))
        TS.IsVoid = true;
      TS.Valid = true;
    } else if (W == "auto" && AllowAuto) {
      if (!BaseWord.empty() || Int || Signed || Unsigned) {
        error(T.loc(), "cannot combine 'auto' with a type");
        Bad = true;
      }
      TS.IsAuto = true;
      TS.Valid = true;
    } else if (std::optional<Scalar> S = scalarWord(W)) {
      if (SetBase(W, T.loc()))
        Base = S;
      TS.Valid = true;
    } else {
      break;
    }
    consume();
  }
  if ((Int || Signed || Unsigned) && !BaseWord.empty() && !Bad) {
    error(Int ? TS.Loc : SignLoc,
          "'" + BaseWord + "' cannot be combined with '" +
              (Int ? "int" : Signed ? "signed" : "unsigned") + "'");
    Bad = true;
  }
  if (Base)
    TS.S = *Base;
  else if (Unsigned)
    TS.S = Scalar::U32;
  else
    TS.S = Scalar::I32;
  return TS;
}

//===----------------------------------------------------------------------===//
// Attributes
//===----------------------------------------------------------------------===//

bool CppParser::parseAttributeList(
    bool &IsKernel, std::optional<std::array<uint32_t, 3>> &WGSize,
    llvm::SMLoc &WGLoc, bool InFunctionHead) {
  llvm::SMLoc Open = tok().loc();
  consume();
  consume();
  if (isIdent("using")) {
    error(tok().loc(), "'using' in an attribute list is not supported");
    return false;
  }
  while (!is(CppTok::RBracket)) {
    if (!is(CppTok::Ident)) {
      error(tok().loc(), "expected an attribute name, found " +
                             describe(tok()));
      return false;
    }
    CppToken NameTok = consume();
    std::string Name = NameTok.Text.str();
    bool IsWave = false;
    if (consumeIf(CppTok::ColonColon)) {
      if (!is(CppTok::Ident)) {
        error(tok().loc(), "expected an attribute name after '::', found " +
                               describe(tok()));
        return false;
      }
      IsWave = Name == "wave";
      Name += "::" + consume().Text.str();
    }
    if (!IsWave) {
      // Standard and vendor attributes ([[nodiscard]], ...) are ignored.
      if (is(CppTok::LParen))
        skipBalanced();
    } else if (!InFunctionHead) {
      error(NameTok.loc(), "attribute '" + Name + "' applies to functions only");
      if (is(CppTok::LParen))
        skipBalanced();
    } else if (Name == "wave::export") {
      if (ExportLoc.isValid())
        error(NameTok.loc(), "duplicate 'wave::export' attribute");
      ExportLoc = NameTok.loc();
      if (is(CppTok::LParen)) {
        error(tok().loc(), "'wave::export' takes no arguments");
        skipBalanced();
      }
    } else if (Name == "wave::kernel") {
      IsKernel = true;
      if (is(CppTok::LParen)) {
        error(tok().loc(), "'wave::kernel' takes no arguments");
        skipBalanced();
      }
    } else if (Name == "wave::workgroup_size") {
      if (WGSize) {
        error(NameTok.loc(), "duplicate 'wave::workgroup_size' attribute");
        note(WGLoc, "the previous one is here");
      }
      WGLoc = NameTok.loc();
      llvm::SMLoc LParen = tok().loc();
      if (!expect(CppTok::LParen, "after 'wave::workgroup_size'"))
        return false;
      std::array<uint32_t, 3> Size = {1, 1, 1};
      unsigned N = 0;
      bool Ok = true;
      while (true) {
        const CppToken V = tok();
        NumberLiteral Lit;
        if (V.is(CppTok::Number))
          Lit = scanNumber(V.Text, DigitSeparator::Apostrophe, true);
        if (!V.is(CppTok::Number) || Lit.IsFloat || !Lit.Error.empty() ||
            Lit.Length != V.Text.size() ||
            !(Lit.Suffix.empty() || Lit.Suffix.equals_insensitive("u")) ||
            Lit.IntValue < 1 || Lit.IntValue > 1024) {
          error(V.loc(), "workgroup size must be an integer literal "
                         "between 1 and 1024");
          Ok = false;
          if (V.is(CppTok::RParen) || V.is(CppTok::Eof))
            break;
          // Skip one operand (a name, an expression) and go on.
          while (!is(CppTok::Comma) && !is(CppTok::RParen) &&
                 !is(CppTok::Eof) && !is(CppTok::RBracket))
            consume();
        } else {
          consume();
          if (N < 3)
            Size[N] = static_cast<uint32_t>(Lit.IntValue);
        }
        ++N;
        if (!consumeIf(CppTok::Comma))
          break;
      }
      if (!consumeIf(CppTok::RParen)) {
        error(tok().loc(), "expected ')' to close 'wave::workgroup_size', "
                           "found " +
                               describe(tok()));
        note(LParen, "to match this '('");
        return false;
      }
      if (N > 3) {
        error(WGLoc, "'wave::workgroup_size' takes 1 to 3 values");
        Ok = false;
      }
      if (Ok)
        WGSize = Size;
    } else {
      error(NameTok.loc(), "unknown attribute '" + Name + "'");
      if (is(CppTok::LParen))
        skipBalanced();
    }
    if (!consumeIf(CppTok::Comma))
      break;
  }
  if (!is(CppTok::RBracket) || !is(CppTok::RBracket, 1)) {
    error(tok().loc(), "expected ']]' to close the attribute list, found " +
                           describe(tok()));
    note(Open, "to match this '[['");
    return false;
  }
  consume();
  consume();
  return true;
}

//===----------------------------------------------------------------------===//
// Top level
//===----------------------------------------------------------------------===//

std::optional<std::string>
CppParser::unsupportedDeclaration(llvm::StringRef W) {
  if (W == "namespace")
    return "namespaces are not supported in WAVE kernels";
  if (W == "class")
    return "classes are not supported in WAVE kernels";
  if (W == "struct" || W == "union")
    return (W + "s are not supported in WAVE kernels").str();
  if (W == "enum")
    return "enums are not supported in WAVE kernels";
  if (W == "template")
    return "templates are not supported in WAVE kernels";
  if (W == "typedef")
    return "typedefs are not supported in WAVE kernels";
  if (W == "static_assert")
    return "'static_assert' is not supported in WAVE kernels";
  return std::nullopt;
}

void CppParser::parseTopLevel() {
  const CppToken T = tok();
  llvm::SMLoc Start = T.loc();
  auto Reject = [&](const llvm::Twine &Msg) {
    error(Start, Msg);
    skipTopLevel();
  };
  if (T.is(CppTok::Semi)) {
    consume();
    return;
  }
  if (T.is(CppTok::Ident)) {
    llvm::StringRef W = T.Text;
    if (W == "using") {
      if (isIdent("namespace", 1) && tok(2).is(CppTok::Ident) &&
          (tok(2).Text == "wave" || tok(2).Text == "std") &&
          is(CppTok::Semi, 3)) {
        consume();
        consume();
        consume();
        consume();
        return;
      }
      if (isIdent("namespace", 1))
        return Reject("only 'using namespace wave;' and 'using namespace "
                      "std;' are supported");
      return Reject("'using' declarations and type aliases are not "
                    "supported in WAVE kernels");
    }
    if (std::optional<std::string> Why = unsupportedDeclaration(W))
      return Reject(*Why);
    if (W == "extern" && is(CppTok::String, 1))
      return Reject("linkage specifications ('extern \"C\"') are not "
                    "supported in WAVE kernels; declare the function with "
                    "a prototype");
    if (W == "__attribute__" || W == "__declspec")
      return Reject("'" + W + "' is not supported; use '[[...]]' attributes");
  }

  // A function definition: attributes and specifiers, the return type, the
  // name, the parameters and the body.
  bool IsKernel = false;
  std::optional<std::array<uint32_t, 3>> WGSize;
  llvm::SMLoc WGLoc;
  ExportLoc = llvm::SMLoc();
  bool Progress = true;
  while (Progress) {
    Progress = false;
    if (atAttributeList()) {
      if (!parseAttributeList(IsKernel, WGSize, WGLoc, true)) {
        skipTopLevel();
        return;
      }
      Progress = true;
      continue;
    }
    if (!is(CppTok::Ident))
      break;
    llvm::StringRef W = tok().Text;
    if (W == "__kernel") {
      IsKernel = true;
    } else if (W == "extern" || W == "static" || W == "inline" ||
               W == "__device__" ||
               W == "constexpr" || W == "__forceinline__" ||
               W == "__noinline__") {
      // Specifiers without meaning for WAVE.
    } else if (W == "__global__") {
      error(tok().loc(), "'__global__' does not mark a kernel in WAVE; use "
                         "'__kernel' or '[[wave::kernel]]'");
    } else if (W == "virtual" || W == "consteval" ||
               W == "friend" || W == "explicit") {
      error(tok().loc(), "'" + W + "' is not supported in WAVE kernels");
    } else {
      break;
    }
    consume();
    Progress = true;
  }

  if (!isTypeStart(0, /*AllowAuto=*/true)) {
    const CppToken &N = tok();
    if (N.is(CppTok::Ident) && tok(1).is(CppTok::Ident))
      error(N.loc(), "unknown type name '" + N.Text + "'");
    else
      error(N.loc(), "expected a function definition, found " + describe(N));
    skipTopLevel();
    return;
  }
  CppTypeSpec Ret = parseTypeSpec(/*AllowAuto=*/true);
  if (Ret.IsAuto)
    error(Ret.Loc, "'auto' return types are not supported; write the "
                   "return type");
  if (is(CppTok::Star) || is(CppTok::Amp) || is(CppTok::AmpAmp)) {
    error(tok().loc(), "functions cannot return pointers or references in "
                       "WAVE kernels");
    while (is(CppTok::Star) || is(CppTok::Amp) || is(CppTok::AmpAmp))
      consume();
  }
  if (!is(CppTok::Ident) || isTypeStart()) {
    error(tok().loc(), "expected a function name, found " + describe(tok()));
    skipTopLevel();
    return;
  }
  if (!is(CppTok::LParen, 1)) {
    if (is(CppTok::ColonColon, 1))
      error(tok().loc(), "qualified function names are not supported in "
                         "WAVE kernels");
    else if (is(CppTok::Less, 1))
      error(tok().loc(), "templates are not supported in WAVE kernels");
    else
      error(tok().loc(), "global variables are not supported in WAVE "
                         "kernels");
    skipTopLevel();
    return;
  }
  parseFunction(Start, IsKernel, WGSize, WGLoc, Ret);
}

void CppParser::skipTopLevel() {
  while (!is(CppTok::Eof)) {
    switch (tok().K) {
    case CppTok::Semi:
      consume();
      return;
    case CppTok::LBrace:
      skipBalanced();
      consumeIf(CppTok::Semi);
      return;
    case CppTok::LParen:
    case CppTok::LBracket:
      skipBalanced();
      break;
    default:
      consume();
      break;
    }
  }
}

//===----------------------------------------------------------------------===//
// Functions
//===----------------------------------------------------------------------===//

bool CppParser::parseParam(hir::FunctionDecl &F) {
  while (atAttributeList()) {
    bool Dummy = false;
    std::optional<std::array<uint32_t, 3>> DummyWG;
    llvm::SMLoc DummyLoc;
    if (!parseAttributeList(Dummy, DummyWG, DummyLoc, false))
      return false;
  }
  if (!isTypeStart()) {
    const CppToken &T = tok();
    if (T.is(CppTok::Ident) && tok(1).is(CppTok::Ident))
      error(T.loc(), "unknown type name '" + T.Text + "'");
    else if (T.is(CppTok::Ellipsis))
      error(T.loc(), "variadic functions are not supported in WAVE kernels");
    else
      error(T.loc(), "expected a parameter type, found " + describe(T));
    return false;
  }
  CppTypeSpec TS = parseTypeSpec(/*AllowAuto=*/false);
  bool Pointer = false, PointerConst = false;
  if (is(CppTok::Star)) {
    Pointer = true;
    consume();
    while (is(CppTok::Ident) &&
           (tok().Text == "const" || isIgnoredQualifier(tok().Text))) {
      PointerConst |= tok().Text == "const";
      consume();
    }
    if (is(CppTok::Star)) {
      error(tok().loc(), "pointers to pointers are not supported in WAVE "
                         "kernels");
      return false;
    }
  }
  if (is(CppTok::Amp) || is(CppTok::AmpAmp)) {
    error(tok().loc(), "reference parameters are not supported in WAVE "
                       "kernels; use a pointer for a buffer or pass the "
                       "value");
    return false;
  }
  if (!is(CppTok::Ident) || isTypeStart()) {
    if (is(CppTok::Comma) || is(CppTok::RParen))
      error(tok().loc(), "unnamed parameters are not supported in WAVE "
                         "kernels");
    else
      error(tok().loc(), "expected a parameter name, found " +
                             describe(tok()));
    return false;
  }
  CppToken NameTok = consume();
  if (is(CppTok::LBracket)) {
    if (Pointer) {
      error(tok().loc(), "arrays of pointers are not supported in WAVE "
                         "kernels");
      return false;
    }
    consume();
    if (!is(CppTok::RBracket)) {
      error(tok().loc(), "array parameters must not have a size; write "
                         "'T* p' or 'T p[]'");
      while (!is(CppTok::RBracket) && !is(CppTok::Comma) &&
             !is(CppTok::RParen) && !is(CppTok::Eof))
        consume();
    }
    if (!expect(CppTok::RBracket, "after an array parameter"))
      return false;
    if (is(CppTok::LBracket)) {
      error(tok().loc(), "multi-dimensional array parameters are not "
                         "supported in WAVE kernels");
      return false;
    }
    Pointer = true;
  }
  if (is(CppTok::Equal)) {
    error(tok().loc(), "default arguments are not supported in WAVE kernels");
    return false;
  }
  if (Pointer) {
    if (TS.IsVoid) {
      error(TS.Loc, "'void' buffers are not supported; use a pointer to a "
                    "scalar type");
      return false;
    }
    F.Params.emplace_back(NameTok.loc(), NameTok.Text.str(),
                          hir::Type::buffer(TS.S, TS.Const), !PointerConst);
    return true;
  }
  if (TS.IsVoid) {
    error(TS.Loc, "parameters cannot have type 'void'");
    return false;
  }
  F.Params.emplace_back(NameTok.loc(), NameTok.Text.str(),
                        hir::Type::scalar(TS.S), !TS.Const);
  return true;
}

void CppParser::parseFunction(llvm::SMLoc StartLoc, bool IsKernel,
                              std::optional<std::array<uint32_t, 3>> WGSize,
                              llvm::SMLoc WGLoc, const CppTypeSpec &Ret) {
  CppToken NameTok = consume();
  auto F = std::make_unique<hir::FunctionDecl>(NameTok.loc(),
                                               NameTok.Text.str(), IsKernel);
  if (WGSize && !IsKernel)
    error(WGLoc, "'wave::workgroup_size' applies to kernels only; mark the "
                 "function with '__kernel' or '[[wave::kernel]]'");
  F->WorkgroupSize = WGSize;
  F->ReturnTy = Ret.IsVoid ? hir::Type::voidType() : hir::Type::scalar(Ret.S);
  if (ExportLoc.isValid()) {
    F->Link = hir::Linkage::Export;
    F->ExportLoc = ExportLoc;
  }

  llvm::SMLoc LParen = consume().loc();
  if (isIdent("void") && is(CppTok::RParen, 1))
    consume();
  while (!is(CppTok::RParen) && !is(CppTok::Eof)) {
    if (!parseParam(*F)) {
      // Skip the rest of this parameter.
      while (!is(CppTok::Comma) && !is(CppTok::RParen) &&
             !is(CppTok::Eof) && !is(CppTok::LBrace) && !is(CppTok::Semi)) {
        if (is(CppTok::LParen) || is(CppTok::LBracket))
          skipBalanced();
        else
          consume();
      }
    }
    if (!consumeIf(CppTok::Comma))
      break;
  }
  if (!consumeIf(CppTok::RParen)) {
    error(tok().loc(), "expected ')' to close the parameter list, found " +
                           describe(tok()));
    note(LParen, "to match this '('");
    if (!is(CppTok::LBrace)) {
      skipTopLevel();
      return;
    }
  }
  if (is(CppTok::Ident) || is(CppTok::Arrow)) {
    error(tok().loc(), "'" + tok().Text +
                           "' after the parameter list is not supported in "
                           "WAVE kernels");
    while (!is(CppTok::LBrace) && !is(CppTok::Semi) && !is(CppTok::Eof))
      consume();
  }
  if (is(CppTok::Semi)) {
    // A prototype: defined in another object unless this file defines it
    // too (addFunction).
    consume();
    F->Link = hir::Linkage::Declaration;
    addFunction(std::move(F));
    return;
  }
  if (!is(CppTok::LBrace)) {
    error(tok().loc(), "expected '{' to begin the body of '" + F->Name +
                           "', found " + describe(tok()));
    skipTopLevel();
    return;
  }
  F->Body = parseBlock();
  if (!F->Body)
    return;
  // parseBlock consumed the closing '}'.
  F->EndLoc = Toks[Pos - 1].loc();
  addFunction(std::move(F));
}

/// Whether two functions have the same C++ signature: parameter and
/// result types (names and top-level `const` do not count).
static bool sameSignature(const hir::FunctionDecl &A,
                          const hir::FunctionDecl &B) {
  if (A.IsKernel != B.IsKernel || A.ReturnTy != B.ReturnTy ||
      A.Params.size() != B.Params.size())
    return false;
  for (size_t I = 0; I < A.Params.size(); ++I)
    if (A.Params[I].Ty != B.Params[I].Ty)
      return false;
  return true;
}

void CppParser::addFunction(std::unique_ptr<hir::FunctionDecl> F) {
  auto It = llvm::find_if(M->Functions, [&](const auto &G) {
    return G->Name == F->Name;
  });
  if (It == M->Functions.end()) {
    M->Functions.push_back(std::move(F));
    return;
  }
  hir::FunctionDecl &Prev = **It;
  bool PrevDecl = Prev.isDeclaration(), NewDecl = F->isDeclaration();
  if (!PrevDecl && !NewDecl) {
    error(F->Loc, "function '" + F->Name +
                      "' is defined twice; overloads are not supported in "
                      "WAVE kernels");
    note(Prev.Loc, "the previous definition is here");
    return;
  }
  if (!sameSignature(Prev, *F)) {
    error(F->Loc, "'" + F->Name + "' is declared with a different "
                      "signature; overloads are not supported in WAVE "
                      "kernels");
    note(Prev.Loc, PrevDecl ? "the previous declaration is here"
                            : "the definition is here");
    return;
  }
  // One function: the definition if there is one, exported when any of
  // its declarations says so (addFunction keeps ExportLoc on a prototype
  // so that parseModule can report an export with no definition).
  llvm::SMLoc ExportAt =
      Prev.ExportLoc.isValid() ? Prev.ExportLoc : F->ExportLoc;
  hir::FunctionDecl *Kept = &Prev;
  if (PrevDecl && !NewDecl) {
    // The definition takes the place of the prototype, so that the
    // function is emitted where its body is.
    M->Functions.erase(It);
    M->Functions.push_back(std::move(F));
    Kept = M->Functions.back().get();
  }
  Kept->ExportLoc = ExportAt;
  if (ExportAt.isValid() && !Kept->isDeclaration())
    Kept->Link = hir::Linkage::Export;
}

std::unique_ptr<hir::Module> CppParser::parseModule() {
  M = std::make_unique<hir::Module>(hir::Language::Cpp);
  while (!is(CppTok::Eof)) {
    size_t Before = Pos;
    parseTopLevel();
    if (Pos == Before && !is(CppTok::Eof)) {
      if (is(CppTok::RBrace))
        error(tok().loc(), "unexpected '}'");
      consume();
    }
  }
  for (const auto &F : M->Functions)
    if (F->isDeclaration() && F->ExportLoc.isValid() && !F->IsKernel)
      error(F->ExportLoc, "'wave::export' marks a definition; '" + F->Name +
                              "' has no body in this file");
  return std::move(M);
}

std::unique_ptr<hir::Module>
wave::fe::parseCpp(const llvm::SourceMgr &SM, unsigned BufferID,
                   hir::DiagnosticEngine &Diags) {
  CppParser P(SM.getMemoryBuffer(BufferID)->getBuffer(), Diags);
  return P.parseModule();
}
