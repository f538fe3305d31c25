//===- Mem2Reg.cpp - Promote private variable slots to SSA values ---------===//
//
// Turns `alloca` slots (formats/mir.md, "Private variables") whose every use
// is a plain `load` or `store` of the slot's own type into SSA values, with
// the classic construction of Cytron, Ferrante, Rosen, Wegman and Zadeck,
// "Efficiently Computing Static Single Assignment Form and the Control
// Dependence Graph" (TOPLAS 1991):
//
//  1. phi placement: for each slot, phis go at the iterated dominance
//     frontier of the blocks that store to it (DominanceFrontier, CHK 2001
//     Figure 5). Placement is *pruned* (Choi, Cytron and Ferrante, POPL
//     1991): a phi is placed only where the slot is live on entry, that is
//     where some path from the block start reaches a load before a store;
//  2. renaming: a walk of the dominator tree carries the slot's current
//     value; a load is replaced by it, a store sets it, and each CFG
//     successor's phis receive it on the edge.
//
// A load that no store reaches reads 0 of the slot's type: slots start
// zeroed (formats/mir.md), so the result is the same as before promotion.
// Phis whose incoming values are all one value (or the phi itself) are
// then replaced by that value. Slots accessed with another type or width
// (`store f32` then `load u32`, `store_u8`) are left alone. The CFG is not
// changed, so it stays as reducible as it was.
//
//   before                               after
//   ^entry:                              ^entry:
//     %x = alloca u32                      condbr %c, ^a, ^b
//     condbr %c, ^a, ^b                  ^a:
//   ^a:                                    br ^m
//     store u32 1, ptr<private> %x       ^b:
//     br ^m                                br ^m
//   ^b:                                  ^m:
//     store u32 2, ptr<private> %x         %0 = phi u32 [1, ^a], [2, ^b]
//     br ^m                                ret u32 %0
//   ^m:
//     %v = load u32, ptr<private> %x
//     ret u32 %v
//
//===----------------------------------------------------------------------===//
#include "wave/IR/Dominators.h"
#include "wave/Transforms/Pass.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Casting.h"

using namespace llvm;

namespace wave::mir {

namespace {

/// Whether every use of \p A is a plain load or store of its slot type
/// through it (the verifier already guarantees that uses are addresses).
static bool isPromotable(const Instruction &A) {
  for (const Use &U : A.uses()) {
    const Instruction *I = U.User;
    if (I->opcode() == Opcode::Load && U.OpNo == 0 && I->type() == A.auxType())
      continue;
    if (I->opcode() == Opcode::Store && U.OpNo == 1 &&
        I->operand(0)->type() == A.auxType() && I->operand(0) != &A)
      continue;
    return false;
  }
  return true;
}

class Mem2RegPass : public Pass {
public:
  StringRef name() const override { return "mem2reg"; }

