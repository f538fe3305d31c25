//===- LoopUnroll.cpp - Full and partial loop unrolling -------------------===//
//
// Unrolls natural loops (LoopInfo.h), innermost first, in two ways:
//
//  * Full unrolling, when the trip count is a compile-time constant: the
//    loop's only exiting block X (its header or its single latch) ends in
//    `condbr (icmp PRED T %v, C)` where %v is a header phi %i, or its
//    increment, with a constant start and a constant step (`add`/`sub`);
//    the pass runs the induction variable through the 32-bit wrapping
//    arithmetic and the signed or unsigned compare of T until X exits (at
//    most MaxFullTrip = 128 times). The loop is copied once per execution of
//    X, copy c's back edge goes to copy c+1's header, the last copy leaves
//    to the exit, and the header phis disappear (copy 0 takes the preheader
//    values, copy c the latch values of copy c-1). Done only when the copies
//    total at most FullUnrollLimit = 256 instructions.
//  * Partial unrolling by F in {8, 4, 2}, for an innermost loop whose latch
//    is its only exiting block and whose exit block has no other
//    predecessor: F copies of the body run in sequence, each keeping its
//    own exit test, and the last branches back to the header. F is the
//    largest factor with F x body size <= PartialUnrollLimit = 64
//    instructions and F x (most SSA values live at once in the loop,
//    Liveness.h) <= RegisterBudget = 200 registers -- the estimate assumes
//    each copy keeps its own values live, which over-approximates. Loops
//    with convergent operations (wave operations, barriers, calls) are not
//    partially unrolled: copies with their own exit tests would put them
//    under new divergent branches.
//
// Both keep the CFG reducible: copies form a chain whose only back edge
// targets the original header, and exits go to the loop's exit block.
// Values used after the loop take the last copy's value (full) or a new phi
// of the copies' values in the exit block (partial). A loop with an
// unknown trip count is not fully unrolled; nor is one without a
// preheader, with several latches or exiting blocks.
//
//   before                                 after (full, trip count 2)
//   ^entry:                                ^entry:
//     br ^loop                               br ^loop
//   ^loop:                                 ^loop:
//     %i = phi u32 [0, ^entry], [%n, ^loop]  %n = add u32 0, 1
//     %n = add u32 %i, 1                     %c = icmp lt u32 %n, 2
//     %c = icmp lt u32 %n, 2                 br ^0
//     condbr %c, ^loop, ^exit              ^0:
//   ^exit:                                   %1 = add u32 %n, 1
//     ret u32 %n                             %2 = icmp lt u32 %1, 2
//                                            br ^exit
//                                          ^exit:
//                                            ret u32 %1
//
//===----------------------------------------------------------------------===//
#include "wave/Analysis/Liveness.h"
#include "wave/Analysis/LoopInfo.h"
#include "wave/Transforms/Cloning.h"
#include "wave/Transforms/Pass.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Support/Casting.h"

#include <optional>

using namespace llvm;

