//===- Combine.cpp - Scoped CSE and fused integer operations --------------===//
//
// Two passes on the virtual-register IR, after the peephole (constants
// already propagated) and before constant-bus legalization:
//
//  - runCSE: dominator-scoped common-subexpression elimination (the
//    EarlyCSE scheme: a scoped table of available values, walked down the
//    dominator tree). The IR is not SSA -- a WAVE register's web is one
//    virtual register, written by every definition of the web -- so only
//    instructions whose result and sources each have a single definition
//    take part, and a source's definition must dominate the instruction:
//    then both computations read the same values, and the first result is
//    still there at the second (dominance: no path from the first to any
//    use of the second runs the first again without the second). A VALU
//    result is written in EXEC's lanes only, so it is reused only where no
//    EXEC write lies on any path between the two (a predicated op, an
//    `if`, a loop's mask update, a wave operation's active-set change),
//    or where EXEC has been restored from a copy taken in the first one's
//    region (`s_mov exec, sS` after `s_mov sS, exec` or a saveexec: the
//    end of a predicated op, an `endif`, a whole-wave window); uniform
//    (SALU) values do not depend on EXEC and are reused across such
//    changes, so they stay scalar. As LLVM's MachineCSE, a cheap
//    computation (not a multiply, transcendental, f64 or kernel-argument
//    load) is reused only from its own block or an immediate predecessor,
//    so that its live range stays short. Memory accesses are never merged
//    except loads of the kernel-argument segment, which is read-only for
//    the whole dispatch; so a barrier, which orders memory only, separates
//    nothing this pass merges.
//
//  - runFusion: one-block pairs whose intermediate value has no other use
//    become one VOP3 (or SOP2) instruction: v_lshl_add_u32, v_add_lshl_u32,
//    v_mad_u32_u24 (both factors below 2^24 by computeValueBits, so the
//    24-bit multiply is the 32-bit one), s_lshl1..4_add_u32. All exist on
//    GFX9 (CDNA), GFX11 and GFX12 with these spellings (LLVM 22
//    VOP3Instructions.td, SOPInstructions.td `isGFX9Plus`). WAVE's fma is
//    already v_fma_f32; a separate fmul and fadd round twice
//    (formats/isa.md §4.7), so no float pair is ever fused. Translate.cpp
//    runs fusion, CSE, then fusion again: fusing first keeps CSE from
//    sharing an intermediate between blocks, where fusion leaves it alone.
//
//  - runPackF32 (gfx90a/942/950): two v_fma_f32 accumulating into two
//    registers from the same A and from B's neighbouring parts of a tuple
//    (B[k][j], B[k][j+1] of a 128-bit load) become one v_pk_fma_f32: the two
//    accumulators become the halves of one VGPR pair, op_sel hands A's half
//    to both results. v_pk_fma_f32 rounds each half once, as v_fma_f32
//    does (WAVE's `fma`, formats/isa.md §4.7).
//
//  - runSCCFold: `s_cmp_eq_u32 R, 0` / `s_cmp_lg_u32 R, 0` right after the
//    SALU operation that wrote R and set SCC = (R != 0) (the logical
//    operations, shifts and bit-field extracts: CDNA3 ISA "SOP2"/"SOP1"
//    tables) is dropped; for `eq`, the SCC readers up to the next SCC write
//    (conditional branches, s_cselect) are inverted, where SCC is dead after
//    the last of them. A uniform `shr; icmp_eq 0; break` loop ends in one
//    s_lshr and one s_cbranch.
//
//  - runLICM: loop-invariant VALU computations move to the loop's
//    preheader (MachineLICM's job): a VGPR result with that one
//    definition, from sources no instruction of the loop writes. Lanes
//    active in a loop are a subset of those active where it is entered,
//    unless the loop widens EXEC (a whole-wave window), so the value is
//    there for every lane that used to compute it; such loops are left
//    alone, as are lane and cross-lane instructions, instructions with
//    implicit or hardware-register operands, and writes of lane masks
//    (a v_cmp writes 0 for inactive lanes).
//
//===----------------------------------------------------------------------===//
#include "GCNIR.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/MathExtras.h"

#include <map>
#include <optional>

using namespace llvm;

namespace wave::amdgcn {

//===----------------------------------------------------------------------===//
// Dominators and shared helpers
//===----------------------------------------------------------------------===//

std::vector<int> computeIdoms(const std::vector<CFGBlock> &Blocks) {
  unsigned N = unsigned(Blocks.size());
  std::vector<int> Idom(N, -1);
  if (!N)
    return Idom;
  // Reverse post-order of the blocks the entry reaches.
  std::vector<unsigned> Post;
  std::vector<char> Seen(N, 0);
  std::vector<std::pair<unsigned, unsigned>> Stack = {{0, 0}};
  Seen[0] = 1;
  while (!Stack.empty()) {
    unsigned B = Stack.back().first;
    unsigned K = Stack.back().second;
    if (K < Blocks[B].Succs.size()) {
      ++Stack.back().second;
      unsigned S = Blocks[B].Succs[K];
      if (!Seen[S]) {
        Seen[S] = 1;
        Stack.push_back({S, 0});
      }
      continue;
    }
    Post.push_back(B);
    Stack.pop_back();
  }
  std::vector<unsigned> RPO(Post.rbegin(), Post.rend());
  std::vector<int> Num(N, -1);
  for (unsigned I = 0; I < RPO.size(); ++I)
    Num[RPO[I]] = int(I);
  std::vector<SmallVector<unsigned, 2>> Preds(N);
  for (unsigned B = 0; B < N; ++B)
    for (unsigned S : Blocks[B].Succs)
      Preds[S].push_back(B);
  auto Intersect = [&](int A, int B) {
    while (A != B) {
      while (Num[A] > Num[B])
        A = Idom[A];
      while (Num[B] > Num[A])
        B = Idom[B];
    }
    return A;
  };
  Idom[0] = 0;
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (unsigned I = 1; I < RPO.size(); ++I) {
      unsigned B = RPO[I];
      int New = -1;
      for (unsigned P : Preds[B])
        if (Idom[P] >= 0)
          New = New < 0 ? int(P) : Intersect(int(P), New);
      if (New != Idom[B]) {
        Idom[B] = New;
        Changed = true;
      }
    }
  }
  return Idom;
}

namespace {

bool readsSCCAny(const MInst &MI) {
  if (MI.readsSCC())
    return true;
  for (const MOperand &O : MI.Ops)
    if (O.K == MOperand::Hw && O.H == HwReg::Scc && O.IsUse)
      return true;
  return false;
}
bool writesSCCAny(const MInst &MI) {
  if (MI.writesSCC())
    return true;
  for (const MOperand &O : MI.Ops)
    if (O.K == MOperand::Hw && O.H == HwReg::Scc && O.IsDef)
      return true;
  return false;
}

/// Liveness of SCC over the control-flow graph, for "is the SCC this
/// instruction writes ever read?".
class SCCLiveness {
public:
  SCCLiveness(const MFunction &F, const std::vector<CFGBlock> &Blocks)
      : F(F), Blocks(Blocks) {
    unsigned N = unsigned(Blocks.size());
    BlockOf.assign(F.Insts.size(), 0);
    std::vector<char> UpExposed(N, 0), Kills(N, 0);
    for (unsigned B = 0; B < N; ++B)
      for (unsigned I = Blocks[B].Begin; I < Blocks[B].End; ++I) {
        BlockOf[I] = B;
        const MInst &MI = F.Insts[I];
        if (!Kills[B] && readsSCCAny(MI))
          UpExposed[B] = 1;
        if (writesSCCAny(MI))
          Kills[B] = 1;
      }
    std::vector<char> LiveIn(N, 0);
    LiveOut.assign(N, 0);
    for (bool Changed = true; Changed;) {
      Changed = false;
      for (unsigned B = N; B-- > 0;) {
        char Out = 0;
        for (unsigned S : Blocks[B].Succs)
          Out |= LiveIn[S];
        char In = UpExposed[B] || (!Kills[B] && Out);
        if (Out != LiveOut[B] || In != LiveIn[B]) {
          LiveOut[B] = Out;
          LiveIn[B] = In;
          Changed = true;
        }
      }
    }
  }

  /// Whether SCC as instruction \p I leaves it is never read.
  bool deadAfter(unsigned I) const {
    unsigned B = BlockOf[I];
    for (unsigned J = I + 1; J < Blocks[B].End; ++J) {
      const MInst &MI = F.Insts[J];
      if (readsSCCAny(MI))
        return false;
      if (writesSCCAny(MI))
        return true;
    }
    return !LiveOut[B];
  }

private:
  const MFunction &F;
  const std::vector<CFGBlock> &Blocks;
  std::vector<unsigned> BlockOf;
  std::vector<char> LiveOut;
};

/// Inline constants of VALU sources (no literal dword), as
/// ConstantBus.cpp counts them.
bool isInlineConstant(int64_t V) {
  return (V >= -16 && V <= 64) || V == 0x3F000000 || V == 0xBF000000 ||
         V == 0x3F800000 || V == 0xBF800000 || V == 0x40000000 ||
         V == 0xC0000000 || V == 0x40800000 || V == 0xC0800000;
}

/// Whether \p O is the only operand \p MI defines and a whole register
/// (not a tuple part, not a merging definition).
bool soleWholeDef(const MInst &MI) {
  if (MI.Ops.empty())
    return false;
  const MOperand &D = MI.Ops[0];
  if (D.K != MOperand::VReg || !D.IsDef || D.IsUse || D.Sub >= 0)
    return false;
  for (unsigned K = 1; K < MI.Ops.size(); ++K)
    if (MI.Ops[K].IsDef)
      return false;
  return true;
}

} // namespace

//===----------------------------------------------------------------------===//
// Known bits
//===----------------------------------------------------------------------===//

