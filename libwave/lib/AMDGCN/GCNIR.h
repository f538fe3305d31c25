//===- GCNIR.h - The AMDGCN stage's machine IR ------------------*- C++ -*-===//
//
// A flat list of AMDGCN instructions over virtual registers (WaveASM's
// "SSA-close IR of target instructions"). Mnemonics are already spelled for
// the target (GCNTarget); labels are pseudo-instructions; operands say
// whether they are read or written; each instruction's facts (kind,
// implicit SCC/VCC/EXEC, hazard classes) come from GCNOps.def. Lowering
// (Lowering.h, its stage files and Translate.cpp) produces it, the peephole
// (Peephole.cpp), scoped CSE and fusion (Combine.cpp), constant-bus
// legalization (ConstantBus.cpp), register allocation and spilling
// (RegAlloc.cpp), wait counts and hazards (PostRA.cpp) rewrite it, and
// Emitter.cpp prints it.
//
//===----------------------------------------------------------------------===//
#ifndef WAVE_LIB_AMDGCN_GCNIR_H
#define WAVE_LIB_AMDGCN_GCNIR_H

#include "wave/AMDGCN/Target.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <iterator>
#include <string>
#include <vector>

namespace wave::amdgcn {

/// Register classes: VGPRs (per lane) and SGPRs (per wave), in tuples of 1,
/// 2 or 4 registers. A lane mask is S64 on wave64 targets, S32 on wave32.
enum class RegClass : uint8_t { V32, V64, V128, S32, S64, S128 };

inline bool isVector(RegClass C) {
  return C == RegClass::V32 || C == RegClass::V64 || C == RegClass::V128;
}
inline unsigned regWidth(RegClass C) {
  switch (C) {
  case RegClass::V32:
  case RegClass::S32:
    return 1;
  case RegClass::V64:
  case RegClass::S64:
    return 2;
  default:
    return 4;
  }
}

/// Hardware registers with names of their own.
enum class HwReg : uint8_t { Exec, Vcc, Scc, M0, Null };

/// One operand.
struct MOperand {
  enum Kind : uint8_t { VReg, Hw, Imm, Label, Text } K = Imm;
  bool IsDef = false;   ///< written by the instruction.
  bool IsUse = false;   ///< read by the instruction.
  bool Neg = false;     ///< printed as `-x` (VOP3 source negation).
  int8_t Sub = -1;      ///< 32-bit part of a tuple register, or -1 = whole.
  /// With Sub >= 0: how many consecutive 32-bit parts from Sub (2: a pair
  /// inside a quad, as a 64-bit operand).
  int8_t Parts = 1;
  uint32_t Reg = 0;     ///< VReg: virtual register number.
  HwReg H = HwReg::Exec;
  int64_t Value = 0;    ///< Imm: the value; Label: label number.
  std::string Str;      ///< Text: printed verbatim.

