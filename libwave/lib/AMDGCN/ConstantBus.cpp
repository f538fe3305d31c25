//===- ConstantBus.cpp - Constant bus legalization ------------------------===//
//
// Runs after lowering and peephole, before register allocation: a VALU
// instruction may read at most ConstantBusLimit distinct SGPRs or literals
// (one on GFX9, where VOP3 encodings take no literal at all); the excess
// operands are copied to VGPRs first.
//
//===----------------------------------------------------------------------===//

#include "Lowering.h"

using namespace llvm;

namespace wave::amdgcn::detail {

/// Keeps the constant bus within the target's limit: VALU instructions may
/// read at most ConstantBusLimit distinct SGPRs or literals (one on GFX9,
/// where VOP3 encodings take no literal at all); the excess is copied to
/// VGPRs first.
void legalizeConstantBus(MFunction &F) {
  const GCNTarget &T = *F.T;
  std::vector<MInst> Out;
  Out.reserve(F.Insts.size());
  auto IsInline = [](int64_t V) {
    return (V >= -16 && V <= 64) || V == 0x3F000000 || V == 0xBF000000 ||
           V == 0x3F800000 || V == 0xBF800000 || V == 0x40000000 ||
           V == 0xC0000000 || V == 0x40800000 || V == 0xC0800000 ||
           V == 0x3FE0000000000000LL || V == 0x3FF0000000000000LL;
  };
  // Replaces operand \p O (an immediate or an SGPR) by a VGPR copy of it,
  // keeping its negation modifier.
  auto copyToVGPR = [&](MOperand &O) {
    uint32_t V = F.newVReg(RegClass::V32);
    MOperand Src = O;
    Src.Neg = false;
    MInst Mv;
    Mv.Kind = InstKind::VALU;
    Mv.setOp(GCNOp::V_MOV_B32);
    Mv.Ops = {MOperand::def(V), Src};
    Out.push_back(std::move(Mv));
    bool Neg = O.Neg;
    O = MOperand::use(V);
    O.Neg = Neg;
  };
  // One SGPR: a register, or one 32-bit part of a tuple.
  auto sgprKey = [](const MOperand &O) {
    return O.Reg * 8 + uint32_t(O.Sub + 1);
  };
  for (MInst &MI : F.Insts) {
    if (MI.Kind != InstKind::VALU && MI.Kind != InstKind::VMEMLoad &&
        MI.Kind != InstKind::VMEMStore) {
      Out.push_back(std::move(MI));
      continue;
    }
    bool IsVALU = MI.Kind == InstKind::VALU;
    bool Lane = MI.has(OF_Lane);
    bool IsMov = MI.is(GCNOp::V_MOV_B32);
    SmallVector<uint32_t, 4> Seen;
    unsigned Count = 0;
    bool HasLiteral = false;
    if (!IsVALU || Lane) { // lane ops take SGPR/M0 operands by design
      Out.push_back(std::move(MI));
      continue;
    }
    // Operands that must stay scalar first: lane masks and lane selects.
    auto MustStayScalar = [&](unsigned K2) {
      const MOperand &O = MI.Ops[K2];
      if (O.K == MOperand::Hw)
        return O.IsUse && O.H != HwReg::Exec;
      bool MaskOperand = MI.is(GCNOp::V_CNDMASK_B32_E64) &&
                         K2 == MI.Ops.size() - 1;
      return O.K == MOperand::VReg && !isVector(F.VRegs[O.Reg].Class) &&
             ((regWidth(F.VRegs[O.Reg].Class) > 1 && O.Sub < 0) ||
              MaskOperand);
    };
    for (unsigned K2 = 0; K2 < MI.Ops.size(); ++K2) {
      const MOperand &O = MI.Ops[K2];
      if (O.IsDef || !O.IsUse || !MustStayScalar(K2))
        continue;
      uint32_t Key = O.K == MOperand::Hw ? 0x80000000u | unsigned(O.H)
                                         : sgprKey(O);
      if (!is_contained(Seen, Key)) {
        Seen.push_back(Key);
        ++Count;
      }
    }
    unsigned NumSrc = 0;
    for (const MOperand &O : MI.Ops)
      NumSrc += O.IsUse && !O.IsDef;
    // A literal second source of a commutative VOP2 operation moves first,
    // where the short encoding takes it (saves the copy to a VGPR).
    auto Commutes = [](const MInst &I) {
      return I.is(GCNOp::V_ADD_U32) || I.is(GCNOp::V_ADD_NC_U32) ||
             I.is(GCNOp::V_AND_B32) || I.is(GCNOp::V_OR_B32) ||
             I.is(GCNOp::V_XOR_B32) || I.is(GCNOp::V_ADD_F32) ||
             I.is(GCNOp::V_MUL_F32) || I.is(GCNOp::V_MAX_I32) ||
             I.is(GCNOp::V_MIN_I32);
    };
    if (IsVALU && MI.Ops.size() == 3 && NumSrc == 2 && Commutes(MI) &&
        MI.Ops[2].K == MOperand::Imm && !IsInline(MI.Ops[2].Value) &&
        MI.Ops[1].K == MOperand::VReg && isVector(F.VRegs[MI.Ops[1].Reg].Class))
      std::swap(MI.Ops[1], MI.Ops[2]);
    for (unsigned K2 = 0; K2 < MI.Ops.size(); ++K2) {
      MOperand &O = MI.Ops[K2];
      if (!O.IsUse || O.IsDef || MustStayScalar(K2))
        continue;
      bool IsScalar = O.K == MOperand::VReg && !isVector(F.VRegs[O.Reg].Class);
      if (O.K == MOperand::Imm && !IsInline(O.Value)) {
        if (IsMov)
          continue;
        // A literal fits a VOP1/VOP2 encoding as the first source (the
        // second must then be a VGPR without modifiers), or any VOP3
        // encoding on targets that allow literals there.
        bool FirstSrc = K2 == 1;
        bool ShortForm =
            FirstSrc && NumSrc <= 2 && !O.Neg && MI.has(OF_ShortLit);
        for (const MOperand &Other : MI.Ops)
          if (&Other != &O && Other.IsUse && !Other.IsDef &&
              (Other.Neg || Other.K != MOperand::VReg ||
               !isVector(F.VRegs[Other.Reg].Class)))
            ShortForm = false;
        bool Fits = !HasLiteral && Count < T.ConstantBusLimit &&
                    (T.VOP3Literal || ShortForm);
        if (Fits) {
          HasLiteral = true;
          ++Count;
          continue;
        }
        copyToVGPR(O);
        continue;
      }
      if (!IsScalar || is_contained(Seen, sgprKey(O)))
        continue;
      if (Count < T.ConstantBusLimit) {
        Seen.push_back(sgprKey(O));
        ++Count;
        continue;
      }
      copyToVGPR(O);
    }
    Out.push_back(std::move(MI));
  }
  F.Insts = std::move(Out);
}

} // namespace wave::amdgcn::detail
