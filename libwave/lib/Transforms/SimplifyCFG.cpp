//===- SimplifyCFG.cpp - Control-flow graph simplification ----------------===//
//
// CFG simplification, repeated until nothing changes:
//  1. fold `condbr` on a constant, or with both targets equal, into `br`
//     (the dropped edge's phi entries go too);
//  2. delete blocks unreachable from the entry;
//  3. merge a block into its only predecessor when that predecessor ends
//     in `br` to it (the block's phis have one entry each and fold away);
//  4. bypass blocks holding only `br ^S`: their predecessors branch to ^S
//     directly, unless ^S has phis and the predecessor already reaches ^S
//     (its phi entries would conflict);
//  5. hoist the identical leading instructions of a `condbr`'s two
//     successors (each reached only from it) above the branch, LLVM's
//     HoistThenElseCodeToIf: the same pure computation on the same
//     operands, done once for the lanes of both sides;
//  6. fold a phi whose incoming values are all one value (or the phi);
//  7. fold a `condbr` into the one before it when both reach a common
//     destination, LLVM's FoldBranchToCommonDest: where ^p ends in
//     `condbr %c, ^x, ^b` and ^b (reached only from ^p, no phis, at most
//     four cheap pure instructions: isCheap) ends in `condbr %d, ^x, ^y`,
//     ^b's instructions move into ^p, which branches on `or %c, %d` to ^x
//     or ^y (`and` when ^p's true side is ^b; `not %d` when ^b reaches ^x
//     on false, or %d's predicate inverted when it is an integer compare
//     used only there). The phis of ^x must take one value from ^p and
//     ^b. A short circuit `a or b` then costs one divergent branch, not
//     two;
//  8. sink the identical last instructions of a join's two predecessors
//     (each ending in `br` to it) into the join, LLVM's
//     SinkCommonCodeFromPredecessors: the same pure operation or load,
//     whose result only a phi of the join takes from both, with at most
//     one operand differing (which becomes a phi): `x = a[-1] if c else
//     a[i - 1]` loads once, from a phi of the two addresses;
//  9. turn the phis of an if/else (or if) whose sides hold at most four
//     cheap pure instructions each into `select`s on the branch
//     condition, the sides' instructions moved above the branch (LLVM's
//     FoldTwoEntryPHINode): every lane computes both, and no branch is
//     left.
// Steps 1-4 and 6 do not change which lanes run an instruction, so
// convergent operations are safe; steps 5, 7 and 9 move only instructions
// without side effects, memory reads or convergence, whose value in a lane
// does not depend on the other lanes that run them; step 8 moves such
// instructions and loads, each lane still running one copy. The entry
// block is never merged away or bypassed.
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
#include "wave/IR/CFG.h"
#include "wave/Transforms/Pass.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallPtrSet.h"
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
      Changed |= hoistCommon(F, Stats);
      Changed |= foldTrivialPhis(F, Stats);
      Changed |= foldToCommonDest(F, Stats);
      Changed |= sinkCommon(F, Stats);
      Changed |= foldTwoEntryPhis(F, Stats);
      Any |= Changed;
    }
    return Any;
  }

