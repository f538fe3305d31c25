//===- Lowering.h - Checked HIR to SSA MIR ----------------------*- C++ -*-===//
//
// Lowers a module that Sema accepted to MIR (formats/mir.md): structured
// statements become basic blocks, variables become SSA values directly
// (Braun et al., "Simple and Efficient Construction of Static Single
// Assignment Form", CC 2013: phis placed while the CFG is built, trivial
// phis removed), parameters keep the Kernel ABI order of DESIGN.md, buffer
// elements become ptradd + load/store, shared arrays ptr<local> offsets,
// intrinsics their MIR operations (formats/kernel-languages.md,
// "Intrinsics"). A variable read before any assignment reads 0, as MIR's
// private slots do.
//
//===----------------------------------------------------------------------===//
#ifndef WAVE_HIR_LOWERING_H
#define WAVE_HIR_LOWERING_H

#include "wave/HIR/HIR.h"
#include "wave/IR/MIR.h"

#include <array>
#include <cstdint>
#include <memory>

namespace wave::hir {

/// Options of lowerModule.
struct LoweringOptions {
  /// Workgroup size of kernels whose source gives none (wave-fe
  /// --workgroup-size; the default 256, 1, 1).
  std::array<uint32_t, 3> DefaultWorkgroupSize = {256, 1, 1};
  /// Lower only this kernel (and the device functions it calls); empty:
  /// every function.
  std::string OnlyKernel;
};

/// Lowers the checked module \p M. The result passes mir::verifyModule.
std::unique_ptr<mir::Module> lowerModule(const Module &M,
                                         const LoweringOptions &Opts);

} // namespace wave::hir

#endif // WAVE_HIR_LOWERING_H
