//===- amdgcn-fuzzer.cpp - libFuzzer target: the AMDGCN translator -------===//
//
// Feeds arbitrary bytes to readWbin() and translates every kernel to AMDGCN
// assembly (translateToAMDGCN) for one target picked from the input size,
// so every target's table is exercised. Bytes that are not a valid .wbin
// are translated as raw code (one synthetic kernel with a register count
// taken from the input), so the translator sees arbitrary instruction
// streams: unbalanced frames, calls anywhere, recursion, every opcode and
// modifier. Whatever the input, nothing may crash, hang, leak or trip a
// sanitizer (docs/conventions.md §5: no input may crash a tool); a
// TranslateError is an expected outcome. The external assembler is not run.
//
//===----------------------------------------------------------------------===//
#include "wave/AMDGCN/Target.h"
#include "wave/AMDGCN/Translate.h"
#include "WbinInput.h"

#include <cstddef>
#include <cstdint>

using namespace wave;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  // Raw code takes its register count from the first byte.
  WbinFile F = fuzz::wbinFromBytes(Data, Size, Size ? Data[0] : 0);
  llvm::ArrayRef<amdgcn::GCNTarget> Targets = amdgcn::allTargets();
  amdgcn::TranslateOptions Opts;
  Opts.Target = &Targets[Size % Targets.size()];
  Opts.SourceName = "fuzz.wbin";
  Opts.Comments = Size % 2 == 0;
  llvm::Expected<std::string> Asm = amdgcn::translateToAMDGCN(F, Opts);
  if (!Asm)
    llvm::consumeError(Asm.takeError());
  return 0;
}
