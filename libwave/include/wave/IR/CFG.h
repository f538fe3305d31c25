//===- CFG.h - Control-flow graph of a MIR function -------------*- C++ -*-===//
//
// Successor and predecessor lists, reachability and reverse post-order of a
// Function's blocks, computed once from the terminators. A CFG is a snapshot:
// rebuild it after a pass edits branches or blocks.
//
//===----------------------------------------------------------------------===//
#ifndef WAVE_IR_CFG_H
#define WAVE_IR_CFG_H

#include "wave/IR/MIR.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

#include <vector>

namespace wave::mir {

/// The CFG of one function. Edges come from terminators; a block without a
/// terminator has no successors. Predecessor lists hold each predecessor
/// once, in block order, even when a condbr names the same target twice.
class CFG {
public:
  /// O(blocks + edges).
  explicit CFG(const Function &F);

  llvm::ArrayRef<BasicBlock *> successors(const BasicBlock *BB) const;
  llvm::ArrayRef<BasicBlock *> predecessors(const BasicBlock *BB) const;
  /// Reachable from the entry block.
  bool isReachable(const BasicBlock *BB) const {
    return RPONumber.count(BB) != 0;
  }
  /// Reachable blocks in reverse post-order of a depth-first walk from the
  /// entry (successors visited in terminator order); entry first.
  llvm::ArrayRef<BasicBlock *> reversePostOrder() const { return RPO; }
  /// Position of a reachable \p BB in reversePostOrder().
  unsigned rpoNumber(const BasicBlock *BB) const {
    return RPONumber.lookup(BB);
  }

private:
  struct Node {
    llvm::SmallVector<BasicBlock *, 2> Succs, Preds;
  };
  llvm::DenseMap<const BasicBlock *, Node> Nodes;
  std::vector<BasicBlock *> RPO;
  llvm::DenseMap<const BasicBlock *, unsigned> RPONumber;
};

} // namespace wave::mir

#endif // WAVE_IR_CFG_H