  /// The parts of a register of \p Width parts this operand names.
  unsigned partMask(unsigned Width) const {
    return Sub < 0 ? (1u << Width) - 1 : ((1u << Parts) - 1) << Sub;
  }
  static MOperand def(uint32_t R, int8_t Sub = -1) {
    MOperand O;
    O.K = VReg, O.Reg = R, O.IsDef = true, O.Sub = Sub;
    return O;
  }
  static MOperand use(uint32_t R, int8_t Sub = -1) {
    MOperand O;
    O.K = VReg, O.Reg = R, O.IsUse = true, O.Sub = Sub;
    return O;
  }
  static MOperand imm(int64_t V) {
    MOperand O;
    O.K = Imm, O.Value = V, O.IsUse = true;
    return O;
  }
  static MOperand hw(HwReg R, bool Def, bool Use) {
    MOperand O;
    O.K = Hw, O.H = R, O.IsDef = Def, O.IsUse = Use;
    return O;
  }
  static MOperand label(unsigned L) {
    MOperand O;
    O.K = Label, O.Value = L;
    return O;
  }
  static MOperand text(std::string S) {
    MOperand O;
    O.K = Text, O.Str = std::move(S);
    return O;
  }
};

/// What an instruction is, for the passes (GCNOps.def's Kind column).
enum class InstKind : uint8_t {
  Label,  ///< pseudo: Ops[0] is the label.
  Comment, ///< pseudo: Text is printed as a comment.
  SALU,
  VALU,
  SMEM,   ///< s_load_*: lgkmcnt (kmcnt on GFX12), out of order.
  VMEMLoad,  ///< global_load_*, returning global atomics.
  VMEMStore, ///< global_store_*, non-returning global atomics.
  DS,     ///< ds_*: lgkmcnt (dscnt on GFX12), in order.
  Branch, ///< s_branch / s_cbranch_*: Ops[0] is the target label.
  Wait,   ///< s_waitcnt and friends (inserted by the wait-count pass).
  Other,  ///< s_endpgm, s_barrier, cache control, s_nop.
};

/// Encoding families (AMD ISA guides "Microcode Formats"), GCNOps.def's
/// Enc column.
enum class GCNEnc : uint8_t {
  SOP1, SOP2, SOPC, SOPK, SOPP, SMEM,
  VOP1, VOP2, VOP3, VOP3P, DPP,
  DS, GLOBAL, SCRATCH, MUBUF,
  Pseudo, ///< wait_all, and GCNOp::None.
};

/// Implicit operands and instruction classes, GCNOps.def's Flags column
/// (the file's header says what each means).
enum GCNOpFlag : uint32_t {
  OF_None = 0,
  OF_DefSCC = 1u << 0,
  OF_UseSCC = 1u << 1,
  OF_UseVCC = 1u << 2,
  OF_DefEXEC = 1u << 3,
  OF_UseEXEC = 1u << 4,
  OF_Trans = 1u << 5,
  OF_ShortLit = 1u << 6,
  OF_Lane = 1u << 7,
  OF_ReadLane = 1u << 8,
  OF_CrossLane = 1u << 9,
  OF_Atomic = 1u << 10,
};

/// The machine instructions of GCNOps.def. None: labels, comments, and
/// instructions unit tests make up.
enum class GCNOp : uint16_t {
  None,
#define GCN_OP(Enum, Spelling, Enc, Kind, Flags) Enum,
#include "GCNOps.def"
  NumOps
};

/// One row of GCNOps.def.
struct GCNOpInfo {
  const char *Spelling;
  GCNEnc Enc;
  InstKind Kind;
  uint32_t Flags;
};

inline constexpr GCNOpInfo GCNOpTable[] = {
    {"", GCNEnc::Pseudo, InstKind::Other, OF_None},
#define GCN_OP(Enum, Spelling, Enc, Kind, Flags)                                \
  {Spelling, GCNEnc::Enc, InstKind::Kind, Flags},
#include "GCNOps.def"
};
static_assert(std::size(GCNOpTable) == size_t(GCNOp::NumOps));

inline const GCNOpInfo &opInfo(GCNOp Op) { return GCNOpTable[size_t(Op)]; }

/// The row spelled \p Spelling, or GCNOp::None.
GCNOp lookupGCNOp(llvm::StringRef Spelling);

/// One instruction.
struct MInst {
  InstKind Kind = InstKind::Other;
  GCNOp Opc = GCNOp::None;
  /// The mnemonic as printed: opInfo(Opc).Spelling (or, with GCNOp::None,
  /// whatever a unit test names its pseudo-instructions).
  std::string Op;
  llvm::SmallVector<MOperand, 6> Ops;
  std::string Suffix;  ///< modifiers printed after the operands (" sc0").
  std::string Comment; ///< `; ...` after the instruction, or the comment text.

