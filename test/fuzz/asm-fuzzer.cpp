//===- asm-fuzzer.cpp - libFuzzer target for the assembler ----------------===//
//
// Feeds arbitrary bytes to the assembler (tool::assembleExecutable: the
// object linked on its own as wave-as does, diagnostics discarded) and, as
// a .wbin, to the reader and disassembler. Neither may crash, hang or read out of bounds. When the bytes
// assemble and link, the round trip assemble -> disassemble -> assemble must
// reproduce the same executable (formats/wave-asm.md §7, D13-D16); a mismatch
// traps so that libFuzzer reports it.
//
//===----------------------------------------------------------------------===//
#include "wave/Asm/Disassembler.h"
#include "wave/Object/Wbin.h"
#include "wave/Tool/Input.h"

#include <cstddef>
#include <cstdint>

using namespace wave;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  llvm::StringRef Text(reinterpret_cast<const char *>(Data), Size);

  // 1. Assembly text.
  llvm::Expected<WbinFile> F = tool::assembleExecutable(Text, "fuzz");
  if (F) {
    std::vector<uint8_t> Bytes = writeWbin(*F);
    llvm::Expected<WbinFile> Read = readWbin(Bytes);
    if (!Read)
      __builtin_trap(); // our own writer's output must be readable
    std::string Dis;
    llvm::raw_string_ostream OS(Dis);
    if (llvm::Error E = disassemble(*Read, OS))
      __builtin_trap(); // and decodable
    llvm::Expected<WbinFile> Again = tool::assembleExecutable(Dis, "fuzz");
    if (!Again || writeWbin(*Again) != Bytes)
      __builtin_trap(); // and must round-trip
  } else {
    llvm::consumeError(F.takeError());
  }

  // 2. The same bytes as a .wbin.
  llvm::ArrayRef<uint8_t> Bin(Data, Size);
  if (llvm::Expected<WbinFile> W = readWbin(Bin)) {
    std::string Dis;
    llvm::raw_string_ostream OS(Dis);
    llvm::consumeError(disassemble(*W, OS));
  } else {
    llvm::consumeError(W.takeError());
  }
  return 0;
}
