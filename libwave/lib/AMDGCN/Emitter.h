//===- Emitter.h - AMDGCN assembly text with HSA metadata --------*- C++ -*-===//
#ifndef WAVE_LIB_AMDGCN_EMITTER_H
#define WAVE_LIB_AMDGCN_EMITTER_H

#include "GCNIR.h"

#include "wave/Object/Wbin.h"

#include "llvm/Support/raw_ostream.h"

#include <vector>

namespace wave::amdgcn {

/// What the kernel descriptor and the metadata need to know about one
/// translated kernel besides its code (formats/amdgcn-abi.md).
struct KernelDesc {
  const KernelInfo *Info = nullptr;
  bool WorkgroupIdEnable[3] = {false, false, false};
  /// `.amdhsa_user_sgpr_count`: 2 (the kernarg pointer), or padded to 16
  /// minus the workgroup ids on targets with GCNTarget::UserSGPRInit16Bug.
  unsigned UserSGPRCount = 2;
  unsigned WorkitemIdVGPRs = 1; ///< 1: x only; 3: x, y, z (packed in v0).
  uint32_t GroupSegmentSize = 0;
  unsigned NumParams = 0;   ///< 32-bit values after the 64-bit base.
  uint32_t KernargSize = 8; ///< explicit and hidden arguments, bytes.
  bool UsesHidden = false;
};

/// Writes the whole module: `.amdgcn_target`, each kernel's code,
/// `.amdhsa_kernel` descriptor (AMDGPUUsage "Kernel Descriptor"), and one
/// `.amdgpu_metadata` block (code object v5, AMDGPUUsage "Code Object V5
/// Metadata").
void emitModule(llvm::raw_ostream &OS, const GCNTarget &T,
                const std::vector<MFunction> &Funcs,
                const std::vector<KernelDesc> &Descs,
                llvm::StringRef SourceName);

} // namespace wave::amdgcn

#endif // WAVE_LIB_AMDGCN_EMITTER_H