std::vector<uint8_t> computeValueBits(const MFunction &F) {
  const unsigned NI = unsigned(F.Insts.size());
  // Operand K of instruction I is operand OpBase[I] + K of the function.
  std::vector<unsigned> OpBase(NI + 1, 0);
  for (unsigned I = 0; I < NI; ++I)
    OpBase[I + 1] = OpBase[I] + unsigned(F.Insts[I].Ops.size());
  // The definition a use reads when it is the block's own and nothing in
  // between can have kept older values (an SGPR, or a VGPR with no EXEC
  // write in between); otherwise -1, and the use may read any definition.
  std::vector<int> Reach(OpBase[NI], -1);
  std::vector<char> Defined(F.VRegs.size(), 0);
  for (const CFGBlock &Bl : buildCFG(F)) {
    DenseMap<uint32_t, std::pair<unsigned, unsigned>> Last; // reg -> def, epoch
    unsigned Epoch = 0;
    for (unsigned I = Bl.Begin; I < Bl.End; ++I) {
      const MInst &MI = F.Insts[I];
      for (unsigned K = 0; K < MI.Ops.size(); ++K) {
        const MOperand &O = MI.Ops[K];
        if (O.K != MOperand::VReg || !O.IsUse)
          continue;
        auto It = Last.find(O.Reg);
        if (It != Last.end() && (!isVector(F.VRegs[O.Reg].Class) ||
                                 It->second.second == Epoch))
          Reach[OpBase[I] + K] = int(It->second.first);
      }
      for (const MOperand &O : MI.Ops)
        if (O.K == MOperand::VReg && O.IsDef) {
          Last[O.Reg] = {I, Epoch};
          Defined[O.Reg] = 1;
        }
      if (writesExec(MI))
        ++Epoch;
    }
  }
  // Least fixed point: definitions start at 0 bits and only grow, to what
  // their instruction gives from the current bounds of its sources; a
  // register's bound is the largest of its definitions'. Inputs start
  // (and stay) at their InputBits.
  std::vector<uint8_t> Bits(F.VRegs.size(), 0), DefBits(NI, 0);
  for (unsigned R = 0; R < F.VRegs.size(); ++R)
    if (!Defined[R])
      Bits[R] = F.VRegs[R].InputBits;
  unsigned Cur = 0; // the instruction being evaluated
  auto B = [&](const MOperand &O) -> unsigned {
    if (O.K == MOperand::Imm) {
      uint32_t V = uint32_t(O.Value);
      return V ? 32 - unsigned(countl_zero(V)) : 0;
    }
    if (O.K != MOperand::VReg || O.Sub >= 0 || O.Neg)
      return 32;
    int J = Reach[OpBase[Cur] + unsigned(&O - F.Insts[Cur].Ops.data())];
    return J >= 0 ? DefBits[J] : Bits[O.Reg];
  };
  auto ImmOr = [](const MOperand &O, int64_t Else) {
    return O.K == MOperand::Imm ? O.Value : Else;
  };
  auto Raise = [&](unsigned I, uint32_t R, unsigned NB) {
    NB = std::min(NB, 32u);
    bool Changed = false;
    if (NB > DefBits[I])
      DefBits[I] = uint8_t(NB), Changed = true;
    if (NB > Bits[R])
      Bits[R] = uint8_t(NB), Changed = true;
    return Changed;
  };
  // Each round raises at least one of finitely many bounds, so this ends;
  // the cap only guards the cost (then every defined register is 32).
  unsigned Rounds = 0;
  for (bool Changed = true; Changed;) {
    Changed = false;
    if (++Rounds > 256) {
      for (unsigned R = 0; R < F.VRegs.size(); ++R)
        if (Defined[R])
          Bits[R] = 32;
      break;
    }
    for (Cur = 0; Cur < NI; ++Cur) {
      const MInst &MI = F.Insts[Cur];
      // One whole 32-bit register written; a merging definition (the
      // register also read: lanes EXEC leaves out keep it) keeps its
      // old bound too.
      const MOperand *Def = MI.Ops.empty() ? nullptr : &MI.Ops[0];
      bool Known = Def && Def->K == MOperand::VReg && Def->IsDef &&
                   Def->Sub < 0 && F.VRegs[Def->Reg].Fixed < 0 &&
                   regWidth(F.VRegs[Def->Reg].Class) == 1 &&
                   llvm::none_of(drop_begin(MI.Ops),
                                 [](const MOperand &O) { return O.IsDef; });
      if (!Known) {
        for (const MOperand &O : MI.Ops)
          if (O.K == MOperand::VReg && O.IsDef)
            Changed |= Raise(Cur, O.Reg, 32);
        continue;
      }
      uint32_t R = Def->Reg;
      const auto &O = MI.Ops;
      unsigned N = O.size();
      unsigned NB = 32;
      auto Shl = [](unsigned X, int64_t Amt) {
        return X ? X + unsigned(Amt & 31) : 0u;
      };
      switch (MI.Opc) {
      case GCNOp::V_MOV_B32:
      case GCNOp::S_MOV_B32:
      case GCNOp::V_READFIRSTLANE_B32:
        NB = N == 2 ? B(O[1]) : 32;
        break;
      case GCNOp::V_AND_B32:
      case GCNOp::S_AND_B32:
        NB = std::min(B(O[1]), B(O[2]));
        break;
      case GCNOp::V_OR_B32:
      case GCNOp::V_XOR_B32:
      case GCNOp::S_OR_B32:
      case GCNOp::S_XOR_B32:
      case GCNOp::V_CNDMASK_B32_E64:
        NB = std::max(B(O[1]), B(O[2]));
        break;
      case GCNOp::V_LSHRREV_B32: {
        int64_t Amt = ImmOr(O[1], 0) & 31;
        NB = unsigned(std::max<int64_t>(0, int64_t(B(O[2])) - Amt));
        break;
      }
      case GCNOp::S_LSHR_B32: {
        int64_t Amt = ImmOr(O[2], 0) & 31;
        NB = unsigned(std::max<int64_t>(0, int64_t(B(O[1])) - Amt));
        break;
      }
      case GCNOp::V_LSHLREV_B32:
        if (O[1].K == MOperand::Imm)
          NB = Shl(B(O[2]), O[1].Value);
        break;
      case GCNOp::S_LSHL_B32:
        if (O[2].K == MOperand::Imm)
          NB = Shl(B(O[1]), O[2].Value);
        break;
      case GCNOp::V_BFE_U32:
        if (O[3].K == MOperand::Imm)
          NB = std::min(unsigned(O[3].Value & 31), B(O[1]));
        break;
      case GCNOp::S_BFE_U32:
        if (O[2].K == MOperand::Imm)
          NB = std::min(unsigned((O[2].Value >> 16) & 0x7F), B(O[1]));
        break;
      case GCNOp::V_MBCNT_LO_U32_B32:
      case GCNOp::V_MBCNT_HI_U32_B32: {
        // The lane id idiom: mbcnt_lo(m, 0) counts the mask bits below the
        // lane among lanes 0..31 (at most 31 on wave32, 32 on wave64), and
        // mbcnt_hi(m, that) adds those among 32..lane: at most 63.
        int J = O[2].K == MOperand::VReg
                    ? Reach[OpBase[Cur] + 2]
                    : -1;
        bool FromZero = O[2].K == MOperand::Imm && O[2].Value == 0;
        bool FromLo = J >= 0 &&
                      F.Insts[J].is(GCNOp::V_MBCNT_LO_U32_B32) &&
                      F.Insts[J].Ops.size() == 3 &&
                      F.Insts[J].Ops[2].K == MOperand::Imm &&
                      F.Insts[J].Ops[2].Value == 0;
        if (MI.Opc == GCNOp::V_MBCNT_LO_U32_B32 && FromZero)
          NB = F.T->WaveSize == 32 ? 5 : 6;
        else if (MI.Opc == GCNOp::V_MBCNT_HI_U32_B32 && FromLo)
          NB = 6;
        else
          NB = std::max(B(O[2]), 6u) + 1;
        break;
      }
      case GCNOp::V_BCNT_U32_B32:
        NB = std::max(B(O[2]), 6u) + 1;
        break;
      case GCNOp::V_ADD_U32:
      case GCNOp::V_ADD_NC_U32:
      case GCNOp::S_ADD_U32:
        NB = std::max(B(O[1]), B(O[2])) + 1;
        break;
      case GCNOp::V_MUL_LO_U32:
      case GCNOp::S_MUL_I32:
        NB = B(O[1]) + B(O[2]);
        break;
      case GCNOp::V_MAD_U32_U24:
        NB =
            std::max(std::min(B(O[1]), 24u) + std::min(B(O[2]), 24u), B(O[3])) +
            1;
        break;
      case GCNOp::V_LSHL_ADD_U32:
        if (O[2].K == MOperand::Imm)
          NB = std::max(Shl(B(O[1]), O[2].Value), B(O[3])) + 1;
        break;
      case GCNOp::V_MAX_I32:
      case GCNOp::S_MAX_I32:
        if (B(O[1]) < 32 && B(O[2]) < 32) // both non-negative
          NB = std::max(B(O[1]), B(O[2]));
        break;
      case GCNOp::V_MIN_I32:
      case GCNOp::S_MIN_I32:
        if (B(O[1]) < 32 && B(O[2]) < 32)
          NB = std::min(B(O[1]), B(O[2]));
        break;
      case GCNOp::GLOBAL_LOAD_UBYTE:
      case GCNOp::DS_READ_U8:
        NB = 8;
        break;
      case GCNOp::GLOBAL_LOAD_USHORT:
      case GCNOp::DS_READ_U16:
        NB = 16;
        break;
      default:
        break;
      }
      if (Def->IsUse)
        NB = std::max(NB, B(*Def));
      Changed |= Raise(Cur, R, NB);
    }
  }
  return Bits;
}

//===----------------------------------------------------------------------===//
// Compares decided by known bits
//===----------------------------------------------------------------------===//

