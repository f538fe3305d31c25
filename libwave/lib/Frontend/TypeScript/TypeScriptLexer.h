//===- TypeScriptLexer.h - Tokenizer of the TypeScript dialect --*- C++ -*-===//
//
// Private to the TypeScript frontend. The lexer turns the source buffer
// into tokens on demand; every token keeps a pointer into the buffer, so its
// location is llvm::SMLoc::getFromPointer(Text.data()). Comments (`//`,
// `/* */`) are skipped, but each token remembers whether a line break came
// before it (automatic semicolon insertion needs that) and the last
// `// @kernel` line comment in the trivia before it (kernel marking).
// String and template literals become tokens only so that the parser can
// reject them with a located message.
//
//===----------------------------------------------------------------------===//
#ifndef WAVE_LIB_FRONTEND_TYPESCRIPT_TYPESCRIPTLEXER_H
#define WAVE_LIB_FRONTEND_TYPESCRIPT_TYPESCRIPTLEXER_H

#include "wave/HIR/Diagnostics.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/SMLoc.h"

#include <cstdint>

namespace wave::fe {

/// Token kinds of the TypeScript dialect. Keywords are Ident tokens and
/// punctuators are Punct tokens; the parser compares their text.
enum class TSTok : uint8_t {
  Eof,
  Ident,
  Number,
  String,   ///< "..." or '...' (only the module name of an import).
  Template, ///< `...` (rejected by the parser).
  Unknown,  ///< A character (or UTF-8 sequence) that starts no token.
  Punct,    ///< An operator or punctuator, longest match.
};

/// One token: its kind, its text in the source buffer and the trivia
/// before it.
struct TSToken {
  TSTok K = TSTok::Eof;
  llvm::StringRef Text;
  /// A line break (possibly inside a comment) separates this token from
  /// the previous one, or this is the first token.
  bool NewlineBefore = false;
  /// The last `// @kernel ...` comment between the previous token and this
  /// one, from its `@` to the end of the line; empty if none.
  llvm::StringRef KernelComment;
  /// The `@` of the last `// @export` comment between the previous token
  /// and this one; unset if none.
  llvm::SMLoc ExportComment;

  bool is(TSTok Kind) const { return K == Kind; }
  /// A punctuator spelled \p S.
  bool is(llvm::StringRef S) const { return K == TSTok::Punct && Text == S; }
  /// An identifier (or keyword) spelled \p S.
  bool isIdent(llvm::StringRef S) const {
    return K == TSTok::Ident && Text == S;
  }
  llvm::SMLoc loc() const { return llvm::SMLoc::getFromPointer(Text.data()); }
};

/// Produces the tokens of one buffer (or of one slice of it, such as the
/// text of a `// @kernel` comment), left to right.
class TSLexer {
public:
  TSLexer(llvm::StringRef Buffer, hir::DiagnosticEngine &Diags);

  /// The next token; Eof (with empty text at the end of the input) once
  /// the input is exhausted, and again on every later call.
  TSToken next();

private:
  /// Skips blanks and comments; records line breaks and `@kernel`
  /// comments in \p T.
  void skipTrivia(TSToken &T);
  void lexNumber(TSToken &T);
  void lexQuoted(TSToken &T, char Quote);
  void lexPunct(TSToken &T);

  const char *Cur;
  const char *End;
  hir::DiagnosticEngine &Diags;
  bool First = true;
};

/// Whether \p C may start / continue a TypeScript identifier (ASCII only).
bool isTSIdentStart(char C);
bool isTSIdentChar(char C);

} // namespace wave::fe

#endif // WAVE_LIB_FRONTEND_TYPESCRIPT_TYPESCRIPTLEXER_H
