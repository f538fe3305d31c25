//===- Lowering.h - Checked HIR to SSA MIR ----------------------*- C++ -*-===//
//
// Lowers a module that Sema accepted to MIR (formats/mir.md): structured
// statements become basic blocks, variables become SSA values directly
// (Braun et al., "Simple and Efficient Construction of Static Single
// Assignment Form", CC 2013: phis placed while the CFG is built, trivial
// phis removed), parameters keep the order of formats/kernel-abi.md, buffer
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

#include "llvm/Support/SourceMgr.h"

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
  /// The source manager holding the buffer \p M was parsed from: every
  /// instruction gets the line and column (1-based) of its source
  /// construct as its DebugLoc. Null: no locations. Not owned; it must
  /// outlive the call.
  const llvm::SourceMgr *SM = nullptr;
  /// Becomes mir::Module::SourceFile (`source_filename`): the input path
  /// as given on the command line, `<stdin>` for standard input.
  std::string SourceFile;
};

/// Lowers the checked module \p M. The result passes mir::verifyModule.
///
/// Every `ptr<device>` parameter gets `elem(T)` and `readonly` when the
/// function never writes through it (or its declared type is read-only),
/// else `writeonly` when it never reads through it; accesses count
/// through calls (a declared callee reads and writes a writable buffer).
/// Device functions keep their linkage (`export func`, `declare func`).
/// Time: linear in the size of \p M plus O(log lines) per distinct
/// source position.
std::unique_ptr<mir::Module> lowerModule(const Module &M,
                                         const LoweringOptions &Opts);

} // namespace wave::hir

#endif // WAVE_HIR_LOWERING_H
