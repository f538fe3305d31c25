//===- HexDump.h - Hex and ASCII rows of a byte range -----------*- C++ -*-===//
//
// The row format of the reference emulator's --dump-memory (formats/isa.md
// §7.3), shared by wave-run --dump-memory and wave-objdump -s.
//
//===----------------------------------------------------------------------===//
#ifndef WAVE_SUPPORT_HEXDUMP_H
#define WAVE_SUPPORT_HEXDUMP_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>

namespace wave {

/// Prints \p Bytes as rows of 16 (formats/isa.md §7.3): `%08x: ` with the
/// address \p Base + row offset, each byte as `%02x ` with one extra space
/// before the ninth, padding for a short last row, then ` |ASCII|` where bytes
/// 0x20-0x7E print as themselves and all others as `.`. Prints nothing for no
/// bytes.
void printHexRows(llvm::raw_ostream &OS, llvm::ArrayRef<uint8_t> Bytes,
                  uint64_t Base);

} // namespace wave

#endif // WAVE_SUPPORT_HEXDUMP_H
