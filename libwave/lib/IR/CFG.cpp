//===- CFG.cpp - Control-flow graph of a MIR function ---------------------===//
//
// Builds successor/predecessor lists and an iterative DFS post-order.
//
//===----------------------------------------------------------------------===//
#include "wave/IR/CFG.h"

#include "llvm/ADT/STLExtras.h"

using namespace llvm;

namespace wave::mir {

CFG::CFG(const Function &F) {
  for (const auto &BB : F.blocks())
    Nodes[BB.get()];
  for (const auto &BB : F.blocks()) {
    Node &N = Nodes[BB.get()];
    for (BasicBlock *S : BB->successors()) {
      if (is_contained(N.Succs, S))
        continue;
      N.Succs.push_back(S);
      // A branch to a block of another function would be a verifier error;
      // do not create nodes for it.
      auto It = Nodes.find(S);
      if (It != Nodes.end())
        It->second.Preds.push_back(BB.get());
    }
  }
  // Predecessors in block order, for deterministic iteration.
  DenseMap<const BasicBlock *, unsigned> Index;
  for (unsigned I = 0; I < F.numBlocks(); ++I)
    Index[F.blocks()[I].get()] = I;
  for (auto &KV : Nodes)
    llvm::sort(KV.second.Preds, [&](BasicBlock *A, BasicBlock *B) {
      return Index[A] < Index[B];
    });

  if (!F.entry())
    return;
  // Iterative DFS; post-order, then reversed.
  std::vector<BasicBlock *> Post;
  DenseMap<const BasicBlock *, bool> Seen;
  SmallVector<std::pair<BasicBlock *, unsigned>, 16> Stack;
  Stack.push_back({F.entry(), 0});
  Seen[F.entry()] = true;
  while (!Stack.empty()) {
    auto &[BB, Next] = Stack.back();
    ArrayRef<BasicBlock *> Succs = Nodes[BB].Succs;
    if (Next < Succs.size()) {
      BasicBlock *S = Succs[Next++];
      if (Nodes.count(S) && !Seen[S]) {
        Seen[S] = true;
        Stack.push_back({S, 0});
      }
      continue;
    }
    Post.push_back(BB);
    Stack.pop_back();
  }
  RPO.assign(Post.rbegin(), Post.rend());
  for (unsigned I = 0; I < RPO.size(); ++I)
    RPONumber[RPO[I]] = I;
}

ArrayRef<BasicBlock *> CFG::successors(const BasicBlock *BB) const {
  auto It = Nodes.find(BB);
  return It == Nodes.end() ? ArrayRef<BasicBlock *>() : It->second.Succs;
}

ArrayRef<BasicBlock *> CFG::predecessors(const BasicBlock *BB) const {
  auto It = Nodes.find(BB);
  return It == Nodes.end() ? ArrayRef<BasicBlock *>() : It->second.Preds;
}

} // namespace wave::mir
