//===- PythonLexer.h - Tokenizer of the Python kernel dialect ---*- C++ -*-===//
//
// Private to the Python frontend. The lexer turns the whole source buffer
// into a token vector the way CPython's tokenizer does: NEWLINE ends a
// logical line; INDENT and DEDENT come from a stack of indentation columns
// (a tab advances to the next multiple of 8, a form feed resets the
// column); newlines inside (), [] and {} and after a backslash are joined;
// `#` comments and blank lines are dropped. Every token keeps a pointer
// into the buffer, so its location is llvm::SMLoc::getFromPointer(ptr).
// String literals become tokens only so that the parser can reject them
// with a located message. Number literals are scanned (and checked) here
// with scanNumber().
//
//===----------------------------------------------------------------------===//
#ifndef WAVE_LIB_FRONTEND_PYTHON_PYTHONLEXER_H
#define WAVE_LIB_FRONTEND_PYTHON_PYTHONLEXER_H

#include "wave/HIR/Diagnostics.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/SMLoc.h"

#include <cstdint>
#include <string>
#include <vector>

namespace wave::fe {

/// Token kinds of the Python dialect. Keywords are Ident tokens; the
/// parser compares their text.
enum class PyTok : uint8_t {
  Eof,
  Newline, ///< End of a logical line.
  Indent,  ///< The line is indented deeper than the enclosing block.
  Dedent,  ///< One block closes (one per popped indentation level).
  Ident,
  Number,
  String,  ///< Any string literal (rejected by the parser).
  Unknown, ///< A character that starts no token (`$`, `?`, `!`, non-ASCII).
  LParen,
  RParen,
  LBracket,
  RBracket,
  LBrace,
  RBrace,
  Colon,
  Comma,
  Semi,
  Dot,
  Ellipsis,
  Arrow,  ///< `->`
  At,     ///< `@`
  Equal,  ///< `=`
  Walrus, ///< `:=`
  Plus,
  Minus,
  Star,
  StarStar,
  Slash,
  SlashSlash,
  Percent,
  LessLess,
  GreaterGreater,
  Amp,
  Pipe,
  Caret,
  Tilde,
  Less,
  LessEq,
  Greater,
  GreaterEq,
  EqEq,
  NotEq,
  PlusEq,
  MinusEq,
  StarEq,
  SlashEq,
  SlashSlashEq,
  PercentEq,
  AmpEq,
  PipeEq,
  CaretEq,
  LessLessEq,
  GreaterGreaterEq,
  StarStarEq,
  AtEq,
};

/// One token: its kind, its text in the source buffer and, for numbers,
/// their value.
struct PyToken {
  PyTok K = PyTok::Eof;
  llvm::StringRef Text;
  /// The lexer already reported an error about this token (a malformed
  /// number, an unterminated string); the parser says nothing more.
  bool Reported = false;
  bool IsFloat = false;  ///< Number: a float literal.
  uint64_t IntValue = 0; ///< Number, !IsFloat: the value (saturated).
  double FloatValue = 0; ///< Number, IsFloat: the value.

  bool is(PyTok Kind) const { return K == Kind; }
  /// An identifier (or keyword) spelled \p S.
  bool isIdent(llvm::StringRef S) const {
    return K == PyTok::Ident && Text == S;
  }
  llvm::SMLoc loc() const { return llvm::SMLoc::getFromPointer(Text.data()); }
};

/// An error found by the tokenizer, reported by the parser when it reaches
/// token TokIndex so that all errors come out in source order.
struct PyLexError {
  size_t TokIndex;
  llvm::SMLoc Loc;
  std::string Msg;
};

/// Tokenizes all of \p Buffer. The result always ends with NEWLINE (when
/// the buffer has any token), the DEDENTs that close every open block, and
/// one Eof. Errors (bad indentation, unterminated strings, malformed
/// numbers, a stray backslash) go to \p Errors; the lexer never stops
/// early. When a bracket is never closed, the buffer is tokenized a second
/// time in recovery mode, where a physical line inside brackets that is
/// not indented deeper than the bracket's logical line (and does not start
/// with a closing bracket) starts a new logical line. Linear in the buffer
/// size.
std::vector<PyToken> tokenizePython(llvm::StringRef Buffer,
                                    std::vector<PyLexError> &Errors);

/// The spelling of a token kind for messages ("')'", "end of file").
llvm::StringRef pyTokSpelling(PyTok K);

/// Whether \p S is a reserved word of Python 3.
bool isPythonKeyword(llvm::StringRef S);

} // namespace wave::fe

#endif // WAVE_LIB_FRONTEND_PYTHON_PYTHONLEXER_H
