//===- RustLexer.h - Tokenizer of the Rust kernel dialect -------*- C++ -*-===//
//
// Private to the Rust frontend. tokenizeRust() splits the whole buffer into
// tokens up front (the parser looks ahead freely, e.g. to tell `(a..b)`
// from `(a)..b` in a `for` header). Every token keeps a pointer into the
// buffer, so its location is llvm::SMLoc::getFromPointer(Text.data()).
// Comments (`//`, `///`, `//!`, nesting `/* */`) are skipped; string,
// character and lifetime tokens exist only so that the parser can reject
// them with a located message.
//
//===----------------------------------------------------------------------===//
#ifndef WAVE_LIB_FRONTEND_RUST_RUSTLEXER_H
#define WAVE_LIB_FRONTEND_RUST_RUSTLEXER_H

#include "wave/HIR/Diagnostics.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/SMLoc.h"

#include <cstdint>
#include <vector>

namespace wave::fe {

/// Token kinds of the Rust dialect. Keywords are Ident tokens and
/// punctuators are Punct tokens; the parser compares their text.
enum class RustTok : uint8_t {
  Eof,
  Ident,
  Number,
  String,   ///< "...", r"...", r#"..."#, b"..." (rejected by the parser).
  Char,     ///< 'x', b'x' (rejected by the parser).
  Lifetime, ///< 'a (lifetimes and loop labels; rejected by the parser).
  Punct,    ///< An operator or delimiter, longest match (`..=`, `<<=`).
  Unknown,  ///< A character (or UTF-8 sequence) that starts no token.
};

/// One token: its kind and its text in the source buffer.
struct RustToken {
  RustTok K = RustTok::Eof;
  llvm::StringRef Text;

  bool is(RustTok Kind) const { return K == Kind; }
  /// An identifier (or keyword) spelled \p S.
  bool isIdent(llvm::StringRef S) const {
    return K == RustTok::Ident && Text == S;
  }
  /// The punctuator \p S.
  bool isPunct(llvm::StringRef S) const {
    return K == RustTok::Punct && Text == S;
  }
  llvm::SMLoc loc() const { return llvm::SMLoc::getFromPointer(Text.data()); }
};

/// Splits \p Buffer into tokens; the last one is Eof (empty text at the end
/// of the buffer). Unterminated comments and literals are reported to
/// \p Diags.
std::vector<RustToken> tokenizeRust(llvm::StringRef Buffer,
                                    hir::DiagnosticEngine &Diags);

} // namespace wave::fe

#endif // WAVE_LIB_FRONTEND_RUST_RUSTLEXER_H
