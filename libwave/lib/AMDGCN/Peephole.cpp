//===- Peephole.cpp - Constants, copies and strength reduction ------------===//
//
// WaveASM's "Peephole" stage, on the virtual-register IR before legalization
// and allocation:
//  - constant propagation: a register defined once by `s_mov`/`v_mov` of an
//    immediate is replaced by the immediate where an operand may be one;
//  - copy coalescing: `mov D, S`, where S has one definition and this is its
//    only use, renames S's definition to D (no EXEC change, no access to D
//    in between);
//  - copy forwarding of precoloured inputs never redefined;
//  - strength reduction: a multiply by 2^k (`v_mul_lo_u32`, `s_mul_i32`)
//    becomes a shift;
//  - identities and constants: a shift by 0, an add or or of 0 become a
//    copy, a 32-bit SALU or integer VALU operation on two immediates its
//    value (SALU forms only where the SCC they write is dead);
//  - dead definitions, ALU instructions just before s_endpgm, and
//    branches (conditional or not) to the next
//    instruction are removed, and a conditional branch over an
//    unconditional one becomes the inverted branch (one exit branch for a
//    uniform loop).
//
//===----------------------------------------------------------------------===//
#include "GCNIR.h"

#include "llvm/ADT/StringExtras.h"

#include <optional>

using namespace llvm;

