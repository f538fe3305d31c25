//===- Liveness.cpp - Live SSA values at block boundaries -----------------===//
//
// Per block: Use = values read before any definition in the block (phi
// operands excluded), Def = values defined in the block (phi results
// included), PhiUses(P) = operands that phis of P's successors take from P.
//   LiveOut(B) = union over successors S of (LiveIn(S) - Phis(S)) + PhiUses(B)
//   LiveIn(B)  = Use(B) + (LiveOut(B) - Def(B)) + Phis(B)
// Phi results are reported live-in (they are written on the edge).
//
//===----------------------------------------------------------------------===//
#include "wave/Analysis/Liveness.h"

#include "llvm/Support/Casting.h"

using namespace llvm;

namespace wave::mir {

static bool tracked(const Value *V) {
  return isa<Instruction>(V) || isa<Argument>(V);
}

Liveness::Liveness(const CFG &G) {
  ArrayRef<BasicBlock *> RPO = G.reversePostOrder();
  DenseMap<const BasicBlock *, ValueSet> Use, Def, PhiUse, PhiDef;
  for (BasicBlock *BB : RPO) {
    ValueSet &U = Use[BB], &D = Def[BB];
    for (const Instruction &I : BB->insts()) {
      if (I.isPhi()) {
        PhiDef[BB].insert(&I);
        D.insert(&I);
        for (unsigned K = 0; K < I.numOperands(); ++K)
          if (tracked(I.operand(K)))
            PhiUse[I.block(K)].insert(I.operand(K));
        continue;
      }
      for (const Value *V : I.operands())
        if (tracked(V) && !D.contains(V))
          U.insert(V);
      if (I.type() != Type::Void)
        D.insert(&I);
    }
  }
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (unsigned Idx = RPO.size(); Idx-- > 0;) {
      BasicBlock *BB = RPO[Idx];
      ValueSet NewOut;
      for (const Value *V : PhiUse[BB])
        NewOut.insert(V);
      for (BasicBlock *S : G.successors(BB))
        for (const Value *V : In[S])
          if (!PhiDef[S].contains(V))
            NewOut.insert(V);
      ValueSet NewIn = Use[BB];
      for (const Value *V : NewOut)
        if (!Def[BB].contains(V))
          NewIn.insert(V);
      for (const Value *V : PhiDef[BB])
        NewIn.insert(V);
      if (NewOut.size() != Out[BB].size() || NewIn.size() != In[BB].size()) {
        Changed = true;
        Out[BB] = std::move(NewOut);
        In[BB] = std::move(NewIn);
      }
    }
  }
}

const Liveness::ValueSet &Liveness::liveIn(const BasicBlock *BB) const {
  auto It = In.find(BB);
  return It == In.end() ? Empty : It->second;
}

const Liveness::ValueSet &Liveness::liveOut(const BasicBlock *BB) const {
  auto It = Out.find(BB);
  return It == Out.end() ? Empty : It->second;
}

} // namespace wave::mir