  /// Makes this a \p O, of the kind its row gives.
  void setOp(GCNOp O) {
    Opc = O;
    Op = opInfo(O).Spelling;
    Kind = opInfo(O).Kind;
  }
  /// setOp of the row spelled \p Spelling; without one, Opc is None and
  /// the spelling is kept (unit tests' pseudo-instructions).
  void setOp(llvm::StringRef Spelling) {
    setOp(lookupGCNOp(Spelling));
    Op = Spelling.str();
  }
  bool is(GCNOp O) const { return Opc == O; }
  bool has(GCNOpFlag F) const { return opInfo(Opc).Flags & F; }
  GCNEnc enc() const { return opInfo(Opc).Enc; }
  bool writesSCC() const { return has(OF_DefSCC); }
  bool readsSCC() const { return has(OF_UseSCC); }
  bool readsVCC() const { return has(OF_UseVCC); } ///< implicitly (v_div_fmas).
};

/// Whether \p MI is a plain register copy or immediate move (`s_mov_b32`,
/// `s_mov_b64`, `v_mov_b32`; not the DPP or exec-writing forms).
inline bool isMov(const MInst &MI) {
  return MI.is(GCNOp::S_MOV_B32) || MI.is(GCNOp::V_MOV_B32) ||
         MI.is(GCNOp::S_MOV_B64);
}

/// A virtual register.
struct VRegInfo {
  RegClass Class = RegClass::V32;
  int Fixed = -1;    ///< precoloured physical register number, or -1.
  int Phys = -1;     ///< assigned physical register number (first of tuple).
  /// A short-lived register that register allocation made to carry a
  /// spilled value between its spill slot and one instruction (an SGPR
  /// between a spill VGPR lane and the instruction, a VGPR between an AGPR
  /// or scratch slot and the instruction, or an SGPR holding EXEC around a
  /// whole-wave spill access); never spilled.
  bool SpillTemp = false;
  /// A VGPR whose lanes hold spilled SGPRs: live over the whole kernel.
  bool WholeKernel = false;
  /// A 32-bit spill slot of a spilled VGPR (class V32): an AGPR on targets
  /// with a unified VGPR/AGPR file (GCNTarget::HasAccumOffset), else a
  /// dword of the private segment. Slots are allocated by the same linear
  /// scan from their own file, so slots of values never live at once share.
  /// Printed as `aN`, or as the `off offset:N` address of scratch_*.
  bool SpillSlot = false;
  /// For an input register no instruction writes (precoloured by the
  /// dispatch): a bound N such that its value is below 2^N in every active
  /// lane (computeValueBits); 32 when nothing is known.
  uint8_t InputBits = 32;
};

/// One kernel being translated.
struct MFunction {
  const GCNTarget *T = nullptr;
  std::string Name;
  std::vector<MInst> Insts;
  std::vector<VRegInfo> VRegs;
  unsigned NumLabels = 0;

  uint32_t newVReg(RegClass C, int Fixed = -1) {
    VRegs.push_back({C, Fixed, -1});
    return uint32_t(VRegs.size() - 1);
  }
  unsigned newLabel() { return NumLabels++; }
  RegClass maskClass() const {
    return T->WaveSize == 64 ? RegClass::S64 : RegClass::S32;
  }

  // Results of register allocation, for the kernel descriptor.
  unsigned NumVGPRs = 0; ///< 1 + highest VGPR used (spill VGPRs included).
  unsigned NumSGPRs = 0; ///< 1 + highest SGPR used (VCC not included).
  bool UsesVCC = false;

  // SGPR spilling (allocateRegisters): the VGPRs whose lanes hold spilled
  // SGPRs, and how many lanes (32-bit SGPRs) have been handed out.
  std::vector<uint32_t> SpillVGPRs;
  unsigned NumSpilledSGPRs = 0;

