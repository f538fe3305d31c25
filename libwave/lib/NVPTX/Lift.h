//===- Lift.h - WAVE kernels to LLVM IR, internals ---------------*- C++
//-*-===//
//
// Private to the NVPTX stage. liftKernel() turns one WAVE kernel into an
// LLVM IR kernel in per-thread SIMT form (formats/nvptx-abi.md "Execution
// model"): every thread of a warp is one lane of the wave, the wave's
// active mask and control frames are warp-uniform i32 values each thread
// holds, and every instruction runs in a lane only where that lane's bit
// is set, so the warp's own control flow never diverges except inside one
// instruction's memory access.
//
//===----------------------------------------------------------------------===//
#ifndef WAVE_LIB_NVPTX_LIFT_H
#define WAVE_LIB_NVPTX_LIFT_H

#include "wave/NVPTX/Translate.h"
#include "wave/Object/Wbin.h"

#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"

namespace wave::nvptx::detail {

/// The number of 32-bit register parameters kernel \p K takes
/// (formats/nvptx-abi.md "Kernel parameters"): the larger of its parameter
/// descriptor count and 1 + the highest register any instruction of its
/// code reads, at most its register count.
unsigned registerParamCount(const WbinFile &File, const KernelInfo &K);

/// The PTX entry name of kernel \p Index: the WAVE name when it is a C
/// identifier (of at most 200 characters, not starting with "__"),
/// otherwise "__wave_kernel_<Index>".
std::string entrySymbol(const KernelInfo &K, unsigned Index);

/// Adds kernel \p Index of \p File to \p M as a `ptx_kernel` function named
/// ABI.Symbol. Fails with a TranslateError naming the kernel and PC.
llvm::Error liftKernel(const WbinFile &File, unsigned Index,
                       const KernelABI &ABI, llvm::Module &M);

} // namespace wave::nvptx::detail

#endif // WAVE_LIB_NVPTX_LIFT_H
