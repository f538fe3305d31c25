//===- SimplifyCFG.cpp - Control-flow graph simplification ----------------===//
//
// Seed 003's "CFG Simplification", repeated until nothing changes:
//  1. fold `condbr` on a constant, or with both targets equal, into `br`
//     (the dropped edge's phi entries go too);
//  2. delete blocks unreachable from the entry;
//  3. merge a block into its only predecessor when that predecessor ends
//     in `br` to it (the block's phis have one entry each and fold away);
//  4. bypass blocks holding only `br ^S`: their predecessors branch to ^S
//     directly, unless ^S has phis and the predecessor already reaches ^S
//     (its phi entries would conflict).
// None of these changes which lanes run an instruction, so convergent
// operations are safe. The entry block is never merged away or bypassed.
//
//   before                               after
//   ^entry:                              ^entry:
//     condbr true, ^a, ^b                  %x = add i32 %n, 1
//   ^a:                                    ret
//     %x = add i32 %n, 1
//     br ^exit
//   ^b:
//     br ^exit
//   ^exit:
//     ret
//
//===----------------------------------------------------------------------===//
#include "wave/Analysis/CFG.h"
#include "wave/Transforms/Pass.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Casting.h"

using namespace llvm;

namespace wave::mir {

namespace {

/// Removes \p Pred's entries from the phis of \p BB.
static void removePhiEntries(BasicBlock *BB, const BasicBlock *Pred) {
  for (Instruction &I : BB->insts()) {
    if (!I.isPhi())
      break;
    for (unsigned K = I.numOperands(); K-- > 0;)
      if (I.block(K) == Pred)
        I.removeOperand(K);
  }
}

/// Replaces \p Old with \p New in the phi entries of \p BB.
static void renamePhiEntries(BasicBlock *BB, const BasicBlock *Old,
                             BasicBlock *New) {
  for (Instruction &I : BB->insts()) {
    if (!I.isPhi())
      break;
    for (unsigned K = 0; K < I.numOperands(); ++K)
      if (I.block(K) == Old)
        I.setBlock(K, New);
  }
}

static bool hasPhis(BasicBlock *BB) {
  return !BB->empty() && BB->front().isPhi();
}

class SimplifyCFGPass : public Pass {
public:
  StringRef name() const override { return "simplifycfg"; }

  bool runOnFunction(Function &F, PassStats &Stats) override {
    bool Any = false;
    for (bool Changed = true; Changed && F.entry();) {
      // Every step runs each round (no short-circuit).
      Changed = foldBranches(F, Stats);
      Changed |= removeUnreachable(F, Stats);
      Changed |= mergeBlocks(F, Stats);
      Changed |= bypassEmpty(F, Stats);
      Any |= Changed;
    }
    return Any;
  }

private:
  bool foldBranches(Function &F, PassStats &Stats) {
    bool Changed = false;
    for (const auto &BB : F.blocks()) {
      Instruction *T = BB->terminator();
      if (!T || T->opcode() != Opcode::CondBr)
        continue;
      BasicBlock *Taken = nullptr, *Dropped = nullptr;
      if (T->block(0) == T->block(1)) {
        Taken = T->block(0);
      } else if (auto *C = dyn_cast<Constant>(T->operand(0))) {
        Taken = T->block(C->bits() ? 0 : 1);
        Dropped = T->block(C->bits() ? 1 : 0);
      } else {
        continue;
      }
      if (Dropped)
        removePhiEntries(Dropped, BB.get());
      auto Br = Instruction::create(Opcode::Br, Type::Void);
      Br->addBlock(Taken);
      T->eraseFromParent();
      BB->append(std::move(Br));
      Stats.add(name(), "branches folded");
      Changed = true;
    }
    return Changed;
  }

  bool removeUnreachable(Function &F, PassStats &Stats) {
    CFG G(F);
    SmallVector<BasicBlock *, 8> Dead;
    for (const auto &BB : F.blocks())
      if (!G.isReachable(BB.get()))
        Dead.push_back(BB.get());
    if (Dead.empty())
      return false;
    for (BasicBlock *BB : Dead) {
      for (BasicBlock *S : G.successors(BB))
        removePhiEntries(S, BB);
      for (Instruction &I : BB->insts())
        I.dropAllOperands();
    }
    // Values of dead blocks can only be used in dead blocks (the verifier
    // rejects other uses), whose operands are gone now.
    for (BasicBlock *BB : Dead)
      F.eraseBlock(BB);
    Stats.add(name(), "blocks removed", Dead.size());
    return true;
  }

  bool mergeBlocks(Function &F, PassStats &Stats) {
    bool Changed = false;
    for (unsigned Idx = 1; Idx < F.numBlocks();) {
      BasicBlock *BB = F.blocks()[Idx].get();
      CFG G(F);
      ArrayRef<BasicBlock *> Preds = G.predecessors(BB);
      BasicBlock *P = Preds.size() == 1 ? Preds[0] : nullptr;
      Instruction *PT = P ? P->terminator() : nullptr;
      if (!P || P == BB || !PT || PT->opcode() != Opcode::Br) {
        ++Idx;
        continue;
      }
      // Phis of BB have exactly one entry (from P).
      while (hasPhis(BB)) {
        Instruction &Phi = BB->front();
        Phi.replaceAllUsesWith(Phi.operand(0));
        Phi.eraseFromParent();
      }
      PT->eraseFromParent();
      while (!BB->empty())
        P->append(BB->remove(&BB->front()));
      for (BasicBlock *S : P->successors())
        renamePhiEntries(S, BB, P);
      F.eraseBlock(BB);
      Stats.add(name(), "blocks merged");
      Changed = true;
    }
    return Changed;
  }

  bool bypassEmpty(Function &F, PassStats &Stats) {
    bool Changed = false;
    for (unsigned Idx = 1; Idx < F.numBlocks(); ++Idx) {
      BasicBlock *BB = F.blocks()[Idx].get();
      if (BB->size() != 1 || BB->front().opcode() != Opcode::Br)
        continue;
      BasicBlock *S = BB->front().block(0);
      if (S == BB)
        continue;
      CFG G(F);
      bool SPhis = hasPhis(S);
      for (BasicBlock *P : SmallVector<BasicBlock *, 4>(G.predecessors(BB))) {
        if (SPhis && is_contained(G.successors(P), S))
          continue;
        Instruction *PT = P->terminator();
        for (unsigned K = 0; K < PT->blocks().size(); ++K)
          if (PT->block(K) == BB)
            PT->setBlock(K, S);
        for (Instruction &Phi : S->insts()) {
          if (!Phi.isPhi())
            break;
          Phi.addIncoming(Phi.incomingFor(BB), P);
        }
        Stats.add(name(), "branches redirected");
        Changed = true;
      }
      // BB may now be unreachable; removeUnreachable deletes it and its
      // phi entries in S on the next round.
    }
    return Changed;
  }
};

} // namespace

std::unique_ptr<Pass> createSimplifyCFGPass() {
  return std::make_unique<SimplifyCFGPass>();
}

} // namespace wave::mir