namespace {

/// The outcome of the SALU compare \p Op of two immediates, if it is one
/// (CDNA3 ISA "SOPC": 32-bit signed or unsigned).
std::optional<bool> compareImms(GCNOp Op, int64_t A64, int64_t B64) {
  uint32_t A = uint32_t(A64), B = uint32_t(B64);
  int32_t SA = int32_t(A), SB = int32_t(B);
  switch (Op) {
  case GCNOp::S_CMP_EQ_U32:
    return A == B;
  case GCNOp::S_CMP_LG_U32:
    return A != B;
  case GCNOp::S_CMP_LT_U32:
    return A < B;
  case GCNOp::S_CMP_LE_U32:
    return A <= B;
  case GCNOp::S_CMP_GT_U32:
    return A > B;
  case GCNOp::S_CMP_GE_U32:
    return A >= B;
  case GCNOp::S_CMP_LT_I32:
    return SA < SB;
  case GCNOp::S_CMP_LE_I32:
    return SA <= SB;
  case GCNOp::S_CMP_GT_I32:
    return SA > SB;
  case GCNOp::S_CMP_GE_I32:
    return SA >= SB;
  default:
    return std::nullopt;
  }
}

/// The AMDGCN SALU compare \p MI decides by its operands alone: a compare
/// of a register with itself (a structurizer's "true" flag: icmp_eq r, r)
/// or of two immediates.
std::optional<bool> decideTrivialCompare(const MInst &MI) {
  const auto &O = MI.Ops;
  if (O.size() != 2)
    return std::nullopt;
  if (O[0].K == MOperand::Imm && O[1].K == MOperand::Imm)
    return compareImms(MI.Opc, O[0].Value, O[1].Value);
  bool Same = O[0].K == MOperand::VReg && O[1].K == MOperand::VReg &&
              O[0].Reg == O[1].Reg && O[0].Sub == O[1].Sub && !O[0].Neg &&
              !O[1].Neg;
  if (!Same)
    return std::nullopt;
  switch (MI.Opc) {
  case GCNOp::S_CMP_EQ_U32:
  case GCNOp::S_CMP_LE_U32:
  case GCNOp::S_CMP_GE_U32:
  case GCNOp::S_CMP_LE_I32:
  case GCNOp::S_CMP_GE_I32:
    return true;
  case GCNOp::S_CMP_LG_U32:
  case GCNOp::S_CMP_LT_U32:
  case GCNOp::S_CMP_GT_U32:
  case GCNOp::S_CMP_LT_I32:
  case GCNOp::S_CMP_GT_I32:
    return false;
  default:
    return std::nullopt;
  }
}

/// runRangeFold over one function: one walk of its blocks, each rule a
/// method, with the lane masks seen so far in the block order.
class RangeFolder {
public:
  explicit RangeFolder(MFunction &F)
      : F(F), Bits(computeValueBits(F)), Blocks(buildCFG(F)), Live(F, Blocks),
        C(countDefsAndUses(F)) {}

  bool run() {
    bool Changed = false;
    for (const CFGBlock &Bl : Blocks)
      for (unsigned I = Bl.Begin; I < Bl.End; ++I)
        Changed |= visit(Bl, I);
    if (Changed)
      dropErased(F);
    return Changed;
  }

private:
  MFunction &F;
  std::vector<uint8_t> Bits;
  std::vector<CFGBlock> Blocks;
  SCCLiveness Live;
  VRegCounts C;
  /// Lane masks known to be set: every lane (-1), or every lane active at
  /// the v_cmp that wrote it (the index of that instruction).
  DenseMap<uint32_t, int> SetLanes;
  DenseSet<uint32_t> ClearMasks;           ///< lane masks known to be 0
  DenseMap<uint32_t, unsigned> ExecCopies; ///< mask -> its `s_mov M, exec`

  /// Applies the first rule that matches instruction \p I of block \p Bl;
  /// whether it changed anything.
  bool visit(const CFGBlock &Bl, unsigned I) {
    MInst &MI = F.Insts[I];
    if (foldSign(MI))
      return true;
    if (std::optional<bool> Known = decideCompare(MI))
      return foldKnownSCC(Bl, I, *Known);
    if (recordMask(I))
      return false;
    // A predicate written under EXEC: P' = (P & ~exec) | M, with M a copy
    // of EXEC (P | exec) or 0 (P & ~exec), in one instruction.
    if ((MI.is(GCNOp::S_OR_B64) || MI.is(GCNOp::S_OR_B32)) &&
        MI.Ops.size() == 3 && !MI.Ops[0].IsUse &&
        foldPredicateWrite(I, Bl.Begin))
      return true;
    if (foldMaskImage(Bl, I))
      return true;
    return foldSelect(Bl, I);
  }

  /// The register defined once by `v_cndmask_b32_e64 X, 0, 1, M` and used
  /// once, with M a whole mask defined once: that instruction's index and
  /// M; nullopt otherwise.
  std::optional<std::pair<unsigned, MOperand>>
  maskImage(const MOperand &X) const {
    if (X.K != MOperand::VReg || X.Sub >= 0 || X.Neg || !singleDef(X) ||
        C.Uses[X.Reg] != 1 || F.VRegs[X.Reg].Fixed >= 0)
      return std::nullopt;
    unsigned DI = unsigned(C.DefAt[X.Reg]);
    const MInst &D = F.Insts[DI];
    if (!D.is(GCNOp::V_CNDMASK_B32_E64) || D.Ops.size() != 4 ||
        !soleWholeDef(D) || D.Ops[1].K != MOperand::Imm ||
        D.Ops[1].Value != 0 || D.Ops[2].K != MOperand::Imm ||
        D.Ops[2].Value != 1 || !singleDef(D.Ops[3]) || D.Ops[3].Neg ||
        F.VRegs[D.Ops[3].Reg].Class != F.maskClass())
      return std::nullopt;
    return std::make_pair(DI, D.Ops[3]);
  }

  /// A lane mask made a 0/1 value and compared back (wave-ra keeps an i1
  /// that outlives its compare in a register: `select r, p, 1, 0`, then
  /// `icmp_ne p', r, 0`): `v_cmp_ne_u32_e64 D, X, 0` with X =
  /// `v_cndmask_b32_e64 X, 0, 1, M` is `s_and D, M, exec`; with X a
  /// `v_or_b32` (`v_and_b32`) of two such values of M1 and M2, the later
  /// of the two cndmasks becomes `s_or T, M1, M2` (`s_and`) and the compare
  /// `s_and D, T, exec` (`a or b` of two compares: four instructions fewer).
  /// Everything in block \p Bl, EXEC unchanged from the first cndmask to
  /// the compare \p I, SCC dead where a SALU instruction now writes it.
  bool foldMaskImage(const CFGBlock &Bl, unsigned I) {
    MInst &Cmp = F.Insts[I];
    if (!Cmp.is(GCNOp::V_CMP_NE_U32_E64) || Cmp.Ops.size() != 3 ||
        Cmp.Ops[0].Sub >= 0 || !Live.deadAfter(I))
      return false;
    unsigned K = Cmp.Ops[2].K == MOperand::Imm ? 1 : 2;
    const MOperand &Zero = Cmp.Ops[3 - K];
    if (Zero.K != MOperand::Imm || Zero.Value != 0)
      return false;
    bool W64 = F.maskClass() == RegClass::S64;
    auto InBlock = [&](unsigned J) { return J >= Bl.Begin && J < I; };
    auto AndExec = [&](const MOperand &M) {
      MOperand D = Cmp.Ops[0];
      Cmp.setOp(W64 ? GCNOp::S_AND_B64 : GCNOp::S_AND_B32);
      Cmp.Ops = {D, M, MOperand::hw(HwReg::Exec, false, true)};
    };
    if (auto Img = maskImage(Cmp.Ops[K])) {
      if (!InBlock(Img->first) || !execKept(Img->first, I))
        return false;
      eraseInst(F.Insts[Img->first]);
      AndExec(Img->second);
      return true;
    }
    const MOperand &X = Cmp.Ops[K];
    if (X.K != MOperand::VReg || X.Sub >= 0 || X.Neg || !singleDef(X) ||
        C.Uses[X.Reg] != 1 || F.VRegs[X.Reg].Fixed >= 0)
      return false;
    unsigned XI = unsigned(C.DefAt[X.Reg]);
    MInst &Logic = F.Insts[XI];
    bool IsOr = Logic.is(GCNOp::V_OR_B32);
    if ((!IsOr && !Logic.is(GCNOp::V_AND_B32)) || Logic.Ops.size() != 3 ||
        !soleWholeDef(Logic) || !InBlock(XI))
      return false;
    auto A = maskImage(Logic.Ops[1]), B = maskImage(Logic.Ops[2]);
    if (!A || !B || A->first == B->first)
      return false;
    unsigned First = std::min(A->first, B->first);
    unsigned Later = std::max(A->first, B->first);
    if (!InBlock(First) || !execKept(First, I) || !Live.deadAfter(Later))
      return false;
    uint32_t T = F.newVReg(F.maskClass());
    MInst &Host = F.Insts[Later];
    Host.setOp(IsOr ? (W64 ? GCNOp::S_OR_B64 : GCNOp::S_OR_B32)
                    : (W64 ? GCNOp::S_AND_B64 : GCNOp::S_AND_B32));
    Host.Ops = {MOperand::def(T), A->second, B->second};
    eraseInst(F.Insts[First]);
    eraseInst(Logic);
    AndExec(MOperand::use(T));
    return true;
  }

  /// X < K for every value X can hold: X < 2^bits(X) <= K.
  bool below(const MOperand &X, const MOperand &K) const {
    if (K.K != MOperand::Imm)
      return false;
    if (X.K == MOperand::Imm)
      return uint32_t(X.Value) < uint32_t(K.Value);
    if (X.K != MOperand::VReg || X.Sub >= 0 || X.Neg || Bits[X.Reg] >= 32)
      return false;
    return (uint64_t(1) << Bits[X.Reg]) <= uint64_t(uint32_t(K.Value));
  }

  bool singleDef(const MOperand &O) const {
    return O.K == MOperand::VReg && O.Sub < 0 && C.Defs[O.Reg] == 1;
  }

  /// Whether no instruction strictly between \p From and \p To writes EXEC.
  bool execKept(unsigned From, unsigned To) const {
    for (unsigned J = From + 1; J < To; ++J)
      if (writesExec(F.Insts[J]))
        return false;
    return true;
  }

  /// The sign of a value known to be below 2^31 is 0:
  /// `v_ashrrev_i32 D, 31, X` becomes `v_mov_b32 D, 0`.
  bool foldSign(MInst &MI) {
    const auto &O = MI.Ops;
    if (!MI.is(GCNOp::V_ASHRREV_I32) || O.size() != 3 ||
        O[1].K != MOperand::Imm || (O[1].Value & 31) != 31 ||
        O[2].K != MOperand::VReg || O[2].Sub >= 0 || O[2].Neg ||
        Bits[O[2].Reg] > 31 || O[0].IsUse)
      return false;
    toMov(MI, MOperand::imm(0));
    return true;
  }

  /// The SCC the SALU compare \p MI sets, where known bits or its operands
  /// decide it.
  std::optional<bool> decideCompare(const MInst &MI) const {
    if (MI.is(GCNOp::S_CMP_LT_U32) && MI.Ops.size() == 2 &&
        below(MI.Ops[0], MI.Ops[1]))
      return true;
    return decideTrivialCompare(MI);
  }

