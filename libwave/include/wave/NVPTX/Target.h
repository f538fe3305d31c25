//===- Target.h - NVIDIA architectures of the NVPTX stage -------*- C++ -*-===//
//
// One SMTarget per architecture `--mcpu=sm_NN` accepts (formats/nvptx-abi.md
// "Targets"), with the per-SM facts wave-objdump --kernels and wave-run
// --stats use for occupancy by registers: O = floor(RegisterFileBytes /
// (R * 32 * 4)) warps per SM, at most MaxWarpsPerSM.
//
//===----------------------------------------------------------------------===//
#ifndef WAVE_NVPTX_TARGET_H
#define WAVE_NVPTX_TARGET_H

#include "llvm/ADT/ArrayRef.h"

namespace wave::nvptx {

/// Static description of one architecture, sm_<SM>.
struct SMTarget {
  unsigned SM; ///< 70 for sm_70.
  /// Bytes of the register file of one SM, which the warps resident on it
  /// share (32-bit registers x 4).
  unsigned RegisterFileBytes;
  /// Warps one SM holds at most, whatever their resources.
  unsigned MaxWarpsPerSM;
};

/// Every architecture the NVPTX stage accepts, oldest first.
llvm::ArrayRef<SMTarget> allSMTargets();

} // namespace wave::nvptx

#endif // WAVE_NVPTX_TARGET_H
