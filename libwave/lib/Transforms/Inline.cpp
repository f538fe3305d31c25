//===- Inline.cpp - Inline device-function calls --------------------------===//
//
// Replaces `call @f(...)` by a copy of @f's body (aggressive
// inlining of device functions, at -O3). A callee is inlined when
//  * it is a device function (`func`) of the module,
//  * it is not recursive: it is on no cycle of the call graph (a function
//    that can reach itself through calls; found by a reachability walk
//    from each function's callees), so inlining always terminates, and
//  * it has at most InlineThreshold = 200 instructions,
// and the caller stays under MaxCallerSize = 4000 instructions.
//
// The call's block is split after the call; the callee's blocks are copied
// in between (Cloning.h) with its parameters mapped to the call's
// arguments; each `ret` becomes a branch to the continuation, and the
// call's result becomes the returned value (a phi in the continuation when
// there are several returns; 0 of the result type if the callee never
// returns). The callee's `alloca`s move to the caller's entry block, where
// the verifier wants them, and the copy stores 0 to each on entry (slots
// start zeroed on every call). Calls inside the copied body are inlined in
// turn.
// Callees are kept: another object may call them through wave-link. A call
// is convergent, and so is the inlined body in its place, so convergence is
// unchanged; the CFG stays reducible (the copy is a single-entry region).
//
//   before                               after
//   func @sq(u32 %x) -> u32 {            kernel @k(u32 %a, ptr<device> %p) {
//   ^entry:                              ^entry:
//     %y = mul u32 %x, %x                  br ^0
//     ret u32 %y                         ^0:
//   }                                      %1 = mul u32 %a, %a
//   kernel @k(u32 %a, ptr<device> %p) {    br ^2
//   ^entry:                              ^2:
//     %r = call u32 @sq(u32 %a)            store u32 %1, ptr<device> %p
//     store u32 %r, ptr<device> %p         ret
//     ret                                }
//   }
//
//===----------------------------------------------------------------------===//
#include "wave/Transforms/Cloning.h"
#include "wave/Transforms/Pass.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace llvm;

namespace wave::mir {

namespace {

/// Largest callee (instructions) that is inlined.
constexpr unsigned InlineThreshold = 200;
/// Inlining into a caller stops once it has this many instructions.
constexpr unsigned MaxCallerSize = 4000;

unsigned functionSize(const Function &F) {
  unsigned N = 0;
  for (const auto &BB : F.blocks())
    N += BB->size();
  return N;
}

class InlinePass : public Pass {
public:
  InlinePass(unsigned Threshold = InlineThreshold,
             unsigned MaxCaller = MaxCallerSize)
      : Threshold(Threshold), MaxCaller(MaxCaller) {}

  StringRef name() const override { return "inline"; }

  bool runOnFunction(Function &F, PassStats &Stats) override {
    // Inlining needs the whole call graph; run the module version on F's
    // module but only for F.
    computeRecursive(*F.parent());
    return inlineInto(F, Stats);
  }

  bool runOnModule(Module &M, PassStats &Stats) override {
    computeRecursive(M);
    bool Changed = false;
    for (const auto &F : M.functions())
      Changed |= inlineInto(*F, Stats);
    return Changed;
  }

private:
  /// Marks every function that can reach itself through calls.
  void computeRecursive(const Module &M) {
    Recursive.clear();
    DenseMap<const Function *, SmallVector<const Function *, 4>> Callees;
    for (const auto &F : M.functions())
      for (const auto &BB : F->blocks())
        for (const Instruction &I : BB->insts())
          if (I.opcode() == Opcode::Call && I.callee())
            Callees[F.get()].push_back(I.callee());
    for (const auto &F : M.functions()) {
      SmallPtrSet<const Function *, 16> Seen;
      SmallVector<const Function *, 16> Work(Callees.lookup(F.get()));
      while (!Work.empty()) {
        const Function *G = Work.pop_back_val();
        if (G == F.get()) {
          Recursive.insert(F.get());
          break;
        }
        if (Seen.insert(G).second)
          append_range(Work, Callees.lookup(G));
      }
    }
  }

  bool inlineInto(Function &F, PassStats &Stats) {
    bool Changed = false;
    unsigned Size = functionSize(F);
    // Scan for eligible calls; after each inlining rescan from the
    // continuation block (calls copied from the callee come before it).
    for (bool Again = true; Again;) {
      Again = false;
      for (const auto &BB : F.blocks()) {
        for (Instruction &I : BB->insts()) {
          Function *G = I.callee();
          if (I.opcode() != Opcode::Call || !G || G == &F || G->isKernel() ||
              Recursive.count(G) || G->numBlocks() == 0)
            continue;
          unsigned GSize = functionSize(*G);
          if (GSize > Threshold || uint64_t(Size) + GSize > MaxCaller)
            continue;
          inlineCall(F, I);
          Size += GSize;
          Stats.add(name(), "calls inlined");
          Changed = Again = true;
          break;
        }
        if (Again)
          break;
      }
    }
    return Changed;
  }