  /// SCC as compare \p I leaves it is \p Known: its readers up to the next
  /// SCC write in the block read a constant (branches become unconditional
  /// or go, selects become moves), and the compare goes where nothing else
  /// reads SCC. Nothing changes if a reader is something else.
  bool foldKnownSCC(const CFGBlock &Bl, unsigned I, bool Known) {
    unsigned Last = I;
    SmallVector<unsigned, 2> Readers;
    for (unsigned J = I + 1; J < Bl.End; ++J) {
      const MInst &X = F.Insts[J];
      if (readsSCCAny(X)) {
        bool Select =
            (X.is(GCNOp::S_CSELECT_B32) || X.is(GCNOp::S_CSELECT_B64)) &&
            X.Ops.size() == 3;
        if (!Select && !X.is(GCNOp::S_CBRANCH_SCC0) &&
            !X.is(GCNOp::S_CBRANCH_SCC1))
          return false;
        Readers.push_back(J), Last = J;
      }
      if (writesSCCAny(X))
        break;
    }
    for (unsigned J : Readers) {
      MInst &X = F.Insts[J];
      if (X.is(GCNOp::S_CBRANCH_SCC1) || X.is(GCNOp::S_CBRANCH_SCC0)) {
        if (X.is(GCNOp::S_CBRANCH_SCC1) == Known)
          X.setOp(GCNOp::S_BRANCH);
        else
          eraseInst(X);
      } else {
        X.setOp(X.is(GCNOp::S_CSELECT_B64) ? GCNOp::S_MOV_B64
                                           : GCNOp::S_MOV_B32);
        if (!Known)
          std::swap(X.Ops[1], X.Ops[2]);
        X.Ops.pop_back();
      }
    }
    if (Live.deadAfter(Last))
      eraseInst(F.Insts[I]);
    return true;
  }

  /// Records a lane mask instruction \p I writes whose value is known: a
  /// `v_cmp_gt_u32_e64 M, K, X` (or `lt`, swapped) with X below K sets M in
  /// every active lane; `s_mov M, exec` copies EXEC; `s_mov M, -1` and
  /// `s_mov M, 0`. Whether \p I was one.
  bool recordMask(unsigned I) {
    const MInst &MI = F.Insts[I];
    const auto &O = MI.Ops;
    if (O.size() == 3 && singleDef(O[0]) &&
        ((MI.is(GCNOp::V_CMP_GT_U32_E64) && below(O[2], O[1])) ||
         (MI.is(GCNOp::V_CMP_LT_U32_E64) && below(O[1], O[2])))) {
      SetLanes[O[0].Reg] = int(I);
      return true;
    }
    if (!(MI.is(GCNOp::S_MOV_B64) || MI.is(GCNOp::S_MOV_B32)) ||
        O.size() != 2 || !singleDef(O[0]))
      return false;
    if (O[1].K == MOperand::Hw && O[1].H == HwReg::Exec &&
        F.VRegs[O[0].Reg].Class == F.maskClass()) {
      ExecCopies[O[0].Reg] = I;
      return true;
    }
    if (O[1].K != MOperand::Imm || (O[1].Value != -1 && O[1].Value != 0) ||
        F.VRegs[O[0].Reg].Class != F.maskClass())
      return false;
    if (O[1].Value == -1)
      SetLanes[O[0].Reg] = -1;
    else
      ClearMasks.insert(O[0].Reg);
    return true;
  }

  /// `s_or D, T, M` at \p I with T = `s_andn2 T, P, exec` (used only here,
  /// its SCC never read) in this block since \p Begin, P unchanged since
  /// and EXEC too: `s_or D, P, exec` where M is a copy of that EXEC,
  /// `s_andn2 D, P, exec` where M is 0.
  bool foldPredicateWrite(unsigned I, unsigned Begin) {
    MInst &Or = F.Insts[I];
    for (unsigned K : {1u, 2u}) {
      const MOperand &T = Or.Ops[K], &M = Or.Ops[3 - K];
      if (T.K != MOperand::VReg || M.K != MOperand::VReg || !singleDef(T) ||
          C.Uses[T.Reg] != 1 || T.Sub >= 0 || M.Sub >= 0)
        continue;
      unsigned TI = unsigned(C.DefAt[T.Reg]);
      MInst &Andn2 = F.Insts[TI];
      if (TI < Begin || TI > I ||
          !(Andn2.is(GCNOp::S_ANDN2_B64) || Andn2.is(GCNOp::S_ANDN2_B32)) ||
          Andn2.Ops.size() != 3 || Andn2.Ops[2].K != MOperand::Hw ||
          Andn2.Ops[2].H != HwReg::Exec || Andn2.Ops[1].K != MOperand::VReg ||
          !execKept(TI, I) || !Live.deadAfter(TI))
        continue;
      const MOperand P = Andn2.Ops[1];
      bool PKept = true;
      for (unsigned J = TI + 1; J < I; ++J)
        for (const MOperand &X : F.Insts[J].Ops)
          PKept &= !(X.K == MOperand::VReg && X.Reg == P.Reg && X.IsDef);
      if (!PKept)
        continue;
      auto EC = ExecCopies.find(M.Reg);
      bool IsExec = EC != ExecCopies.end() && EC->second >= Begin &&
                    execKept(EC->second, I);
      if (!IsExec && !ClearMasks.count(M.Reg))
        continue;
      MOperand D = Or.Ops[0];
      if (!IsExec)
        Or.setOp(Andn2.Opc); // P & ~exec
      Or.Ops = {D, P, MOperand::hw(HwReg::Exec, false, true)};
      eraseInst(Andn2);
      return true;
    }
    return false;
  }

  /// `v_cndmask_b32_e64 D, A, B, M` on a known mask M: a move of A where M
  /// is 0; a move of B where M is set in every lane, or in every lane
  /// active at its compare with EXEC unchanged since (in this block).
  bool foldSelect(const CFGBlock &Bl, unsigned I) {
    MInst &MI = F.Insts[I];
    const auto &O = MI.Ops;
    if (!MI.is(GCNOp::V_CNDMASK_B32_E64) || O.size() != 4 ||
        O[3].K != MOperand::VReg)
      return false;
    if (ClearMasks.count(O[3].Reg) && !O[1].Neg) {
      toMov(MI, MOperand(O[1]));
      return true;
    }
    if (O[2].Neg)
      return false;
    auto It = SetLanes.find(O[3].Reg);
    if (It == SetLanes.end())
      return false;
    if (It->second >= 0 &&
        (unsigned(It->second) < Bl.Begin || !execKept(unsigned(It->second), I)))
      return false;
    toMov(MI, MOperand(O[2]));
    return true;
  }
};

} // namespace

bool runRangeFold(MFunction &F) { return RangeFolder(F).run(); }

//===----------------------------------------------------------------------===//
// Constant address parts into DS offsets
//===----------------------------------------------------------------------===//

namespace {

/// Whether \p MI is an LDS access with one 16-bit byte offset and an
/// address operand (not the two-offset ds_read2/ds_write2 forms, not the
/// lane permutes).
bool hasDSOffset(const MInst &MI) {
  StringRef Op = MI.Op;
  return MI.Kind == InstKind::DS &&
         (Op.starts_with("ds_read_") || Op.starts_with("ds_write_b"));
}

/// The offset:N of \p Suffix (0 without one), and \p Suffix without it.
std::pair<uint64_t, std::string> splitDSOffset(StringRef Suffix) {
  size_t At = Suffix.find(" offset:");
  if (At == StringRef::npos)
    return {0, Suffix.str()};
  StringRef Rest = Suffix.substr(At + 8);
  size_t End = Rest.find(' ');
  uint64_t N = 0;
  Rest.substr(0, End).getAsInteger(10, N);
  std::string Out = Suffix.substr(0, At).str();
  if (End != StringRef::npos)
    Out += Rest.substr(End).str();
  return {N, Out};
}

} // namespace

bool runDSOffsetFold(MFunction &F) {
  std::vector<uint8_t> Bits = computeValueBits(F);
  std::vector<CFGBlock> Blocks = buildCFG(F);
  SCCLiveness Live(F, Blocks);
  VRegCounts C = countDefsAndUses(F);
  auto SoleDef = [&](uint32_t R) -> MInst * {
    if (C.Defs[R] != 1 || C.Uses[R] != 1 || F.VRegs[R].Fixed >= 0)
      return nullptr;
    MInst &D = F.Insts[unsigned(C.DefAt[R])];
    return soleWholeDef(D) && D.Ops[0].Reg == R ? &D : nullptr;
  };
  // X + K, where X is a register below 2^31 (so the 32-bit add cannot
  // wrap) and K an immediate: {operand index of X, K}.
  auto AddOfImm = [&](const MInst &D) -> std::optional<std::pair<unsigned, uint64_t>> {
    if (!(D.is(GCNOp::V_ADD_U32) || D.is(GCNOp::V_ADD_NC_U32) ||
          D.is(GCNOp::S_ADD_U32)) ||
        D.Ops.size() != 3)
      return std::nullopt;
    for (unsigned K : {1u, 2u}) {
      const MOperand &X = D.Ops[3 - K], &Imm = D.Ops[K];
      if (Imm.K == MOperand::Imm && Imm.Value >= 0 && Imm.Value <= 0xFFFF &&
          X.K == MOperand::VReg && X.Sub < 0 && !X.Neg && Bits[X.Reg] <= 31)
        return std::make_pair(3 - K, uint64_t(Imm.Value));
    }
    return std::nullopt;
  };
  bool Changed = false;
  for (unsigned I = 0; I < F.Insts.size(); ++I) {
    MInst &MI = F.Insts[I];
    if (!hasDSOffset(MI))
      continue;
    unsigned AK = MI.Ops[0].IsDef ? 1 : 0; // loads: after the result
    if (AK >= MI.Ops.size() || MI.Ops[AK].K != MOperand::VReg ||
        MI.Ops[AK].Sub >= 0)
      continue;
    MInst *Def = SoleDef(MI.Ops[AK].Reg);
    if (!Def)
      continue;
    auto [Off, Rest] = splitDSOffset(MI.Suffix);
    if (auto Add = AddOfImm(*Def); Add && Def->Kind == InstKind::VALU) {
      // v_add A, X, K; ds A  ->  ds X offset:K (X's value is unchanged in
      // between: it has one definition, before the add).
      const MOperand &X = Def->Ops[Add->first];
      if (C.Defs[X.Reg] != 1 || !isVector(F.VRegs[X.Reg].Class) ||
          Off + Add->second > 0xFFFF)
        continue;
      MI.Ops[AK].Reg = X.Reg;
      MI.Suffix = Rest + " offset:" + std::to_string(Off + Add->second);
      eraseInst(*Def);
      Changed = true;
      continue;
    }
    if (Def->is(GCNOp::V_MOV_B32) && Def->Ops[1].K == MOperand::VReg &&
        Def->Ops[1].Sub < 0) {
      // s_add S, X, K; v_mov A, S; ds A  ->  v_mov A, X; ds A offset:K
      // where the add's SCC is never read.
      MInst *SAdd = SoleDef(Def->Ops[1].Reg);
      if (!SAdd || SAdd->Kind != InstKind::SALU)
        continue;
      auto Add = AddOfImm(*SAdd);
      unsigned SI = unsigned(SAdd - F.Insts.data());
      if (!Add || !Live.deadAfter(SI) || Off + Add->second > 0xFFFF)
        continue;
      const MOperand &X = SAdd->Ops[Add->first];
      if (C.Defs[X.Reg] != 1 || isVector(F.VRegs[X.Reg].Class))
        continue;
      Def->Ops[1].Reg = X.Reg;
      MI.Suffix = Rest + " offset:" + std::to_string(Off + Add->second);
      eraseInst(*SAdd);
      Changed = true;
    }
  }
  if (Changed)
    dropErased(F);
  return Changed;
}

