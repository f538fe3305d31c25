//===- RegAlloc.cpp - Liveness and linear-scan allocation -----------------===//
//
// Live intervals over the instruction order, from block-level liveness on
// the control-flow graph that labels and branches define (so values live
// around a loop's back edge cover the whole loop), then Poletto-Sarkar
// linear scan over VGPRs and SGPRs with tuple alignment (as in
// WaveASM). Precoloured registers (kernarg
// pointer, workgroup ids, work-item ids; formats/amdgcn-abi.md) keep their
// hardware register for their whole interval.
//
// SGPR spilling (as LLVM's SILowerSGPRSpills spills to VGPR lanes): when no
// SGPR is free, the live SGPR interval that ends furthest moves into lanes
// of a spill VGPR -- a VGPR live over the whole kernel, one lane per 32-bit
// part, 64 or 32 lanes each -- with v_writelane_b32 after each write and
// v_readlane_b32 into a short-lived temporary before each read; then the
// whole allocation runs again. Lane reads and writes ignore EXEC (a value a
// divergent region defines belongs to the whole wave) and leave SCC alone.
// Their hazards (a v_readlane of a spill VGPR right after a v_writelane of
// it; SGPRs a v_readlane writes) are PostRA.cpp's ordinary VALU rules.
//
// VGPR spilling: when no VGPR is free, the live VGPR interval that ends
// furthest moves into spill slots, one per 32-bit part -- AGPRs on targets
// with a unified VGPR/AGPR file (gfx90a/942/950, v_accvgpr_write/read),
// private segment dwords elsewhere (scratch_store/load_b32, architected
// flat scratch) -- through a short-lived VGPR temporary per instruction.
// Slots are virtual registers of their own file, so the same liveness and
// linear scan share them between values never live at once. The loads and
// stores run under the instruction's EXEC (a store keeps the slot's other
// lanes, as the register kept them); around an instruction that reaches
// lanes outside EXEC (v_readlane, v_writelane, DPP, permutes) they run with
// every lane enabled, EXEC saved and restored with s_mov, which leaves SCC
// alone (formats/amdgcn-abi.md "Registers and control flow").
//
//===----------------------------------------------------------------------===//
#include "GCNIR.h"

#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Error.h"

#include <algorithm>
#include <cassert>

using namespace llvm;

