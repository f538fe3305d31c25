//===- Dominators.h - Dominator tree and dominance frontiers ----*- C++ -*-===//
//
// Dominators of the reachable blocks of a MIR function, computed with the
// iterative algorithm of Cooper, Harvey and Kennedy, "A Simple, Fast
// Dominance Algorithm" (Software Practice and Experience, 2001), over the
// reverse post-order of CFG.h; dominance frontiers with the same paper's
// "runner" walk (Figure 5). Unreachable blocks have no immediate dominator,
// are dominated by nothing and dominate nothing.
//
//===----------------------------------------------------------------------===//
#ifndef WAVE_IR_DOMINATORS_H
#define WAVE_IR_DOMINATORS_H

#include "wave/IR/CFG.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallVector.h"

#include <vector>

namespace wave::mir {

/// The immediate dominators of a graph whose nodes are numbered in reverse
/// post-order (entry 0), by Cooper, Harvey and Kennedy's iteration with the
/// two-finger intersect (2001, Figure 3). \p PredNums[i] lists the RPO
/// numbers of node i's predecessors (unreachable ones left out). Returns,
/// per node, the RPO number of its immediate dominator (0 for the entry).
/// Shared by DominatorTree and wave-ra's structurizer, which works on an
/// abstract graph.
std::vector<unsigned> computeImmediateDominators(
    llvm::ArrayRef<llvm::SmallVector<unsigned, 2>> PredNums);

/// Immediate dominators and the dominator tree of one function.
class DominatorTree {
public:
  /// Builds the tree from \p G (which must outlive it). O(N^2) in the worst
  /// case, near-linear on reducible CFGs (CHK 2001, §4).
  explicit DominatorTree(const CFG &G);

  const CFG &cfg() const { return G; }
  /// Immediate dominator; null for the entry and unreachable blocks.
  BasicBlock *idom(const BasicBlock *BB) const { return IDom.lookup(BB); }
  /// Children in the dominator tree, in reverse post-order.
  llvm::ArrayRef<BasicBlock *> children(const BasicBlock *BB) const;
  /// \p A dominates \p B (reflexive). False if either is unreachable.
  /// O(1) with the DFS numbering of the tree.
  bool dominates(const BasicBlock *A, const BasicBlock *B) const;
  /// Instruction \p Def dominates the use of operand \p OpNo of \p User:
  /// for a phi, Def's block dominates the matching incoming block; else
  /// Def comes first in the same block, or Def's block strictly dominates.
  bool dominatesUse(const Instruction *Def, const Instruction *User,
                    unsigned OpNo) const;

private:
  const CFG &G;
  llvm::DenseMap<const BasicBlock *, BasicBlock *> IDom;
  llvm::DenseMap<const BasicBlock *, llvm::SmallVector<BasicBlock *, 4>> Kids;
  llvm::DenseMap<const BasicBlock *, std::pair<unsigned, unsigned>> Interval;
};

/// Dominance frontiers: DF(X) is the set of blocks Y such that X dominates a
/// predecessor of Y but does not strictly dominate Y (Cytron et al. 1991;
/// computed as in CHK 2001, Figure 5). Where SSA construction (mem2reg)
/// places phis.
class DominanceFrontier {
public:
  explicit DominanceFrontier(const DominatorTree &DT);
  /// Frontier of \p BB, in reverse post-order of insertion; empty for
  /// unreachable blocks.
  llvm::ArrayRef<BasicBlock *> frontier(const BasicBlock *BB) const;

private:
  llvm::DenseMap<const BasicBlock *, llvm::SetVector<BasicBlock *>> DF;
};

} // namespace wave::mir

#endif // WAVE_IR_DOMINATORS_H