  bool runOnFunction(Function &F, PassStats &Stats) override {
    BasicBlock *Entry = F.entry();
    if (!Entry)
      return false;
    SmallVector<Instruction *, 8> Slots;
    for (Instruction &I : Entry->insts())
      if (I.opcode() == Opcode::Alloca && isPromotable(I))
        Slots.push_back(&I);
    if (Slots.empty())
      return false;
    DenseMap<const Instruction *, unsigned> SlotIndex;
    for (unsigned K = 0; K < Slots.size(); ++K)
      SlotIndex[Slots[K]] = K;
    auto SlotOf = [&](const Instruction &I) -> int {
      if (I.opcode() == Opcode::Load || I.opcode() == Opcode::Store) {
        const Value *Addr = I.operand(I.opcode() == Opcode::Load ? 0 : 1);
        if (const auto *A = dyn_cast<Instruction>(Addr)) {
          auto It = SlotIndex.find(A);
          if (It != SlotIndex.end())
            return It->second;
        }
      }
      return -1;
    };

    CFG G(F);
    DominatorTree DT(G);
    DominanceFrontier DF(DT);

    // Phi placement, slot by slot. PhiSlot maps each new phi to its slot.
    DenseMap<const Instruction *, unsigned> PhiSlot;
    DenseMap<const BasicBlock *, SmallVector<Instruction *, 2>> BlockPhis;
    unsigned NumPhis = 0;
    for (unsigned K = 0; K < Slots.size(); ++K) {
      SmallPtrSet<BasicBlock *, 8> DefBlocks, UseBlocks;
      for (const Use &U : Slots[K]->uses()) {
        BasicBlock *BB = U.User->parent();
        if (!G.isReachable(BB))
          continue;
        (U.User->opcode() == Opcode::Store ? DefBlocks : UseBlocks).insert(BB);
      }
      // Live-in blocks: blocks with a load before any store, then their
      // predecessors backwards until a storing block (the pruning step).
      SmallPtrSet<BasicBlock *, 8> LiveIn;
      SmallVector<BasicBlock *, 8> Work;
      for (BasicBlock *BB : UseBlocks) {
        bool UpwardExposed = true;
        if (DefBlocks.count(BB))
          for (Instruction &I : BB->insts()) {
            if (SlotOf(I) != int(K))
              continue;
            UpwardExposed = I.opcode() == Opcode::Load;
            break;
          }
        if (UpwardExposed && LiveIn.insert(BB).second)
          Work.push_back(BB);
      }
      while (!Work.empty()) {
        BasicBlock *BB = Work.pop_back_val();
        for (BasicBlock *P : G.predecessors(BB))
          if (G.isReachable(P) && !DefBlocks.count(P) &&
              LiveIn.insert(P).second)
            Work.push_back(P);
      }
      // Iterated dominance frontier of the storing blocks (Cytron et al.
      // 1991, Figure 11), restricted to live-in blocks.
      SmallPtrSet<BasicBlock *, 8> HasPhi, Queued;
      for (BasicBlock *BB : G.reversePostOrder())
        if (DefBlocks.count(BB)) {
          Work.push_back(BB);
          Queued.insert(BB);
        }
      while (!Work.empty()) {
        BasicBlock *X = Work.pop_back_val();
        for (BasicBlock *Y : DF.frontier(X)) {
          if (!LiveIn.count(Y) || !HasPhi.insert(Y).second)
            continue;
          auto Phi = Instruction::create(Opcode::Phi, Slots[K]->auxType());
          Phi->setDebugLoc(Slots[K]->debugLoc()); // the variable's
          Instruction *P = Y->insert(Y->firstNonPhi(), std::move(Phi));
          PhiSlot[P] = K;
          BlockPhis[Y].push_back(P);
          ++NumPhis;
          if (Queued.insert(Y).second)
            Work.push_back(Y);
        }
      }
    }

    // Renaming over the dominator tree, with an explicit stack so that deep
    // trees cannot overflow the call stack.
    auto Zero = [&](unsigned K) { return F.constant(Slots[K]->auxType(), 0); };
    SmallVector<Value *, 8> Init;
    for (unsigned K = 0; K < Slots.size(); ++K)
      Init.push_back(Zero(K));
    SmallVector<std::pair<BasicBlock *, SmallVector<Value *, 8>>, 16> Stack;
    Stack.push_back({Entry, Init});
    SmallVector<Instruction *, 16> Dead;
    while (!Stack.empty()) {
      auto [BB, Vals] = Stack.pop_back_val();
      for (Instruction *P : BlockPhis.lookup(BB))
        Vals[PhiSlot[P]] = P;
      for (Instruction &I : BB->insts()) {
        int K = SlotOf(I);
        if (K < 0)
          continue;
        if (I.opcode() == Opcode::Load)
          I.replaceAllUsesWith(Vals[K]);
        else
          Vals[K] = I.operand(0);
        Dead.push_back(&I);
      }
      SmallPtrSet<BasicBlock *, 2> Seen;
      for (BasicBlock *S : G.successors(BB))
        if (Seen.insert(S).second)
          for (Instruction *P : BlockPhis.lookup(S))
            P->addIncoming(Vals[PhiSlot[P]], BB);
      for (BasicBlock *C : DT.children(BB))
        Stack.push_back({C, Vals});
    }
    // Edges from unreachable predecessors carry zero; loads and stores in
    // unreachable blocks go too (they never run).
    for (auto &[BB, Phis] : BlockPhis)
      for (BasicBlock *P : G.predecessors(BB))
        if (!G.isReachable(P))
          for (Instruction *Phi : Phis)
            Phi->addIncoming(Zero(PhiSlot[Phi]), P);
    for (const auto &BB : F.blocks())
      if (!G.isReachable(BB.get()))
        for (Instruction &I : BB->insts()) {
          int K = SlotOf(I);
          if (K < 0)
            continue;
          if (I.opcode() == Opcode::Load)
            I.replaceAllUsesWith(Zero(K));
          Dead.push_back(&I);
        }
    for (Instruction *I : Dead)
      I->eraseFromParent();
    for (Instruction *A : Slots)
      A->eraseFromParent();

    // Trivial phis (every incoming value is V or the phi itself) become V;
    // repeat, since replacing one may make another trivial.
    unsigned Removed = 0;
    for (bool Changed = true; Changed;) {
      Changed = false;
      for (auto &[BB, Phis] : BlockPhis)
        for (Instruction *&P : Phis) {
          if (!P)
            continue;
          Value *Same = nullptr;
          bool Trivial = true;
          for (Value *In : P->operands()) {
            if (In == P || In == Same)
              continue;
            if (Same) {
              Trivial = false;
              break;
            }
            Same = In;
          }
          if (!Trivial || !Same)
            continue;
          P->replaceAllUsesWith(Same);
          P->dropAllOperands();
          P->eraseFromParent();
          P = nullptr;
          ++Removed;
          Changed = true;
        }
    }
    Stats.add(name(), "allocas promoted", Slots.size());
    Stats.add(name(), "phis inserted", NumPhis - Removed);
    return true;
  }
};

} // namespace

std::unique_ptr<Pass> createMem2RegPass() {
  return std::make_unique<Mem2RegPass>();
}

} // namespace wave::mir