namespace wave::amdgcn {

namespace {

/// A block of the CFG with its liveness sets (bits are vreg numbers).
struct Block : CFGBlock {
  BitVector Use, Def, LiveIn, LiveOut;
};

/// Live intervals [Start, End] in instruction positions (End = -1: the
/// register does not occur). StartsAtDef: the interval begins at an
/// instruction that only writes the register; EndsAtUse: it ends at one that
/// only reads it (not live beyond, and no other operand of that instruction
/// writes it). Such a pair may share a register at that instruction, which
/// reads its sources before it writes its results.
struct Intervals {
  std::vector<int> Start, End;
  std::vector<char> StartsAtDef, EndsAtUse;
};

/// The blocks of \p F with their live-in and live-out virtual registers.
std::vector<Block> computeLiveness(const MFunction &F) {
  unsigned NV = unsigned(F.VRegs.size());
  std::vector<Block> Blocks;
  for (CFGBlock &B : buildCFG(F))
    Blocks.push_back({std::move(B), {}, {}, {}, {}});
  // Upward-exposed uses and definitions, in instruction order: a use after
  // a def in the same block is not upward exposed. A tuple counts as
  // defined once every 32-bit part has been written (v_readlane fills a
  // spilled pair one part at a time).
  for (Block &B : Blocks) {
    B.Use.resize(NV), B.Def.resize(NV), B.LiveIn.resize(NV),
        B.LiveOut.resize(NV);
    DenseMap<uint32_t, unsigned> Parts;
    for (unsigned I = B.Begin; I < B.End; ++I) {
      for (const MOperand &O : F.Insts[I].Ops)
        if (O.K == MOperand::VReg && O.IsUse && !B.Def.test(O.Reg))
          B.Use.set(O.Reg);
      for (const MOperand &O : F.Insts[I].Ops) {
        if (O.K != MOperand::VReg || !O.IsDef || O.IsUse)
          continue;
        unsigned All = (1u << regWidth(F.VRegs[O.Reg].Class)) - 1;
        unsigned &M = Parts[O.Reg];
        M |= O.partMask(regWidth(F.VRegs[O.Reg].Class));
        if (M == All)
          B.Def.set(O.Reg);
      }
    }
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
  return Blocks;
}

/// The live interval of every virtual register of \p F, from its blocks'
/// liveness \p Blocks (computeLiveness of the same \p F).
Intervals computeIntervals(const MFunction &F,
                           const std::vector<Block> &Blocks) {
  unsigned NV = unsigned(F.VRegs.size());
  Intervals Iv;
  Iv.Start.assign(NV, INT32_MAX), Iv.End.assign(NV, -1);
  Iv.StartsAtDef.assign(NV, 0), Iv.EndsAtUse.assign(NV, 0);
  auto Touch = [&](unsigned R, int P, bool OnlyDef, bool OnlyUse) {
    if (P < Iv.Start[R])
      Iv.Start[R] = P, Iv.StartsAtDef[R] = OnlyDef;
    else if (P == Iv.Start[R])
      Iv.StartsAtDef[R] &= OnlyDef;
    if (P > Iv.End[R])
      Iv.End[R] = P, Iv.EndsAtUse[R] = OnlyUse;
    else if (P == Iv.End[R])
      Iv.EndsAtUse[R] &= OnlyUse;
  };
  for (const Block &B : Blocks) {
    for (unsigned R : B.LiveIn.set_bits())
      Touch(R, int(B.Begin), false, false);
    for (unsigned R : B.LiveOut.set_bits())
      Touch(R, int(B.End) - 1 < int(B.Begin) ? int(B.Begin) : int(B.End) - 1,
            false, false);
    for (unsigned I = B.Begin; I < B.End; ++I) {
      // s_*_saveexec writes its result before it reads its source (ISA
      // pseudocode: D = EXEC; EXEC = S0 op EXEC).
      bool WritesFirst = F.Insts[I].has(OF_DefEXEC);
      for (const MOperand &O : F.Insts[I].Ops)
        if (O.K == MOperand::VReg)
          Touch(O.Reg, int(I),
                O.IsDef && !O.IsUse && O.Sub < 0 && !WritesFirst,
                O.IsUse && !O.IsDef);
    }
  }
  // Spill VGPRs hold values for the whole kernel, whatever the lanes'
  // definitions and uses say.
  int Last = std::max(int(F.Insts.size()) - 1, 0);
  for (unsigned R = 0; R < NV; ++R)
    if (F.VRegs[R].WholeKernel && Iv.End[R] >= 0) {
      Iv.Start[R] = 0, Iv.End[R] = Last;
      Iv.StartsAtDef[R] = Iv.EndsAtUse[R] = 0;
    }
  return Iv;
}

Intervals computeIntervals(const MFunction &F) {
  return computeIntervals(F, computeLiveness(F));
}

/// What one linear scan found.
struct ScanResult {
  bool Ok = true;
  bool Vec = false;  ///< failed for lack of VGPRs (else SGPRs or slots).
  bool Slot = false; ///< failed for lack of spill slots.
  int Victim = -1;   ///< vreg to spill (of the failing file), or -1.
};

/// Whether SGPR spilling may pick \p R.
bool spillable(const VRegInfo &VI) {
  return !isVector(VI.Class) && VI.Fixed < 0 && !VI.SpillTemp;
}

/// Whether VGPR spilling may pick \p R.
bool spillableVGPR(const VRegInfo &VI) {
  return isVector(VI.Class) && VI.Fixed < 0 && !VI.SpillTemp &&
         !VI.WholeKernel && !VI.SpillSlot;
}

/// The register files the scan allocates from: VGPRs, SGPRs, spill slots.
enum RegFile { FileV, FileS, FileSlot, NumFiles };

RegFile fileOf(const VRegInfo &VI) {
  if (VI.SpillSlot)
    return FileSlot;
  return isVector(VI.Class) ? FileV : FileS;
}

/// Spill slots a kernel may use: 256 AGPRs, or 1024 scratch dwords per lane
/// (4 KiB, within GFX11's 13-bit signed scratch offsets).
unsigned maxSpillSlots(const MFunction &F) {
  return F.spillsToAGPRs() ? 256 : 1024;
}

/// Poletto-Sarkar linear scan with tuple alignment over the intervals \p Iv.
/// On failure, names the interval to spill: of the intervals of the failing
/// file live where the allocation failed (those assigned and the one being
/// allocated), the spillable one that ends furthest.
ScanResult linearScan(MFunction &F, const Intervals &Iv) {
  const std::vector<int> &Start = Iv.Start, &End = Iv.End;
  unsigned NV = unsigned(F.VRegs.size());
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
  unsigned Size[NumFiles] = {T.MaxVGPRs, T.MaxSGPRs, maxSpillSlots(F)};
  std::vector<int> Busy[NumFiles];
  // Per physical register: whether the interval that holds it last ends
  // at an instruction that only reads it, and where that interval's
  // registers begin and how many there are.
  std::vector<char> FreedAt[NumFiles];
  std::vector<int> FreedBase[NumFiles], FreedWidth[NumFiles];
  for (unsigned Fl = 0; Fl < NumFiles; ++Fl) {
    Busy[Fl].assign(Size[Fl], -1), FreedAt[Fl].assign(Size[Fl], 0);
    FreedBase[Fl].assign(Size[Fl], -1), FreedWidth[Fl].assign(Size[Fl], 0);
  }
  struct FixedIv {
    RegFile File;
    int Phys, Width, S, E;
  };
  std::vector<FixedIv> Fixed;
  for (unsigned R : Order)
    if (F.VRegs[R].Fixed >= 0)
      Fixed.push_back({fileOf(F.VRegs[R]), F.VRegs[R].Fixed,
                       int(regWidth(F.VRegs[R].Class)), Start[R], End[R]});
  std::vector<unsigned> Assigned[NumFiles]; // intervals allocated so far
  unsigned Max[NumFiles] = {0, 0, 0};
  for (unsigned R : Order) {
    VRegInfo &VI = F.VRegs[R];
    RegFile File = fileOf(VI);
    bool Vec = File != FileS;
    std::vector<int> &B = Busy[File];
    std::vector<char> &Fr = FreedAt[File];
    int W = int(regWidth(VI.Class));
    int Phys = VI.Fixed;
    std::vector<int> &FB = FreedBase[File], &FW = FreedWidth[File];
    // A result may take the registers of a source of the same width at the
    // instruction that reads it last: a 32-bit one always, a tuple only
    // the very same registers and from a VALU instruction (which reads its
    // sources before it writes; some 64-bit operations must not partially
    // overlap their sources, and a load's data must not land on its
    // address tuple).
    bool MayReuse =
        Iv.StartsAtDef[R] &&
        (W == 1 || F.Insts[unsigned(Start[R])].Kind == InstKind::VALU);
    if (Phys < 0) {
      int Align = W == 1 ? 1 : (!Vec && W == 4) ? 4 : 2;
      for (int P = 0; P + W <= int(B.size()); P += Align) {
        bool Free = true;
        for (int K = 0; K < W && Free; ++K)
          if (B[P + K] > Start[R] ||
              (B[P + K] == Start[R] &&
               !(MayReuse && Fr[P + K] && FB[P + K] == P && FW[P + K] == W)))
            Free = false;
        for (const FixedIv &FI : Fixed)
          if (Free && FI.File == File && FI.Phys < P + W &&
              P < FI.Phys + FI.Width && FI.S <= End[R] && Start[R] <= FI.E)
            Free = false;
        if (Free) {
          Phys = P;
          break;
        }
      }
      if (Phys < 0) {
        ScanResult Res;
        Res.Ok = false;
        Res.Vec = File == FileV;
        Res.Slot = File == FileSlot;
        if (File == FileSlot)
          return Res;
        auto Spillable = [&](unsigned A) {
          return File == FileV ? spillableVGPR(F.VRegs[A])
                               : spillable(F.VRegs[A]);
        };
        auto Better = [&](unsigned A, int Bv) {
          if (Bv < 0)
            return true;
          if (End[A] != End[unsigned(Bv)])
            return End[A] > End[unsigned(Bv)];
          return regWidth(F.VRegs[A].Class) >
                 regWidth(F.VRegs[unsigned(Bv)].Class);
        };
        if (Spillable(R))
          Res.Victim = int(R);
        for (unsigned A : Assigned[File])
          if (End[A] >= Start[R] && Spillable(A) && Better(A, Res.Victim))
            Res.Victim = int(A);
        return Res;
      }
    }
    VI.Phys = Phys;
    Assigned[File].push_back(R);
    for (int K = 0; K < W; ++K) {
      if (End[R] > B[Phys + K]) {
        Fr[Phys + K] = Iv.EndsAtUse[R];
        FB[Phys + K] = Phys, FW[Phys + K] = W;
      } else if (End[R] == B[Phys + K]) {
        Fr[Phys + K] = 0;
      }
      B[Phys + K] = std::max(B[Phys + K], End[R]);
    }
    Max[File] = std::max(Max[File], unsigned(Phys + W));
  }
  F.NumVGPRs = std::max(Max[FileV], 1u);
  F.NumSGPRs = Max[FileS];
  F.NumAGPRs = F.spillsToAGPRs() ? Max[FileSlot] : 0;
  F.ScratchBytes = F.spillsToAGPRs() ? 0 : 4 * Max[FileSlot];
  return {};
}

MInst laneInst(GCNOp Op, MOperand A, MOperand B, unsigned Lane) {
  MInst MI;
  MI.setOp(Op);
  MI.Ops = {A, B, MOperand::imm(Lane)};
  return MI;
}

} // namespace

void spillSGPRToLanes(MFunction &F, uint32_t R) {
  assert(spillable(F.VRegs[R]) && "precoloured or temporary SGPR spilled");
  RegClass C = F.VRegs[R].Class;
  unsigned W = regWidth(C);
  // One lane per 32-bit part; a tuple may straddle two spill VGPRs.
  struct Slot {
    uint32_t VGPR;
    unsigned Lane;
  };
  SmallVector<Slot, 4> Slots;
  for (unsigned K = 0; K < W; ++K) {
    unsigned G = F.NumSpilledSGPRs++;
    if (G / F.T->WaveSize >= F.SpillVGPRs.size()) {
      uint32_t V = F.newVReg(RegClass::V32);
      F.VRegs[V].WholeKernel = true;
      F.SpillVGPRs.push_back(V);
    }
    Slots.push_back({F.SpillVGPRs[G / F.T->WaveSize], G % F.T->WaveSize});
  }
  std::vector<MInst> Out;
  Out.reserve(F.Insts.size());
  // The temporary of the previous instruction (comments aside) when that
  // one touched R: it still holds R's value, so the next read needs no
  // v_readlane (an `if`'s s_and_saveexec and s_andn2 of its saved mask).
  uint32_t PrevTmp = 0;
  bool PrevValid = false;
  for (MInst &MI : F.Insts) {
    if (MI.Kind == InstKind::Comment) {
      Out.push_back(std::move(MI));
      continue;
    }
    bool Reads = false;
    unsigned Written = 0; // parts written
    for (const MOperand &O : MI.Ops) {
      if (O.K != MOperand::VReg || O.Reg != R)
        continue;
      // A partial write keeps the other parts: read them first.
      Reads |= O.IsUse || (O.IsDef && O.Sub >= 0);
      if (O.IsDef)
        Written |= O.partMask(W);
    }
    if (!Reads && !Written) {
      PrevValid = false;
      Out.push_back(std::move(MI));
      continue;
    }
    assert(!(Written && MI.Kind == InstKind::Branch) &&
           "a branch writes a spilled SGPR");
    // One temporary per instruction, so an operand that is both read and
    // written (and s_*_saveexec, which writes before it reads) keeps the
    // meaning it had with one register.
    bool Reuse = Reads && PrevValid;
    uint32_t Tmp = Reuse ? PrevTmp : F.newVReg(C);
    F.VRegs[Tmp].SpillTemp = true;
    PrevTmp = Tmp;
    PrevValid = MI.Kind != InstKind::Branch && MI.Kind != InstKind::Label &&
                !MI.is(GCNOp::S_ENDPGM);
    auto Part = [&](unsigned K) -> int8_t { return W == 1 ? -1 : int8_t(K); };
    if (Reads && !Reuse)
      for (unsigned K = 0; K < W; ++K)
        Out.push_back(laneInst(GCNOp::V_READLANE_B32, MOperand::def(Tmp, Part(K)),
                               MOperand::use(Slots[K].VGPR), Slots[K].Lane));
    for (MOperand &O : MI.Ops)
      if (O.K == MOperand::VReg && O.Reg == R)
        O.Reg = Tmp;
    Out.push_back(std::move(MI));
    for (unsigned K = 0; K < W; ++K) {
      if (!(Written >> K & 1))
        continue;
      MOperand Dst = MOperand::def(Slots[K].VGPR);
      Dst.IsUse = true; // the other lanes are kept
      Out.push_back(laneInst(GCNOp::V_WRITELANE_B32, Dst,
                             MOperand::use(Tmp, Part(K)), Slots[K].Lane));
    }
  }
  F.Insts = std::move(Out);
}

bool isCrossLane(const MInst &MI) {
  return MI.has(OF_CrossLane);
}

void spillVGPR(MFunction &F, uint32_t R) {
  assert(spillableVGPR(F.VRegs[R]) && "VGPR spill of a register that must stay");
  RegClass C = F.VRegs[R].Class;
  unsigned W = regWidth(C);
  SmallVector<uint32_t, 4> Slots;
  for (unsigned K = 0; K < W; ++K) {
    uint32_t S = F.newVReg(RegClass::V32);
    F.VRegs[S].SpillSlot = true;
    Slots.push_back(S);
  }
  F.NumSpilledVGPRs += W;
  const bool AGPR = F.spillsToAGPRs();
  GCNOp MovMask = F.T->WaveSize == 64 ? GCNOp::S_MOV_B64 : GCNOp::S_MOV_B32;
  auto Part = [&](unsigned K) -> int8_t { return W == 1 ? -1 : int8_t(K); };
  auto Load = [&](uint32_t Tmp, unsigned K) {
    MInst MI;
    if (AGPR) {
      MI.setOp(GCNOp::V_ACCVGPR_READ_B32);
      MI.Ops = {MOperand::def(Tmp, Part(K)), MOperand::use(Slots[K])};
    } else {
      MI.setOp(GCNOp::SCRATCH_LOAD_B32);
      MI.Ops = {MOperand::def(Tmp, Part(K)), MOperand::text("off"),
                MOperand::use(Slots[K])};
    }
    return MI;
  };
  auto Store = [&](uint32_t Tmp, unsigned K) {
    MInst MI;
    if (AGPR) {
      MI.setOp(GCNOp::V_ACCVGPR_WRITE_B32);
      MI.Ops = {MOperand::def(Slots[K]), MOperand::use(Tmp, Part(K))};
    } else {
      MI.setOp(GCNOp::SCRATCH_STORE_B32);
      MI.Ops = {MOperand::text("off"), MOperand::use(Tmp, Part(K)),
                MOperand::def(Slots[K])};
    }
    return MI;
  };
  auto Mov = [&](MOperand D, MOperand S) {
    MInst MI;
    MI.setOp(MovMask);
    MI.Ops = {D, S};
    return MI;
  };
  // Appends \p Seq to \p Out, with every lane enabled when \p WholeWave:
  // EXEC is saved in a temporary SGPR and restored with s_mov, which (unlike
  // s_or_saveexec) leaves SCC alone.
  auto Append = [&](std::vector<MInst> &Out, SmallVectorImpl<MInst> &Seq,
                    bool WholeWave) {
    uint32_t Save = 0;
    if (WholeWave) {
      Save = F.newVReg(F.maskClass());
      F.VRegs[Save].SpillTemp = true;
      Out.push_back(Mov(MOperand::def(Save),
                        MOperand::hw(HwReg::Exec, false, true)));
      Out.push_back(Mov(MOperand::hw(HwReg::Exec, true, false),
                        MOperand::imm(-1)));
    }
    for (MInst &MI : Seq)
      Out.push_back(std::move(MI));
    if (WholeWave)
      Out.push_back(Mov(MOperand::hw(HwReg::Exec, true, false),
                        MOperand::use(Save)));
  };
  auto WritesExec = [](const MInst &MI) {
    return llvm::any_of(MI.Ops, [](const MOperand &O) {
      return O.K == MOperand::Hw && O.H == HwReg::Exec && O.IsDef;
    });
  };
  std::vector<MInst> Out;
  Out.reserve(F.Insts.size());
  // The temporary of the previous instruction (comments aside) when that
  // one touched R, under the same EXEC: it still holds R's active lanes, so
  // the next read needs no load.
  uint32_t PrevTmp = 0;
  bool PrevValid = false;
  for (MInst &MI : F.Insts) {
    if (MI.Kind == InstKind::Comment) {
      Out.push_back(std::move(MI));
      continue;
    }
    bool Reads = false;
    unsigned Written = 0; // parts written
    for (const MOperand &O : MI.Ops) {
      if (O.K != MOperand::VReg || O.Reg != R)
        continue;
      // A partial write keeps the other parts: load them first, so the
      // temporary is whole.
      Reads |= O.IsUse || (O.IsDef && O.Sub >= 0);
      if (O.IsDef)
        Written |= O.partMask(W);
    }
    if (!Reads && !Written) {
      PrevValid = false;
      Out.push_back(std::move(MI));
      continue;
    }
    // Lanes outside EXEC are read or written: load and store every lane.
    bool Cross = isCrossLane(MI);
    bool Reuse = Reads && PrevValid && !Cross;
    uint32_t Tmp = Reuse ? PrevTmp : F.newVReg(C);
    F.VRegs[Tmp].SpillTemp = true;
    PrevTmp = Tmp;
    PrevValid = !Cross && !WritesExec(MI) && MI.Kind != InstKind::Branch &&
                MI.Kind != InstKind::Label && !MI.is(GCNOp::S_ENDPGM);
    if (Reads && !Reuse) {
      SmallVector<MInst, 4> Seq;
      for (unsigned K = 0; K < W; ++K)
        Seq.push_back(Load(Tmp, K));
      Append(Out, Seq, Cross);
    }
    for (MOperand &O : MI.Ops)
      if (O.K == MOperand::VReg && O.Reg == R)
        O.Reg = Tmp;
    Out.push_back(std::move(MI));
    if (Written) {
      SmallVector<MInst, 4> Seq;
      for (unsigned K = 0; K < W; ++K)
        if (Written >> K & 1)
          Seq.push_back(Store(Tmp, K));
      Append(Out, Seq, Cross);
    }
  }
  F.Insts = std::move(Out);
}

namespace {

/// Whether \p VI may be merged with another virtual register: an ordinary
/// one (not precoloured, not made by spilling).
bool coalescable(const VRegInfo &VI) {
  return VI.Fixed < 0 && !VI.SpillTemp && !VI.WholeKernel && !VI.SpillSlot;
}

} // namespace

void coalesceInPlace(MFunction &F) {
  // Liveness does not see lanes: a VGPR written where EXEC was widened (a
  // whole-wave window, from `s_or_saveexec -1` or `s_mov exec, -1` to the
  // next EXEC write) or by a lane write may clobber lanes another value
  // holds (a then-part's scan and the web it ends in), so such registers
  // keep their own.
  BitVector Wide(F.VRegs.size());
  bool InWindow = false;
  for (const MInst &MI : F.Insts) {
    bool LaneWrite = MI.is(GCNOp::V_WRITELANE_B32);
    for (const MOperand &O : MI.Ops)
      if (O.K == MOperand::VReg && O.IsDef && (InWindow || LaneWrite))
        Wide.set(O.Reg);
    if (writesExec(MI))
      InWindow = llvm::any_of(MI.Ops, [](const MOperand &O) {
        return O.K == MOperand::Imm && O.Value == -1;
      });
  }
  auto Ok = [&](uint32_t R) {
    return coalescable(F.VRegs[R]) &&
           !(isVector(F.VRegs[R].Class) && Wide.test(R));
  };
  for (unsigned Round = 0; Round < 16; ++Round) {
    // Liveness does not see lanes either where EXEC changes: a definition
    // under a narrower EXEC keeps other lanes' values the liveness counts
    // as dead. So the two must live where EXEC stays what it is: no EXEC
    // write from the first position either occurs at to the last, and no
    // branch from outside that stretch into it.
    std::vector<Block> Blocks = computeLiveness(F);
    Intervals Iv = computeIntervals(F, Blocks);
    std::vector<unsigned> ExecWrites(F.Insts.size() + 1, 0);
    DenseMap<int64_t, std::pair<unsigned, unsigned>> BranchesTo; // min, max
    for (unsigned I = 0; I < F.Insts.size(); ++I) {
      const MInst &MI = F.Insts[I];
      ExecWrites[I + 1] = ExecWrites[I] + writesExec(MI);
      if (MI.Kind == InstKind::Branch && !MI.Ops.empty() &&
          MI.Ops[0].K == MOperand::Label) {
        auto [It, New] = BranchesTo.try_emplace(MI.Ops[0].Value, I, I);
        It->second.first = std::min(It->second.first, I);
        It->second.second = std::max(It->second.second, I);
      }
    }
    auto SameExec = [&](uint32_t A, uint32_t B) {
      int Lo = std::min(Iv.Start[A], Iv.Start[B]);
      int Hi = std::max(Iv.End[A], Iv.End[B]);
      if (Lo < 0 || Hi < Lo || ExecWrites[Hi + 1] != ExecWrites[Lo])
        return false;
      for (int J = Lo + 1; J <= Hi; ++J) {
        const MInst &MI = F.Insts[J];
        if (MI.Kind != InstKind::Label)
          continue;
        auto It = BranchesTo.find(MI.Ops[0].Value);
        if (It != BranchesTo.end() &&
            (int(It->second.first) < Lo || int(It->second.second) > Hi))
          return false;
      }
      return true;
    };
    // Candidates: an ALU instruction I writing D whole (not merging) and
    // reading C whole, both of one class.
    struct Cand {
      unsigned I;
      uint32_t C, D;
      bool Bad = false;
    };
    std::vector<Cand> Cands;
    DenseMap<uint32_t, SmallVector<unsigned, 2>> Of; // vreg -> candidates
    for (unsigned I = 0; I < F.Insts.size(); ++I) {
      const MInst &MI = F.Insts[I];
      if ((MI.Kind != InstKind::VALU && MI.Kind != InstKind::SALU) ||
          MI.has(OF_DefEXEC) || MI.Ops.empty())
        continue;
      const MOperand &Dst = MI.Ops[0];
      if (Dst.K != MOperand::VReg || !Dst.IsDef || Dst.IsUse || Dst.Sub >= 0 ||
          !Ok(Dst.Reg))
        continue;
      for (unsigned K = 1; K < MI.Ops.size(); ++K) {
        const MOperand &Src = MI.Ops[K];
        if (Src.K != MOperand::VReg || !Src.IsUse || Src.IsDef ||
            Src.Sub >= 0 || Src.Reg == Dst.Reg ||
            F.VRegs[Src.Reg].Class != F.VRegs[Dst.Reg].Class ||
            !Ok(Src.Reg))
          continue;
        if (!SameExec(Src.Reg, Dst.Reg))
          continue;
        Of[Src.Reg].push_back(unsigned(Cands.size()));
        Of[Dst.Reg].push_back(unsigned(Cands.size()));
        Cands.push_back({I, Src.Reg, Dst.Reg});
        break;
      }
    }
    if (Cands.empty())
      return;
    // Chaitin's test: C and D interfere where one is written while the
    // other is live after the write (at I itself, C must die).
    for (const Block &B : Blocks) {
      BitVector Live = B.LiveOut;
      for (unsigned J = B.End; J-- > B.Begin;) {
        const MInst &MI = F.Insts[J];
        for (const MOperand &O : MI.Ops) {
          if (O.K != MOperand::VReg || !O.IsDef)
            continue;
          auto It = Of.find(O.Reg);
          if (It == Of.end())
            continue;
          for (unsigned CI : It->second) {
            Cand &Cd = Cands[CI];
            uint32_t Other = O.Reg == Cd.C ? Cd.D : Cd.C;
            if (Live.test(Other))
              Cd.Bad = true;
          }
        }
        for (const MOperand &O : MI.Ops)
          if (O.K == MOperand::VReg && O.IsDef && !O.IsUse && O.Sub < 0)
            Live.reset(O.Reg);
        for (const MOperand &O : MI.Ops)
          if (O.K == MOperand::VReg && O.IsUse)
            Live.set(O.Reg);
      }
    }
    // Merge the good ones, each register once a round (a merge changes
    // the liveness the next one was tested against).
    DenseMap<uint32_t, uint32_t> Rename;
    DenseSet<uint32_t> Taken;
    for (const Cand &Cd : Cands)
      if (!Cd.Bad && !Taken.count(Cd.C) && !Taken.count(Cd.D)) {
        Taken.insert(Cd.C), Taken.insert(Cd.D);
        Rename[Cd.D] = Cd.C;
      }
    if (Rename.empty())
      return;
    for (MInst &MI : F.Insts)
      for (MOperand &O : MI.Ops)
        if (O.K == MOperand::VReg)
          if (auto It = Rename.find(O.Reg); It != Rename.end())
            O.Reg = It->second;
  }
}

Error allocateRegisters(MFunction &F) {
  coalesceInPlace(F);
  // Each round spills one value; a kernel that still does not fit after
  // this many has a point where no spill helps.
  size_t Rounds = 0, MaxRounds = 4 * F.VRegs.size() + 1000;
  for (;; ++Rounds) {
    for (VRegInfo &VI : F.VRegs)
      VI.Phys = -1;
    ScanResult Res = linearScan(F, computeIntervals(F));
    if (Res.Ok)
      return Error::success();
    if (Res.Slot)
      return createStringError(
          inconvertibleErrorCode(),
          "the kernel needs more than %u spill slots (%s) at one instruction",
          maxSpillSlots(F), F.spillsToAGPRs() ? "AGPRs" : "scratch dwords");
    if (Res.Victim < 0 || Rounds >= MaxRounds) {
      if (Res.Vec)
        return createStringError(
            inconvertibleErrorCode(),
            "the kernel needs more than %u VGPRs at one instruction, even "
            "with every other VGPR spilled",
            F.T->MaxVGPRs);
      return createStringError(
          inconvertibleErrorCode(),
          "the kernel needs more than %u SGPRs at one instruction, even with "
          "every other SGPR spilled",
          F.T->MaxSGPRs);
    }
    if (Res.Vec)
      spillVGPR(F, uint32_t(Res.Victim));
    else
      spillSGPRToLanes(F, uint32_t(Res.Victim));
  }
}

} // namespace wave::amdgcn