namespace wave::amdgcn {

namespace {

/// May operand \p K of \p MI be an immediate?
bool immAllowed(const MInst &MI, unsigned K) {
  StringRef Op = MI.Op;
  if (MI.Kind == InstKind::VALU) {
    if (MI.has(OF_CrossLane)) // lane accesses, DPP, permlanes
      return false;
    if (MI.is(GCNOp::V_CNDMASK_B32_E64) && K == MI.Ops.size() - 1)
      return false;
    if (Op.starts_with("v_div_") || Op.ends_with("_f64") ||
        Op.starts_with("v_pk_"))
      return false;
    return true;
  }
  if (MI.Kind == InstKind::SALU) {
    if (Op.starts_with("s_bitset") || Op.starts_with("s_ff1") ||
        Op.contains("saveexec") || Op.ends_with("_b64") ||
        Op.ends_with("_u64"))
      return false;
    // One literal per SALU instruction.
    for (unsigned J = 0; J < MI.Ops.size(); ++J)
      if (J != K && MI.Ops[J].K == MOperand::Imm &&
          !(MI.Ops[J].Value >= -16 && MI.Ops[J].Value <= 64))
        return false;
    return true;
  }
  return false;
}

/// Does operand \p K of \p MI read a 16-bit float (the low half of the
/// register)? An immediate there is the register's low 16 bits: the
/// assembler takes 16-bit literals only.
bool isF16Source(const MInst &MI, unsigned K) {
  StringRef Op = MI.Op;
  if (MI.Kind != InstKind::VALU || !Op.contains("_f16") ||
      Op.starts_with("v_pk_") || MI.Ops[K].IsDef)
    return false;
  return !Op.starts_with("v_cvt_") || Op.ends_with("_f16");
}

bool isPow2(int64_t V) { return V > 0 && (V & (V - 1)) == 0; }

/// Whether SCC as \p F.Insts[I] leaves it is never read: a later
/// instruction of the same block writes it before anything reads it.
/// Conservatively false at the end of a block.
bool sccDeadAfter(const MFunction &F, unsigned I) {
  for (unsigned J = I + 1; J < F.Insts.size(); ++J) {
    const MInst &MI = F.Insts[J];
    if (MI.readsSCC() || MI.Kind == InstKind::Label ||
        MI.Kind == InstKind::Branch)
      return false;
    if (MI.writesSCC())
      return true;
  }
  return false;
}

/// The value of the 32-bit SALU operation \p Op on \p A and \p B, if it
/// is one this folds (ISA pseudocode; shifts use the low 5 bits).
std::optional<uint32_t> foldSALU(GCNOp Op, uint32_t A, uint32_t B) {
  switch (Op) {
  case GCNOp::S_ADD_U32:
    return A + B;
  case GCNOp::S_SUB_U32:
    return A - B;
  case GCNOp::S_MUL_I32:
    return A * B;
  case GCNOp::S_AND_B32:
    return A & B;
  case GCNOp::S_OR_B32:
    return A | B;
  case GCNOp::S_XOR_B32:
    return A ^ B;
  case GCNOp::S_LSHL_B32:
    return A << (B & 31);
  case GCNOp::S_LSHR_B32:
    return A >> (B & 31);
  case GCNOp::S_ASHR_I32:
    return uint32_t(int32_t(A) >> (B & 31));
  default:
    return std::nullopt;
  }
}

/// Identities and constants: x << 0, x >> 0, x + 0, x - 0 and x | 0 are
/// copies of x; a 32-bit SALU or integer VALU operation on two immediates
/// is its value.
/// SALU forms are rewritten only where the SCC they write is dead.
bool foldIdentities(MFunction &F) {
  bool Changed = false;
  for (unsigned I = 0; I < F.Insts.size(); ++I) {
    MInst &MI = F.Insts[I];
    if (MI.Ops.size() != 3 || !MI.Ops[0].IsDef || MI.Ops[0].IsUse ||
        MI.Ops[0].K != MOperand::VReg)
      continue;
    const MOperand &A = MI.Ops[1], &B = MI.Ops[2];
    if (A.Neg || B.Neg || !A.IsUse || !B.IsUse)
      continue;
    StringRef Op = MI.Op;
    GCNOp Opc = MI.Opc;
    auto IsAny = [&](std::initializer_list<GCNOp> Ops) {
      return llvm::is_contained(Ops, Opc);
    };
    auto IsZero = [](const MOperand &O) {
      return O.K == MOperand::Imm && O.Value == 0;
    };
    if (MI.Kind == InstKind::SALU) {
      if (!Op.ends_with("_b32") && !Op.ends_with("_u32") &&
          !Op.ends_with("_i32"))
        continue;
      std::optional<MOperand> Src;
      if (A.K == MOperand::Imm && B.K == MOperand::Imm) {
        if (auto V = foldSALU(Opc, uint32_t(A.Value), uint32_t(B.Value)))
          Src = MOperand::imm(int64_t(int32_t(*V)));
      } else if (IsZero(B) &&
                 IsAny({GCNOp::S_LSHL_B32, GCNOp::S_LSHR_B32,
                        GCNOp::S_ASHR_I32, GCNOp::S_ADD_U32, GCNOp::S_SUB_U32,
                        GCNOp::S_OR_B32, GCNOp::S_XOR_B32})) {
        Src = A;
      } else if (IsZero(A) && IsAny({GCNOp::S_ADD_U32, GCNOp::S_OR_B32,
                                     GCNOp::S_XOR_B32})) {
        Src = B;
      }
      if (!Src || (MI.writesSCC() && !sccDeadAfter(F, I)))
        continue;
      toMov(MI, *Src);
      Changed = true;
      continue;
    }
    if (MI.Kind != InstKind::VALU)
      continue;
    // A 32-bit integer VALU operation on two immediates is its value.
    if (A.K == MOperand::Imm && B.K == MOperand::Imm) {
      uint32_t X = uint32_t(A.Value), Y = uint32_t(B.Value);
      std::optional<uint32_t> V;
      if (IsAny({GCNOp::V_ADD_U32, GCNOp::V_ADD_NC_U32}))
        V = X + Y;
      else if (IsAny({GCNOp::V_SUB_U32, GCNOp::V_SUB_NC_U32}))
        V = X - Y;
      else if (Opc == GCNOp::V_MUL_LO_U32)
        V = X * Y;
      else if (Opc == GCNOp::V_AND_B32)
        V = X & Y;
      else if (Opc == GCNOp::V_OR_B32)
        V = X | Y;
      else if (Opc == GCNOp::V_XOR_B32)
        V = X ^ Y;
      else if (Opc == GCNOp::V_LSHLREV_B32) // amount first
        V = Y << (X & 31);
      else if (Opc == GCNOp::V_LSHRREV_B32)
        V = Y >> (X & 31);
      else if (Opc == GCNOp::V_ASHRREV_I32)
        V = uint32_t(int32_t(Y) >> (X & 31));
      if (V) {
        toMov(MI, MOperand::imm(int64_t(int32_t(*V))));
        Changed = true;
        continue;
      }
    }
    // VALU shifts take the amount first (v_lshlrev_b32 d, k, x).
    if (IsZero(A) && IsAny({GCNOp::V_LSHLREV_B32, GCNOp::V_LSHRREV_B32,
                            GCNOp::V_ASHRREV_I32})) {
      toMov(MI, B);
      Changed = true;
    } else if (IsAny({GCNOp::V_ADD_U32, GCNOp::V_ADD_NC_U32,
                      GCNOp::V_OR_B32}) &&
               (IsZero(A) || IsZero(B))) {
      toMov(MI, IsZero(A) ? B : A);
      Changed = true;
    }
  }
  return Changed;
}

} // namespace

void runPeephole(MFunction &F) {
  bool Changed = true;
  unsigned Rounds = 0;
  while (Changed && Rounds++ < 8) {
    Changed = false;
    VRegCounts C = countDefsAndUses(F);
    // Constant propagation.
    for (unsigned I = 0; I < F.Insts.size(); ++I) {
      MInst &MI = F.Insts[I];
      for (unsigned K = 0; K < MI.Ops.size(); ++K) {
        MOperand &O = MI.Ops[K];
        if (O.K != MOperand::VReg || !O.IsUse || O.IsDef || O.Sub >= 0)
          continue;
        if (C.Defs[O.Reg] != 1 || F.VRegs[O.Reg].Fixed >= 0)
          continue;
        const MInst &Def = F.Insts[C.DefAt[O.Reg]];
        if (!(Def.is(GCNOp::S_MOV_B32) || Def.is(GCNOp::V_MOV_B32)) ||
            Def.Ops[1].K != MOperand::Imm || Def.Ops[0].Sub >= 0)
          continue;
        if (!immAllowed(MI, K))
          continue;
        bool Neg = O.Neg;
        int64_t V = Def.Ops[1].Value;
        O = MOperand::imm(isF16Source(MI, K) ? V & 0xFFFF : V);
        if (Neg) { // fold the negation into the constant for f32 only
          O = MI.Ops[K];
          O.Neg = true;
        }
        Changed = true;
      }
    }
    Changed |= foldIdentities(F);
    C = countDefsAndUses(F);
    // Strength reduction.
    for (MInst &MI : F.Insts) {
      // x * 2^k -> x << k. The VALU shift takes its amount first
      // (v_lshlrev_b32 d, k, x), the SALU shift second (s_lshl_b32 d, x, k).
      bool Vector = MI.is(GCNOp::V_MUL_LO_U32);
      if ((Vector || MI.is(GCNOp::S_MUL_I32)) && MI.Ops.size() == 3) {
        for (unsigned K = 1; K < 3; ++K)
          if (MI.Ops[K].K == MOperand::Imm && isPow2(MI.Ops[K].Value)) {
            MOperand X = MI.Ops[3 - K];
            MOperand Shift =
                MOperand::imm(Log2_64(uint64_t(MI.Ops[K].Value)));
            MI.setOp(Vector ? GCNOp::V_LSHLREV_B32 : GCNOp::S_LSHL_B32);
            MI.Ops[1] = Vector ? Shift : X;
            MI.Ops[2] = Vector ? X : Shift;
            Changed = true;
            break;
          }
      }
    }
    // Copy coalescing: S defined once, used only by `mov D, S`.
    for (unsigned I = 0; I < F.Insts.size(); ++I) {
      MInst &MI = F.Insts[I];
      if (!isMov(MI) || MI.Ops[1].K != MOperand::VReg || MI.Ops[0].Sub >= 0 ||
          MI.Ops[1].Sub >= 0)
        continue;
      uint32_t D = MI.Ops[0].Reg, S = MI.Ops[1].Reg;
      if (D == S || F.VRegs[D].Class != F.VRegs[S].Class)
        continue;
      if (F.VRegs[S].Fixed >= 0 || F.VRegs[D].Fixed >= 0)
        continue;
      if (C.Defs[S] != 1 || C.Uses[S] != 1 || C.DefAt[S] < 0 ||
          unsigned(C.DefAt[S]) >= I)
        continue;
      MInst &Def = F.Insts[C.DefAt[S]];
      bool Ok = true;
      for (const MOperand &O : Def.Ops)
        if (O.K == MOperand::VReg && O.Reg == S && O.IsUse)
          Ok = false;
      for (unsigned J = unsigned(C.DefAt[S]) + 1; J < I && Ok; ++J) {
        const MInst &X = F.Insts[J];
        if (X.Kind == InstKind::Label || X.Kind == InstKind::Branch ||
            writesExec(X))
          Ok = false;
        for (const MOperand &O : X.Ops)
          if (O.K == MOperand::VReg && O.Reg == D)
            Ok = false;
      }
      // The definition itself must not read D (it would read the new value).
      for (const MOperand &O : Def.Ops)
        if (O.K == MOperand::VReg && O.Reg == D)
          Ok = false;
      if (!Ok)
        continue;
      for (MOperand &O : Def.Ops)
        if (O.K == MOperand::VReg && O.Reg == S && O.IsDef)
          O.Reg = D;
      eraseInst(MI);
      Changed = true;
      C = countDefsAndUses(F);
    }
    // Forward copies of never-redefined precoloured inputs.
    for (unsigned I = 0; I < F.Insts.size(); ++I) {
      MInst &MI = F.Insts[I];
      if (!isMov(MI) || MI.Ops[1].K != MOperand::VReg || MI.Ops[0].Sub >= 0 ||
          MI.Ops[1].Sub >= 0)
        continue;
      uint32_t D = MI.Ops[0].Reg, S = MI.Ops[1].Reg;
      if (F.VRegs[S].Fixed < 0 || C.Defs[S] != 0 || C.Defs[D] != 1 ||
          F.VRegs[D].Class != F.VRegs[S].Class || F.VRegs[D].Fixed >= 0)
        continue;
      for (MInst &X : F.Insts)
        for (MOperand &O : X.Ops)
          if (O.K == MOperand::VReg && O.Reg == D && O.IsUse && !O.IsDef)
            O.Reg = S;
      Changed = true;
    }
    // Dead definitions.
    C = countDefsAndUses(F);
    for (MInst &MI : F.Insts) {
      if (MI.Kind != InstKind::VALU && MI.Kind != InstKind::SALU)
        continue;
      if (MI.writesSCC() || writesExec(MI) ||
          MI.is(GCNOp::V_WRITELANE_B32))
        continue;
      bool AnyDef = false, AllDead = true;
      for (const MOperand &O : MI.Ops) {
        if (O.K == MOperand::Hw && O.IsDef)
          AllDead = false;
        if (O.K == MOperand::VReg && O.IsDef) {
          AnyDef = true;
          if (C.Uses[O.Reg] != 0 || O.IsUse)
            AllDead = false;
        }
      }
      if (AnyDef && AllDead) {
        eraseInst(MI);
        Changed = true;
      }
    }
  }
  simplifyBranches(F); // drops the emptied instructions too
  // ALU instructions that only labels and comments separate from
  // s_endpgm write nothing anyone reads (typically the EXEC restore of a
  // region that ends the kernel).
  for (unsigned I = 0; I < F.Insts.size(); ++I) {
    if (!F.Insts[I].is(GCNOp::S_ENDPGM))
      continue;
    for (unsigned J = I; J-- > 0;) {
      MInst &MI = F.Insts[J];
      if (MI.Kind == InstKind::Label || MI.Kind == InstKind::Comment)
        continue;
      if (MI.Kind != InstKind::SALU && MI.Kind != InstKind::VALU)
        break;
      eraseInst(MI);
    }
  }
  dropErased(F);
}

/// The conditional branch taken exactly when \p Op is not, or None.
static GCNOp invertedBranch(GCNOp Op) {
  switch (Op) {
  case GCNOp::S_CBRANCH_SCC0:
    return GCNOp::S_CBRANCH_SCC1;
  case GCNOp::S_CBRANCH_SCC1:
    return GCNOp::S_CBRANCH_SCC0;
  case GCNOp::S_CBRANCH_EXECZ:
    return GCNOp::S_CBRANCH_EXECNZ;
  case GCNOp::S_CBRANCH_EXECNZ:
    return GCNOp::S_CBRANCH_EXECZ;
  default:
    return GCNOp::None;
  }
}

void simplifyBranches(MFunction &F) {
  std::vector<unsigned> Refs(F.NumLabels, 0);
  for (const MInst &MI : F.Insts)
    if (MI.Kind != InstKind::Label)
      for (const MOperand &O : MI.Ops)
        if (O.K == MOperand::Label && O.Value >= 0 &&
            size_t(O.Value) < Refs.size())
          ++Refs[size_t(O.Value)];
  std::vector<MInst> &In = F.Insts;
  // Whether label \p L is among the labels (and comments) from \p J on.
  auto LabelAhead = [&](unsigned J, int64_t L) {
    for (; J < In.size(); ++J) {
      if (In[J].Kind == InstKind::Label && In[J].Ops[0].Value == L)
        return true;
      if (In[J].Kind != InstKind::Label && In[J].Kind != InstKind::Comment)
        return false;
    }
    return false;
  };
  for (unsigned I = 0; I < In.size(); ++I) {
    MInst &MI = In[I];
    if (MI.Kind == InstKind::Branch) {
      // A branch (conditional or not) to where it would fall through.
      if (LabelAhead(I + 1, MI.Ops[0].Value)) {
        --Refs[size_t(MI.Ops[0].Value)];
        eraseInst(MI);
        continue;
      }
      // `s_cbranch_X A; s_branch B; A:` (no other way into the s_branch)
      // is `s_cbranch_notX B; A:`.
      GCNOp Inv = invertedBranch(MI.Opc);
      unsigned J = I + 1;
      while (J < In.size() &&
             (In[J].Kind == InstKind::Comment ||
              (In[J].Kind == InstKind::Label &&
               Refs[size_t(In[J].Ops[0].Value)] == 0)))
        ++J;
      if (Inv != GCNOp::None && J < In.size() && In[J].is(GCNOp::S_BRANCH) &&
          LabelAhead(J + 1, MI.Ops[0].Value)) {
        --Refs[size_t(MI.Ops[0].Value)];
        MI.setOp(Inv);
        MI.Ops[0] = In[J].Ops[0];
        eraseInst(In[J]);
      }
    }
  }
  dropErased(F);
}

} // namespace wave::amdgcn
