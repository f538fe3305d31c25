//===- RustLexer.cpp - Tokenizer of the Rust kernel dialect ---------------===//
//
// Splits Rust kernel source into tokens with the longest-match rule of Rust
// punctuators. Numbers are measured with scanNumber() (so `1..n` is the
// number `1`, then `..`); the parser evaluates them again to read the value
// and the suffix. Block comments nest as in Rust. A `'` starts a character
// literal when a closing quote follows the character, a lifetime or loop
// label otherwise.
//
//===----------------------------------------------------------------------===//
#include "RustLexer.h"

#include "wave/Frontend/NumberLiteral.h"

#include "llvm/ADT/StringExtras.h"

using namespace wave::fe;

namespace {

bool isIdentStart(char C) { return llvm::isAlpha(C) || C == '_'; }
bool isIdentChar(char C) { return llvm::isAlnum(C) || C == '_'; }

/// Punctuators, longer spellings before their prefixes.
const char *const Puncts[] = {
    "..=", "...", "<<=", ">>=", "::", "->", "=>", "==", "!=", "<=", ">=",
    "&&",  "||",  "+=",  "-=",  "*=", "/=", "%=", "^=", "&=", "|=", "<<",
    ">>",  "..",  "+",   "-",   "*",  "/",  "%",  "^",  "!",  "&",  "|",
    "=",   "<",   ">",   "@",   ".",  ",",  ";",  ":",  "#",  "$",  "?",
    "~",   "(",   ")",   "[",   "]",  "{",  "}"};

class Lexer {
public:
  Lexer(llvm::StringRef Buffer, wave::hir::DiagnosticEngine &Diags)
      : Cur(Buffer.begin()), End(Buffer.end()), Diags(Diags) {}

  RustToken next();

private:
  void skipTrivia();
  RustToken lexQuotedString(const char *Start);
  RustToken lexRawString(const char *Start);
  RustToken lexQuote(const char *Start);
  RustToken make(RustTok K, const char *Start) {
    return RustToken{K, llvm::StringRef(Start, Cur - Start)};
  }
  llvm::SMLoc loc(const char *P) { return llvm::SMLoc::getFromPointer(P); }
  char peek(size_t K) const { return Cur + K < End ? Cur[K] : '\0'; }