//===----------------------------------------------------------------------===//
// Kernel-argument loads merged
//===----------------------------------------------------------------------===//

void runKernargMerge(MFunction &F) {
  std::vector<CFGBlock> Blocks = buildCFG(F);
  if (Blocks.empty())
    return;
  VRegCounts C = countDefsAndUses(F);
  // The entry block's dword loads through a precoloured pointer, by offset.
  std::map<int64_t, unsigned> ByOff; // offset -> instruction
  uint32_t Ptr = ~0u;
  for (unsigned I = Blocks[0].Begin; I < Blocks[0].End; ++I) {
    const MInst &MI = F.Insts[I];
    if (!MI.is(GCNOp::S_LOAD_DWORD) || MI.Ops.size() != 3 ||
        !MI.Suffix.empty() || MI.Ops[1].K != MOperand::VReg ||
        MI.Ops[2].K != MOperand::Imm)
      continue;
    const MOperand &D = MI.Ops[0], &P = MI.Ops[1];
    if (D.K != MOperand::VReg || D.Sub >= 0 || C.Defs[D.Reg] != 1 ||
        F.VRegs[D.Reg].Fixed >= 0 || F.VRegs[P.Reg].Fixed < 0 ||
        (Ptr != ~0u && P.Reg != Ptr))
      continue;
    Ptr = P.Reg;
    int64_t Off = MI.Ops[2].Value;
    if (Off % 4 == 0 && !ByOff.count(Off))
      ByOff[Off] = I;
  }
  DenseMap<uint32_t, std::pair<uint32_t, int8_t>> Part; // dword -> tuple part
  for (auto It = ByOff.begin(); It != ByOff.end();) {
    int64_t Off = It->first;
    unsigned N = 1;
    while (N < 4 && ByOff.count(Off + 4 * N))
      ++N;
    N = N >= 4 ? 4 : N >= 2 ? 2 : 1;
    if (N == 1) {
      ++It;
      continue;
    }
    uint32_t T = F.newVReg(N == 4 ? RegClass::S128 : RegClass::S64);
    unsigned First = ~0u;
    for (unsigned K = 0; K < N; ++K)
      First = std::min(First, ByOff[Off + 4 * K]);
    for (unsigned K = 0; K < N; ++K) {
      MInst &MI = F.Insts[ByOff[Off + 4 * K]];
      Part[MI.Ops[0].Reg] = {T, int8_t(K)};
      if (ByOff[Off + 4 * K] != First)
        eraseInst(MI);
    }
    MInst &W = F.Insts[First];
    W.setOp(N == 4 ? GCNOp::S_LOAD_DWORDX4 : GCNOp::S_LOAD_DWORDX2);
    W.Ops = {MOperand::def(T), MOperand::use(Ptr), MOperand::imm(Off)};
    It = ByOff.find(Off + 4 * N);
    if (It == ByOff.end())
      It = ByOff.upper_bound(Off + 4 * N);
  }
  if (Part.empty())
    return;
  for (MInst &MI : F.Insts)
    for (MOperand &O : MI.Ops)
      if (O.K == MOperand::VReg && O.IsUse)
        if (auto It = Part.find(O.Reg); It != Part.end()) {
          O.Reg = It->second.first;
          O.Sub = It->second.second;
        }
  dropErased(F);
}

//===----------------------------------------------------------------------===//
// Scoped CSE
//===----------------------------------------------------------------------===//

namespace {

/// The control-flow graph of a function with its predecessors and
/// dominator tree, for the passes that walk or ask about dominance (scoped
/// CSE, LICM).
struct Dominance {
  std::vector<CFGBlock> Blocks;
  std::vector<int> Idom; ///< computeIdoms: -1 for unreachable blocks.
  std::vector<unsigned> BlockOf, In, Out;
  std::vector<std::vector<unsigned>> Kids;
  std::vector<SmallVector<unsigned, 2>> Preds;

  /// Builds everything for \p F; false (and nothing built) when \p F has
  /// no block.
  bool build(const MFunction &F);
  /// Whether block \p A dominates block \p B, both reachable.
  bool blockDominates(unsigned A, unsigned B) const {
    return Idom[A] >= 0 && Idom[B] >= 0 && In[A] <= In[B] && Out[B] <= Out[A];
  }
  /// Whether instruction \p A strictly dominates instruction \p B.
  bool dominates(unsigned A, unsigned B) const {
    unsigned BA = BlockOf[A], BB = BlockOf[B];
    if (BA == BB)
      return A < B;
    return blockDominates(BA, BB);
  }
};

bool Dominance::build(const MFunction &F) {
  Blocks = buildCFG(F);
  if (Blocks.empty())
    return false;
  Idom = computeIdoms(Blocks);
  unsigned N = unsigned(Blocks.size());
  BlockOf.assign(F.Insts.size(), 0);
  for (unsigned B = 0; B < N; ++B)
    for (unsigned I = Blocks[B].Begin; I < Blocks[B].End; ++I)
      BlockOf[I] = B;
  Kids.assign(N, {});
  for (unsigned B = 1; B < N; ++B)
    if (Idom[B] >= 0)
      Kids[Idom[B]].push_back(B);
  // Dominator-tree intervals: A dominates B iff In[A] <= In[B] and
  // Out[B] <= Out[A].
  In.assign(N, 0);
  Out.assign(N, 0);
  unsigned Clock = 0;
  std::vector<std::pair<unsigned, unsigned>> Stack = {{0, 0}};
  In[0] = Clock++;
  while (!Stack.empty()) {
    auto [B, K] = Stack.back();
    if (K < Kids[B].size()) {
      ++Stack.back().second;
      unsigned C = Kids[B][K];
      In[C] = Clock++;
      Stack.push_back({C, 0});
      continue;
    }
    Out[B] = Clock++;
    Stack.pop_back();
  }
  Preds.assign(N, {});
  for (unsigned B = 0; B < N; ++B)
    for (unsigned S : Blocks[B].Succs)
      Preds[S].push_back(B);
  return true;
}

class ScopedCSE : Dominance {
public:
  explicit ScopedCSE(MFunction &F) : F(F) {}

  void run() {
    if (!build(F))
      return;
    unsigned N = unsigned(Blocks.size());
    WritesExec.assign(N, 0);
    for (unsigned B = 0; B < N; ++B)
      for (unsigned I = Blocks[B].Begin; I < Blocks[B].End; ++I)
        WritesExec[B] |= writesExec(F.Insts[I]);
    C = countDefsAndUses(F);
    SCCLiveness Live(F, Blocks);
    SCC = &Live;
    walk(0, 0);
    dropErased(F);
  }

private:
  struct Entry {
    uint32_t Reg;
    unsigned Epoch;
    unsigned Block;
  };

  MFunction &F;
  std::vector<char> WritesExec;
  VRegCounts C;
  StringMap<Entry> Table;
  const SCCLiveness *SCC = nullptr;
  std::vector<std::pair<std::string, std::optional<Entry>>> Undo;
  unsigned EpochCounter = 0;
  /// Saved copies of EXEC (savesExec) -> the epoch they were taken in.
  DenseMap<uint32_t, unsigned> SavedEpoch;

  /// Whether no path from the end of \p P to the start of its dominator
  /// tree child \p Ch runs an EXEC write: every block on such a path
  /// (reached from P's successors and reaching Ch's predecessors; P and Ch
  /// themselves where a cycle runs them whole) is free of them.
  bool execStable(unsigned P, unsigned Ch) const {
    unsigned N = unsigned(Blocks.size());
    std::vector<char> Fwd(N, 0), Bwd(N, 0);
    std::vector<unsigned> Work;
    for (unsigned S : Blocks[P].Succs)
      if (!Fwd[S]) {
        Fwd[S] = 1;
        Work.push_back(S);
      }
    while (!Work.empty()) {
      unsigned B = Work.back();
      Work.pop_back();
      for (unsigned S : Blocks[B].Succs)
        if (!Fwd[S]) {
          Fwd[S] = 1;
          Work.push_back(S);
        }
    }
    for (unsigned Q : Preds[Ch])
      if (!Bwd[Q]) {
        Bwd[Q] = 1;
        Work.push_back(Q);
      }
    while (!Work.empty()) {
      unsigned B = Work.back();
      Work.pop_back();
      for (unsigned Q : Preds[B])
        if (!Bwd[Q]) {
          Bwd[Q] = 1;
          Work.push_back(Q);
        }
    }
    for (unsigned B = 0; B < N; ++B)
      if (Fwd[B] && Bwd[B] && WritesExec[B])
        return false;
    return true;
  }

