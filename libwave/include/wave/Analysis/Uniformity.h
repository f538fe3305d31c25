//===- Uniformity.h - Uniform and divergent values --------------*- C++ -*-===//
//
// Which SSA values may differ between the lanes of one wave (divergent) and
// which are the same in every active lane (uniform), and which branches may
// split a wave. Uniform values can live in scalar registers on AMDGCN
// (libwave/README.md "The AMDGCN stage") and uniform branches need no EXEC
// masking.
//
// A conservative version of the divergence analysis of Karrenberg and Hack,
// "Whole-Function Vectorization" (CGO 2011), as refined by Rosemann, Moll
// and Hack, "An Abstract Interpretation for SPMD Divergence on Reducible
// Control Flow Graphs" (POPL 2021):
//  * sources: thread_id_x/y/z and lane_id, atomics' results, loads from
//    private slots (each lane has its own, formats/mir.md), the lane-
//    dependent wave operations (shuffles, prefix sum), call results and the
//    parameters of device functions (there is no interprocedural analysis);
//    kernel parameters are uniform (formats/kernel-abi.md: every lane gets
//    the same register value);
//  * data dependence: an instruction with a divergent operand is divergent,
//    except wave_broadcast, wave_ballot, wave_any, wave_all and the
//    reductions, whose results are the same in every active lane;
//  * sync dependence: a phi is divergent if its block is in the iterated
//    dominance frontier of the successors of a divergent branch and is
//    reachable from both (where the two sides of the branch may meet);
//  * temporal divergence: a value defined in a loop with a divergent exit
//    and used outside the loop is divergent (lanes left in different
//    iterations, so it cannot be one scalar register); this also makes its
//    users inside the loop divergent, which is conservative.
// Over-approximates divergence; never calls a divergent value uniform.
//
//===----------------------------------------------------------------------===//
#ifndef WAVE_ANALYSIS_UNIFORMITY_H
#define WAVE_ANALYSIS_UNIFORMITY_H

#include "wave/Analysis/LoopInfo.h"
#include "wave/IR/Dominators.h"

#include "llvm/ADT/SmallPtrSet.h"

namespace wave::mir {

/// Divergence facts of one function.
class UniformityInfo {
public:
  /// Runs to a fixpoint; O(iterations x function size). \p DF and \p LI
  /// must describe \p F; they need not outlive this object.
  UniformityInfo(const Function &F, const DominanceFrontier &DF,
                 const LoopInfo &LI);

  /// \p V may differ between the active lanes of a wave. Constants never do.
  bool isDivergent(const Value *V) const { return Divergent.count(V); }
  bool isUniform(const Value *V) const { return !isDivergent(V); }
  /// \p Term is a condbr whose condition is divergent.
  bool isDivergentBranch(const Instruction *Term) const;

private:
  llvm::SmallPtrSet<const Value *, 32> Divergent;
};

} // namespace wave::mir

#endif // WAVE_ANALYSIS_UNIFORMITY_H
