//===- Target.cpp - NVIDIA architectures of the NVPTX stage ---------------===//
//
// The architecture table. Source: the CUDA C++ Programming Guide, table
// "Technical Specifications per Compute Capability": 64 K 32-bit registers
// per SM (256 KiB) for every compute capability from 5.0 on; "Maximum
// number of resident warps per SM" 64 for 7.0, 7.2, 8.0 and 9.0, 32 for
// 7.5, 48 for 8.6, 8.7 and 8.9 (the same figures as cuda-api-wrappers'
// max_resident_warps_per_processor(), which follows that table).
//
//===----------------------------------------------------------------------===//
#include "wave/NVPTX/Target.h"

namespace wave::nvptx {

static constexpr unsigned SMRegisterFileBytes = 65536 * 4;

static const SMTarget Targets[] = {
    {70, SMRegisterFileBytes, 64}, {72, SMRegisterFileBytes, 64},
    {75, SMRegisterFileBytes, 32}, {80, SMRegisterFileBytes, 64},
    {86, SMRegisterFileBytes, 48}, {87, SMRegisterFileBytes, 48},
    {89, SMRegisterFileBytes, 48}, {90, SMRegisterFileBytes, 64},
};

llvm::ArrayRef<SMTarget> allSMTargets() { return Targets; }

} // namespace wave::nvptx
