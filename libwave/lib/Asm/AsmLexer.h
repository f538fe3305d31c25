//===- AsmLexer.h - Tokenizer for WAVE assembly -----------------*- C++ -*-===//
//
// Splits WAVE assembly text into tokens following the lexical rules of
// formats/wave-asm.md §1 (formats/wave-asm.md, "Lexical structure"). Private to
// the assembler; the parser is its only client.
//
//===----------------------------------------------------------------------===//
#ifndef WAVE_LIB_ASM_ASMLEXER_H
#define WAVE_LIB_ASM_ASMLEXER_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/SMLoc.h"

#include <cstdint>
#include <string>

namespace wave {

/// Token kinds of formats/wave-asm.md §1.
enum class TokenKind {
  Eof,
  Newline,
  Identifier,   ///< [A-Za-z_][A-Za-z0-9_]*; mnemonics, labels, scope words.
  DotWord,      ///< `.` letter {letter|digit|_}: directives, hints, scopes.
  Register,     ///< rN, Value = N (unchecked), Suffix = ".lo" etc. or empty.
  Predicate,    ///< pN, Value = N (unchecked).
  NotPredicate, ///< !pN (only to diagnose D17), Value = N.
  SpecialReg,   ///< sr_NAME or sr_N, Value = index; any other word
                ///< starting with `sr`: Value = InvalidSpecialReg, an error
                ///< as an operand but a name for `.param`.
  PredPrefix,   ///< @pN or @!pN, Value = N, Negated.
  Integer,      ///< IntValue (signed 64-bit).
  Float,        ///< Text is the literal.
  String,       ///< "..." (`.file`); Text includes the quotes, escapes kept.
  Comma,
  Colon,
  Error, ///< a lexical error; already diagnosed through the callback.
};

/// Token::Value of a SpecialReg token that names no special register.
inline constexpr uint64_t InvalidSpecialReg = ~uint64_t(0);

/// One token. Text points into the source buffer.
struct Token {
  TokenKind Kind = TokenKind::Eof;
  llvm::StringRef Text;
  uint64_t Value = 0;
  int64_t IntValue = 0;
  bool Negated = false;
  llvm::StringRef Suffix;

  llvm::SMLoc getLoc() const {
    return llvm::SMLoc::getFromPointer(Text.data());
  }
  llvm::SMLoc getEndLoc() const {
    return llvm::SMLoc::getFromPointer(Text.data() + Text.size());
  }
  bool is(TokenKind K) const { return Kind == K; }
};

/// Produces tokens from a NUL-free view of the source. Lexical errors are
/// reported through the callback (source range, message) and yield an Error
/// token that covers the offending characters; lexing continues after it.
class AsmLexer {
public:
  using ErrorFn = void (*)(void *Ctx, llvm::SMRange Range,
                           const std::string &Msg);

  AsmLexer(llvm::StringRef Buffer, ErrorFn OnError, void *Ctx)
      : Buf(Buffer), Cur(Buffer.begin()), OnError(OnError), Ctx(Ctx) {}

  /// Returns the next token (Eof forever at the end).
  Token lex();

private:
  Token make(TokenKind K, const char *Start) {
    Token T;
    T.Kind = K;
    T.Text = llvm::StringRef(Start, Cur - Start);
    return T;
  }
  Token error(const char *Start, const std::string &Msg);
  Token lexNumber(const char *Start);
  Token lexWord(const char *Start);
  /// Consumes decimal digits at Cur and returns their value, saturated at
  /// 2^20 so that a huge register or predicate number still reports as out
  /// of range (formats/wave-asm.md §1) without overflowing.
  uint64_t lexRegisterNumber();
  bool atEnd() const { return Cur == Buf.end(); }
  char peek(size_t N = 0) const { return Cur + N < Buf.end() ? Cur[N] : '\0'; }

  llvm::StringRef Buf;
  const char *Cur;
  ErrorFn OnError;
  void *Ctx;
};

/// True for the characters that may start an identifier: ASCII letters,
/// `_`, and any byte of a multi-byte UTF-8 sequence (formats/wave-asm.md §1
/// allows Unicode letters; we accept every non-ASCII character there).
inline bool isIdentStart(char C) {
  unsigned char U = C;
  return (U >= 'a' && U <= 'z') || (U >= 'A' && U <= 'Z') || U == '_' ||
         U >= 0x80;
}
/// True for characters that may continue an identifier.
inline bool isIdentChar(char C) {
  return isIdentStart(C) || (C >= '0' && C <= '9');
}

} // namespace wave

#endif // WAVE_LIB_ASM_ASMLEXER_H
