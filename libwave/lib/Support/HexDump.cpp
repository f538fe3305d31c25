//===- HexDump.cpp - Hex and ASCII rows of a byte range -------------------===//
#include "wave/Support/HexDump.h"

#include "llvm/Support/Format.h"

using namespace llvm;

namespace wave {

void printHexRows(raw_ostream &OS, ArrayRef<uint8_t> Bytes, uint64_t Base) {
  for (size_t Row = 0; Row < Bytes.size(); Row += 16) {
    size_t N = std::min<size_t>(16, Bytes.size() - Row);
    OS << format("%08llx: ", (unsigned long long)(Base + Row));
    for (size_t J = 0; J != 16; ++J) {
      if (J == 8)
        OS << ' ';
      if (J < N)
        OS << format("%02x ", Bytes[Row + J]);
      else
        OS << "   ";
    }
    OS << " |";
    for (size_t J = 0; J != N; ++J) {
      uint8_t C = Bytes[Row + J];
      OS << (C >= 0x20 && C <= 0x7E ? char(C) : '.');
    }
    OS << "|\n";
  }
}

} // namespace wave
