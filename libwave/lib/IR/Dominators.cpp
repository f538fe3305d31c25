//===- Dominators.cpp - Dominator tree and dominance frontiers ------------===//
//
// Cooper, Harvey, Kennedy, "A Simple, Fast Dominance Algorithm" (2001):
// Figure 3 (iterative idom computation with the two-finger intersect over
// reverse post-order numbers) and Figure 5 (dominance frontiers).
//
//===----------------------------------------------------------------------===//
#include "wave/IR/Dominators.h"

#include "llvm/ADT/STLExtras.h"

#include <functional>

using namespace llvm;

namespace wave::mir {

std::vector<unsigned>
computeImmediateDominators(ArrayRef<SmallVector<unsigned, 2>> PredNums) {
  constexpr unsigned None = ~0u;
  std::vector<unsigned> Doms(PredNums.size(), None);
  if (Doms.empty())
    return Doms;
  Doms[0] = 0;
  auto Intersect = [&](unsigned A, unsigned B) {
    while (A != B) {
      while (A > B)
        A = Doms[A];
      while (B > A)
        B = Doms[B];
    }
    return A;
  };
  // Each node's predecessors, latest in RPO first: the intersect's fingers
  // then climb from where the previous one stopped. In block order, a join
  // of n branches of a chain (n nested ifs) climbs 1 + 2 + ... + n steps:
  // 76% of -O2's time at 25,000 nested ifs, quadratic.
  std::vector<SmallVector<unsigned, 2>> Preds(PredNums.begin(), PredNums.end());
  for (auto &P : Preds)
    llvm::sort(P, std::greater<unsigned>());
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (unsigned I = 1; I < Doms.size(); ++I) {
      unsigned NewIDom = None;
      for (unsigned PN : Preds[I]) {
        if (Doms[PN] == None)
          continue;
        NewIDom = NewIDom == None ? PN : Intersect(PN, NewIDom);
      }
      if (NewIDom != None && Doms[I] != NewIDom) {
        Doms[I] = NewIDom;
        Changed = true;
      }
    }
  }
  return Doms;
}

DominatorTree::DominatorTree(const CFG &G) : G(G) {
  ArrayRef<BasicBlock *> RPO = G.reversePostOrder();
  if (RPO.empty())
    return;
  std::vector<SmallVector<unsigned, 2>> PredNums(RPO.size());
  for (unsigned I = 0; I < RPO.size(); ++I)
    for (BasicBlock *P : G.predecessors(RPO[I]))
      if (G.isReachable(P))
        PredNums[I].push_back(G.rpoNumber(P));
  std::vector<unsigned> Doms = computeImmediateDominators(PredNums);
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
