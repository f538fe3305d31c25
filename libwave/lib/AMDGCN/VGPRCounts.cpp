//===- VGPRCounts.cpp - VGPRs per kernel of a translation -----------------===//
//
// kernelVGPRCounts(): the register count the AMDGCN stage gives each kernel,
// read back from the kernel descriptors of the assembly text it writes, so
// that wave-objdump --mcpu reports exactly what a code object built from the
// same .wbin declares, without clang.
//
//===----------------------------------------------------------------------===//
#include "wave/AMDGCN/Translate.h"

#include "llvm/ADT/SmallVector.h"

#include <cassert>

using namespace llvm;

namespace wave::amdgcn {

Expected<std::vector<unsigned>> kernelVGPRCounts(const WbinFile &File,
                                                 const TranslateOptions &Opts) {
  TranslateOptions Quiet = Opts;
  Quiet.Comments = false;
  Expected<std::string> Text = translateToAMDGCN(File, Quiet);
  if (!Text)
    return Text.takeError();
  // One descriptor per kernel, in the file's order (Emitter.cpp).
  std::vector<unsigned> Counts;
  SmallVector<StringRef, 0> Lines;
  StringRef(*Text).split(Lines, '\n');
  for (StringRef L : Lines) {
    StringRef V = L.trim();
    unsigned N = 0;
    if (V.consume_front(".amdhsa_next_free_vgpr ") &&
        !V.trim().getAsInteger(10, N))
      Counts.push_back(N);
  }
  assert(Counts.size() == File.Kernels.size() &&
         "one kernel descriptor per kernel");
  return Counts;
}

} // namespace wave::amdgcn