  /// The key of instruction \p I if it may take part, else nothing.
  std::optional<std::string> key(unsigned I) const {
    const MInst &MI = F.Insts[I];
    if (MI.Opc == GCNOp::None)
      return std::nullopt;
    if (MI.Kind == InstKind::SMEM) {
      // s_load of the kernel-argument segment through the never-written
      // precoloured pointer: read-only for the whole dispatch.
      if (MI.Ops.size() < 2 || MI.Ops[1].K != MOperand::VReg ||
          F.VRegs[MI.Ops[1].Reg].Fixed < 0 || C.Defs[MI.Ops[1].Reg] != 0)
        return std::nullopt;
    } else if (MI.Kind != InstKind::VALU && MI.Kind != InstKind::SALU) {
      return std::nullopt;
    }
    if (MI.has(OF_CrossLane) || MI.has(OF_Lane) || MI.has(OF_ReadLane) ||
        MI.has(OF_UseVCC) || MI.has(OF_UseSCC) || MI.has(OF_DefEXEC) ||
        MI.has(OF_UseEXEC) || MI.has(OF_Atomic))
      return std::nullopt;
    if (!soleWholeDef(MI))
      return std::nullopt;
    uint32_t D = MI.Ops[0].Reg;
    const VRegInfo &DI = F.VRegs[D];
    if (C.Defs[D] != 1 || DI.Fixed >= 0 || DI.SpillTemp || DI.SpillSlot)
      return std::nullopt;
    std::string K = (Twine(unsigned(MI.Opc)) + "/" + Twine(unsigned(DI.Class)) +
                     "/" + MI.Suffix)
                        .str();
    for (unsigned J = 1; J < MI.Ops.size(); ++J) {
      const MOperand &O = MI.Ops[J];
      if (O.K == MOperand::Imm) {
        K += (Twine("|i") + Twine(O.Value) + (O.Neg ? "n" : "")).str();
        continue;
      }
      if (O.K != MOperand::VReg || !O.IsUse)
        return std::nullopt;
      bool Stable = (C.Defs[O.Reg] == 1 && C.DefAt[O.Reg] >= 0 &&
                     dominates(unsigned(C.DefAt[O.Reg]), I)) ||
                    (C.Defs[O.Reg] == 0 && F.VRegs[O.Reg].Fixed >= 0);
      if (!Stable)
        return std::nullopt;
      K += (Twine("|r") + Twine(O.Reg) + ":" + Twine(int(O.Sub)) + "x" +
            Twine(int(O.Parts)) + (O.Neg ? "n" : ""))
               .str();
    }
    return K;
  }

  /// The register \p MI copies EXEC into, as EXEC was before it
  /// (`s_mov sS, exec`, `s_and_saveexec sS, ...`, `s_or_saveexec sS, ...`),
  /// if it has a single definition.
  std::optional<uint32_t> savesExec(const MInst &MI) const {
    if (MI.Ops.size() < 2 || MI.Ops[0].K != MOperand::VReg ||
        !MI.Ops[0].IsDef || MI.Ops[0].IsUse || MI.Ops[0].Sub >= 0 ||
        C.Defs[MI.Ops[0].Reg] != 1)
      return std::nullopt;
    bool Copy = (MI.is(GCNOp::S_MOV_B32) || MI.is(GCNOp::S_MOV_B64)) &&
                MI.Ops[1].K == MOperand::Hw && MI.Ops[1].H == HwReg::Exec;
    bool SaveExec =
        MI.is(GCNOp::S_AND_SAVEEXEC_B32) || MI.is(GCNOp::S_AND_SAVEEXEC_B64) ||
        MI.is(GCNOp::S_OR_SAVEEXEC_B32) || MI.is(GCNOp::S_OR_SAVEEXEC_B64);
    if (!Copy && !SaveExec)
      return std::nullopt;
    return MI.Ops[0].Reg;
  }

  /// The epoch instruction \p I returns to when it is `s_mov exec, sS`
  /// with sS a saved copy (savesExec) whose single definition dominates
  /// it: EXEC is again what it was at the copy, in the epoch of the copy.
  /// (Both dominate every later point the table serves, so no path from
  /// the copy to such a point runs an entry of that epoch again without
  /// the copy.)
  std::optional<unsigned> restoresExec(unsigned I) const {
    const MInst &MI = F.Insts[I];
    if (!(MI.is(GCNOp::S_MOV_B32) || MI.is(GCNOp::S_MOV_B64)) ||
        MI.Ops.size() != 2 || MI.Ops[0].K != MOperand::Hw ||
        MI.Ops[0].H != HwReg::Exec || MI.Ops[1].K != MOperand::VReg ||
        MI.Ops[1].Sub >= 0)
      return std::nullopt;
    uint32_t Sv = MI.Ops[1].Reg;
    auto It = SavedEpoch.find(Sv);
    if (It == SavedEpoch.end() || C.Defs[Sv] != 1 || C.DefAt[Sv] < 0 ||
        !dominates(unsigned(C.DefAt[Sv]), I))
      return std::nullopt;
    return It->second;
  }

  /// LLVM MachineCSE's first heuristic: a computation as cheap as a few
  /// moves is not reused from a block other than its own or an immediate
  /// predecessor; recomputing it keeps the live range short (a value live
  /// across a whole kernel can cost a spill). Multiplies, transcendentals,
  /// f64 arithmetic and kernel-argument loads are reused from anywhere.
  bool profitable(const MInst &MI, unsigned From, unsigned To) const {
    if (From == To || is_contained(Preds[To], From))
      return true;
    StringRef Op = MI.Op;
    return MI.Kind == InstKind::SMEM || MI.has(OF_Trans) ||
           MI.is(GCNOp::V_MUL_LO_U32) || MI.is(GCNOp::V_MUL_HI_U32) ||
           MI.is(GCNOp::S_MUL_I32) || MI.is(GCNOp::S_MUL_HI_U32) ||
           Op.contains("_f64") || Op.starts_with("v_div_");
  }

  void renameUses(uint32_t From, uint32_t To) {
    for (MInst &MI : F.Insts)
      for (MOperand &O : MI.Ops)
        if (O.K == MOperand::VReg && O.Reg == From && O.IsUse && !O.IsDef)
          O.Reg = To;
  }

  void walk(unsigned B, unsigned Epoch) {
    size_t Mark = Undo.size();
    for (unsigned I = Blocks[B].Begin; I < Blocks[B].End; ++I) {
      MInst &MI = F.Insts[I];
      std::optional<std::string> K = key(I);
      if (K) {
        bool Vector = MI.Kind == InstKind::VALU;
        auto It = Table.find(*K);
        if (It != Table.end() && (!Vector || It->second.Epoch == Epoch) &&
            (!MI.writesSCC() || SCC->deadAfter(I)) &&
            profitable(MI, It->second.Block, B)) {
          uint32_t D = MI.Ops[0].Reg;
          renameUses(D, It->second.Reg);
          eraseInst(MI);
          continue;
        }
        auto Old = Table.find(*K);
        Undo.push_back({*K, Old == Table.end()
                                ? std::nullopt
                                : std::optional<Entry>(Old->second)});
        Table[*K] = {MI.Ops[0].Reg, Epoch, B};
      }
      if (std::optional<uint32_t> Sv = savesExec(MI))
        SavedEpoch[*Sv] = Epoch;
      if (writesExec(MI)) {
        std::optional<unsigned> Back = restoresExec(I);
        Epoch = Back ? *Back : ++EpochCounter;
      }
    }
    for (unsigned Ch : Kids[B])
      walk(Ch, execStable(B, Ch) ? Epoch : ++EpochCounter);
    while (Undo.size() > Mark) {
      auto &[Key, Old] = Undo.back();
      if (Old)
        Table[Key] = *Old;
      else
        Table.erase(Key);
      Undo.pop_back();
    }
  }
};

} // namespace

void runCSE(MFunction &F) { ScopedCSE(F).run(); }

//===----------------------------------------------------------------------===//
// Fusion
//===----------------------------------------------------------------------===//

namespace {

bool isVAdd(const MInst &MI) {
  return MI.is(GCNOp::V_ADD_U32) || MI.is(GCNOp::V_ADD_NC_U32);
}

bool plainSource(const MFunction &F, const MOperand &O) {
  if (O.Neg || O.IsDef)
    return false;
  if (O.K == MOperand::Imm)
    return true;
  return O.K == MOperand::VReg && O.IsUse && O.Sub < 0 &&
         regWidth(F.VRegs[O.Reg].Class) == 1;
}

class Fuser {
public:
  explicit Fuser(MFunction &F) : F(F), T(*F.T) {}

  bool round() {
    C = countDefsAndUses(F);
    Bits = computeValueBits(F);
    std::vector<CFGBlock> Blocks = buildCFG(F);
    SCCLiveness Live(F, Blocks);
    SCC = &Live;
    Uses.assign(F.VRegs.size(), {});
    for (unsigned I = 0; I < F.Insts.size(); ++I)
      for (unsigned K = 0; K < F.Insts[I].Ops.size(); ++K) {
        const MOperand &O = F.Insts[I].Ops[K];
        if (O.K == MOperand::VReg && O.IsUse)
          Uses[O.Reg].push_back({I, K});
      }
    Dirty.assign(F.VRegs.size(), 0);
    bool Changed = false;
    for (unsigned P = 0; P < F.Insts.size(); ++P)
      Changed |= tryProducer(P);
    dropErased(F);
    return Changed;
  }

private:
  MFunction &F;
  const GCNTarget &T;
  VRegCounts C;
  std::vector<uint8_t> Bits;
  std::vector<SmallVector<std::pair<unsigned, unsigned>, 2>> Uses;
  const SCCLiveness *SCC = nullptr;
  /// Registers whose use lists a fusion of this round changed.
  std::vector<char> Dirty;

  bool isScalarReg(const MOperand &O) const {
    return O.K == MOperand::VReg && !isVector(F.VRegs[O.Reg].Class);
  }

  /// Whether a VOP3 instruction reading \p Srcs fits the constant bus and
  /// the target's literal rules.
  bool vop3Fits(ArrayRef<MOperand> Srcs) const {
    SmallVector<uint64_t, 3> Bus;
    bool Literal = false;
    for (const MOperand &O : Srcs) {
      uint64_t Key;
      if (O.K == MOperand::Imm) {
        if (isInlineConstant(O.Value))
          continue;
        Literal = true;
        Key = (uint64_t(1) << 40) | uint32_t(O.Value);
      } else if (isScalarReg(O)) {
        Key = O.Reg;
      } else {
        continue;
      }
      if (!is_contained(Bus, Key))
        Bus.push_back(Key);
    }
    if (Literal && !T.VOP3Literal)
      return false;
    return Bus.size() <= T.ConstantBusLimit;
  }