namespace wave::mir {

namespace {

/// Most executions of the exiting block that full unrolling accepts.
constexpr unsigned MaxFullTrip = 128;
/// Most instructions that all copies of a fully unrolled loop may total.
constexpr unsigned FullUnrollLimit = 256;
/// Most instructions that all copies of a partially unrolled loop may total.
constexpr unsigned PartialUnrollLimit = 64;
/// Register-pressure budget of partial unrolling, in 32-bit registers.
constexpr unsigned RegisterBudget = 200;

unsigned loopSize(const Loop &L) {
  unsigned N = 0;
  for (BasicBlock *BB : L.blocks())
    N += BB->size();
  return N;
}

/// The loop shape both unrollers need: a preheader, one latch, one exiting
/// block X (header or latch) ending in condbr with one target in the loop
/// and one exit block E.
struct LoopShape {
  BasicBlock *Pre = nullptr, *Header = nullptr, *Latch = nullptr;
  BasicBlock *Exiting = nullptr, *Exit = nullptr;
  /// Which condbr successor of X stays in the loop (0 or 1).
  unsigned InLoopSucc = 0;
};

std::optional<LoopShape> matchShape(const CFG &G, const Loop &L) {
  LoopShape S;
  S.Pre = L.preheader();
  S.Header = L.header();
  if (!S.Pre || L.latches().size() != 1 || L.exits().size() != 1)
    return std::nullopt;
  S.Latch = L.latches()[0];
  S.Exit = L.exits()[0];
  for (BasicBlock *BB : L.blocks())
    for (BasicBlock *Succ : G.successors(BB))
      if (!L.contains(Succ)) {
        if (S.Exiting && S.Exiting != BB)
          return std::nullopt;
        S.Exiting = BB;
      }
  if (!S.Exiting || (S.Exiting != S.Header && S.Exiting != S.Latch))
    return std::nullopt;
  Instruction *T = S.Exiting->terminator();
  if (!T || T->opcode() != Opcode::CondBr || T->block(0) == T->block(1))
    return std::nullopt;
  S.InLoopSucc = L.contains(T->block(0)) ? 0 : 1;
  // The latch's back edge must be its only edge to the header (so that
  // retargeting it is unambiguous).
  Instruction *LT = S.Latch->terminator();
  if (count(LT->blocks(), S.Header) != 1)
    return std::nullopt;
  return S;
}

/// Executions of X until it exits, by simulating the induction variable;
/// std::nullopt when the exit test is not on a constant-step induction
/// variable with a constant bound, or it does not exit within MaxFullTrip.
std::optional<unsigned> tripCount(const LoopShape &S) {
  Instruction *T = S.Exiting->terminator();
  auto *Cmp = dyn_cast<Instruction>(T->operand(0));
  if (!Cmp || Cmp->opcode() != Opcode::ICmp || !isIntType(Cmp->auxType()))
    return std::nullopt;
  bool Signed = Cmp->auxType() == Type::I32;
  // One side constant, the other the phi or its increment.
  Value *Var = Cmp->operand(0), *Bound = Cmp->operand(1);
  bool Swapped = false;
  if (isa<Constant>(Var)) {
    std::swap(Var, Bound);
    Swapped = true;
  }
  auto *BoundC = dyn_cast<Constant>(Bound);
  auto *VarI = dyn_cast<Instruction>(Var);
  if (!BoundC || !VarI)
    return std::nullopt;
  // Find the header phi %i and its step.
  auto StepOf = [&](Instruction *Phi) -> std::optional<uint32_t> {
    auto *Inc = dyn_cast<Instruction>(Phi->incomingFor(S.Latch));
    if (!Inc || Inc->numOperands() != 2 ||
        (Inc->opcode() != Opcode::Add && Inc->opcode() != Opcode::Sub))
      return std::nullopt;
    auto *C = dyn_cast<Constant>(Inc->operand(1));
    Value *Other = Inc->operand(0);
    if (!C && Inc->opcode() == Opcode::Add) {
      C = dyn_cast<Constant>(Inc->operand(0));
      Other = Inc->operand(1);
    }
    if (!C || Other != Phi)
      return std::nullopt;
    uint32_t St = uint32_t(C->bits());
    return Inc->opcode() == Opcode::Add ? St : uint32_t(0) - St;
  };
  Instruction *Phi = nullptr;
  bool UsesNext = false;
  if (VarI->isPhi() && VarI->parent() == S.Header) {
    Phi = VarI;
  } else {
    for (Instruction &P : S.Header->insts()) {
      if (!P.isPhi())
        break;
      if (P.incomingFor(S.Latch) == VarI) {
        Phi = &P;
        UsesNext = true;
        break;
      }
    }
  }
  if (!Phi)
    return std::nullopt;
  auto Step = StepOf(Phi);
  auto *Start = dyn_cast_or_null<Constant>(Phi->incomingFor(S.Pre));
  if (!Step || !Start)
    return std::nullopt;
  uint32_t I = uint32_t(Start->bits()), B = uint32_t(BoundC->bits());
  auto Less = [&](uint32_t X, uint32_t Y) {
    return Signed ? int32_t(X) < int32_t(Y) : X < Y;
  };
  for (unsigned K = 0; K < MaxFullTrip; ++K) {
    uint32_t V = UsesNext ? I + *Step : I;
    uint32_t A = Swapped ? B : V, C = Swapped ? V : B;
    bool R;
    switch (Cmp->cmpPred()) {
    case CmpPred::Eq:
      R = A == C;
      break;
    case CmpPred::Ne:
      R = A != C;
      break;
    case CmpPred::Lt:
      R = Less(A, C);
      break;
    case CmpPred::Le:
      R = !Less(C, A);
      break;
    case CmpPred::Gt:
      R = Less(C, A);
      break;
    case CmpPred::Ge:
      R = !Less(A, C);
      break;
    default:
      return std::nullopt;
    }
    bool Stays = R == (S.InLoopSucc == 0);
    if (!Stays)
      return K + 1;
    I += *Step;
  }
  return std::nullopt;
}

/// Most SSA values live at one point of \p L (a register-pressure
/// estimate, Liveness.h: live-out of each block, walked backwards).
unsigned maxLive(const Liveness &LV, const Loop &L) {
  unsigned Max = 0;
  for (BasicBlock *BB : L.blocks()) {
    SmallPtrSet<const Value *, 32> Live;
    for (const Value *V : LV.liveOut(BB))
      Live.insert(V);
    Max = std::max<unsigned>(Max, Live.size());
    for (Instruction &I : reverse(BB->insts())) {
      Live.erase(&I);
      if (!I.isPhi())
        for (const Value *Op : I.operands())
          if (isa<Instruction>(Op) || isa<Argument>(Op))
            Live.insert(Op);
      Max = std::max<unsigned>(Max, Live.size());
    }
  }
  return Max;
}

class LoopUnrollPass : public Pass {
public:
  StringRef name() const override { return "loop-unroll"; }

