//===- DCE.cpp - Dead code elimination ------------------------------------===//
//
// Removes every instruction whose result is not needed by an instruction
// with effects. Mark-and-sweep: terminators and
// instructions with side effects (stores, atomics, barriers, fences, calls,
// MMA) are live; anything a live instruction uses is live; the rest is
// deleted. Because liveness starts from effects rather than from "has no
// uses", dead cycles (a loop-carried phi and its increment that nothing
// reads) are removed too. Loads and wave operations have no side effects
// and go when unused. Control flow is left alone (simplifycfg's job).
//
//   before                               after
//   ^entry:                              ^entry:
//     %a = add i32 %x, 1                   %b = mul i32 %x, 2
//     %b = mul i32 %x, 2                   store i32 %b, ptr<device> %p
//     store i32 %b, ptr<device> %p         ret
//     ret
//
//===----------------------------------------------------------------------===//
#include "wave/Transforms/Pass.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Casting.h"

using namespace llvm;

namespace wave::mir {

namespace {

class DCEPass : public Pass {
public:
  StringRef name() const override { return "dce"; }

  bool runOnFunction(Function &F, PassStats &Stats) override {
    SmallPtrSet<Instruction *, 32> Live;
    SmallVector<Instruction *, 64> Work;
    for (const auto &BB : F.blocks())
      for (Instruction &I : BB->insts())
        if (I.hasSideEffects() && Live.insert(&I).second)
          Work.push_back(&I);
    while (!Work.empty()) {
      Instruction *I = Work.pop_back_val();
      for (Value *Op : I->operands())
        if (auto *D = dyn_cast<Instruction>(Op))
          if (Live.insert(D).second)
            Work.push_back(D);
    }
    // Sweep: drop operands of every dead instruction first so that dead
    // cycles have no uses left, then delete.
    SmallVector<Instruction *, 32> Dead;
    for (const auto &BB : F.blocks())
      for (Instruction &I : BB->insts())
        if (!Live.count(&I))
          Dead.push_back(&I);
    for (Instruction *I : Dead)
      I->dropAllOperands();
    for (Instruction *I : Dead)
      I->eraseFromParent();
    Stats.add(name(), "instructions removed", Dead.size());
    return !Dead.empty();
  }
};

} // namespace

std::unique_ptr<Pass> createDCEPass() { return std::make_unique<DCEPass>(); }

} // namespace wave::mir