  void inlineCall(Function &F, Instruction &Call) {
    Function &G = *Call.callee();
    BasicBlock *BB = Call.parent();
    // Split: everything after the call moves to a continuation block, whose
    // successors' phis now come from it.
    BasicBlock *Cont = F.addBlockAfter(BB);
    while (&BB->back() != &Call)
      Cont->insert(Cont->begin(), BB->remove(&BB->back()));
    for (BasicBlock *S : Cont->successors())
      for (Instruction &P : S->insts()) {
        if (!P.isPhi())
          break;
        for (unsigned K = 0; K < P.blocks().size(); ++K)
          if (P.block(K) == BB)
            P.setBlock(K, Cont);
      }
    // Copy the callee between the two halves.
    ValueMap VM;
    BlockMap BM;
    for (unsigned K = 0; K < G.numArgs(); ++K)
      VM[G.arg(K)] = Call.operand(K);
    SmallVector<BasicBlock *, 8> Src;
    for (const auto &GB : G.blocks())
      Src.push_back(GB.get());
    SmallVector<BasicBlock *, 8> Body = cloneBlocks(F, Src, BB, VM, BM);
    // Returns become branches to the continuation.
    SmallVector<std::pair<Value *, BasicBlock *>, 4> Rets;
    for (BasicBlock *NB : Body) {
      Instruction *T = NB->terminator();
      if (!T || T->opcode() != Opcode::Ret)
        continue;
      if (T->numOperands())
        Rets.push_back({T->operand(0), NB});
      else
        Rets.push_back({nullptr, NB});
      Instruction::DebugLoc RetLoc = T->debugLoc();
      T->dropAllOperands();
      T->eraseFromParent();
      auto Br = Instruction::create(Opcode::Br, Type::Void);
      Br->setDebugLoc(RetLoc);
      Br->addBlock(Cont);
      NB->append(std::move(Br));
    }
    if (Call.type() != Type::Void) {
      Value *Result;
      if (Rets.empty()) {
        Result = F.constant(Call.type(), 0);
      } else if (Rets.size() == 1) {
        Result = Rets[0].first;
      } else {
        auto Phi = Instruction::create(Opcode::Phi, Call.type());
        Phi->setDebugLoc(Call.debugLoc());
        for (auto &[V, From] : Rets)
          Phi->addIncoming(V, From);
        Result = Cont->insert(Cont->begin(), std::move(Phi));
      }
      Call.replaceAllUsesWith(Result);
    }
    // The callee's slots join the caller's entry block, in their order.
    // A slot starts at 0 on every call (formats/mir.md), so the copied
    // body begins by storing 0 to each: a call in a loop must not see the
    // previous iteration's value.
    BasicBlock *Entry = F.entry();
    auto Pos = Entry->begin();
    auto ZeroPos = Body.front()->begin();
    for (BasicBlock *NB : Body)
      for (auto It = NB->begin(); It != NB->end();) {
        Instruction &I = *It++;
        if (I.opcode() != Opcode::Alloca)
          continue;
        if (&*ZeroPos == &I)
          ++ZeroPos;
        Instruction *A = Entry->insert(Pos, NB->remove(&I));
        auto Zero = Instruction::create(Opcode::Store, Type::Void);
        Zero->addOperand(F.constant(A->auxType(), 0));
        Zero->addOperand(A);
        Zero->setAuxType(Type::PtrPrivate);
        Zero->setDebugLoc(Call.debugLoc());
        Body.front()->insert(ZeroPos, std::move(Zero));
      }
    // The call becomes a branch into the copy.
    Instruction::DebugLoc CallLoc = Call.debugLoc();
    Call.dropAllOperands();
    Call.eraseFromParent();
    auto Br = Instruction::create(Opcode::Br, Type::Void);
    Br->setDebugLoc(CallLoc);
    Br->addBlock(Body.front());
    BB->append(std::move(Br));
  }

  unsigned Threshold, MaxCaller;
  SmallPtrSet<const Function *, 8> Recursive;
};

} // namespace

std::unique_ptr<Pass> createInlinePass() {
  return std::make_unique<InlinePass>();
}

void inlineAllCalls(Module &M) {
  InlinePass P(~0u, ~0u);
  PassStats Stats;
  P.runOnModule(M, Stats);
}

} // namespace wave::mir