  // VGPR spilling (allocateRegisters): 32-bit parts of VGPR values spilled
  // (`.vgpr_spill_count`), AGPRs their slots use (gfx90a/942/950), and
  // private segment bytes per lane their slots use (RDNA).
  unsigned NumSpilledVGPRs = 0;
  unsigned NumAGPRs = 0;
  unsigned ScratchBytes = 0;
  /// Whether VGPRs spill to AGPRs (else to scratch).
  bool spillsToAGPRs() const { return T->HasAccumOffset; }
};

/// A basic block of an MFunction: instructions [Begin, End), split at
/// labels and after branches and s_endpgm.
struct CFGBlock {
  unsigned Begin, End;
  llvm::SmallVector<unsigned, 2> Succs; ///< block indices.
};

/// The blocks of \p F in layout order; block 0 is the entry. A branch to a
/// label \p F does not define has no successor for it.
std::vector<CFGBlock> buildCFG(const MFunction &F);

/// Register allocation: liveness over the control-flow graph of labels and
/// branches, then linear scan of VGPRs and SGPRs with tuple alignment. Fills
/// VRegInfo::Phys and MFunction::NumVGPRs/NumSGPRs.
///
/// When no SGPR (tuple) is free, the live SGPR interval that ends furthest
/// (Poletto-Sarkar; never a precoloured register or a spill temporary) is
/// spilled to lanes of a spill VGPR (spillSGPRToLanes); when no VGPR is
/// free, the live VGPR interval that ends furthest (never precoloured, a
/// spill temporary or a spill VGPR of SGPR lanes) is spilled to AGPRs or
/// scratch (spillVGPR). Allocation then starts again, until everything
/// fits. Fails with a message when the kernel needs more registers at one
/// instruction than spilling can free.
llvm::Error allocateRegisters(MFunction &F);

/// Register coalescing of in-place updates, before allocation: where an
/// ALU instruction writes virtual register D whole and reads C whole, both
/// of one class and neither precoloured nor made by spilling, and the two
/// never interfere (Chaitin: neither is written while the other is live
/// after the write; C dies at the instruction), and EXEC stays what it is
/// wherever either lives (no EXEC write from the first position of either
/// to the last, no branch into that stretch from outside: liveness does not
/// see lanes, and a definition under a narrower EXEC keeps the other
/// lanes' values), D becomes C. A loop's
/// chain of accumulations (`acc = fma(a, b, acc)` four times, each result a
/// web of its own) then stays in the accumulator's register, which linear
/// scan over hole-less intervals could not otherwise reuse. Repeated until
/// nothing merges; each register merges once a round, against liveness
/// recomputed after the round.
void coalesceInPlace(MFunction &F);

/// Spills VGPR virtual register \p R (not precoloured, not a spill
/// temporary, not a spill VGPR of SGPR lanes) to new spill slots, one per
/// 32-bit part (MFunction::spillsToAGPRs: AGPRs, else private segment
/// dwords): every instruction that reads \p R, or writes only part of it,
/// first loads it into a new temporary (`v_accvgpr_read_b32`,
/// `scratch_load_b32`); every instruction that writes it writes the
/// temporary instead, which `v_accvgpr_write_b32` or `scratch_store_b32`
/// then stores. The loads and stores run under the instruction's own EXEC,
/// so a slot's inactive lanes keep their values as the register's would;
/// around an instruction that reads or writes lanes outside EXEC
/// (v_readlane, v_writelane, DPP, permutes) they run with every lane
/// enabled, EXEC saved and restored with s_mov (SCC is left alone).
void spillVGPR(MFunction &F, uint32_t R);

/// Whether \p MI reads or writes VGPR lanes that EXEC does not enable:
/// v_readlane/v_writelane, DPP, ds_permute/ds_bpermute, v_permlane*.
bool isCrossLane(const MInst &MI);

/// Spills SGPR virtual register \p R (not precoloured, not a spill
/// temporary) to lanes of \p F's spill VGPRs, one lane per 32-bit part
/// (making a new spill VGPR when the last one's lanes are used up): every
/// instruction that reads \p R, or writes only part of it, first copies it
/// into a new temporary with `v_readlane_b32`; every instruction that writes
/// it writes the temporary instead, which `v_writelane_b32` then stores.
/// Lane accesses ignore EXEC and leave SCC alone, so this is correct under
/// any EXEC mask and between an SCC write and its read.
void spillSGPRToLanes(MFunction &F, uint32_t R);

/// Removes `mov` instructions whose source and destination got the same
/// physical register. Needs physical registers.
void removeIdentityCopies(MFunction &F);

/// Inserts s_waitcnt (s_wait_* on GFX12) before the first read or write of
/// a register an outstanding memory operation writes, and where \p F marks
/// full waits (`s_waitcnt` pseudo "wait_all"). Needs physical registers.
void insertWaitCounts(MFunction &F);

/// Inserts the waits the target's hazard rules ask for (GCNTarget "Hazard
/// rules"): s_nop wait states on GFX9, s_waitcnt_depctr on GFX11 and
/// s_wait_alu on GFX12, over the control-flow graph. Needs physical
/// registers.
void mitigateHazards(MFunction &F);

/// Rewrites \p MI, whose first operand is its one result, into `mov
/// result, Src`: v_mov_b32 for a VALU instruction, else s_mov_b32.
inline void toMov(MInst &MI, MOperand Src) {
  bool Vector = MI.Kind == InstKind::VALU;
  MOperand Dst = MI.Ops[0];
  MI.setOp(Vector ? GCNOp::V_MOV_B32 : GCNOp::S_MOV_B32);
  MI.Ops.clear();
  MI.Ops.push_back(Dst);
  MI.Ops.push_back(Src);
}

/// Turns \p MI into an empty comment without operands: how the passes on
/// the virtual-register IR delete an instruction while they still index
/// F.Insts, dropping the empty comments at their end.
inline void eraseInst(MInst &MI) {
  MI.setOp(GCNOp::None);
  MI.Kind = InstKind::Comment;
  MI.Comment.clear();
  MI.Ops.clear();
}

/// Removes the instructions eraseInst emptied.
inline void dropErased(MFunction &F) {
  llvm::erase_if(F.Insts, [](const MInst &MI) {
    return MI.Kind == InstKind::Comment && MI.Comment.empty() &&
           MI.Opc == GCNOp::None && MI.Ops.empty();
  });
}

/// Whether \p MI writes EXEC, as an operand or implicitly (saveexec).
inline bool writesExec(const MInst &MI) {
  for (const MOperand &O : MI.Ops)
    if (O.K == MOperand::Hw && O.H == HwReg::Exec && O.IsDef)
      return true;
  return MI.has(OF_DefEXEC);
}

/// How often each virtual register is written and read (an operand that is
/// both, as in a merging definition, counts as both), and the index into
/// MFunction::Insts of its last definition (-1: none). Indexed by vreg.
struct VRegCounts {
  std::vector<unsigned> Defs, Uses;
  std::vector<int> DefAt;
};

/// Counts the definitions and uses of every virtual register of \p F.
inline VRegCounts countDefsAndUses(const MFunction &F) {
  VRegCounts C;
  C.Defs.assign(F.VRegs.size(), 0);
  C.Uses.assign(F.VRegs.size(), 0);
  C.DefAt.assign(F.VRegs.size(), -1);
  for (unsigned I = 0; I < F.Insts.size(); ++I)
    for (const MOperand &O : F.Insts[I].Ops) {
      if (O.K != MOperand::VReg)
        continue;
      if (O.IsDef) {
        ++C.Defs[O.Reg];
        C.DefAt[O.Reg] = int(I);
      }
      if (O.IsUse)
        ++C.Uses[O.Reg];
    }
  return C;
}

/// Copy propagation, identity elimination and strength reduction on the
/// virtual-register IR (before allocation).
void runPeephole(MFunction &F);

/// Branch clean-up, the last step of runPeephole: drops a branch to the
/// place it falls through to (over labels and comments), and folds
/// `s_cbranch_X A; s_branch B; A:` into `s_cbranch_notX B; A:` where no
/// branch targets the `s_branch` (SCC and EXEC conditions).
void simplifyBranches(MFunction &F);

/// The immediate dominator of every block of \p Blocks (buildCFG), block 0
/// its own; -1 for blocks the entry does not reach (Cooper, Harvey and
/// Kennedy, "A Simple, Fast Dominance Algorithm").
std::vector<int> computeIdoms(const std::vector<CFGBlock> &Blocks);

/// Known-bits analysis of the virtual-register IR: for every 32-bit
/// register, a bound N (0..32) such that every value its definitions write
/// is below 2^N in the lanes they write (32: nothing known); an input no
/// instruction writes gets VRegInfo::InputBits. A register gets a bound
/// below 32 when each of its definitions is a whole-register one by an
/// instruction the analysis knows (masks, bit-field extracts, right
/// shifts, narrow loads, lane counts, immediates, and the sums, products
/// and selects of bounded values). Definitions of one register on several
/// paths (a loop counter halved each trip) are solved together, as the
/// least fixed point from "below 2^0" upwards (every transfer function is
/// monotone), so `m = 32; loop { m >>= 1 }` gets 6 bits.
std::vector<uint8_t> computeValueBits(const MFunction &F);

/// Compares the operands' known bits decide (computeValueBits), after the
/// peephole: `s_cmp_lt_u32 X, K` with X below 2^N <= K sets SCC, so its
/// `s_cselect` readers become moves and its branches unconditional or
/// gone; `v_cmp_gt_u32_e64 M, K, X` likewise sets M in every active lane,
/// and a `v_cndmask_b32_e64 D, A, B, M` under the same EXEC, or under any
/// EXEC with M = -1, becomes `v_mov_b32 D, B`. (A shuffle's bounds check
/// of a lane index or xor mask below the wave size is the common case,
/// formats/isa.md §4.14.) A compare of a register with itself (`s_cmp_eq`
/// r, r: a structurizer's "true" flag) or of two immediates is decided the
/// same way; a `v_cndmask_b32_e64` whose mask is `s_mov 0` becomes a move
/// of its first value; `v_ashrrev_i32 D, 31, X` with X below 2^31 (the
/// sign of a division by 2^k's dividend) becomes `v_mov D, 0`. A
/// predicate written under EXEC, `s_andn2 T, P, exec; s_or D, T, M`, is
/// `s_or D, P, exec` where M is a copy of the same EXEC and `s_andn2 D, P,
/// exec` where M is 0. A mask made 0/1 and compared back, `v_cmp_ne_u32 D,
/// X, 0` with X = `v_cndmask_b32 X, 0, 1, M` (or an or/and of two such),
/// is `s_and D, M, exec` (of `s_or`/`s_and M1, M2`). Returns whether
/// anything changed.
bool runRangeFold(MFunction &F);

/// Constant parts of LDS addresses into the instruction's 16-bit offset
/// (after the peephole): `v_add A, X, K; ds_* A` becomes `ds_* X
/// offset:K`, and `s_add S, X, K; v_mov A, S; ds_* A` becomes `v_mov A,
/// X; ds_* A offset:K`, where the add's result has no other use, X has
/// one definition and is below 2^31 (computeValueBits: the 32-bit add
/// cannot wrap, so X + K is the same address; LLVM's rule too), and the
/// offsets sum to at most 65535. Not the ds_read2/ds_write2 forms or the
/// lane permutes. Returns whether anything changed.
bool runDSOffsetFold(MFunction &F);

/// Kernel-argument loads merged (after CSE and fusion, which want whole
/// single-definition registers): the entry block's `s_load_dword`s of
/// neighbouring offsets through the kernarg pointer become one
/// `s_load_dwordx4` (four) or `s_load_dwordx2` (two), and their values the
/// parts of its register tuple (LLVM's SILoadStoreOptimizer does the same
/// for scalar loads).
void runKernargMerge(MFunction &F);

/// Scoped common-subexpression elimination on the virtual-register IR
/// (after runPeephole): an SALU or VALU instruction, or a kernel-argument
/// load, that repeats one that dominates it (same opcode, operands and
/// modifiers; every register it reads defined once, by an instruction that
/// dominates the first) is removed and its result renamed to the first
/// one's. VALU results are reused only where EXEC cannot have changed in
/// between (no EXEC write on any path from one to the other); lane
/// accesses, DPP, instructions reading EXEC, VCC or SCC, memory accesses
/// other than kernel-argument loads, and instructions whose SCC write is
/// read are never removed.
void runCSE(MFunction &F);

/// Fuses pairs of integer instructions in one block whose intermediate
/// value has no other use: a left shift then an add become
/// `v_lshl_add_u32` (a scalar shift by 1..4 then a scalar add,
/// `s_lshl<n>_add_u32`), an add then a left shift `v_add_lshl_u32`, a
/// 32-bit multiply of operands below 2^24 (computeValueBits) then an add
/// `v_mad_u32_u24`. Never across an EXEC write, a redefinition of an
/// operand, or (for the scalar forms) a read of SCC; never where the fused
/// VOP3 form would exceed the constant bus or need a literal the target's
/// VOP3 encoding does not take. Floating-point operations are never fused:
/// WAVE's fmul then fadd round twice (formats/isa.md §4.7).
void runFusion(MFunction &F);

/// Loop-invariant code motion (Combine.cpp's header): invariant VALU
/// computations of a loop move before its header, where the loop is
/// entered by falling through and never widens EXEC.
void runLICM(MFunction &F);

/// Packed f32 multiply-adds (Combine.cpp's header): pairs of v_fma_f32
/// accumulating into two VGPRs from one A and from neighbouring parts of
/// a tuple B become v_pk_fma_f32 (targets with GCNTarget::PackedF32).
void runPackF32(MFunction &F);

/// Compares of an SALU result with 0 right after the operation, whose SCC
/// already says "not 0", are dropped (Combine.cpp's header).
void runSCCFold(MFunction &F);

/// The register spelling of \p O after allocation ("v3", "s[4:5]", "exec").
std::string printOperand(const MFunction &F, const MOperand &O);

} // namespace wave::amdgcn

#endif // WAVE_LIB_AMDGCN_GCNIR_H
