//===- Quote.h - Double-quoted strings of the text formats ------*- C++ -*-===//
//
// The one quoting rule of MIR (`source_filename`, formats/mir.md) and WAVE
// assembly (`.file`, formats/wave-asm.md §3), shared by every printer.
//
//===----------------------------------------------------------------------===//
#ifndef WAVE_SUPPORT_QUOTE_H
#define WAVE_SUPPORT_QUOTE_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

namespace wave {

/// Writes \p S between double quotes with `"` and `\` escaped by a `\`;
/// every other byte is written as is. The MIR and assembly parsers read it
/// back to \p S.
inline void writeQuoted(llvm::raw_ostream &OS, llvm::StringRef S) {
  OS << '"';
  for (char C : S) {
    if (C == '"' || C == '\\')
      OS << '\\';
    OS << C;
  }
  OS << '"';
}

} // namespace wave

#endif // WAVE_SUPPORT_QUOTE_H
