//===- StrayChar.h - Naming a character no token starts with ----*- C++ -*-===//
//
// Private to the frontends: how the C++ and TypeScript parsers name an
// unknown character in "expected X, found Y" diagnostics.
//
//===----------------------------------------------------------------------===//
#ifndef WAVE_LIB_FRONTEND_STRAYCHAR_H
#define WAVE_LIB_FRONTEND_STRAYCHAR_H

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace wave::fe {

/// The text of an unknown-character token as a diagnostic shows it: a
/// control byte as "byte 0xNN" (printing it raw would garble the terminal),
/// anything else quoted.
inline std::string describeStrayChar(llvm::StringRef Text) {
  unsigned char C = Text.empty() ? 0 : Text[0];
  if (C < 0x20 || C == 0x7f)
    return "byte 0x" + llvm::utohexstr(C, /*LowerCase=*/true, 2);
  return "'" + Text.str() + "'";
}

} // namespace wave::fe

#endif // WAVE_LIB_FRONTEND_STRAYCHAR_H
