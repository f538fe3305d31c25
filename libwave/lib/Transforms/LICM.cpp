//===- LICM.cpp - Loop-invariant code motion ------------------------------===//
//
// Hoists instructions whose operands are all defined outside a loop into the
// loop's preheader, innermost loops first (Aho, Sethi, Ullman,
// "Compilers", §10.7). Natural loops come from LoopInfo.h. A loop without a
// preheader gets one: a new block that takes over the header's entries from
// outside the loop (merging them with phis when there are several).
//
// Hoisting executes an instruction even when the loop body would not have
// run, so only operations that cannot fail or observe anything move: no
// memory access (a load may fault or see a store of the loop), no side
// effect, and no convergent operation (inside the loop fewer lanes may be
// active than in the preheader, formats/isa.md §4.14). clamp and fclamp stay
// too: reversed bounds abort the reference emulator (formats/isa.md D11).
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

#include "llvm/ADT/DenseMap.h"
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
    // The analyses are computed once. Loops are visited innermost first:
    // LoopInfo lists an enclosing loop before the loops it contains, so the
    // reverse of its list is an innermost-first order. Hoisting moves
    // instructions but changes no edge; a new preheader does change the
    // CFG, but only the edges into its own loop's header, so the snapshot
    // stays right for every loop not yet visited as long as the new block
    // is counted in the enclosing loops (PreOwner) and visited before the
    // header it precedes (PreOf). Rebuilding the analyses per loop, as a
    // first version did, made the pass O(loops x blocks).
    CFG G(F);
    DominatorTree DT(G);
    LoopInfo LI(DT);
    bool Changed = false;
    for (const auto &L : llvm::reverse(LI.loops()))
      Changed |= hoist(F, G, LI, *L, Stats);
    if (!NewBlocks.empty()) {
      // New preheaders were appended; put each right after the block it
      // was created for (the most recent first, as repeated inserts after
      // one block would), in one O(blocks) reorder.
      DenseMap<const BasicBlock *, SmallVector<BasicBlock *, 1>> After;
      SmallPtrSet<const BasicBlock *, 8> New;
      for (auto [Anchor, Pre] : NewBlocks) {
        After[Anchor].push_back(Pre);
        New.insert(Pre);
      }
      std::vector<BasicBlock *> Order;
      for (const auto &BB : F.blocks()) {
        if (New.count(BB.get()))
          continue;
        Order.push_back(BB.get());
        auto It = After.find(BB.get());
        if (It != After.end())
          Order.insert(Order.end(), It->second.rbegin(), It->second.rend());
      }
      F.reorderBlocks(Order);
    }
    NewBlocks.clear();
    PreOwner.clear();
    PreOf.clear();
    return Changed;
  }

private:
  /// Preheaders made by this run, with the block each was placed after.
  SmallVector<std::pair<BasicBlock *, BasicBlock *>, 8> NewBlocks;
  /// A new preheader -> the header it precedes. The preheader belongs to
  /// exactly the loops that strictly contain that header's loop.
  DenseMap<const BasicBlock *, const BasicBlock *> PreOwner;
  /// A header -> the preheader made for its loop.
  DenseMap<const BasicBlock *, BasicBlock *> PreOf;

  /// \p BB is in \p L, counting the preheaders made so far. O(1): a new
  /// preheader is in L when L contains the header it precedes and is not
  /// that header's own loop (natural loops nest, LoopInfo.h).
  bool contains(const Loop &L, const BasicBlock *BB) const {
    auto It = PreOwner.find(BB);
    if (It == PreOwner.end())
      return L.contains(BB);
    return L.header() != It->second && L.contains(It->second);
  }

  /// Makes sure \p L has a preheader and returns it.
  BasicBlock *preheader(Function &F, const CFG &G, Loop &L, PassStats &Stats) {
    if (BasicBlock *P = L.preheader())
      return P;
    BasicBlock *H = L.header();
    SmallVector<BasicBlock *, 4> Outside;
    for (BasicBlock *P : G.predecessors(H))
      if (!L.contains(P))
        Outside.push_back(P);
    if (Outside.empty())
      return nullptr; // only reachable through itself: unreachable loop
    BasicBlock *Pre =
        F.addBlock(H->name().empty() ? "" : (H->name() + ".preheader").str());
    NewBlocks.push_back({Outside.back(), Pre});
    PreOwner[Pre] = H;
    PreOf[H] = Pre;
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

  bool hoist(Function &F, const CFG &G, const LoopInfo &LI, Loop &L,
             PassStats &Stats) {
    // Candidates in loop block order (reverse post-order, a new preheader
    // of an inner loop just before that loop's header), so an invariant
    // operand defined in the loop is hoisted before its users. Blocks of
    // subloops are skipped: those loops were done first, and whatever they
    // kept depends on a value defined in them, so it varies in L too. That
    // keeps a nest D deep from costing O(D^2) scans of its inner blocks.
    SmallVector<Instruction *, 16> ToHoist;
    SmallPtrSet<const Value *, 16> Invariant;
    auto IsInvariant = [&](const Value *V) {
      const auto *I = dyn_cast<Instruction>(V);
      return !I || !contains(L, I->parent()) || Invariant.count(I);
    };
    auto Scan = [&](BasicBlock *BB) {
      for (Instruction &I : BB->insts())
        if (isHoistable(I) && all_of(I.operands(), IsInvariant)) {
          Invariant.insert(&I);
          ToHoist.push_back(&I);
        }
    };
    for (BasicBlock *BB : L.blocks()) {
      Loop *Inner = LI.loopFor(BB);
      if (Inner != &L) {
        // The header of a direct subloop: its new preheader is L's.
        if (Inner->header() == BB && Inner->parent() == &L)
          if (BasicBlock *Pre = PreOf.lookup(BB))
            Scan(Pre);
        continue;
      }
      Scan(BB);
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
