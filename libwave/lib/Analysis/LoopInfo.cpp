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
    for (BasicBlock *B : RPO)
      if (L->Set.count(B)) {
        L->Blocks.push_back(B);
        if (is_contained(Latches, B))
          L->Latches.push_back(B);
        for (BasicBlock *S : G.successors(B))
          if (!L->Set.count(S) && !is_contained(L->Exits, S))
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
  for (unsigned I = 0; I < Loops.size(); ++I) {
    Loop *L = Loops[I].get();
    for (unsigned J = I; J-- > 0;) {
      Loop *Outer = Loops[J].get();
      if (Outer->contains(L->Header) &&
          (!L->Parent || L->Parent->Blocks.size() > Outer->Blocks.size()))
        L->Parent = Outer;
    }
    if (L->Parent)
      L->Parent->SubLoops.push_back(L);
    else
      Top.push_back(L);
    for (BasicBlock *B : L->Blocks)
      Innermost[B] = L; // later (inner) loops overwrite
  }
}

} // namespace wave::mir
