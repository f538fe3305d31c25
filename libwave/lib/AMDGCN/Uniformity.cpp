//===- Uniformity.cpp - Uniform webs and regions --------------------------===//
//
// Step 3: which webs hold the same value in every active lane and which
// if/loop regions keep all live lanes together; uniform integer webs live in
// SGPRs and use SALU instructions. Also the queries the lowering asks of
// the result: whether EXEC is full at an op, whether regions are uniform.
//
//===----------------------------------------------------------------------===//

#include "Lowering.h"

using namespace llvm;

namespace wave::amdgcn::detail {

void KernelLowering::uniformity() {
  WebDivergent.assign(Defs.size(), 0);
  auto UseDiv = [&](unsigned Idx, unsigned Reg) {
    for (auto &[R, Ds] : OpUses[Idx])
      if (R == Reg)
        return WebDivergent[find(Ds.front())] != 0;
    return false;
  };
  // Whether every loop around region \p R keeps its lanes together: a
  // divergent `continue` lets some lanes skip a definition in an iteration
  // while the others run it, even where the uses stay inside the loop.
  auto LoopsUniform = [&](int R) {
    for (; R >= 0; R = Regions[R].Parent)
      if (Regions[R].Kind == RegionKind::Loop && !Regions[R].Uniform)
        return false;
    return true;
  };
  bool Changed = true;
  while (Changed) {
    Changed = false;
    auto Mark = [&](unsigned Web) {
      if (!WebDivergent[Web]) {
        WebDivergent[Web] = 1;
        Changed = true;
      }
    };
    // Regions.
    for (Region &R : Regions) {
      bool U = true;
      const WOp &Open = Ops[R.Opener];
      if (R.Kind != RegionKind::Loop) {
        // A wave runs a barrier (or a kernel `return`) even with no lane
        // active (formats/isa.md §4.15), so an if around one is never
        // skipped by a branch.
        if (R.HasWholeWaveOp)
          U = false;
        if (UseDiv(&Open - &Ops[0], PredBase + (Open.I.Rs1 & 3)))
          U = false;
        if (Open.I.isPredicated())
          U = false;
      } else {
        // A wave that enters a loop around a barrier (or a kernel
        // `return`) with no lane runs the body once, barriers included
        // (§4.15, §4.17), which only a full EXEC at the `loop` rules out.
        // (The barriers after a uniform break or continue are run on its
        // way out: KernelLowering::needsDrain.)
        if (R.HasWholeWaveOp && (!WavesFull || !regionsUniform(Open.Region)))
          U = false;
        // A break or continue is uniform when its condition is, and so is
        // every if between it and the loop.
        for (unsigned Idx = R.Begin + 1; Idx < R.End; ++Idx) {
          const WOp &O = Ops[Idx];
          if ((O.I.Op == Opcode::Break || O.I.Op == Opcode::Continue) &&
              (O.I.isPredicated() ||
               UseDiv(Idx, PredBase + (O.I.Rs1 & 3)) ||
               !regionsUniform(O.Region, loopRegionOf(O.Region))))
            U = false;
        }
      }
      if (R.Uniform && !U) {
        R.Uniform = false;
        Changed = true;
      }
    }
    // Values.
    for (unsigned Idx = 0; Idx < Ops.size(); ++Idx) {
      const WOp &O = Ops[Idx];
      if (OpDefs[Idx].empty())
        continue;
      Opcode Op = O.I.Op;
      bool Div = false;
      switch (Op) {
      case Opcode::MovSr: {
        unsigned S = O.I.Rs1;
        Div = S <= 2 || S == 4;
        break;
      }
      case Opcode::WaveBroadcast:
      case Opcode::WaveBallot:
      case Opcode::WaveAny:
      case Opcode::WaveAll:
      case Opcode::WaveReduceAdd:
      case Opcode::WaveReduceMin:
      case Opcode::WaveReduceMax:
        Div = O.I.isPredicated() &&
              UseDiv(Idx, PredBase + (O.I.PredReg & 3));
        break;
      case Opcode::WaveShuffle:
      case Opcode::WaveShuffleUp:
      case Opcode::WaveShuffleDown:
      case Opcode::WaveShuffleXor:
      case Opcode::WavePrefixSum:
        Div = true;
        break;
      default:
        if (isMemoryAccess(Op)) {
          Div = true;
          break;
        }
        for (auto &[R, Ds] : OpUses[Idx])
          if (!(R & 0x10000) && WebDivergent[find(Ds.front())])
            Div = true;
        break;
      }
      for (unsigned D : OpDefs[Idx]) {
        bool DD = Div || CrossLaneWeb[find(D)];
        if (DefMerges[D] && (O.I.isPredicated() ||
                             !regionsUniform(O.Region, DefScope[D]) ||
                             !LoopsUniform(O.Region)))
          DD = true;
        if (DD)
          Mark(find(D));
      }
    }
  }
  // SGPR placement: uniform 32-bit webs whose every definition has a
  // scalar form, over operands that are scalar too.
  WebScalar.assign(Defs.size(), 0);
  for (unsigned D = 0; D < Defs.size(); ++D)
    if (find(D) == D && Defs[D].Reg < PredBase && !WebDivergent[D] &&
        !CrossLaneWeb[D])
      WebScalar[D] = 1;
  Changed = true;
  while (Changed) {
    Changed = false;
    for (unsigned Idx = 0; Idx < Ops.size(); ++Idx) {
      const WOp &O = Ops[Idx];
      bool AnyScalar = false;
      for (unsigned D : OpDefs[Idx])
        if (Defs[D].Reg < PredBase && WebScalar[find(D)])
          AnyScalar = true;
      if (!AnyScalar)
        continue;
      bool Ok;
      bool NeedScalarOperands = true;
      switch (O.I.Op) {
      case Opcode::Iadd:
      case Opcode::Isub:
      case Opcode::Imul:
      case Opcode::ImulHi:
      case Opcode::Imad:
      case Opcode::Ineg:
      case Opcode::Iabs:
      case Opcode::Imin:
      case Opcode::Imax:
      case Opcode::Iclamp:
      case Opcode::And:
      case Opcode::Or:
      case Opcode::Xor:
      case Opcode::Not:
      case Opcode::Shl:
      case Opcode::Shr:
      case Opcode::Sar:
      case Opcode::Bitcount:
      case Opcode::Bitfind:
      case Opcode::Bitrev:
      case Opcode::Mov:
      case Opcode::MovImm:
      case Opcode::Select:
        Ok = true;
        break;
      case Opcode::MovSr:
        Ok = true;
        NeedScalarOperands = false;
        break;
      case Opcode::WaveBroadcast:
      case Opcode::WaveBallot:
      case Opcode::WaveReduceAdd:
      case Opcode::WaveReduceMin:
      case Opcode::WaveReduceMax:
        Ok = !O.I.isPredicated();
        NeedScalarOperands = false;
        break;
      default:
        Ok = false;
        break;
      }
      if (Ok && NeedScalarOperands)
        for (auto &[R, Ds] : OpUses[Idx])
          if (!(R & 0x10000) && R < PredBase && !WebScalar[find(Ds.front())])
            Ok = false;
      if (O.I.isPredicated())
        Ok = false;
      if (!Ok)
        for (unsigned D : OpDefs[Idx])
          if (Defs[D].Reg < PredBase && WebScalar[find(D)]) {
            WebScalar[find(D)] = 0;
            Changed = true;
          }
    }
  }
}

/// Whether EXEC holds every lane of the wave at op \p Idx: the workgroup
/// size is fixed and a multiple of the wave size (no partial waves, no
/// lanes past the workgroup's end), no `halt` stops only some lanes, the op
/// is not predicated, and every region around it keeps all lanes together.
bool KernelLowering::execFull(unsigned Idx) const {
  return WavesFull && !Ops[Idx].I.isPredicated() &&
         regionsUniform(Ops[Idx].Region);
}

/// Whether every region from \p R up to its ancestor \p Stop (not
/// included; -1: the top level) keeps all its lanes together.
bool KernelLowering::regionsUniform(int R, int Stop) const {
  for (; R >= 0 && R != Stop; R = Regions[R].Parent)
    if (!Regions[R].Uniform)
      return false;
  return true;
}

/// The innermost loop region enclosing region \p R, or -1.
int KernelLowering::loopRegionOf(int R) const {
  while (R >= 0 && Regions[R].Kind != RegionKind::Loop)
    R = Regions[R].Parent;
  return R;
}

} // namespace wave::amdgcn::detail
