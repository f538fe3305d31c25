//===- LoopInfo.h - Natural loops of a MIR function -------------*- C++ -*-===//
//
// Natural loops (Aho, Sethi, Ullman, "Compilers", §10.4; Appel, "Modern
// Compiler Implementation", §18.1): a back edge is an edge T -> H whose
// target H dominates its source T; the loop of H is H plus every block that
// reaches a latch T without passing through H. Back edges to the same header
// form one loop. Loops nest by block containment. Cycles without a
// dominating header (irreducible control flow) are not loops here. What
// LICM and unrolling (issue 3) build on.
//
//===----------------------------------------------------------------------===//
#ifndef WAVE_ANALYSIS_LOOPINFO_H
#define WAVE_ANALYSIS_LOOPINFO_H

#include "wave/IR/Dominators.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"

#include <memory>
#include <vector>

namespace wave::mir {

/// One natural loop.
class Loop {
public:
  BasicBlock *header() const { return Header; }
  /// Blocks of the loop (header first, then reverse post-order), including
  /// those of nested loops.
  llvm::ArrayRef<BasicBlock *> blocks() const { return Blocks; }
  bool contains(const BasicBlock *BB) const { return Set.count(BB); }
  /// Sources of the back edges, in reverse post-order.
  llvm::ArrayRef<BasicBlock *> latches() const { return Latches; }
  /// Blocks outside the loop that a loop block branches to, in reverse
  /// post-order of their first discovery.
  llvm::ArrayRef<BasicBlock *> exits() const { return Exits; }
  /// The only predecessor of the header outside the loop, if that block has
  /// the header as its only successor; else null (LICM needs one).
  BasicBlock *preheader() const { return Preheader; }
  Loop *parent() const { return Parent; }
  llvm::ArrayRef<Loop *> subLoops() const { return SubLoops; }
  /// 1 for an outermost loop.
  unsigned depth() const;

private:
  friend class LoopInfo;
  BasicBlock *Header = nullptr;
  BasicBlock *Preheader = nullptr;
  Loop *Parent = nullptr;
  llvm::SmallVector<BasicBlock *, 8> Blocks, Latches, Exits;
  llvm::SmallPtrSet<const BasicBlock *, 8> Set;
  llvm::SmallVector<Loop *, 2> SubLoops;
};

/// All natural loops of one function.
class LoopInfo {
public:
  /// O(blocks x loops). \p DT and its CFG must outlive this object.
  explicit LoopInfo(const DominatorTree &DT);
  /// Every loop, outer loops before the loops they contain.
  llvm::ArrayRef<std::unique_ptr<Loop>> loops() const { return Loops; }
  /// Outermost loops, in reverse post-order of their headers.
  llvm::ArrayRef<Loop *> topLevel() const { return Top; }
  /// The innermost loop containing \p BB, or null.
  Loop *loopFor(const BasicBlock *BB) const { return Innermost.lookup(BB); }
  /// Nesting depth of \p BB (0 outside every loop).
  unsigned depth(const BasicBlock *BB) const {
    Loop *L = loopFor(BB);
    return L ? L->depth() : 0;
  }

private:
  std::vector<std::unique_ptr<Loop>> Loops;
  llvm::SmallVector<Loop *, 4> Top;
  llvm::DenseMap<const BasicBlock *, Loop *> Innermost;
};

} // namespace wave::mir

#endif // WAVE_ANALYSIS_LOOPINFO_H