  const char *Cur;
  const char *End;
  wave::hir::DiagnosticEngine &Diags;
};

void Lexer::skipTrivia() {
  while (Cur < End) {
    char C = *Cur;
    if (C == ' ' || C == '\t' || C == '\n' || C == '\r' || C == '\f' ||
        C == '\v') {
      ++Cur;
      continue;
    }
    if (C == '/' && peek(1) == '/') {
      while (Cur < End && *Cur != '\n')
        ++Cur;
      continue;
    }
    if (C == '/' && peek(1) == '*') {
      // Rust block comments nest.
      const char *Start = Cur;
      unsigned Depth = 0;
      while (Cur < End) {
        if (*Cur == '/' && peek(1) == '*') {
          ++Depth;
          Cur += 2;
        } else if (*Cur == '*' && peek(1) == '/') {
          Cur += 2;
          if (--Depth == 0)
            break;
        } else {
          ++Cur;
        }
      }
      if (Depth != 0)
        Diags.error(loc(Start), "unterminated block comment");
      continue;
    }
    return;
  }
}

RustToken Lexer::lexQuotedString(const char *Start) {
  // Cur is at the opening '"'.
  const char *Open = Cur++;
  while (Cur < End && *Cur != '"') {
    if (*Cur == '\\' && Cur + 1 < End)
      ++Cur;
    ++Cur;
  }
  if (Cur >= End)
    Diags.error(loc(Open), "unterminated string literal");
  else
    ++Cur;
  return make(RustTok::String, Start);
}

RustToken Lexer::lexRawString(const char *Start) {
  // Cur is at the first '#' or the '"' after `r` / `br`.
  size_t Hashes = 0;
  while (Cur < End && *Cur == '#') {
    ++Hashes;
    ++Cur;
  }
  const char *Open = Cur++;
  while (Cur < End) {
    if (*Cur == '"') {
      size_t N = 0;
      while (N < Hashes && Cur + 1 + N < End && Cur[1 + N] == '#')
        ++N;
      if (N == Hashes) {
        Cur += 1 + N;
        return make(RustTok::String, Start);
      }
    }
    ++Cur;
  }
  Diags.error(loc(Open), "unterminated string literal");
  return make(RustTok::String, Start);
}

RustToken Lexer::lexQuote(const char *Start) {
  // Cur is at the '\''. A character literal is '\...' or one character
  // (possibly a UTF-8 sequence) followed by '\''; anything else is a
  // lifetime or a loop label.
  const char *Open = Cur;
  size_t CharLen = 1;
  if (peek(1) != '\0' && static_cast<unsigned char>(peek(1)) >= 0xC0)
    while (CharLen < 4 &&
           (static_cast<unsigned char>(peek(1 + CharLen)) & 0xC0) == 0x80)
      ++CharLen;
  bool IsChar = peek(1) == '\\' ||
                (peek(1) != '\0' && peek(1) != '\n' && peek(1) != '\'' &&
                 peek(1 + CharLen) == '\'');
  if (!IsChar && isIdentStart(peek(1))) {
    ++Cur;
    while (Cur < End && isIdentChar(*Cur))
      ++Cur;
    return make(RustTok::Lifetime, Start);
  }
  if (!IsChar) {
    ++Cur;
    return make(RustTok::Unknown, Start);
  }
  ++Cur;
  while (Cur < End && *Cur != '\'' && *Cur != '\n') {
    if (*Cur == '\\' && Cur + 1 < End && Cur[1] != '\n')
      ++Cur;
    ++Cur;
  }
  if (Cur < End && *Cur == '\'')
    ++Cur;
  else
    Diags.error(loc(Open), "unterminated character literal");
  return make(RustTok::Char, Start);
}

RustToken Lexer::next() {
  skipTrivia();
  const char *Start = Cur;
  if (Cur >= End)
    return RustToken{RustTok::Eof, llvm::StringRef(End, 0)};
  char C = *Cur;
  if (isIdentStart(C)) {
    while (Cur < End && isIdentChar(*Cur))
      ++Cur;
    llvm::StringRef Word(Start, Cur - Start);
    // String-like prefixes: b"..", r"..", r#".."#, br"..", c"..", b'x'.
    if (Cur < End && (*Cur == '"' || *Cur == '#') &&
        (Word == "r" || Word == "br" || Word == "cr") &&
        (*Cur == '"' || peek(1) == '"' || peek(1) == '#'))
      return lexRawString(Start);
    if (Cur < End && *Cur == '"' && (Word == "b" || Word == "c"))
      return lexQuotedString(Start);
    if (Cur < End && *Cur == '\'' && Word == "b") {
      RustToken T = lexQuote(Start);
      if (T.is(RustTok::Char))
        return T;
      Cur = Start + 1;
    }
    return make(RustTok::Ident, Start);
  }
  if (llvm::isDigit(C)) {
    NumberLiteral N =
        scanNumber(llvm::StringRef(Cur, End - Cur), DigitSeparator::Underscore,
                   /*CLegacyOctal=*/false);
    Cur += N.Length ? N.Length : 1;
    if (Cur > End)
      Cur = End;
    return make(RustTok::Number, Start);
  }
  if (C == '"')
    return lexQuotedString(Start);
  if (C == '\'')
    return lexQuote(Start);
  llvm::StringRef Rest(Cur, End - Cur);
  for (const char *P : Puncts) {
    if (Rest.starts_with(P)) {
      Cur += llvm::StringRef(P).size();
      return make(RustTok::Punct, Start);
    }
  }
  // One unknown character; keep a UTF-8 sequence together.
  ++Cur;
  if (static_cast<unsigned char>(C) >= 0xC0)
    while (Cur < End && (static_cast<unsigned char>(*Cur) & 0xC0) == 0x80 &&
           Cur - Start < 4)
      ++Cur;
  return make(RustTok::Unknown, Start);
}

} // namespace

std::vector<RustToken> wave::fe::tokenizeRust(llvm::StringRef Buffer,
                                              hir::DiagnosticEngine &Diags) {
  std::vector<RustToken> Toks;
  Lexer L(Buffer, Diags);
  while (true) {
    Toks.push_back(L.next());
    if (Toks.back().is(RustTok::Eof))
      break;
  }
  return Toks;
}