  bool runOnFunction(Function &F, PassStats &Stats) override {
    if (!F.entry())
      return false;
    bool Changed = false;
    Done.clear();
    // One loop at a time, innermost first; analyses are rebuilt after each
    // change (as in LICM.cpp), and only then: a loop left as it is keeps
    // them valid, so a nest of d loops that mostly stay costs O(d) picks
    // per rebuild, not one rebuild per loop (O(d^3 log d): 1.5 s at depth
    // 200).
    std::unique_ptr<CFG> GP;
    std::unique_ptr<DominatorTree> DTP;
    std::unique_ptr<LoopInfo> LIP;
    for (;;) {
      if (!LIP) {
        DTP.reset();
        GP = std::make_unique<CFG>(F);
        DTP = std::make_unique<DominatorTree>(*GP);
        LIP = std::make_unique<LoopInfo>(*DTP);
      }
      const CFG &G = *GP;
      LoopInfo &LI = *LIP;
      Loop *L = nullptr;
      for (const auto &Cand : reverse(LI.loops()))
        if (!Done.count(Cand->header()) &&
            all_of(Cand->subLoops(),
                   [&](Loop *Sub) { return Done.count(Sub->header()); })) {
          L = Cand.get();
          break;
        }
      if (!L)
        return Changed;
      Done.insert(L->header());
      auto S = matchShape(G, *L);
      if (!S)
        continue;
      unsigned Size = loopSize(*L);
      if (auto N = tripCount(*S); N && *N * Size <= FullUnrollLimit) {
        unroll(F, *L, *S, *N, /*Full=*/true);
        Stats.add(name(), "loops fully unrolled");
        Changed = true;
        LIP.reset();
        continue;
      }
      if (!L->subLoops().empty() || S->Exiting != S->Latch ||
          G.predecessors(S->Exit).size() != 1)
        continue;
      bool Convergent = false;
      for (BasicBlock *BB : L->blocks())
        for (Instruction &I : BB->insts())
          Convergent |= I.isConvergent();
      if (Convergent)
        continue;
      Liveness LV(G);
      unsigned Pressure = std::max(1u, maxLive(LV, *L));
      unsigned Factor = 0;
      for (unsigned Fa : {8u, 4u, 2u})
        if (Fa * Size <= PartialUnrollLimit &&
            Fa * Pressure <= RegisterBudget) {
          Factor = Fa;
          break;
        }
      if (!Factor)
        continue;
      unroll(F, *L, *S, Factor, /*Full=*/false);
      Stats.add(name(), "loops partially unrolled");
      Changed = true;
      LIP.reset();
    }
  }

private:
  /// Makes \p Copies copies of \p L (copy 0 is the original). Full: the
  /// header phis go, the last copy exits unconditionally. Partial: copy 0's
  /// header phis take the last copy's latch values and every copy keeps its
  /// exit test.
  void unroll(Function &F, Loop &L, const LoopShape &S, unsigned Copies,
              bool Full) {
    SmallVector<BasicBlock *, 8> Blocks(L.blocks().begin(), L.blocks().end());
    SmallPtrSet<const BasicBlock *, 8> InLoop(Blocks.begin(), Blocks.end());
    // Uses outside the loop of values defined inside, before copying.
    SmallVector<std::pair<Instruction *, Use>, 8> OutsideUses;
    for (BasicBlock *BB : Blocks)
      for (Instruction &I : BB->insts())
        for (const Use &U : I.uses())
          if (!InLoop.count(U.User->parent()))
            OutsideUses.push_back({&I, U});
    SmallVector<Instruction *, 4> Phis;
    for (Instruction &P : S.Header->insts()) {
      if (!P.isPhi())
        break;
      Phis.push_back(&P);
    }
    // Per copy: value map and block map (copy 0 maps to itself).
    std::vector<ValueMap> VMs(Copies);
    std::vector<BlockMap> BMs(Copies);
    // Copies go after the loop's last block in layout order.
    BasicBlock *After = Blocks.front();
    for (BasicBlock *BB : Blocks)
      if (F.blockIndex(BB) > F.blockIndex(After))
        After = BB;
    for (unsigned C = 1; C < Copies; ++C) {
      SmallVector<BasicBlock *, 8> New =
          cloneBlocks(F, Blocks, After, VMs[C], BMs[C]);
      After = New.back();
    }
    // VMs[0] maps only copy 0's erased header phis to their replacements.
    auto Map = [&](unsigned C, Value *V) { return mapValue(F, V, VMs[C]); };
    auto Blk = [&](unsigned C, BasicBlock *BB) {
      return C == 0 ? BB : BMs[C].lookup(BB);
    };
    // Header phis of copies 1..: the previous copy's latch values.
    for (unsigned C = 1; C < Copies; ++C)
      for (Instruction *P : Phis) {
        Value *In = Map(C - 1, P->incomingFor(S.Latch));
        auto *PC = cast<Instruction>(VMs[C][P]);
        PC->replaceAllUsesWith(In);
        PC->dropAllOperands();
        PC->eraseFromParent();
        VMs[C][P] = In;
      }
    // Back edges: copy c's latch goes to copy c+1's header.
    for (unsigned C = 0; C + 1 < Copies; ++C) {
      Instruction *T = Blk(C, S.Latch)->terminator();
      for (unsigned K = 0; K < T->blocks().size(); ++K)
        if (T->block(K) == Blk(C, S.Header))
          T->setBlock(K, Blk(C + 1, S.Header));
    }
    if (Full) {
      // Copy 0's phis take the preheader values.
      for (Instruction *P : Phis) {
        Value *In = P->incomingFor(S.Pre);
        P->replaceAllUsesWith(In);
        VMs[0][P] = In;
        for (unsigned C = 1; C < Copies; ++C)
          for (auto &KV : VMs[C])
            if (KV.second == P)
              KV.second = In;
        P->dropAllOperands();
        P->eraseFromParent();
      }
      // Exiting blocks: copies before the last stay in the loop body, the
      // last leaves.
      for (unsigned C = 0; C < Copies; ++C) {
        Instruction *T = Blk(C, S.Exiting)->terminator();
        BasicBlock *To =
            T->block(C + 1 < Copies ? S.InLoopSucc : 1 - S.InLoopSucc);
        BasicBlock *Holder = T->parent();
        Instruction::DebugLoc TLoc = T->debugLoc();
        T->dropAllOperands();
        T->eraseFromParent();
        auto Br = Instruction::create(Opcode::Br, Type::Void);
        Br->setDebugLoc(TLoc);
        Br->addBlock(To);
        Holder->append(std::move(Br));
      }
      unsigned Last = Copies - 1;
      for (auto &[Def, U] : OutsideUses)
        U.User->setOperand(U.OpNo, Map(Last, Def));
      for (Instruction &P : S.Exit->insts()) {
        if (!P.isPhi())
          break;
        for (unsigned K = 0; K < P.blocks().size(); ++K)
          if (P.block(K) == S.Exiting)
            P.setBlock(K, Blk(Last, S.Exiting));
      }
      // With a header exit, the last copy's body never runs: delete it.
      if (S.Exiting == S.Header) {
        SmallVector<BasicBlock *, 8> DeadBlocks;
        for (BasicBlock *BB : Blocks)
          if (BB != S.Header)
            DeadBlocks.push_back(Blk(Last, BB));
        eraseBlocks(F, DeadBlocks);
      }
      return;
    }
    // Partial: the last copy loops back to the original header, whose phis
    // receive the last copy's latch values.
    unsigned Last = Copies - 1;
    Instruction *LastT = Blk(Last, S.Latch)->terminator();
    for (unsigned K = 0; K < LastT->blocks().size(); ++K)
      if (LastT->block(K) == Blk(Last, S.Header))
        LastT->setBlock(K, S.Header);
    for (Instruction *P : Phis)
      for (unsigned K = 0; K < P->blocks().size(); ++K)
        if (P->block(K) == S.Latch) {
          P->setOperand(K, Map(Last, P->operand(K)));
          P->setBlock(K, Blk(Last, S.Latch));
        }
    // The exit block (only predecessor: the latch) is reached from every
    // copy: widen its phis and give every other outside use a new phi.
    for (Instruction &P : S.Exit->insts()) {
      if (!P.isPhi())
        break;
      Value *V = P.incomingFor(S.Latch);
      for (unsigned C = 1; C < Copies; ++C)
        P.addIncoming(Map(C, V), Blk(C, S.Latch));
    }
    DenseMap<Instruction *, Instruction *> ExitPhi;
    for (auto &[Def, U] : OutsideUses) {
      if (U.User->isPhi() && U.User->parent() == S.Exit)
        continue;
      Instruction *&P = ExitPhi[Def];
      if (!P) {
        auto NP = Instruction::create(Opcode::Phi, Def->type());
        NP->setDebugLoc(Def->debugLoc());
        for (unsigned C = 0; C < Copies; ++C)
          NP->addIncoming(Map(C, Def), Blk(C, S.Latch));
        P = S.Exit->insert(S.Exit->begin(), std::move(NP));
      }
      U.User->setOperand(U.OpNo, P);
    }
  }

  void eraseBlocks(Function &F, ArrayRef<BasicBlock *> Dead) {
    // Only unreachable code can still use a value of these blocks (the
    // verifier does not check dominance there); it gets 0 instead.
    SmallPtrSet<const BasicBlock *, 8> DeadSet(Dead.begin(), Dead.end());
    for (BasicBlock *BB : Dead)
      for (Instruction &I : BB->insts()) {
        SmallVector<Use, 4> Outside;
        for (const Use &U : I.uses())
          if (!DeadSet.count(U.User->parent()))
            Outside.push_back(U);
        for (const Use &U : Outside)
          U.User->setOperand(U.OpNo, F.constant(I.type(), 0));
      }
    for (BasicBlock *BB : Dead)
      for (Instruction &I : BB->insts())
        I.dropAllOperands();
    for (BasicBlock *BB : Dead) {
      Done.erase(BB); // the address may be reused by a later block
      F.eraseBlock(BB);
    }
  }

  /// Headers of the loops already considered in the current function.
  SmallPtrSet<const BasicBlock *, 8> Done;
};

} // namespace

std::unique_ptr<Pass> createLoopUnrollPass() {
  return std::make_unique<LoopUnrollPass>();
}

} // namespace wave::mir
