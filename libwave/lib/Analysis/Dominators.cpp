//===- Dominators.cpp - Dominator tree and dominance frontiers ------------===//
//
// Cooper, Harvey, Kennedy, "A Simple, Fast Dominance Algorithm" (2001):
// Figure 3 (iterative idom computation with the two-finger intersect over
// reverse post-order numbers) and Figure 5 (dominance frontiers).
//
//===----------------------------------------------------------------------===//
#include "wave/Analysis/Dominators.h"

using namespace llvm;

namespace wave::mir {

DominatorTree::DominatorTree(const CFG &G) : G(G) {
  ArrayRef<BasicBlock *> RPO = G.reversePostOrder();
  if (RPO.empty())
    return;
  // Doms[i] = RPO number of the idom of RPO[i]; -1 = not yet computed.
  std::vector<int> Doms(RPO.size(), -1);
  Doms[0] = 0;
  auto Intersect = [&](int A, int B) {
    while (A != B) {
      while (A > B)
        A = Doms[A];
      while (B > A)
        B = Doms[B];
    }
    return A;
  };
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (unsigned I = 1; I < RPO.size(); ++I) {
      int NewIDom = -1;
      for (BasicBlock *P : G.predecessors(RPO[I])) {
        if (!G.isReachable(P))
          continue;
        int PN = G.rpoNumber(P);
        if (Doms[PN] == -1)
          continue;
        NewIDom = NewIDom == -1 ? PN : Intersect(PN, NewIDom);
      }
      if (NewIDom != -1 && Doms[I] != NewIDom) {
        Doms[I] = NewIDom;
        Changed = true;
      }
    }
  }
  for (unsigned I = 1; I < RPO.size(); ++I) {
    IDom[RPO[I]] = RPO[Doms[I]];
    Kids[RPO[Doms[I]]].push_back(RPO[I]);
  }
  // DFS interval numbering for O(1) dominates().
  unsigned Clock = 0;
  SmallVector<std::pair<BasicBlock *, unsigned>, 16> Stack;
  Stack.push_back({RPO[0], 0});
  Interval[RPO[0]].first = Clock++;
  while (!Stack.empty()) {
    auto &[BB, Next] = Stack.back();
    ArrayRef<BasicBlock *> C = children(BB);
    if (Next < C.size()) {
      BasicBlock *K = C[Next++];
      Interval[K].first = Clock++;
      Stack.push_back({K, 0});
      continue;
    }
    Interval[BB].second = Clock++;
    Stack.pop_back();
  }
}

ArrayRef<BasicBlock *> DominatorTree::children(const BasicBlock *BB) const {
  auto It = Kids.find(BB);
  return It == Kids.end() ? ArrayRef<BasicBlock *>() : It->second;
}

bool DominatorTree::dominates(const BasicBlock *A, const BasicBlock *B) const {
  auto IA = Interval.find(A), IB = Interval.find(B);
  if (IA == Interval.end() || IB == Interval.end())
    return false;
  return IA->second.first <= IB->second.first &&
         IB->second.second <= IA->second.second;
}

bool DominatorTree::dominatesUse(const Instruction *Def,
                                 const Instruction *User, unsigned OpNo) const {
  const BasicBlock *DB = Def->parent();
  if (User->isPhi())
    return dominates(DB, User->block(OpNo));
  const BasicBlock *UB = User->parent();
  if (DB != UB)
    return dominates(DB, UB);
  if (!G.isReachable(DB))
    return false;
  for (const Instruction &I : DB->insts()) {
    if (&I == Def)
      return true;
    if (&I == User)
      return false;
  }
  return false;
}

DominanceFrontier::DominanceFrontier(const DominatorTree &DT) {
  const CFG &G = DT.cfg();
  for (BasicBlock *B : G.reversePostOrder()) {
    SmallVector<BasicBlock *, 4> Preds;
    for (BasicBlock *P : G.predecessors(B))
      if (G.isReachable(P))
        Preds.push_back(P);
    if (Preds.size() < 2)
      continue;
    for (BasicBlock *P : Preds) {
      BasicBlock *Runner = P;
      while (Runner && Runner != DT.idom(B)) {
        DF[Runner].insert(B);
        Runner = DT.idom(Runner);
      }
    }
  }
}

ArrayRef<BasicBlock *> DominanceFrontier::frontier(const BasicBlock *BB) const {
  auto It = DF.find(BB);
  if (It == DF.end())
    return {};
  return It->second.getArrayRef();
}

} // namespace wave::mir