  /// Whether the sources \p Srcs of the producer at \p P hold the same
  /// values at the consumer \p Cn, and EXEC is the same: same block, no
  /// redefinition and no EXEC write in between.
  bool sameValuesAt(unsigned P, unsigned Cn, ArrayRef<MOperand> Srcs) const {
    if (Cn <= P)
      return false;
    for (unsigned J = P + 1; J < Cn; ++J) {
      const MInst &X = F.Insts[J];
      if (X.Kind == InstKind::Label || X.Kind == InstKind::Branch ||
          writesExec(X))
        return false;
      for (const MOperand &O : X.Ops)
        if (O.K == MOperand::VReg && O.IsDef)
          for (const MOperand &S : Srcs)
            if (S.K == MOperand::VReg && S.Reg == O.Reg)
              return false;
    }
    return true;
  }

  /// Fuses every use of the result of instruction \p P, or nothing.
  bool tryProducer(unsigned P) {
    MInst &PI = F.Insts[P];
    bool VShl = PI.is(GCNOp::V_LSHLREV_B32), SShl = PI.is(GCNOp::S_LSHL_B32);
    bool Add = isVAdd(PI);
    bool Mul = PI.is(GCNOp::V_MUL_LO_U32);
    if (!(VShl || SShl || Add || Mul) || PI.Ops.size() != 3 ||
        !soleWholeDef(PI))
      return false;
    uint32_t R = PI.Ops[0].Reg;
    if (C.Defs[R] != 1 || F.VRegs[R].Fixed >= 0 || Uses[R].empty() ||
        Dirty[R] || !plainSource(F, PI.Ops[1]) || !plainSource(F, PI.Ops[2]))
      return false;
    // Value, amount: v_lshlrev_b32 d, amount, value; s_lshl_b32 d, value,
    // amount.
    MOperand Val = VShl ? PI.Ops[2] : PI.Ops[1];
    MOperand Amt = VShl ? PI.Ops[1] : PI.Ops[2];
    if (Mul) {
      for (unsigned K = 1; K < 3; ++K) {
        const MOperand &O = PI.Ops[K];
        unsigned B = O.K == MOperand::Imm
                         ? (uint32_t(O.Value) < (1u << 24) ? 0 : 32)
                         : Bits[O.Reg];
        if (B > 24)
          return false;
      }
    }
    SmallVector<MOperand, 3> Srcs = {PI.Ops[1], PI.Ops[2]};
    // Plan every consumer first.
    struct Plan {
      unsigned I;
      GCNOp Op;
      SmallVector<MOperand, 4> Ops;
    };
    SmallVector<Plan, 4> Plans;
    for (auto [U, K] : Uses[R]) {
      const MInst &UI = F.Insts[U];
      if (UI.Ops[K].IsDef || UI.Ops.size() != 3 || !soleWholeDef(UI) ||
          !sameValuesAt(P, U, Srcs))
        return false;
      unsigned ReadsR = 0;
      for (const MOperand &O : UI.Ops)
        ReadsR += O.K == MOperand::VReg && O.Reg == R && O.IsUse;
      if (ReadsR != 1)
        return false;
      MOperand Other = UI.Ops[K == 1 ? 2 : 1];
      if (!plainSource(F, Other))
        return false;
      Plan Pl{U, GCNOp::None, {UI.Ops[0]}};
      if ((VShl || SShl) && isVAdd(UI)) {
        Pl.Op = GCNOp::V_LSHL_ADD_U32;
        Pl.Ops.append({Val, Amt, Other});
      } else if (SShl && UI.is(GCNOp::S_ADD_U32) && Amt.K == MOperand::Imm &&
                 Amt.Value >= 1 && Amt.Value <= 4) {
        static const GCNOp Scalar[] = {
            GCNOp::S_LSHL1_ADD_U32, GCNOp::S_LSHL2_ADD_U32,
            GCNOp::S_LSHL3_ADD_U32, GCNOp::S_LSHL4_ADD_U32};
        if (!SCC->deadAfter(U))
          return false;
        // SOP2 takes one literal dword.
        auto Lit = [](const MOperand &O) {
          return O.K == MOperand::Imm && !isInlineConstant(O.Value);
        };
        if (Lit(Val) && Lit(Other) &&
            uint32_t(Val.Value) != uint32_t(Other.Value))
          return false;
        Pl.Op = Scalar[Amt.Value - 1];
        Pl.Ops.append({Val, Other});
      } else if (Add && UI.is(GCNOp::V_LSHLREV_B32) && K == 2) {
        Pl.Op = GCNOp::V_ADD_LSHL_U32;
        Pl.Ops.append({PI.Ops[1], PI.Ops[2], Other});
      } else if (Mul && isVAdd(UI)) {
        Pl.Op = GCNOp::V_MAD_U32_U24;
        Pl.Ops.append({PI.Ops[1], PI.Ops[2], Other});
      } else {
        return false;
      }
      if (opInfo(Pl.Op).Kind == InstKind::VALU &&
          !vop3Fits(ArrayRef<MOperand>(Pl.Ops).drop_front()))
        return false;
      Plans.push_back(std::move(Pl));
    }
    // The shift's SCC write disappears with it.
    if (SShl && !SCC->deadAfter(P))
      return false;
    for (Plan &Pl : Plans) {
      MInst &UI = F.Insts[Pl.I];
      std::string Comment = UI.Comment;
      UI.setOp(Pl.Op);
      UI.Ops.assign(Pl.Ops.begin(), Pl.Ops.end());
      UI.Comment = Comment;
    }
    // The use lists of the registers that moved are stale until the next
    // round.
    for (const Plan &Pl : Plans)
      for (const MOperand &O : Pl.Ops)
        if (O.K == MOperand::VReg)
          Dirty[O.Reg] = 1;
    eraseInst(PI);
    Dirty[R] = 1;
    return true;
  }
};

} // namespace

void runFusion(MFunction &F) {
  Fuser Fu(F);
  for (unsigned Round = 0; Round < 4 && Fu.round(); ++Round)
    ;
}

//===----------------------------------------------------------------------===//
// Loop-invariant code motion
//===----------------------------------------------------------------------===//

namespace {

/// Whether \p MI may be computed once before the loop instead: a VALU
/// instruction that writes one whole VGPR and reads only virtual registers
/// and immediates, with no lane or cross-lane access, DPP or VCC read.
bool hoistableKind(const MFunction &F, const MInst &MI) {
  if (MI.Kind != InstKind::VALU || MI.enc() == GCNEnc::DPP ||
      MI.has(OF_Lane) || MI.has(OF_CrossLane) || MI.has(OF_ReadLane) ||
      MI.readsVCC() || !MI.Suffix.empty() || !soleWholeDef(MI))
    return false;
  RegClass C = F.VRegs[MI.Ops[0].Reg].Class;
  if (C != RegClass::V32 && C != RegClass::V64)
    return false;
  for (const MOperand &O : MI.Ops)
    if (O.K != MOperand::VReg && O.K != MOperand::Imm)
      return false;
  return true;
}

/// Whether \p MI may make EXEC larger than it was (s_or_saveexec,
/// s_mov exec of -1 or of a saved mask, an OR into EXEC).
bool mayWidenExec(const MInst &MI) {
  return writesExec(MI) && !MI.is(GCNOp::S_AND_SAVEEXEC_B32) &&
         !MI.is(GCNOp::S_AND_SAVEEXEC_B64) && !MI.is(GCNOp::S_ANDN2_B32) &&
         !MI.is(GCNOp::S_ANDN2_B64) && !MI.is(GCNOp::S_AND_B32) &&
         !MI.is(GCNOp::S_AND_B64);
}

/// Hoists the invariant instructions of the loop headed by block \p H;
/// false if nothing moved.
bool hoistLoop(MFunction &F, const Dominance &D, unsigned H,
               ArrayRef<unsigned> Latches) {
  const std::vector<CFGBlock> &Blocks = D.Blocks;
  const auto &Preds = D.Preds;
  // The natural loop: H and every block reaching a latch without H.
  std::vector<char> In(Blocks.size(), 0);
  In[H] = 1;
  std::vector<unsigned> Work(Latches.begin(), Latches.end());
  while (!Work.empty()) {
    unsigned B = Work.back();
    Work.pop_back();
    if (In[B])
      continue;
    In[B] = 1;
    for (unsigned P : Preds[B])
      Work.push_back(P);
  }
  // One way in: falling through from the block before the header.
  for (unsigned P : Preds[H])
    if (!In[P] && P + 1 != H)
      return false;
  if (H == 0 || In[H - 1])
    return false;
  std::vector<unsigned> LoopDefs(F.VRegs.size(), 0);
  for (unsigned B = 0; B < Blocks.size(); ++B)
    if (In[B])
      for (unsigned I = Blocks[B].Begin; I < Blocks[B].End; ++I) {
        if (mayWidenExec(F.Insts[I]))
          return false;
        for (const MOperand &O : F.Insts[I].Ops)
          if (O.K == MOperand::VReg && O.IsDef)
            ++LoopDefs[O.Reg];
      }
  VRegCounts C = countDefsAndUses(F);
  std::vector<MInst> Hoisted;
  for (unsigned B = 0; B < Blocks.size(); ++B) {
    if (!In[B])
      continue;
    for (unsigned I = Blocks[B].Begin; I < Blocks[B].End; ++I) {
      MInst &MI = F.Insts[I];
      if (!hoistableKind(F, MI) || C.Defs[MI.Ops[0].Reg] != 1)
        continue;
      bool Invariant = true;
      for (unsigned K = 1; K < MI.Ops.size(); ++K)
        if (MI.Ops[K].K == MOperand::VReg && LoopDefs[MI.Ops[K].Reg])
          Invariant = false;
      if (!Invariant)
        continue;
      --LoopDefs[MI.Ops[0].Reg];
      Hoisted.push_back(MI);
      eraseInst(MI);
    }
  }
  if (Hoisted.empty())
    return false;
  F.Insts.insert(F.Insts.begin() + Blocks[H].Begin, Hoisted.begin(),
                 Hoisted.end());
  dropErased(F);
  return true;
}

} // namespace

void runLICM(MFunction &F) {
  // One loop at a time, innermost first (a value hoisted out of an inner
  // loop may leave the outer one next), rebuilding the CFG after each move.
  for (unsigned Round = 0; Round < 64; ++Round) {
    Dominance D;
    if (!D.build(F))
      return;
    // Back edges B -> H (H dominates B), by header; innermost loops (the
    // shortest span) first.
    std::map<unsigned, SmallVector<unsigned, 2>> Latches;
    for (unsigned B = 0; B < D.Blocks.size(); ++B)
      for (unsigned S : D.Blocks[B].Succs)
        if (S <= B && D.blockDominates(S, B))
          Latches[S].push_back(B);
    std::vector<std::pair<unsigned, unsigned>> Order; // (span, header)
    for (auto &[Hd, Ls] : Latches)
      Order.push_back({*llvm::max_element(Ls) - Hd, Hd});
    llvm::sort(Order);
    bool Moved = false;
    for (auto [Span, Hd] : Order)
      if (hoistLoop(F, D, Hd, Latches[Hd])) {
        Moved = true;
        break;
      }
    if (!Moved)
      return;
  }
}

