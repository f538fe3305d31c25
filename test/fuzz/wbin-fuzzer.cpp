//===- wbin-fuzzer.cpp - libFuzzer target: .wbin reader, decoder, emulator ===//
//
// Feeds arbitrary bytes to readWbin(), decodes every instruction of every
// kernel, and runs each kernel on the emulator with small memories, a small
// wave width and a small instruction limit. Bytes that are not a valid
// .wbin are also run as raw code (one synthetic kernel), so the emulator
// sees arbitrary instruction streams, not only what survives the reader.
// Whatever the input, nothing may crash, hang, leak or trip a sanitizer
// (docs/conventions.md §5: no input may crash a tool). Errors are expected and
// ignored.
//
//===----------------------------------------------------------------------===//
#include "wave/Emu/Emulator.h"
#include "wave/ISA/ISA.h"
#include "WbinInput.h"

#include "llvm/Support/raw_ostream.h"

#include <cstddef>
#include <cstdint>

using namespace wave;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  // Raw code runs with the configuration's register count and workgroup
  // size.
  WbinFile F = fuzz::wbinFromBytes(Data, Size, 0);
  for (const KernelInfo &K : F.Kernels) {
    llvm::ArrayRef<uint8_t> Code = F.kernelCode(K);
    for (uint64_t Off = 0; Off < Code.size();) {
      llvm::Expected<Inst> I = decodeInst(Code, Off);
      if (!I) {
        llvm::consumeError(I.takeError());
        Off += 4;
        continue;
      }
      Off += I->length();
    }
  }
  // Run at most four kernels; keep every run small and bounded.
  size_t NumKernels = F.Kernels.empty() ? 1 : F.Kernels.size();
  for (unsigned KI = 0; KI != NumKernels && KI != 4; ++KI) {
    emu::EmuConfig C;
    C.KernelIndex = KI;
    C.WaveWidth = 1 + (Size % 8);
    C.Workgroup = {1 + unsigned(Size % 5), 1, 1};
    C.Grid = {1 + unsigned(Size % 2), 1, 1};
    C.LocalMemory = 256;
    C.DeviceMemory = 1024;
    C.MaxInstructions = 2000;
    C.SetRegs = {{1, 16}, {2, 0xFFFFFFFF}};
    if (!F.Kernels.empty()) {
      // Metadata overrides: skip kernels whose metadata asks for more than
      // a small workgroup or local memory, to keep runs fast.
      const KernelInfo &K = F.Kernels[KI];
      uint64_t T = uint64_t(K.WorkgroupSize[0]) * K.WorkgroupSize[1] *
                   K.WorkgroupSize[2];
      if ((K.WorkgroupSize[0] > 0 && T > 64) || K.LocalMemorySize > 65536)
        continue;
    }
    auto E = emu::Emulator::create(F, C);
    if (!E) {
      llvm::consumeError(E.takeError());
      continue;
    }
    std::string Trace;
    llvm::raw_string_ostream OS(Trace);
    if (Size % 3 == 0)
      (*E)->setTrace(&OS);
    llvm::consumeError((*E)->run());
  }
  return 0;
}
