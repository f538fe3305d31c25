//===- Translate.h - WAVE to AMDGCN assembly ---------------------*- C++ -*-===//
//
// The AMDGCN stage's translator (libwave/README.md "The AMDGCN stage";
// WaveASM's design): every kernel of an executable `.wbin` becomes an AMDGCN
// kernel with an `.amdhsa_kernel` descriptor and code-object-v5
// `.amdgpu_metadata`, in one assembly text that `clang -x assembler
// --target=amdgcn-amd-amdhsa` accepts. The ABI is formats/amdgcn-abi.md.
//
//===----------------------------------------------------------------------===//
#ifndef WAVE_AMDGCN_TRANSLATE_H
#define WAVE_AMDGCN_TRANSLATE_H

#include "wave/AMDGCN/Target.h"
#include "wave/Object/TranslateError.h"
#include "wave/Object/Wbin.h"

#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace wave::amdgcn {

/// Options of translateToAMDGCN().
struct TranslateOptions {
  const GCNTarget *Target = nullptr; ///< required.
  /// Name of the input for the `.file` comment at the top (display only).
  std::string SourceName;
  /// Print `; WAVE: <instruction>` comments before each translated WAVE
  /// instruction.
  bool Comments = true;
};

/// A kernel the stage cannot translate, located by kernel and PC.
using wave::TranslateError;

/// Translates every kernel of \p File (an executable: relocatable objects
/// are rejected) to one AMDGCN assembly text for Opts.Target. Fails with a
/// TranslateError for the first instruction that cannot be translated.
llvm::Expected<std::string> translateToAMDGCN(const WbinFile &File,
                                              const TranslateOptions &Opts);

/// The VGPRs per lane each kernel of \p File takes when translated for
/// Opts.Target, in File.Kernels' order: the `.amdhsa_next_free_vgpr` of each
/// kernel descriptor translateToAMDGCN() writes (on gfx90a/942/950 the
/// unified count, AGPRs included from accum_offset on; AMDGPUUsage "Kernel
/// Descriptor"). Translates the whole file; fails as translateToAMDGCN().
llvm::Expected<std::vector<unsigned>>
kernelVGPRCounts(const WbinFile &File, const TranslateOptions &Opts);

} // namespace wave::amdgcn

#endif // WAVE_AMDGCN_TRANSLATE_H
