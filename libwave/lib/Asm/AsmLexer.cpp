//===- AsmLexer.cpp - Tokenizer for WAVE assembly -------------------------===//
//
// Implements formats/wave-asm.md §1. Deviations from the reference lexer are
// extensions that only give meaning to text the reference rejects; they are
// listed in formats/wave-asm.md ("Extensions").
//
//===----------------------------------------------------------------------===//
#include "AsmLexer.h"

#include "wave/ISA/ISA.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace wave {

static bool isDigit(char C) { return C >= '0' && C <= '9'; }
static bool isHexDigit(char C) {
  return isDigit(C) || (C >= 'a' && C <= 'f') || (C >= 'A' && C <= 'F');
}
static bool isAsciiLetter(char C) {
  return (C >= 'a' && C <= 'z') || (C >= 'A' && C <= 'Z');
}

/// Quotes one character for a diagnostic: printable ASCII as itself, the
/// rest as \xNN.
static std::string quoteChar(char C) {
  unsigned char U = C;
  if (U >= 0x20 && U < 0x7F)
    return std::string(1, C);
  std::string S;
  raw_string_ostream OS(S);
  OS << format("\\x%02X", U);
  return S;
}

Token AsmLexer::error(const char *Start, const std::string &Msg) {
  OnError(Ctx,
          SMRange(SMLoc::getFromPointer(Start), SMLoc::getFromPointer(Cur)),
          Msg);
  return make(TokenKind::Error, Start);
}

Token AsmLexer::lex() {
  // Skip blanks and comments.
  while (!atEnd()) {
    char C = *Cur;
    if (C == ' ' || C == '\t' || C == '\r') {
      ++Cur;
    } else if (C == ';' || C == '#') {
      while (!atEnd() && *Cur != '\n')
        ++Cur;
    } else {
      break;
    }
  }
  const char *Start = Cur;
  if (atEnd())
    return make(TokenKind::Eof, Start);
  char C = *Cur;
  switch (C) {
  case '\n':
    ++Cur;
    return make(TokenKind::Newline, Start);
  case ',':
    ++Cur;
    return make(TokenKind::Comma, Start);
  case ':':
    ++Cur;
    return make(TokenKind::Colon, Start);
  case '"':
    // A string: any characters but newline; `\"` and `\\` are escapes.
    for (++Cur; !atEnd() && *Cur != '"' && *Cur != '\n'; ++Cur)
      if (*Cur == '\\' && Cur + 1 != Buf.end() && Cur[1] != '\n')
        ++Cur;
    if (atEnd() || *Cur != '"')
      return error(Start, "unterminated string");
    ++Cur;
    return make(TokenKind::String, Start);
  case '@': {
    ++Cur;
    bool Neg = false;
    if (peek() == '!') {
      Neg = true;
      ++Cur;
    }
    if (peek() != 'p' || !isDigit(peek(1))) {
      while (!atEnd() && isIdentChar(*Cur))
        ++Cur;
      return error(Start, "invalid predicate syntax: expected '@pN' or "
                          "'@!pN' with N in 0-3");
    }
    ++Cur;
    uint64_t V = lexRegisterNumber();
    Token T = make(TokenKind::PredPrefix, Start);
    T.Value = V;
    T.Negated = Neg;
    return T;
  }
  case '!':
    if (peek(1) == 'p' && isDigit(peek(2))) {
      Cur += 2;
      uint64_t V = lexRegisterNumber();
      Token T = make(TokenKind::NotPredicate, Start);
      T.Value = V;
      return T;
    }
    ++Cur;
    return error(Start, "unexpected character '!'");
  case '.':
    if (isAsciiLetter(peek(1)) || static_cast<unsigned char>(peek(1)) >= 0x80) {
      ++Cur;
      while (!atEnd() && isIdentChar(*Cur))
        ++Cur;
      return make(TokenKind::DotWord, Start);
    }
    ++Cur;
    return error(Start, "unexpected character '.'");
  default:
    break;
  }
  if (C == '-' || isDigit(C))
    return lexNumber(Start);
  if (isIdentStart(C))
    return lexWord(Start);
  ++Cur;
  return error(Start, "unexpected character '" + quoteChar(C) + "'");
}

