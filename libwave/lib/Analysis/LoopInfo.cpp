//===- LoopInfo.cpp - Natural loops of a MIR function ---------------------===//
//
// Finds back edges with the dominator tree, grows each loop body backwards
// from its latches, then nests loops by containment (a loop's parent is the
// smallest other loop containing its header).
//
//===----------------------------------------------------------------------===//
#include "wave/Analysis/LoopInfo.h"

#include "llvm/ADT/STLExtras.h"

using namespace llvm;

namespace wave::mir {

unsigned Loop::depth() const {
  unsigned D = 1;
  for (const Loop *P = Parent; P; P = P->Parent)
    ++D;
  return D;
}

LoopInfo::LoopInfo(const DominatorTree &DT) {
  const CFG &G = DT.cfg();
  ArrayRef<BasicBlock *> RPO = G.reversePostOrder();
  for (BasicBlock *H : RPO) {
    SmallVector<BasicBlock *, 4> Latches;
    for (BasicBlock *P : G.predecessors(H))
      if (G.isReachable(P) && DT.dominates(H, P))
        Latches.push_back(P);
    if (Latches.empty())
      continue;
    auto L = std::make_unique<Loop>();
    L->Header = H;
    L->Set.insert(H);
    SmallVector<BasicBlock *, 16> Work;
    for (BasicBlock *T : Latches)
      if (L->Set.insert(T).second)
        Work.push_back(T);
    while (!Work.empty()) {
      BasicBlock *B = Work.pop_back_val();
      for (BasicBlock *P : G.predecessors(B))
        if (G.isReachable(P) && L->Set.insert(P).second)
          Work.push_back(P);
    }
    // The loop's blocks in reverse post-order: sort the body by RPO
    // number (O(body log body)) rather than scan the whole function's RPO
    // for every loop (O(blocks x loops)).
    SmallVector<std::pair<unsigned, BasicBlock *>, 16> Sorted;
    for (const BasicBlock *B : L->Set)
      Sorted.push_back({G.rpoNumber(B), const_cast<BasicBlock *>(B)});
    llvm::sort(Sorted, llvm::less_first());
    for (auto [N, B] : Sorted)
      L->Blocks.push_back(B);
    SmallPtrSet<const BasicBlock *, 8> ExitSet;
    for (BasicBlock *B : L->Blocks) {
      if (is_contained(Latches, B))
        L->Latches.push_back(B);
      for (BasicBlock *S : G.successors(B))
        if (!L->Set.count(S) && ExitSet.insert(S).second)
          L->Exits.push_back(S);
    }
    BasicBlock *Outside = nullptr;
    unsigned NumOutside = 0;
    for (BasicBlock *P : G.predecessors(H))
      if (G.isReachable(P) && !L->Set.count(P)) {
        Outside = P;
        ++NumOutside;
      }
    if (NumOutside == 1 && G.successors(Outside).size() == 1)
      L->Preheader = Outside;
    Loops.push_back(std::move(L));
  }
  // Headers come in reverse post-order, so an enclosing loop (whose header
  // dominates the inner header) is created before the loops it contains.
  // Natural loops with different headers are disjoint or nested (Aho,
  // Sethi, Ullman §10.4), so the loops containing a header form a chain and
  // the innermost of them is the last one created before this loop: the
  // value Innermost holds for the header at this point (O(1) per loop
  // instead of a scan of all earlier loops).
  for (unsigned I = 0; I < Loops.size(); ++I) {
    Loop *L = Loops[I].get();
    L->Parent = Innermost.lookup(L->Header);
    if (L->Parent)
      L->Parent->SubLoops.push_back(L);
    else
      Top.push_back(L);
    for (BasicBlock *B : L->Blocks)
      Innermost[B] = L; // later (inner) loops overwrite
  }
}

} // namespace wave::mir
