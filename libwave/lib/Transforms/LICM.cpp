//===- LICM.cpp - Loop-invariant code motion ------------------------------===//
//
// Hoists instructions whose operands are all defined outside a loop into the
// loop's preheader, innermost loops first (seed 003; Aho, Sethi, Ullman,
// "Compilers", §10.7). Natural loops come from LoopInfo.h. A loop without a
// preheader gets one: a new block that takes over the header's entries from
// outside the loop (merging them with phis when there are several).
//
// Hoisting executes an instruction even when the loop body would not have
// run, so only operations that cannot fail or observe anything move: no
// memory access (a load may fault or see a store of the loop), no side
// effect, and no convergent operation (inside the loop fewer lanes may be
// active than in the preheader, ISA.md §4.14). clamp and fclamp stay too:
// reversed bounds abort the reference emulator (ISA.md D11).
//
//   before                               after
//   ^entry:                              ^entry:
//     br ^loop                             %k = mul u32 %n, 4
//   ^loop:                                 br ^loop
//     %i = phi u32 [0, ^entry], ...      ^loop:
//     %k = mul u32 %n, 4                   %i = phi u32 [0, ^entry], ...
//     %j = add u32 %i, %k                  %j = add u32 %i, %k
//
//===----------------------------------------------------------------------===//
#include "wave/Analysis/LoopInfo.h"
#include "wave/Transforms/Pass.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Support/Casting.h"

using namespace llvm;

namespace wave::mir {

namespace {

static bool isHoistable(const Instruction &I) {
  if (I.type() == Type::Void || I.isPhi() || I.hasSideEffects() ||
      I.mayReadMemory() || I.isConvergent())
    return false;
  return I.opcode() != Opcode::Clamp && I.opcode() != Opcode::FClamp;
}

class LICMPass : public Pass {
public:
  StringRef name() const override { return "licm"; }

  bool runOnFunction(Function &F, PassStats &Stats) override {
    if (!F.entry())
      return false;
    // Work on one loop at a time: a new preheader changes the CFG, so the
    // analyses are rebuilt after every loop that needed one. Loops are
    // identified by their headers.
    bool Changed = false;
    SmallPtrSet<const BasicBlock *, 8> Done;
    for (;;) {
      CFG G(F);
      DominatorTree DT(G);
      LoopInfo LI(DT);
      // Innermost first: the last loop in LoopInfo's order without an
      // unprocessed subloop.
      Loop *L = nullptr;
      for (const auto &Cand : llvm::reverse(LI.loops()))
        if (!Done.count(Cand->header()) &&
            all_of(Cand->subLoops(),
                   [&](Loop *S) { return Done.count(S->header()); })) {
          L = Cand.get();
          break;
        }
      if (!L)
        return Changed;
      Done.insert(L->header());
      Changed |= hoist(F, G, *L, Stats);
    }
  }

private:
  /// Makes sure \p L has a preheader and returns it.
  BasicBlock *preheader(Function &F, const CFG &G, const Loop &L,
                        PassStats &Stats) {
    if (BasicBlock *P = L.preheader())
      return P;
    BasicBlock *H = L.header();
    SmallVector<BasicBlock *, 4> Outside;
    for (BasicBlock *P : G.predecessors(H))
      if (!L.contains(P))
        Outside.push_back(P);
    if (Outside.empty())
      return nullptr; // only reachable through itself: unreachable loop
    BasicBlock *Pre = F.addBlockAfter(
        Outside.back(),
        H->name().empty() ? "" : (H->name() + ".preheader").str());
    for (BasicBlock *P : Outside) {
      Instruction *T = P->terminator();
      for (unsigned K = 0; K < T->blocks().size(); ++K)
        if (T->block(K) == H)
          T->setBlock(K, Pre);
    }
    // Header phis: the outside entries move to the preheader (through a
    // phi there when there are several).
    for (Instruction &Phi : H->insts()) {
      if (!Phi.isPhi())
        break;
      auto NewPhi = Instruction::create(Opcode::Phi, Phi.type());
      SmallVector<unsigned, 4> Idx;
      for (unsigned K = 0; K < Phi.numOperands(); ++K)
        if (is_contained(Outside, Phi.block(K))) {
          NewPhi->addIncoming(Phi.operand(K), Phi.block(K));
          Idx.push_back(K);
        }
      Value *In = NewPhi->operand(0);
      if (Outside.size() > 1)
        In = Pre->append(std::move(NewPhi));
      // The first outside entry becomes the preheader's; the others go.
      Phi.setOperand(Idx[0], In);
      Phi.setBlock(Idx[0], Pre);
      for (unsigned J = Idx.size(); J-- > 1;)
        Phi.removeOperand(Idx[J]);
    }
    auto Br = Instruction::create(Opcode::Br, Type::Void);
    Br->addBlock(H);
    Pre->append(std::move(Br));
    Stats.add(name(), "preheaders created");
    return Pre;
  }

  bool hoist(Function &F, const CFG &G, const Loop &L, PassStats &Stats) {
    // Candidates in loop block order (reverse post-order), so an invariant
    // operand defined in the loop is hoisted before its users.
    SmallVector<Instruction *, 16> ToHoist;
    SmallPtrSet<const Value *, 16> Invariant;
    auto IsInvariant = [&](const Value *V) {
      const auto *I = dyn_cast<Instruction>(V);
      return !I || !L.contains(I->parent()) || Invariant.count(I);
    };
    for (BasicBlock *BB : L.blocks())
      for (Instruction &I : BB->insts())
        if (isHoistable(I) && all_of(I.operands(), IsInvariant)) {
          Invariant.insert(&I);
          ToHoist.push_back(&I);
        }
    if (ToHoist.empty())
      return false;
    BasicBlock *Pre = preheader(F, G, L, Stats);
    if (!Pre)
      return false;
    auto Pos = Pre->terminator()->getIterator();
    for (Instruction *I : ToHoist)
      Pre->insert(Pos, I->parent()->remove(I));
    Stats.add(name(), "instructions hoisted", ToHoist.size());
    return true;
  }
};

} // namespace

std::unique_ptr<Pass> createLICMPass() { return std::make_unique<LICMPass>(); }

} // namespace wave::mir