Token AsmLexer::lexNumber(const char *Start) {
  bool Neg = false;
  if (*Cur == '-') {
    Neg = true;
    ++Cur;
    if (!isDigit(peek())) {
      return error(Start, "invalid number literal '-'");
    }
  }
  // Hexadecimal: lowercase 0x only (0X lexes as 0 followed by a word).
  if (peek() == '0' && peek(1) == 'x') {
    Cur += 2;
    const char *Digits = Cur;
    while (!atEnd() && (isHexDigit(*Cur) || *Cur == '_'))
      ++Cur;
    std::string Clean;
    for (const char *P = Digits; P != Cur; ++P)
      if (*P != '_')
        Clean += *P;
    if (Clean.empty())
      return error(Start, "invalid number literal '" +
                              std::string(Start, Cur - Start) +
                              "': expected hexadecimal digits after '0x'");
    uint64_t V = 0;
    bool Overflow = false;
    for (char D : Clean) {
      unsigned Digit = isDigit(D) ? D - '0' : (D | 0x20) - 'a' + 10;
      if (V > (UINT64_MAX >> 4))
        Overflow = true;
      V = V << 4 | Digit;
    }
    // Must fit a signed 64-bit integer (formats/wave-asm.md §1).
    if (Overflow || V > uint64_t(INT64_MAX) + (Neg ? 1 : 0))
      return error(Start, "invalid number literal '" +
                              std::string(Start, Cur - Start) +
                              "': does not fit in a signed 64-bit integer");
    Token T = make(TokenKind::Integer, Start);
    T.IntValue = Neg ? int64_t(0 - V) : int64_t(V);
    return T;
  }
  while (!atEnd() && (isDigit(*Cur) || *Cur == '_'))
    ++Cur;
  bool IsFloat = false;
  if (peek() == '.' && !isAsciiLetter(peek(1))) {
    IsFloat = true;
    ++Cur;
    while (!atEnd() && (isDigit(*Cur) || *Cur == '_'))
      ++Cur;
  }
  if ((peek() == 'e' || peek() == 'E') &&
      (isDigit(peek(1)) ||
       ((peek(1) == '+' || peek(1) == '-') && isDigit(peek(2))))) {
    IsFloat = true;
    Cur += 2;
    while (!atEnd() && isDigit(*Cur))
      ++Cur;
  }
  if (IsFloat)
    return make(TokenKind::Float, Start);
  uint64_t V = 0;
  bool Overflow = false;
  for (const char *P = Start + (Neg ? 1 : 0); P != Cur; ++P) {
    if (*P == '_')
      continue;
    unsigned D = *P - '0';
    if (V > (UINT64_MAX - D) / 10)
      Overflow = true;
    else
      V = V * 10 + D;
  }
  if (Overflow || V > uint64_t(INT64_MAX) + (Neg ? 1 : 0))
    return error(Start, "invalid number literal '" +
                            std::string(Start, Cur - Start) +
                            "': does not fit in a signed 64-bit integer");
  Token T = make(TokenKind::Integer, Start);
  T.IntValue = Neg ? int64_t(0 - V) : int64_t(V);
  return T;
}

uint64_t AsmLexer::lexRegisterNumber() {
  uint64_t V = 0;
  while (!atEnd() && isDigit(*Cur)) {
    V = std::min<uint64_t>(V * 10 + (*Cur - '0'), 1u << 20);
    ++Cur;
  }
  return V;
}

Token AsmLexer::lexWord(const char *Start) {
  char C = *Cur;
  if ((C == 'r' || C == 'p') && isDigit(peek(1))) {
    ++Cur;
    uint64_t V = lexRegisterNumber();
    Token T;
    if (C == 'r') {
      // Optional half suffix: `r3.lo` (formats/wave-asm.md §1); checked by the
      // parser.
      const char *SufStart = Cur;
      if (peek() == '.' && isAsciiLetter(peek(1))) {
        ++Cur;
        while (!atEnd() && isAsciiLetter(*Cur))
          ++Cur;
      }
      T = make(TokenKind::Register, Start);
      T.Suffix = StringRef(SufStart, Cur - SufStart);
    } else {
      T = make(TokenKind::Predicate, Start);
    }
    T.Value = V;
    return T;
  }
  while (!atEnd() && isIdentChar(*Cur))
    ++Cur;
  StringRef Word(Start, Cur - Start);
  if (Word.starts_with("sr")) {
    // Not an error yet: the word may be a parameter name (`.param src,
    // ...`); the parser reports an invalid one where it needs a register.
    Token T = make(TokenKind::SpecialReg, Start);
    std::optional<unsigned> Idx = lookupSpecialReg(Word);
    T.Value = Idx ? uint64_t(*Idx) : InvalidSpecialReg;
    return T;
  }
  return make(TokenKind::Identifier, Start);
}

} // namespace wave
