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

#include "llvm/IR/IRBuilder.h"
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

/// The function a speculative chunk's head calls to check its accesses
/// (SpanChecks.cpp): variadic, operands (i32 start, i64 length, i64 memory
/// size) per range, true iff zext(start) + length <= size for each.
inline constexpr const char *SpanCheckName = "__wave_span_check";

/// The widest range of bytes one check of a speculative chunk covers.
inline constexpr int64_t MaxSpanBytes = 1 << 20;

/// One range a speculative chunk checks: \p Length bytes from \p Start
/// (i32) in a memory of \p Size bytes (i64).
struct SpanCheck {
  llvm::Value *Start;
  int64_t Length;
  llvm::Value *Size;
};

/// Emits the head's check of \p Spans: a call of SpanCheckName.
llvm::Value *emitSpanCheck(llvm::IRBuilderBase &B,
                           llvm::ArrayRef<SpanCheck> Spans);

/// Takes \p Addr apart into terms (appended to \p Terms, in the order of
/// the adds) and returns the constant offset: Addr = sum + offset (mod
/// 2^32), through `add`, disjoint `or` and the subtraction of a constant.
uint32_t splitAddress(llvm::Value *Addr,
                      llvm::SmallVectorImpl<llvm::Value *> &Terms);

/// Replaces every call of SpanCheckName in \p M by comparisons, one per
/// set of starts with the same terms and memory; returns whether there was
/// any. Runs after the optimisation pipeline, which has folded constants
/// into the starts, and before code generation (which cannot lower it).
bool lowerSpanChecks(llvm::Module &M);

} // namespace wave::nvptx::detail

#endif // WAVE_LIB_NVPTX_LIFT_H
