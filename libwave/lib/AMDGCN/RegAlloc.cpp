//===- RegAlloc.cpp - Liveness and linear-scan allocation -----------------===//
//
// Live intervals over the instruction order, from block-level liveness on
// the control-flow graph that labels and branches define (so values live
// around a loop's back edge cover the whole loop), then Poletto-Sarkar
// linear scan over VGPRs and SGPRs with tuple alignment (seed 004
// "Linear Scan Register Allocation"). Precoloured registers (kernarg
// pointer, workgroup ids, work-item ids; formats/amdgcn-abi.md) keep their
// hardware register for their whole interval.
//
//===----------------------------------------------------------------------===//
#include "GCNIR.h"

#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Error.h"

#include <algorithm>

using namespace llvm;

namespace wave::amdgcn {

namespace {

/// A block of the CFG with its liveness sets (bits are vreg numbers).
struct Block : CFGBlock {
  BitVector Use, Def, LiveIn, LiveOut;
};

} // namespace

Error allocateRegisters(MFunction &F) {
  unsigned NV = unsigned(F.VRegs.size());
  std::vector<Block> Blocks;
  for (CFGBlock &B : buildCFG(F))
    Blocks.push_back({std::move(B), {}, {}, {}, {}});
  for (Block &B : Blocks) {
    B.Use.resize(NV), B.Def.resize(NV), B.LiveIn.resize(NV),
        B.LiveOut.resize(NV);
    for (unsigned I = B.Begin; I < B.End; ++I)
      for (const MOperand &O : F.Insts[I].Ops) {
        if (O.K != MOperand::VReg)
          continue;
        bool PartialDef = O.IsDef && O.IsUse;
        if ((O.IsUse || PartialDef) && !B.Def.test(O.Reg))
          B.Use.set(O.Reg);
      }
    for (unsigned I = B.Begin; I < B.End; ++I)
      for (const MOperand &O : F.Insts[I].Ops)
        if (O.K == MOperand::VReg && O.IsDef)
          B.Def.set(O.Reg);
  }
  // Uses must be computed in order: a use after a def in the same block is
  // not upward exposed. Recompute precisely.
  for (Block &B : Blocks) {
    B.Use.reset();
    BitVector Defined(NV);
    for (unsigned I = B.Begin; I < B.End; ++I) {
      for (const MOperand &O : F.Insts[I].Ops)
        if (O.K == MOperand::VReg && O.IsUse && !Defined.test(O.Reg))
          B.Use.set(O.Reg);
      for (const MOperand &O : F.Insts[I].Ops)
        if (O.K == MOperand::VReg && O.IsDef && !O.IsUse && O.Sub < 0)
          Defined.set(O.Reg);
    }
    B.Def = Defined;
  }
  bool Changed = true;
  while (Changed) {
    Changed = false;
    for (unsigned BI = unsigned(Blocks.size()); BI-- > 0;) {
      Block &B = Blocks[BI];
      BitVector Out(NV);
      for (unsigned S : B.Succs)
        Out |= Blocks[S].LiveIn;
      BitVector In = Out;
      In.reset(B.Def);
      In |= B.Use;
      if (In != B.LiveIn || Out != B.LiveOut) {
        B.LiveIn = std::move(In);
        B.LiveOut = std::move(Out);
        Changed = true;
      }
    }
  }
  // Intervals [Start, End] in instruction positions. StartsAtDef: the
  // interval begins at an instruction that only writes the register;
  // EndsAtUse: it ends at one that only reads it (not live beyond, and no
  // other operand of that instruction writes it). Such a pair may share a register at that instruction, which
  // reads its sources before it writes its results.
  std::vector<int> Start(NV, INT32_MAX), End(NV, -1);
  std::vector<char> StartsAtDef(NV, 0), EndsAtUse(NV, 0);
  auto Touch = [&](unsigned R, int P, bool OnlyDef, bool OnlyUse) {
    if (P < Start[R])
      Start[R] = P, StartsAtDef[R] = OnlyDef;
    else if (P == Start[R])
      StartsAtDef[R] &= OnlyDef;
    if (P > End[R])
      End[R] = P, EndsAtUse[R] = OnlyUse;
    else if (P == End[R])
      EndsAtUse[R] &= OnlyUse;
  };
  for (Block &B : Blocks) {
    for (unsigned R : B.LiveIn.set_bits())
      Touch(R, int(B.Begin), false, false);
    for (unsigned R : B.LiveOut.set_bits())
      Touch(R, int(B.End) - 1 < int(B.Begin) ? int(B.Begin) : int(B.End) - 1,
            false, false);
    for (unsigned I = B.Begin; I < B.End; ++I) {
      // s_*_saveexec writes its result before it reads its source (ISA
      // pseudocode: D = EXEC; EXEC = S0 op EXEC).
      bool WritesFirst = StringRef(F.Insts[I].Op).contains("saveexec");
      for (const MOperand &O : F.Insts[I].Ops)
        if (O.K == MOperand::VReg)
          Touch(O.Reg, int(I),
                O.IsDef && !O.IsUse && O.Sub < 0 && !WritesFirst,
                O.IsUse && !O.IsDef);
    }
  }
  // Linear scan.
  std::vector<unsigned> Order;
  for (unsigned R = 0; R < NV; ++R)
    if (End[R] >= 0)
      Order.push_back(R);
  llvm::sort(Order, [&](unsigned A, unsigned B) {
    if (Start[A] != Start[B])
      return Start[A] < Start[B];
    if ((F.VRegs[A].Fixed >= 0) != (F.VRegs[B].Fixed >= 0))
      return F.VRegs[A].Fixed >= 0;
    return A < B;
  });
  const GCNTarget &T = *F.T;
  std::vector<int> BusyV(T.MaxVGPRs, -1), BusyS(T.MaxSGPRs, -1);
  // Per physical register: whether the 32-bit interval that holds it last
  // ends at an instruction that only reads it.
  std::vector<char> FreedAtV(T.MaxVGPRs, 0), FreedAtS(T.MaxSGPRs, 0);
  struct FixedIv {
    bool Vec;
    int Phys, Width, S, E;
  };
  std::vector<FixedIv> Fixed;
  for (unsigned R : Order)
    if (F.VRegs[R].Fixed >= 0)
      Fixed.push_back({isVector(F.VRegs[R].Class), F.VRegs[R].Fixed,
                       int(regWidth(F.VRegs[R].Class)), Start[R], End[R]});
  unsigned MaxV = 0, MaxS = 0;
  for (unsigned R : Order) {
    VRegInfo &VI = F.VRegs[R];
    bool Vec = isVector(VI.Class);
    std::vector<int> &Busy = Vec ? BusyV : BusyS;
    std::vector<char> &FreedAt = Vec ? FreedAtV : FreedAtS;
    int W = int(regWidth(VI.Class));
    int Phys = VI.Fixed;
    // 32-bit results may take a 32-bit source's register at the
    // instruction that reads it last (tuples never overlap: some 64-bit
    // operations must not partially overlap their sources).
    bool MayReuse = W == 1 && StartsAtDef[R];
    if (Phys < 0) {
      int Align = W == 1 ? 1 : (!Vec && W == 4) ? 4 : 2;
      for (int P = 0; P + W <= int(Busy.size()); P += Align) {
        bool Free = true;
        for (int K = 0; K < W && Free; ++K)
          if (Busy[P + K] > Start[R] ||
              (Busy[P + K] == Start[R] && !(MayReuse && FreedAt[P + K])))
            Free = false;
        for (const FixedIv &FI : Fixed)
          if (Free && FI.Vec == Vec && FI.Phys < P + W && P < FI.Phys + FI.Width &&
              FI.S <= End[R] && Start[R] <= FI.E)
            Free = false;
        if (Free) {
          Phys = P;
          break;
        }
      }
      if (Phys < 0)
        return createStringError(
            inconvertibleErrorCode(),
            "the kernel needs more than %u %s; register spilling is not "
            "implemented",
            unsigned(Busy.size()), Vec ? "VGPRs" : "SGPRs");
    }
    VI.Phys = Phys;
    for (int K = 0; K < W; ++K) {
      if (End[R] > Busy[Phys + K])
        FreedAt[Phys + K] = W == 1 && EndsAtUse[R];
      else if (End[R] == Busy[Phys + K])
        FreedAt[Phys + K] = 0;
      Busy[Phys + K] = std::max(Busy[Phys + K], End[R]);
    }
    if (Vec)
      MaxV = std::max(MaxV, unsigned(Phys + W));
    else
      MaxS = std::max(MaxS, unsigned(Phys + W));
  }
  F.NumVGPRs = std::max(MaxV, 1u);
  F.NumSGPRs = MaxS;
  return Error::success();
}

} // namespace wave::amdgcn