//===----------------------------------------------------------------------===//
// Packed f32 multiply-adds
//===----------------------------------------------------------------------===//

namespace {

/// Whether \p O is one 32-bit part of a VGPR tuple (a 64- or 128-bit load's
/// destination).
bool isTuplePart(const MFunction &F, const MOperand &O) {
  if (O.K != MOperand::VReg || O.Sub < 0 || O.Parts != 1 || O.Neg)
    return false;
  RegClass C = F.VRegs[O.Reg].Class;
  return C == RegClass::V64 || C == RegClass::V128;
}

/// Whether \p O names a whole plain 32-bit VGPR that may become half of a
/// pair.
bool isPlainV32(const MFunction &F, const MOperand &O) {
  if (O.K != MOperand::VReg || O.Sub >= 0 || O.Neg)
    return false;
  const VRegInfo &VI = F.VRegs[O.Reg];
  return VI.Class == RegClass::V32 && VI.Fixed < 0 && !VI.SpillTemp &&
         !VI.SpillSlot && !VI.WholeKernel;
}

/// `v_fma_f32 D, A, B, C` with D and C plain VGPRs (the same one, or a
/// web's value and the next), A and B tuple parts.
bool isAccumulatingFMA(const MFunction &F, const MInst &MI) {
  if (!MI.is(GCNOp::V_FMA_F32) || MI.Ops.size() != 4 || !MI.Suffix.empty())
    return false;
  const MOperand &D = MI.Ops[0], &C = MI.Ops[3];
  return isPlainV32(F, D) && D.IsDef && isPlainV32(F, C) && C.IsUse &&
         isTuplePart(F, MI.Ops[1]) && isTuplePart(F, MI.Ops[2]);
}

bool touches(const MInst &MI, uint32_t Reg, bool DefsOnly) {
  for (const MOperand &O : MI.Ops)
    if (O.K == MOperand::VReg && O.Reg == Reg && (O.IsDef || !DefsOnly))
      return true;
  return false;
}

} // namespace

void runPackF32(MFunction &F) {
  if (!F.T->PackedF32)
    return;
  std::vector<CFGBlock> Blocks = buildCFG(F);
  // Accumulator -> (pair, half), decided here, applied at the end.
  DenseMap<uint32_t, std::pair<uint32_t, int8_t>> Half;
  // Whether X and Y can be (or already are) the low and high halves of one
  // pair; the pair, or 0 for a new one.
  auto Pairable = [&](uint32_t X, uint32_t Y, uint32_t &P) {
    auto IX = Half.find(X), IY = Half.find(Y);
    P = 0;
    if (X == Y)
      return false;
    if (IX == Half.end() && IY == Half.end())
      return true;
    if (IX == Half.end() || IY == Half.end() ||
        IX->second.first != IY->second.first || IX->second.second != 0)
      return false;
    P = IX->second.first;
    return true;
  };
  auto Pair = [&](uint32_t X, uint32_t Y, uint32_t P) {
    if (!P) {
      P = F.newVReg(RegClass::V64);
      Half[X] = {P, 0};
      Half[Y] = {P, 1};
    }
    return P;
  };
  for (const CFGBlock &B : Blocks)
    for (unsigned I = B.Begin; I < B.End; ++I) {
      MInst &M1 = F.Insts[I];
      if (!isAccumulatingFMA(F, M1) || M1.Ops[2].Sub % 2 != 0)
        continue;
      const MOperand A = M1.Ops[1], Bv = M1.Ops[2];
      uint32_t D1 = M1.Ops[0].Reg, C1 = M1.Ops[3].Reg;
      for (unsigned J = I + 1; J < B.End; ++J) {
        MInst &M2 = F.Insts[J];
        if (writesExec(M2))
          break;
        if (isAccumulatingFMA(F, M2) && M2.Ops[1].Reg == A.Reg &&
            M2.Ops[1].Sub == A.Sub && M2.Ops[2].Reg == Bv.Reg &&
            M2.Ops[2].Sub == Bv.Sub + 1) {
          uint32_t D2 = M2.Ops[0].Reg, C2 = M2.Ops[3].Reg;
          // (D1, D2) and (C1, C2) must be pairs, new or already made, the
          // same pair where D and C are one register.
          uint32_t PD = 0, PC = 0;
          if ((D1 == C1) != (D2 == C2) || !Pairable(D1, D2, PD) ||
              (D1 != C1 && !Pairable(C1, C2, PC)) || D2 == C1 || C2 == D1)
            break;
          // D2 = fma(A, B[k+1], C2) moves up to M1: nothing between may
          // read or write D2, or write C2, A or B.
          bool Clear = true;
          for (unsigned K = I + 1; K < J && Clear; ++K)
            Clear = !touches(F.Insts[K], D2, false) &&
                    !touches(F.Insts[K], C2, true) &&
                    !touches(F.Insts[K], A.Reg, true) &&
                    !touches(F.Insts[K], Bv.Reg, true);
          if (!Clear)
            break;
          PD = Pair(D1, D2, PD);
          PC = D1 == C1 ? PD : Pair(C1, C2, PC);
          int S = A.Sub & 1;
          MOperand PDo = MOperand::def(PD), PCo = MOperand::use(PC);
          MOperand PA = MOperand::use(A.Reg, int8_t(A.Sub & ~1));
          PA.Parts = 2;
          MOperand PB = MOperand::use(Bv.Reg, Bv.Sub);
          PB.Parts = 2;
          M1.setOp(GCNOp::V_PK_FMA_F32);
          M1.Ops.assign({PDo, PA, PB, PCo});
          // op_sel: which half of each source feeds the low result;
          // op_sel_hi: the high result.
          M1.Suffix = S ? " op_sel:[1,0,0] op_sel_hi:[1,1,1]"
                        : " op_sel_hi:[0,1,1]";
          eraseInst(M2);
          break;
        }
        // A write of A or B: a partner after it reads other values.
        if (touches(M2, A.Reg, true) || touches(M2, Bv.Reg, true))
          break;
      }
    }
  if (Half.empty())
    return;
  for (MInst &MI : F.Insts)
    for (MOperand &O : MI.Ops)
      if (O.K == MOperand::VReg) {
        auto It = Half.find(O.Reg);
        if (It != Half.end()) {
          O.Reg = It->second.first;
          O.Sub = It->second.second;
        }
      }
  dropErased(F);
}

//===----------------------------------------------------------------------===//
// SCC of the operation instead of a compare with 0
//===----------------------------------------------------------------------===//

namespace {

/// SALU operations whose SCC is "the 32-bit result is not 0".
bool setsSCCNonZero(const MInst &MI) {
  switch (MI.Opc) {
  case GCNOp::S_AND_B32:
  case GCNOp::S_ANDN2_B32:
  case GCNOp::S_OR_B32:
  case GCNOp::S_XOR_B32:
  case GCNOp::S_NOT_B32:
  case GCNOp::S_LSHL_B32:
  case GCNOp::S_LSHR_B32:
  case GCNOp::S_ASHR_I32:
  case GCNOp::S_BFE_U32:
    return true;
  default:
    return false;
  }
}

} // namespace

void runSCCFold(MFunction &F) {
  std::vector<CFGBlock> Blocks = buildCFG(F);
  SCCLiveness Live(F, Blocks);
  bool Changed = false;
  for (const CFGBlock &B : Blocks)
    for (unsigned I = B.Begin; I < B.End; ++I) {
      const MInst &Op = F.Insts[I];
      if (!setsSCCNonZero(Op) || Op.Ops.empty() ||
          Op.Ops[0].K != MOperand::VReg || !Op.Ops[0].IsDef ||
          Op.Ops[0].Sub >= 0)
        continue;
      unsigned C = I + 1;
      while (C < B.End && F.Insts[C].Kind == InstKind::Comment)
        ++C;
      if (C >= B.End)
        continue;
      MInst &Cmp = F.Insts[C];
      bool Eq = Cmp.is(GCNOp::S_CMP_EQ_U32);
      if ((!Eq && !Cmp.is(GCNOp::S_CMP_LG_U32)) || Cmp.Ops.size() != 2)
        continue;
      auto IsR = [&](const MOperand &O) {
        return O.K == MOperand::VReg && O.Reg == Op.Ops[0].Reg && O.Sub < 0;
      };
      auto IsZero = [](const MOperand &O) {
        return O.K == MOperand::Imm && O.Value == 0;
      };
      if (!((IsR(Cmp.Ops[0]) && IsZero(Cmp.Ops[1])) ||
            (IsZero(Cmp.Ops[0]) && IsR(Cmp.Ops[1]))))
        continue;
      SmallVector<unsigned, 2> Readers;
      if (Eq) {
        // Every SCC reader before the next SCC write must be invertible,
        // and SCC dead after the last one.
        bool Ok = true;
        unsigned Last = C;
        for (unsigned J = C + 1; J < B.End && Ok; ++J) {
          const MInst &MI = F.Insts[J];
          if (readsSCCAny(MI)) {
            if (MI.is(GCNOp::S_CBRANCH_SCC0) || MI.is(GCNOp::S_CBRANCH_SCC1) ||
                ((MI.is(GCNOp::S_CSELECT_B32) || MI.is(GCNOp::S_CSELECT_B64)) &&
                 MI.Ops.size() == 3))
              Readers.push_back(J), Last = J;
            else
              Ok = false;
          }
          if (writesSCCAny(MI))
            break;
        }
        if (!Ok || Readers.empty() || !Live.deadAfter(Last))
          continue;
        for (unsigned J : Readers) {
          MInst &MI = F.Insts[J];
          if (MI.is(GCNOp::S_CBRANCH_SCC0))
            MI.setOp(GCNOp::S_CBRANCH_SCC1);
          else if (MI.is(GCNOp::S_CBRANCH_SCC1))
            MI.setOp(GCNOp::S_CBRANCH_SCC0);
          else
            std::swap(MI.Ops[1], MI.Ops[2]);
        }
      }
      eraseInst(Cmp);
      Changed = true;
    }
  if (Changed)
    dropErased(F);
}

} // namespace wave::amdgcn