private:
  /// Whether \p I may run in lanes (or on paths) that would not have run it:
  /// it produces a value and has no side effects, memory reads or
  /// convergence. (No MIR operation traps: division by 0 gives 0,
  /// formats/mir.md.)
  static bool isPure(const Instruction &I) {
    return I.type() != Type::Void && !I.isPhi() && !I.isTerminator() &&
           !I.hasSideEffects() && !I.mayReadMemory() && !I.isConvergent();
  }

  /// Whether \p I may be speculated (steps 7 and 9): pure, and not one of
  /// the operations that expand to long sequences on the targets (integer
  /// division, the division, square-root and transcendental float
  /// sequences, anything on f64), which a lane would then run even where
  /// the branch would have let the whole wave skip them.
  static bool isCheap(const Instruction &I) {
    if (!isPure(I) || I.type() == Type::F64 || I.auxType() == Type::F64)
      return false;
    for (const Value *V : I.operands())
      if (V->type() == Type::F64)
        return false;
    switch (I.opcode()) {
    case Opcode::Div:
    case Opcode::Rem:
    case Opcode::FDiv:
    case Opcode::FSqrt:
    case Opcode::FRsqrt:
    case Opcode::FRcp:
    case Opcode::FSin:
    case Opcode::FCos:
    case Opcode::FExp2:
    case Opcode::FLog2:
      return false;
    default:
      return true;
    }
  }

  /// Whether every instruction of \p S but its terminator may be speculated
  /// (isCheap), and there are at most MaxSpeculated of them (steps 7, 9).
  static bool speculatableBody(BasicBlock *S) {
    Instruction *T = S->terminator();
    return S->size() - 1 <= MaxSpeculated &&
           all_of(S->insts(),
                  [&](const Instruction &I) { return &I == T || isCheap(I); });
  }

  /// Moves every instruction of \p S but its terminator to just before
  /// \p Before's terminator (steps 7, 9).
  static void hoistBody(BasicBlock *S, BasicBlock *Before) {
    Instruction *T = Before->terminator();
    while (&S->front() != S->terminator())
      Before->insert(BasicBlock::iterator(T), S->remove(&S->front()));
  }

  /// The integer compare that holds exactly where one with \p P does not.
  static std::optional<CmpPred> inverse(CmpPred P) {
    switch (P) {
    case CmpPred::Eq:
      return CmpPred::Ne;
    case CmpPred::Ne:
      return CmpPred::Eq;
    case CmpPred::Lt:
      return CmpPred::Ge;
    case CmpPred::Ge:
      return CmpPred::Lt;
    case CmpPred::Le:
      return CmpPred::Gt;
    case CmpPred::Gt:
      return CmpPred::Le;
    default:
      return std::nullopt;
    }
  }

  /// The most instructions step 7 moves from the second block into the
  /// first (LLVM's bonus-instruction threshold is 1; a divergent branch
  /// costs a GPU more than a few ALU operations).
  static constexpr unsigned MaxSpeculated = 4;

  /// Step 7 (file comment). One fold per block and round: the CFG snapshot
  /// is stale for the blocks a fold touched.
  bool foldToCommonDest(Function &F, PassStats &Stats) {
    bool Changed = false;
    CFG G(F);
    SmallPtrSet<const BasicBlock *, 8> Touched;
    for (const auto &PB : F.blocks()) {
      BasicBlock *P = PB.get();
      Instruction *PT = P->terminator();
      if (!PT || PT->opcode() != Opcode::CondBr || Touched.count(P))
        continue;
      for (unsigned Side : {0u, 1u}) {
        BasicBlock *B = PT->block(Side), *X = PT->block(1 - Side);
        if (B == X || B == P || X == P || B == F.entry() || hasPhis(B) ||
            Touched.count(B) || Touched.count(X))
          continue;
        ArrayRef<BasicBlock *> BPreds = G.predecessors(B);
        Instruction *BT = B->terminator();
        if (BPreds.size() != 1 || BPreds[0] != P || !BT ||
            BT->opcode() != Opcode::CondBr)
          continue;
        unsigned XSide = BT->block(0) == X ? 0 : BT->block(1) == X ? 1 : 2;
        if (XSide == 2)
          continue;
        BasicBlock *Y = BT->block(1 - XSide);
        if (Y == X || Y == B || Y == P || Touched.count(Y))
          continue;
        if (!speculatableBody(B))
          continue;
        bool SamePhis = true;
        for (Instruction &Phi : X->insts()) {
          if (!Phi.isPhi())
            break;
          SamePhis &= Phi.incomingFor(P) == Phi.incomingFor(B);
        }
        if (!SamePhis)
          continue;
        // Side 1: ^x when %c or (%d reaching ^x); side 0: ^y when %c and
        // (%d reaching ^y).
        Value *C = PT->operand(0), *D = BT->operand(0);
        Instruction::DebugLoc Loc = BT->debugLoc();
        auto Emit = [&](Opcode Op, std::initializer_list<Value *> Ops) {
          auto I = Instruction::create(Op, Type::I1);
          I->setDebugLoc(Loc);
          for (Value *V : Ops)
            I->addOperand(V);
          return P->insert(BasicBlock::iterator(PT), std::move(I));
        };
        hoistBody(B, P);
        // %d as "^b goes where ^p's new branch goes on true": to ^x on
        // side 1, to ^y on side 0. An integer compare read only here is
        // inverted instead (a float compare's inverse would need the
        // unordered predicates MIR lacks).
        if (XSide == Side) {
          auto *DI = dyn_cast<Instruction>(D);
          std::optional<CmpPred> Inv;
          if (DI && DI->opcode() == Opcode::ICmp && DI->parent() == P &&
              DI->numUses() == 1)
            Inv = inverse(DI->cmpPred());
          if (Inv)
            DI->setImm(0, unsigned(*Inv));
          else
            D = Emit(Opcode::Not, {D});
        }
        Value *Cond = Emit(Side ? Opcode::Or : Opcode::And, {C, D});
        PT->setOperand(0, Cond);
        PT->setBlock(Side, Y);
        renamePhiEntries(Y, B, P);
        removePhiEntries(X, B);
        // ^b is unreachable now (a self-loop, so that no phi lists it);
        // removeUnreachable deletes it next round.
        BT->eraseFromParent();
        auto Br = Instruction::create(Opcode::Br, Type::Void);
        Br->addBlock(B);
        B->append(std::move(Br));
        Touched.insert({P, B, X, Y});
        Stats.add(name(), "branches folded into their predecessor's");
        Changed = true;
        break;
      }
    }
    return Changed;
  }

  /// Step 8 (file comment).
  bool sinkCommon(Function &F, PassStats &Stats) {
    bool Changed = false;
    CFG G(F);
    for (const auto &JB : F.blocks()) {
      BasicBlock *J = JB.get();
      ArrayRef<BasicBlock *> Preds = G.predecessors(J);
      if (Preds.size() != 2)
        continue;
      BasicBlock *A = Preds[0], *B = Preds[1];
      auto EndsInBrToJ = [&](BasicBlock *X) {
        Instruction *T = X->terminator();
        return X != J && T && T->opcode() == Opcode::Br && X->size() >= 2;
      };
      while (EndsInBrToJ(A) && EndsInBrToJ(B)) {
        Instruction &IA = *std::prev(BasicBlock::iterator(A->terminator()));
        Instruction &IB = *std::prev(BasicBlock::iterator(B->terminator()));
        if (IA.isPhi() || IB.isPhi() || IA.type() == Type::Void ||
            IA.hasSideEffects() || IA.isConvergent() ||
            IA.opcode() != IB.opcode() || IA.type() != IB.type() ||
            IA.auxType() != IB.auxType() || IA.imms() != IB.imms() ||
            IA.callee() != IB.callee() ||
            IA.numOperands() != IB.numOperands() || IA.numUses() != 1 ||
            IB.numUses() != 1)
          break;
        auto *Phi = dyn_cast<Instruction>(IA.uses().front().User);
        if (!Phi || !Phi->isPhi() || Phi->parent() != J ||
            Phi->incomingFor(A) != &IA || Phi->incomingFor(B) != &IB)
          break;
        // (An operand that is the phi itself, around a loop, would make the
        // moved instruction read its own result.)
        SmallVector<unsigned, 1> Differ;
        bool ReadsPhi = false;
        for (unsigned K = 0; K < IA.numOperands(); ++K) {
          if (IA.operand(K) != IB.operand(K))
            Differ.push_back(K);
          ReadsPhi |= IA.operand(K) == Phi || IB.operand(K) == Phi;
        }
        if (Differ.size() > 1 || ReadsPhi)
          break;
        std::unique_ptr<Instruction> Sunk = A->remove(&IA);
        for (unsigned K : Differ) {
          auto OpPhi =
              Instruction::create(Opcode::Phi, Sunk->operand(K)->type());
          OpPhi->addIncoming(Sunk->operand(K), A);
          OpPhi->addIncoming(IB.operand(K), B);
          Sunk->setOperand(K, J->insert(J->begin(), std::move(OpPhi)));
        }
        BasicBlock::iterator After = J->begin();
        while (After != J->end() && After->isPhi())
          ++After;
        Instruction *Moved = J->insert(After, std::move(Sunk));
        Phi->replaceAllUsesWith(Moved);
        Phi->eraseFromParent();
        IB.eraseFromParent();
        Stats.add(name(), "instructions sunk");
        Changed = true;
      }
    }
    return Changed;
  }

  /// Step 9 (file comment).
  bool foldTwoEntryPhis(Function &F, PassStats &Stats) {
    bool Changed = false;
    CFG G(F);
    SmallPtrSet<const BasicBlock *, 8> Touched;
    for (const auto &PB : F.blocks()) {
      BasicBlock *P = PB.get();
      Instruction *PT = P->terminator();
      if (!PT || PT->opcode() != Opcode::CondBr || Touched.count(P))
        continue;
      BasicBlock *T = PT->block(0), *E = PT->block(1);
      // A side: a block reached only from P that holds few pure
      // instructions and a `br` to the join; or P itself going straight
      // to the join (the `if` without `else`).
      auto Side = [&](BasicBlock *S) -> BasicBlock * {
        if (S == P || Touched.count(S))
          return nullptr;
        ArrayRef<BasicBlock *> SP = G.predecessors(S);
        Instruction *ST = S->terminator();
        if (SP.size() == 1 && SP[0] == P && ST && ST->opcode() == Opcode::Br &&
            !hasPhis(S) && speculatableBody(S))
          return ST->block(0);
        return nullptr;
      };
      BasicBlock *JT = Side(T), *JE = Side(E);
      // The join: where both sides go (if/else), or P's other successor
      // where one side goes there (if without else).
      BasicBlock *J = nullptr;
      if (JT && JT == JE)
        J = JT;
      else if (JT == E)
        J = E;
      else if (JE == T)
        J = T;
      if (!J || J == P || Touched.count(J) || !hasPhis(J))
        continue;
      BasicBlock *FromT = J == T ? P : T, *FromE = J == E ? P : E;
      ArrayRef<BasicBlock *> JP = G.predecessors(J);
      if (JP.size() != 2 || !is_contained(JP, FromT) ||
          !is_contained(JP, FromE))
        continue;
      for (BasicBlock *S : {T, E})
        if (S != J)
          hoistBody(S, P);
      Value *C = PT->operand(0);
      while (hasPhis(J)) {
        Instruction &Phi = J->front();
        auto Sel = Instruction::create(Opcode::Select, Phi.type());
        Sel->setDebugLoc(Phi.debugLoc());
        Sel->addOperand(C);
        Sel->addOperand(Phi.incomingFor(FromT));
        Sel->addOperand(Phi.incomingFor(FromE));
        Phi.replaceAllUsesWith(
            P->insert(BasicBlock::iterator(PT), std::move(Sel)));
        Phi.eraseFromParent();
        Stats.add(name(), "phis made selects");
      }
      // P goes to J directly; the emptied sides become unreachable.
      PT->setBlock(0, J);
      PT->setBlock(1, J);
      Touched.insert({P, T, E, J});
      Changed = true;
    }
    return Changed;
  }

  /// Whether \p A and \p B compute the same value: one pure operation
  /// (no side effects, memory reads or convergence) with the same types,
  /// immediates and operands.
  static bool sameComputation(const Instruction &A, const Instruction &B) {
    return isPure(A) && isPure(B) && A.opcode() == B.opcode() &&
           A.type() == B.type() && A.auxType() == B.auxType() &&
           A.callee() == B.callee() && A.imms() == B.imms() &&
           A.operands() == B.operands();
  }

  bool hoistCommon(Function &F, PassStats &Stats) {
    bool Changed = false;
    CFG G(F);
    for (const auto &BB : F.blocks()) {
      Instruction *Br = BB->terminator();
      if (!Br || Br->opcode() != Opcode::CondBr)
        continue;
      BasicBlock *Then = Br->block(0), *Else = Br->block(1);
      auto OnlyFromBB = [&](const BasicBlock *S) {
        ArrayRef<BasicBlock *> P = G.predecessors(S);
        return P.size() == 1 && P[0] == BB.get();
      };
      if (Then == Else || Then == BB.get() || Else == BB.get() ||
          !OnlyFromBB(Then) || !OnlyFromBB(Else))
        continue;
      // Each hoisted pair makes the next pair's operands the same values.
      while (!Then->empty() && !Else->empty() &&
             sameComputation(Then->front(), Else->front())) {
        Instruction &A = Then->front(), &B = Else->front();
        B.replaceAllUsesWith(&A);
        B.eraseFromParent();
        BB->insert(BasicBlock::iterator(Br), Then->remove(&A));
        Stats.add(name(), "instructions hoisted");
        Changed = true;
      }
    }
    return Changed;
  }

  bool foldTrivialPhis(Function &F, PassStats &Stats) {
    bool Changed = false;
    for (const auto &BB : F.blocks()) {
      for (auto It = BB->begin(); It != BB->end() && It->isPhi();) {
        Instruction &Phi = *It++;
        Value *Same = nullptr;
        bool One = true;
        for (Value *V : Phi.operands())
          if (V != &Phi) {
            One &= !Same || V == Same;
            Same = V;
          }
        if (!One || !Same)
          continue;
        Phi.replaceAllUsesWith(Same);
        Phi.eraseFromParent();
        Stats.add(name(), "phis folded");
        Changed = true;
      }
    }
    return Changed;
  }

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
      Br->setDebugLoc(T->debugLoc());
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
    // rejects other uses), whose operands are gone now. One sweep, not one
    // O(blocks) erase per dead block.
    F.eraseBlocks(Dead);
    Stats.add(name(), "blocks removed", Dead.size());
    return true;
  }

  /// Predecessor lists of every block, kept up to date by mergeBlocks and
  /// bypassEmpty as they edit branches, so that each round costs
  /// O(blocks + edges) instead of one CFG rebuild per block (the CFG of
  /// CFG.h is a snapshot). Like CFG.h, each predecessor appears once; the
  /// lists start in block order, and bypassEmpty appends to them.
  struct PredMap {
    DenseMap<const BasicBlock *, SmallVector<BasicBlock *, 2>> Preds;
    /// Every (block, predecessor) edge ever listed.
    DenseSet<std::pair<const BasicBlock *, const BasicBlock *>> Added;

    explicit PredMap(const Function &F) {
      for (const auto &BB : F.blocks()) {
        Preds[BB.get()];
        for (BasicBlock *S : BB->successors()) {
          auto &L = Preds[S];
          if (Added.insert({S, BB.get()}).second)
            L.push_back(BB.get());
        }
      }
    }
    SmallVector<BasicBlock *, 2> &of(const BasicBlock *BB) { return Preds[BB]; }
    /// Adds \p P to the predecessors of \p BB, at the end (bypassEmpty
    /// does not depend on their order), in O(1): a set of the edges added
    /// keeps each once.
    void addUnordered(const BasicBlock *BB, BasicBlock *P) {
      if (Added.insert({BB, P}).second)
        Preds[BB].push_back(P);
    }
  };

  bool mergeBlocks(Function &F, PassStats &Stats) {
    bool Changed = false;
    PredMap PM(F);
    // Visit a snapshot of the block list; merged blocks are erased in one
    // sweep at the end. After BB merges into P, P carries BB's terminator,
    // so BB's successors see P as their predecessor.
    SmallVector<BasicBlock *, 16> Order;
    for (const auto &BB : F.blocks())
      Order.push_back(BB.get());
    SmallVector<BasicBlock *, 8> Merged;
    for (unsigned Idx = 1; Idx < Order.size(); ++Idx) {
      BasicBlock *BB = Order[Idx];
      ArrayRef<BasicBlock *> Preds = PM.of(BB);
      BasicBlock *P = Preds.size() == 1 ? Preds[0] : nullptr;
      Instruction *PT = P ? P->terminator() : nullptr;
      if (!P || P == BB || !PT || PT->opcode() != Opcode::Br)
        continue;
      // Phis of BB have exactly one entry (from P).
      while (hasPhis(BB)) {
        Instruction &Phi = BB->front();
        Phi.replaceAllUsesWith(Phi.operand(0));
        Phi.eraseFromParent();
      }
      PT->eraseFromParent();
      while (!BB->empty())
        P->append(BB->remove(&BB->front()));
      for (BasicBlock *S : P->successors()) {
        renamePhiEntries(S, BB, P);
        auto &SP = PM.of(S);
        if (is_contained(SP, P))
          llvm::erase(SP, BB);
        else
          llvm::replace(SP, BB, P);
      }
      Merged.push_back(BB);
      Stats.add(name(), "blocks merged");
      Changed = true;
    }
    F.eraseBlocks(Merged);
    return Changed;
  }

  /// Whether \p BB holds only `br` and may be bypassed.
  static bool isEmptyBranch(const Function &F, BasicBlock *BB) {
    return BB != F.entry() && BB->size() == 1 &&
           BB->front().opcode() == Opcode::Br;
  }

  /// Where a branch to empty block \p BB ends up: the first block along
  /// its chain of empty blocks that is not one, and the empty block that
  /// branches to it (whose phi entries there are the chain's). Memoised, so
  /// that a chain of n empty blocks costs O(n) over the whole round, not
  /// one hop per predecessor per block (O(n^2) edges moved, and O(n^3)
  /// with the predecessor lists' upkeep, on n nested ifs). A cycle of
  /// empty blocks ends at the block where it closes.
  std::pair<BasicBlock *, BasicBlock *>
  finalTarget(const Function &F, BasicBlock *BB,
              DenseMap<BasicBlock *, std::pair<BasicBlock *, BasicBlock *>>
                  &Memo) {
    SmallVector<BasicBlock *, 8> Path;
    SmallPtrSet<BasicBlock *, 8> OnPath;
    BasicBlock *Cur = BB, *Last = nullptr;
    while (isEmptyBranch(F, Cur)) {
      auto It = Memo.find(Cur);
      if (It != Memo.end()) {
        std::tie(Cur, Last) = It->second;
        break;
      }
      if (!OnPath.insert(Cur).second)
        break;
      Path.push_back(Cur);
      Last = Cur;
      Cur = Cur->front().block(0);
    }
    for (BasicBlock *B : Path)
      Memo[B] = {Cur, Last};
    return {Cur, Last};
  }

  bool bypassEmpty(Function &F, PassStats &Stats) {
    bool Changed = false;
    PredMap PM(F);
    DenseMap<BasicBlock *, std::pair<BasicBlock *, BasicBlock *>> Memo;
    for (unsigned Idx = 1; Idx < F.numBlocks(); ++Idx) {
      BasicBlock *BB = F.blocks()[Idx].get();
      if (!isEmptyBranch(F, BB))
        continue;
      auto [S, Last] = finalTarget(F, BB, Memo);
      if (S == BB || !Last)
        continue;
      bool SPhis = hasPhis(S);
      SmallVector<BasicBlock *, 4> BBPreds(PM.of(BB).begin(), PM.of(BB).end());
      SmallVector<BasicBlock *, 2> Kept;
      for (BasicBlock *P : BBPreds) {
        Instruction *PT = P->terminator();
        if (SPhis && is_contained(PT->blocks(), S)) {
          Kept.push_back(P);
          continue;
        }
        for (unsigned K = 0; K < PT->blocks().size(); ++K)
          if (PT->block(K) == BB)
            PT->setBlock(K, S);
        PM.addUnordered(S, P);
        for (Instruction &Phi : S->insts()) {
          if (!Phi.isPhi())
            break;
          Phi.addIncoming(Phi.incomingFor(Last), P);
        }
        Stats.add(name(), "branches redirected");
        Changed = true;
      }
      PM.of(BB).assign(Kept.begin(), Kept.end());
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
