//===- Liveness.h - Live SSA values at block boundaries ---------*- C++ -*-===//
//
// Which SSA values (arguments and instruction results) are live on entry to
// and on exit from each reachable block, by the classic backward data-flow
// fixpoint (Appel, "Modern Compiler Implementation", §10.1) with SSA phi
// semantics: a phi's operand is used at the end of its incoming block, not
// in the phi's block, and a phi's result is defined on entry to its block
// (Brandner et al., "Computing Liveness Sets for SSA-Form Programs", INRIA
// RR-7503, 2011, §2). The register allocator's interference graph and
// register-pressure heuristics start here.
//
//===----------------------------------------------------------------------===//
#ifndef WAVE_ANALYSIS_LIVENESS_H
#define WAVE_ANALYSIS_LIVENESS_H

#include "wave/IR/CFG.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SetVector.h"

namespace wave::mir {

/// Live-in and live-out sets of one function's reachable blocks. Constants
/// are never live (they are immediates).
class Liveness {
public:
  using ValueSet = llvm::SetVector<const Value *>;

  /// O(blocks x values) per iteration; iterates to a fixpoint in reverse
  /// post-order backwards. \p G must outlive this object.
  explicit Liveness(const CFG &G);

  /// Live on entry to \p BB, including the results of its phis.
  const ValueSet &liveIn(const BasicBlock *BB) const;
  /// Live on exit from \p BB, including the operands its successors' phis
  /// take from it.
  const ValueSet &liveOut(const BasicBlock *BB) const;
  bool isLiveOut(const Value *V, const BasicBlock *BB) const {
    return liveOut(BB).contains(V);
  }

private:
  llvm::DenseMap<const BasicBlock *, ValueSet> In, Out;
  ValueSet Empty;
};

} // namespace wave::mir

#endif // WAVE_ANALYSIS_LIVENESS_H
