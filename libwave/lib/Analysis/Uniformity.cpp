//===- Uniformity.cpp - Uniform and divergent values ----------------------===//
//
// Seeds the divergent set from the sources, then alternates data-dependence
// propagation (a worklist over def-use chains) with the sync- and
// temporal-divergence rules until nothing changes.
//
//===----------------------------------------------------------------------===//
#include "wave/Analysis/Uniformity.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/Support/Casting.h"

using namespace llvm;

namespace wave::mir {

/// Whether the result of \p I is divergent regardless of its operands.
static bool isSource(const Instruction &I) {
  switch (I.opcode()) {
  case Opcode::SReg: {
    StringRef R = specialRegName(I.imms()[0]);
    return R == "thread_id_x" || R == "thread_id_y" || R == "thread_id_z" ||
           R == "lane_id";
  }
  case Opcode::WaveShuffle:
  case Opcode::WaveShuffleUp:
  case Opcode::WaveShuffleDown:
  case Opcode::WaveShuffleXor:
  case Opcode::WavePrefixSum:
  case Opcode::Call:
    return true;
  default:
    // Each lane has its own private slots, so what a lane loads from one
    // may differ from its neighbours' whatever the address.
    if (I.desc().Shp == Shape::Load && I.auxType() == Type::PtrPrivate)
      return true;
    return I.desc().Shp == Shape::Atomic || I.desc().Shp == Shape::AtomicCas;
  }
}

/// Whether \p I gives every active lane the same result whatever its
/// operands (formats/isa.md §4.14).
static bool alwaysUniform(const Instruction &I) {
  switch (I.opcode()) {
  case Opcode::WaveBroadcast:
  case Opcode::WaveBallot:
  case Opcode::WaveAny:
  case Opcode::WaveAll:
  case Opcode::WaveReduceAdd:
  case Opcode::WaveReduceMin:
  case Opcode::WaveReduceMax:
    return true;
  default:
    return false;
  }
}

bool UniformityInfo::isDivergentBranch(const Instruction *Term) const {
  return Term && Term->opcode() == Opcode::CondBr &&
         isDivergent(Term->operand(0)) && Term->block(0) != Term->block(1);
}

UniformityInfo::UniformityInfo(const Function &F, const DominanceFrontier &DF,
                               const LoopInfo &LI) {
  SmallVector<const Value *, 32> Work;
  auto Mark = [&](const Value *V) {
    if (V->type() != Type::Void && !isa<Constant>(V) &&
        Divergent.insert(V).second)
      Work.push_back(V);
  };
  if (!F.isKernel())
    for (unsigned I = 0; I < F.numArgs(); ++I)
      Mark(F.arg(I));
  for (const auto &BB : F.blocks())
    for (const Instruction &I : BB->insts())
      if (isSource(I))
        Mark(&I);

  SmallPtrSet<const Instruction *, 8> HandledBranches;
  SmallPtrSet<const Loop *, 8> HandledLoops;
  for (bool Changed = true; Changed;) {
    // Data dependence.
    while (!Work.empty()) {
      const Value *V = Work.pop_back_val();
      for (const Use &U : V->uses())
        if (!alwaysUniform(*U.User))
          Mark(U.User);
    }
    Changed = false;
    // Sync dependence: phis where the sides of a divergent branch meet.
    for (const auto &BB : F.blocks()) {
      const Instruction *T = BB->terminator();
      if (!isDivergentBranch(T) || !HandledBranches.insert(T).second)
        continue;
      SetVector<BasicBlock *> IDF;
      SmallVector<BasicBlock *, 8> Stack(T->blocks().begin(),
                                         T->blocks().end());
      SmallPtrSet<BasicBlock *, 8> Seen(Stack.begin(), Stack.end());
      while (!Stack.empty()) {
        BasicBlock *B = Stack.pop_back_val();
        for (BasicBlock *J : DF.frontier(B)) {
          IDF.insert(J);
          if (Seen.insert(J).second)
            Stack.push_back(J);
        }
      }
      // A join is reached from both sides: this drops e.g. the header of a
      // loop whose divergent exit leaves from the header's own block (the
      // lanes still looping stay in lockstep there).
      auto Reach = [&](BasicBlock *From) {
        SmallPtrSet<const BasicBlock *, 16> R;
        SmallVector<BasicBlock *, 16> W{From};
        R.insert(From);
        while (!W.empty())
          for (BasicBlock *S : W.pop_back_val()->successors())
            if (R.insert(S).second)
              W.push_back(S);
        return R;
      };
      auto R0 = Reach(T->block(0)), R1 = Reach(T->block(1));
      for (BasicBlock *J : IDF) {
        if (!R0.count(J) || !R1.count(J))
          continue;
        for (const Instruction &I : J->insts()) {
          if (!I.isPhi())
            break;
          Mark(&I);
        }
      }
      Changed = true;
    }
    // Temporal divergence: values leaving a loop with a divergent exit.
    for (const auto &L : LI.loops()) {
      if (HandledLoops.count(L.get()))
        continue;
      bool DivergentExit = false;
      for (BasicBlock *B : L->blocks()) {
        const Instruction *T = B->terminator();
        if (!isDivergentBranch(T))
          continue;
        for (BasicBlock *S : T->blocks())
          DivergentExit |= !L->contains(S);
      }
      if (!DivergentExit)
        continue;
      HandledLoops.insert(L.get());
      for (BasicBlock *B : L->blocks())
        for (const Instruction &I : B->insts())
          for (const Use &U : I.uses()) {
            const BasicBlock *UseBB =
                U.User->isPhi() ? U.User->block(U.OpNo) : U.User->parent();
            // A phi operand is read at the end of its incoming block; the
            // value escapes when that block or the phi is outside the loop.
            if (!L->contains(UseBB) || !L->contains(U.User->parent()))
              Mark(&I);
          }
      Changed = true;
    }
    Changed = Changed || !Work.empty();
  }
}

} // namespace wave::mir
