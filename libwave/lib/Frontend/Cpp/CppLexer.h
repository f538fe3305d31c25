//===- CppLexer.h - Tokenizer of the C++ kernel dialect ---------*- C++ -*-===//
//
// Private to the C++ frontend. The lexer turns the source buffer into
// tokens on demand; every token keeps a pointer into the buffer, so its
// location is llvm::SMLoc::getFromPointer(Text.data()). Comments (`//`,
// `/* */`) and `#include` / `#pragma` lines are skipped; other
// preprocessor directives and unterminated block comments are reported
// here. String and character literals become tokens only so that the
// parser can reject them with a located message.
//
//===----------------------------------------------------------------------===//
#ifndef WAVE_LIB_FRONTEND_CPP_CPPLEXER_H
#define WAVE_LIB_FRONTEND_CPP_CPPLEXER_H

#include "wave/HIR/Diagnostics.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/SMLoc.h"

#include <cstdint>

namespace wave::fe {

/// Token kinds of the C++ dialect. Keywords are Ident tokens; the parser
/// compares their text.
enum class CppTok : uint8_t {
  Eof,
  Ident,
  Number,
  String,  ///< "..." (rejected by the parser).
  Char,    ///< '...' (rejected by the parser).
  Unknown, ///< A character that starts no token.
  LParen,
  RParen,
  LBracket,
  RBracket,
  LBrace,
  RBrace,
  Semi,
  Comma,
  Colon,
  ColonColon,
  Question,
  Dot,
  Arrow,
  Ellipsis,
  Hash,
  Plus,
  Minus,
  Star,
  Slash,
  Percent,
  Amp,
  Pipe,
  Caret,
  Tilde,
  Exclaim,
  Less,
  Greater,
  LessEq,
  GreaterEq,
  EqEq,
  NotEq,
  AmpAmp,
  PipePipe,
  LessLess,
  GreaterGreater,
  Equal,
  PlusEq,
  MinusEq,
  StarEq,
  SlashEq,
  PercentEq,
  AmpEq,
  PipeEq,
  CaretEq,
  LessLessEq,
  GreaterGreaterEq,
  PlusPlus,
  MinusMinus,
};

/// One token: its kind and its text in the source buffer.
struct CppToken {
  CppTok K = CppTok::Eof;
  llvm::StringRef Text;

  bool is(CppTok Kind) const { return K == Kind; }
  /// An identifier (or keyword) spelled \p S.
  bool isIdent(llvm::StringRef S) const {
    return K == CppTok::Ident && Text == S;
  }
  llvm::SMLoc loc() const { return llvm::SMLoc::getFromPointer(Text.data()); }
};

/// Produces the tokens of one buffer, left to right.
class CppLexer {
public:
  CppLexer(llvm::StringRef Buffer, hir::DiagnosticEngine &Diags)
      : Cur(Buffer.begin()), End(Buffer.end()), Diags(Diags) {}

  /// The next token; Eof (with empty text at the end of the buffer) once
  /// the input is exhausted, and again on every later call.
  CppToken next();

private:
  /// Skips blanks, comments and skipped preprocessor lines.
  void skipTrivia();
  /// Skips the rest of a preprocessor line, continuation lines included.
  void skipDirectiveLine();
  CppToken lexNumber();
  CppToken lexQuoted(char Quote);
  CppToken make(CppTok K, const char *Start) {
    return CppToken{K, llvm::StringRef(Start, Cur - Start)};
  }

  const char *Cur;
  const char *End;
  hir::DiagnosticEngine &Diags;
  /// Only blanks (or nothing) since the last newline: a `#` here starts a
  /// preprocessor directive.
  bool AtLineStart = true;
};

/// The spelling of a token kind for messages ("')'", "end of file").
llvm::StringRef cppTokSpelling(CppTok K);

} // namespace wave::fe

#endif // WAVE_LIB_FRONTEND_CPP_CPPLEXER_H
