//===- LowerALU.cpp - Integer and floating-point ops ----------------------===//
//
// Lowering of the arithmetic instructions (formats/isa.md §4.5-§4.11): SALU
// forms of uniform integer operations, VALU forms of everything else: integer
// ops with division and modulo, f32 with correctly rounded division, square
// root, sine and cosine, f16 and bf16 scalars and pairs, f64 in register pairs,
// compares into predicates, conversions and moves.
//
//===----------------------------------------------------------------------===//

#include "Lowering.h"

#include "llvm/Support/MathExtras.h"

using namespace llvm;

namespace wave::amdgcn::detail {

/// Writes compare/any/all result \p Result (a mask, zero in inactive lanes)
/// to predicate \p Pd of op \p Idx, keeping inactive lanes' bits when the
/// definition is partial.
void KernelLowering::setPredicate(unsigned Idx, unsigned Pd, uint32_t Result) {
  uint32_t P = defP(Idx, Pd);
  if (defMerges(Idx, PredBase + (Pd & 3))) {
    // A merging definition shares its web, so its vreg, with the old value.
    uint32_t Keep = newMask();
    emit(m("s_andn2"), {D(Keep), U(P), ExecU()});
    emit(m("s_or"), {D(P), U(Keep), U(Result)});
  } else {
    emit(m("s_mov"), {D(P), U(Result)});
  }
}

/// IEEE f32 division Num / Den, correctly rounded (the v_div_scale /
/// v_div_fmas / v_div_fixup sequence of the CDNA3 and RDNA ISA guides),
/// with WAVE's rule that any division by ±0 gives +inf (formats/isa.md §4.7,
/// D10).
void KernelLowering::fdiv(uint32_t Dst, MOperand Num, uint32_t Den,
                          bool ZeroDenIsInf) {
  uint32_t DS = newV(), NS = newV(), R = newV(), E = newV(), Q = newV(),
           Rm = newV(), Res = newV();
  uint32_t Dummy = newMask();
  MOperand Vcc = MOperand::hw(HwReg::Vcc, true, false);
  emit("v_div_scale_f32", {D(DS), D(Dummy), U(Den), U(Den), Num});
  emit("v_div_scale_f32", {D(NS), Vcc, Num, U(Den), Num});
  emit("v_rcp_f32", {D(R), U(DS)});
  emit("v_fma_f32", {D(E), Neg(U(DS)), U(R), I(0x3F800000)});
  emit("v_fma_f32", {D(R), U(E), U(R), U(R)});
  emit("v_mul_f32", {D(Q), U(NS), U(R)});
  emit("v_fma_f32", {D(Rm), Neg(U(DS)), U(Q), U(NS)});
  emit("v_fma_f32", {D(Q), U(Rm), U(R), U(Q)});
  emit("v_fma_f32", {D(Rm), Neg(U(DS)), U(Q), U(NS)});
  emit("v_div_fmas_f32", {D(Res), U(Rm), U(R), U(Q)}); // reads VCC
  F.UsesVCC = true;
  uint32_t Fx = ZeroDenIsInf ? newV() : Dst;
  emit("v_div_fixup_f32", {D(Fx), U(Res), U(Den), Num});
  if (!ZeroDenIsInf)
    return;
  uint32_t Z = newMask();
  emit("v_cmp_eq_f32_e64", {D(Z), I(0), U(Den)});
  emit("v_cndmask_b32_e64", {D(Dst), U(Fx), I(0x7F800000), U(Z)});
}

/// Correctly rounded f32 square root (the scaled v_sqrt_f32 with one-ulp
/// correction that LLVM uses for IEEE sqrt).
uint32_t KernelLowering::fsqrt(uint32_t X) {
  uint32_t NeedScale = newMask(), Scaled = newV(), SX = newV(), S = newV(),
           Dn = newV(), Up = newV(), RDn = newV(), RUp = newV(),
           C1 = newMask(), C2 = newMask(), S2 = newV(), Out = newV(),
           Zi = newMask(), Res = newV();
  emit("v_cmp_gt_f32_e64", {D(NeedScale), I(0x0F800000), U(X)});
  emit("v_mul_f32", {D(Scaled), I(0x4F800000), U(X)});
  emit("v_cndmask_b32_e64", {D(SX), U(X), U(Scaled), U(NeedScale)});
  emit("v_sqrt_f32", {D(S), U(SX)});
  emit(T.VAddU32, {D(Dn), I(-1), U(S)});
  emit(T.VAddU32, {D(Up), I(1), U(S)});
  emit("v_fma_f32", {D(RDn), Neg(U(Dn)), U(S), U(SX)});
  emit("v_fma_f32", {D(RUp), Neg(U(Up)), U(S), U(SX)});
  emit("v_cmp_ge_f32_e64", {D(C1), I(0), U(RDn)});
  emit("v_cndmask_b32_e64", {D(S2), U(S), U(Dn), U(C1)});
  emit("v_cmp_lt_f32_e64", {D(C2), I(0), U(RUp)});
  emit("v_cndmask_b32_e64", {D(S2), U(S2), U(Up), U(C2)});
  uint32_t Down = newV();
  emit("v_mul_f32", {D(Down), I(0x37800000), U(S2)});
  emit("v_cndmask_b32_e64", {D(Out), U(S2), U(Down), U(NeedScale)});
  emit("v_cmp_class_f32_e64", {D(Zi), U(SX), I(0x260)});
  emit("v_cndmask_b32_e64", {D(Res), U(Out), U(SX), U(Zi)});
  return Res;
}

/// f32 sine or cosine of \p X into \p Dst, within 2 ULP for every input
/// (formats/isa.md §4.7) and in practice the correctly rounded value (glibc's
/// sinf and cosf, which the reference emulator calls, are within 1 ulp of it;
/// the hardware's v_sin_f32 of x/2π is tens to thousands of ulp off past |x| ≈
/// 8, as is LLVM's lowering). Everything is f64:
///  - reduction: |x| · 1/(2π) modulo 1, with 1/(2π) split into nine
///    pieces of 21 significant bits, so that each product with the 24-bit
///    |x| is exact and so is its fraction (v_fract_f64); products whose
///    fraction is 0 (|x| large) or negligible (|x| small) cost nothing in
///    accuracy. The fractions are summed from the smallest with TwoSum,
///    keeping the rounding errors, so the turn count r has about 2^-100
///    absolute error even for |x| near 2^128 (a Payne-Hanek reduction
///    with the bits of 1/(2π) as constants);
///  - r = q/4 + d, q the nearest quarter turn, |d| <= 1/8; θ = d·π/2 with
///    π/2 as two doubles;
///  - sin θ and cos θ by their Taylor series to θ^15 and θ^16 (truncation
///    below 2^-53 relative on |θ| <= π/4), selected and negated by q mod 4
///    (q + 1 for the cosine), rounded once to f32, with x's sign for sin.
/// NaN inputs return the input, quieted; ±inf the x86 default NaN
/// 0xFFC00000, as the reference's sinf/cosf on x86-64 (formats/isa.md §4.7).
void KernelLowering::sinCos(uint32_t Dst, uint32_t X, bool Cos) {
  auto K64 = [&](uint64_t Bits) {
    uint32_t C = F.newVReg(RegClass::S64);
    emit("s_mov_b32", {D(C, 0), I(int64_t(Bits & 0xFFFFFFFF))});
    emit("s_mov_b32", {D(C, 1), I(int64_t(Bits >> 32))});
    return C;
  };
  auto P = [&]() { return F.newVReg(RegClass::V64); };
  // 1/(2π) = sum of these doubles (each 21 significant bits, so only the
  // high word is non-zero) to within 2^-197.
  static const uint32_t InvTwoPi[] = {0x3fc45f30, 0x3e6b7272, 0x3cf054a7,
                                      0x3bae13ab, 0x3a5d1f53, 0x38f37703,
                                      0x379b6295, 0x36432788, 0x34ec820f};
  uint32_t Ax = newV(), A = P();
  emit("v_and_b32", {D(Ax), I(0x7FFFFFFF), U(X)});
  emit("v_cvt_f64_f32", {D(A), U(Ax)});
  uint32_t S = 0, Comp = 0; // the sum of the fractions and its error
  for (int K2 = 8; K2 >= 0; --K2) {
    uint32_t Prod = P(), Fr = P();
    emit("v_mul_f64", {D(Prod), U(A), U(K64(uint64_t(InvTwoPi[K2]) << 32))});
    emit("v_fract_f64", {D(Fr), U(Prod)});
    if (!S) {
      S = Fr;
      continue;
    }
    // TwoSum (Knuth): T + E = S + Fr exactly.
    uint32_t T = P(), BP = P(), AP = P(), DA = P(), DB = P(), E = P();
    emit("v_add_f64", {D(T), U(S), U(Fr)});
    emit("v_add_f64", {D(BP), U(T), Neg(U(S))});
    emit("v_add_f64", {D(AP), U(T), Neg(U(BP))});
    emit("v_add_f64", {D(DA), U(S), Neg(U(AP))});
    emit("v_add_f64", {D(DB), U(Fr), Neg(U(BP))});
    emit("v_add_f64", {D(E), U(DA), U(DB)});
    if (Comp) {
      uint32_t C2 = P();
      emit("v_add_f64", {D(C2), U(Comp), U(E)});
      Comp = C2;
    } else {
      Comp = E;
    }
    S = T;
  }
  // Quarter turns: 4r = q + d.
  uint32_t Y4 = P(), Q = P(), Dq = P(), C4 = P(), Dd = P();
  emit("v_ldexp_f64", {D(Y4), U(S), I(2)});
  emit("v_rndne_f64", {D(Q), U(Y4)});
  emit("v_add_f64", {D(Dq), U(Y4), Neg(U(Q))});
  emit("v_ldexp_f64", {D(C4), U(Comp), I(2)});
  emit("v_add_f64", {D(Dd), U(Dq), U(C4)});
  // θ = d · π/2 (π/2 = 0x3ff921fb54442d18 + 0x3c91a62633145c07).
  uint32_t Lo = P(), Th = P(), Z = P(), ThZ = P();
  emit("v_mul_f64", {D(Lo), U(Dd), U(K64(0x3c91a62633145c07ULL))});
  emit("v_fma_f64", {D(Th), U(Dd), U(K64(0x3ff921fb54442d18ULL)), U(Lo)});
  emit("v_mul_f64", {D(Z), U(Th), U(Th)});
  emit("v_mul_f64", {D(ThZ), U(Th), U(Z)});
  // Horner over θ², from the highest coefficient (±1/n!, nearest double).
  auto Poly = [&](ArrayRef<uint64_t> Coeffs) {
    uint32_t Acc = P();
    emit("v_mov_b32", {D(Acc, 0), I(int64_t(Coeffs[0] & 0xFFFFFFFF))});
    emit("v_mov_b32", {D(Acc, 1), I(int64_t(Coeffs[0] >> 32))});
    for (uint64_t C : Coeffs.drop_front()) {
      uint32_t N = P();
      emit("v_fma_f64", {D(N), U(Acc), U(Z), U(K64(C))});
      Acc = N;
    }
    return Acc;
  };
  // sin θ = θ + θ³·(-1/3! + θ²/5! - ... - θ^12/15!)
  uint32_t SinP = Poly({0xbd6ae7f3e733b81fULL, 0x3de6124613a86d09ULL,
                        0xbe5ae64567f544e4ULL, 0x3ec71de3a556c734ULL,
                        0xbf2a01a01a01a01aULL, 0x3f81111111111111ULL,
                        0xbfc5555555555555ULL});
  // cos θ = 1 + θ²·(-1/2! + θ²/4! - ... + θ^14/16!)
  uint32_t CosP = Poly({0x3d2ae7f3e733b81fULL, 0xbda93974a8c07c9dULL,
                        0x3e21eed8eff8d898ULL, 0xbe927e4fb7789f5cULL,
                        0x3efa01a01a01a01aULL, 0xbf56c16c16c16c17ULL,
                        0x3fa5555555555555ULL, 0xbfe0000000000000ULL});
  uint32_t SinD = P(), CosD = P(), SinF = newV(), CosF = newV();
  emit("v_fma_f64", {D(SinD), U(ThZ), U(SinP), U(Th)});
  emit("v_fma_f64", {D(CosD), U(Z), U(CosP), I(0x3FF0000000000000LL)});
  emit("v_cvt_f32_f64", {D(SinF), U(SinD)});
  emit("v_cvt_f32_f64", {D(CosF), U(CosD)});
  // Quadrant q mod 4 (q + 1 for the cosine): odd swaps sin and cos, 2 and
  // 3 negate.
  uint32_t Qi = newV(), Swap = newMask(), Neg2 = newV(), Sel = newV(),
           Sgn = newV(), Res = newV();
  emit("v_cvt_i32_f64", {D(Qi), U(Q)});
  if (Cos) {
    uint32_t Q1 = newV();
    emit(T.VAddU32, {D(Q1), I(1), U(Qi)});
    Qi = Q1;
  }
  uint32_t Odd = newV();
  emit("v_and_b32", {D(Odd), I(1), U(Qi)});
  emit("v_cmp_ne_u32_e64", {D(Swap), I(0), U(Odd)});
  emit("v_cndmask_b32_e64", {D(Sel), U(SinF), U(CosF), U(Swap)});
  // (q & 2) << 30 is the sign bit to flip; sin also takes x's sign.
  emit("v_and_b32", {D(Neg2), I(2), U(Qi)});
  emit("v_lshlrev_b32", {D(Sgn), I(30), U(Neg2)});
  if (!Cos) {
    uint32_t XS = newV(), S2 = newV();
    emit("v_and_b32", {D(XS), I(int64_t(0x80000000)), U(X)});
    emit("v_xor_b32", {D(S2), U(Sgn), U(XS)});
    Sgn = S2;
  }
  emit("v_xor_b32", {D(Res), U(Sel), U(Sgn)});
  // NaN: the input quieted; ±inf: the default NaN.
  uint32_t Quiet = newV(), NaN = newV(), IsInf = newMask(),
           NotFinite = newMask();
  emit("v_or_b32", {D(Quiet), I(0x400000), U(X)});
  emit("v_cmp_class_f32_e64", {D(IsInf), U(X), I(0x204)});
  emit("v_cndmask_b32_e64", {D(NaN), U(Quiet), I(int64_t(0xFFC00000)),
                             U(IsInf)});
  emit("v_cmp_class_f32_e64", {D(NotFinite), U(X), I(0x207)});
  emit("v_cndmask_b32_e64", {D(Dst), U(Res), U(NaN), U(NotFinite)});
}

/// Unsigned 32-bit Q = UA / UB, R = UA % UB for UB != 0 (reciprocal
/// estimate and two corrections, as AMDGPUCodeGenPrepare expands it).
/// \p NeedQ false: only R is wanted, and the corrections leave Q alone
/// (R's corrections do not read it); true: Q is wanted, and R is left
/// before its second correction.
void KernelLowering::udivmod(uint32_t Q, uint32_t R, uint32_t UA,
                             uint32_t UB, bool NeedQ) {
  // The reciprocal depends on UB only, one definition per register, so
  // that LICM can take it out of a loop whose divisor does not change.
  uint32_t Fb = newV(), Rc = newV(), Rs = newV(), Inv0 = newV(),
           Inv = newV(), NegB = newV(), Tm = newV(), Hi = newV(), QB = newV(),
           C = newMask(), Q1 = newV(), R1 = newV();
  emit("v_cvt_f32_u32", {D(Fb), U(UB)});
  emit("v_rcp_iflag_f32", {D(Rc), U(Fb)});
  emit("v_mul_f32", {D(Rs), I(0x4F7FFFFE), U(Rc)});
  emit("v_cvt_u32_f32", {D(Inv0), U(Rs)});
  emit(T.VSubU32, {D(NegB), I(0), U(UB)});
  emit("v_mul_lo_u32", {D(Tm), U(NegB), U(Inv0)});
  emit("v_mul_hi_u32", {D(Hi), U(Inv0), U(Tm)});
  emit(T.VAddU32, {D(Inv), U(Inv0), U(Hi)});
  emit("v_mul_hi_u32", {D(Q), U(UA), U(Inv)});
  emit("v_mul_lo_u32", {D(QB), U(Q), U(UB)});
  emit(T.VSubU32, {D(R), U(UA), U(QB)});
  for (int K2 = 0; K2 < 2; ++K2) {
    emit("v_cmp_ge_u32_e64", {D(C), U(R), U(UB)});
    if (NeedQ)
      emit(T.VAddU32, {D(Q1), I(1), U(Q)});
    // Only Q wanted: the second correction's R is never read.
    bool UpdateR = !NeedQ || K2 == 0;
    if (UpdateR)
      emit(T.VSubU32, {D(R1), U(R), U(UB)});
    if (NeedQ)
      emit("v_cndmask_b32_e64", {D(Q), U(Q), U(Q1), U(C)});
    if (UpdateR)
      emit("v_cndmask_b32_e64", {D(R), U(R), U(R1), U(C)});
  }
}

/// An even-aligned VGPR pair holding WAVE registers (Reg, Reg+1) at op Idx.
uint32_t KernelLowering::pairIn(unsigned Idx, unsigned Reg) {
  uint32_t P = F.newVReg(RegClass::V64);
  emit("v_mov_b32", {D(P, 0), U(use(Idx, Reg))});
  emit("v_mov_b32", {D(P, 1), U(use(Idx, Reg + 1))});
  return P;
}
void KernelLowering::pairOut(unsigned Idx, unsigned Reg, uint32_t Tuple) {
  emit("v_mov_b32", {D(def(Idx, Reg)), U(Tuple, 0)});
  emit("v_mov_b32", {D(def(Idx, Reg + 1)), U(Tuple, 1)});
}

/// The SALU form of op \p Idx, whose integer result lives in an SGPR (a
/// uniform web); false when the op has none (wave operations with scalar
/// results), having emitted nothing.
bool KernelLowering::lowerScalarALU(unsigned Idx) {
  const Inst &In = Ops[Idx].I;
  Opcode Op = In.Op;
  uint32_t Dd = Dst();
  auto S1 = [&](StringRef Opc) {
    emit(Opc, {D(Dd), U(A())});
    return true;
  };
  auto S2 = [&](StringRef Opc) {
    emit(Opc, {D(Dd), U(A()), U(B())});
    return true;
  };
  switch (Op) {
  case Opcode::Iadd:
    return S2("s_add_u32");
  case Opcode::Isub:
    return S2("s_sub_u32");
  case Opcode::Imul:
    return S2("s_mul_i32");
  case Opcode::ImulHi:
    return S2("s_mul_hi_u32");
  case Opcode::Imin:
    return S2("s_min_i32");
  case Opcode::Imax:
    return S2("s_max_i32");
  case Opcode::And:
    return S2("s_and_b32");
  case Opcode::Or:
    return S2("s_or_b32");
  case Opcode::Xor:
    return S2("s_xor_b32");
  case Opcode::Shl:
    return S2("s_lshl_b32");
  case Opcode::Shr:
    return S2("s_lshr_b32");
  case Opcode::Sar:
    return S2("s_ashr_i32");
  case Opcode::Imad: {
    uint32_t Tm = newS();
    emit("s_mul_i32", {D(Tm), U(A()), U(B())});
    emit("s_add_u32", {D(Dd), U(Tm), U(C())});
    return true;
  }
  case Opcode::Iclamp: {
    uint32_t Tm = newS();
    emit("s_max_i32", {D(Tm), U(A()), U(B())});
    emit("s_min_i32", {D(Dd), U(Tm), U(C())});
    return true;
  }
  case Opcode::Ineg:
    emit("s_sub_u32", {D(Dd), I(0), U(A())});
    return true;
  case Opcode::Iabs:
    return S1("s_abs_i32");
  case Opcode::Not:
    return S1("s_not_b32");
  case Opcode::Bitcount:
    return S1("s_bcnt1_i32_b32");
  case Opcode::Bitfind:
    return S1("s_flbit_i32_b32");
  case Opcode::Bitrev:
    return S1("s_brev_b32");
  case Opcode::Mov:
    return S1("s_mov_b32");
  case Opcode::MovImm:
    emit("s_mov_b32", {D(Dd), I(int64_t(In.Word1))});
    return true;
  case Opcode::MovSr:
    emit("s_mov_b32", {D(Dd), U(specialReg(In.Rs1, true))});
    return true;
  case Opcode::Select: {
    uint32_t Tm = newMask();
    emit(m("s_and"), {D(Tm), U(useP(Idx, In.Rs1)), ExecU()});
    emit("s_cselect_b32", {D(Dd), U(B()), U(C())});
    return true;
  }
  default:
    return false; // wave operations with scalar results
  }
}

/// The VALU lowering of integer, floating-point, compare, conversion and
/// move op \p Idx (formats/isa.md §4.5-§4.11).
Error KernelLowering::lowerALU(unsigned Idx) {
  const Inst &In = Ops[Idx].I;
  Opcode Op = In.Op;
  auto V2 = [&](StringRef Opc) {
    emit(Opc, {D(Dst()), U(A()), U(B())});
    return finish();
  };
  auto V1 = [&](StringRef Opc) {
    emit(Opc, {D(Dst()), U(A())});
    return finish();
  };
  auto V3 = [&](StringRef Opc) {
    emit(Opc, {D(Dst()), U(A()), U(B()), U(C())});
    return finish();
  };
  auto VCmp = [&](StringRef Opc, bool Swap = false) {
    uint32_t R = newMask();
    if (Swap)
      emit(Opc, {D(R), U(B()), U(A())});
    else
      emit(Opc, {D(R), U(A()), U(B())});
    setPredicate(Idx, In.Rd, R);
    return finish();
  };
  auto SCmp = [&](StringRef Opc) { // uniform operands: s_cmp + s_cselect
    uint32_t R = newMask();
    emit(Opc, {U(A()), U(B())});
    emit(m("s_cselect"), {D(R), ExecU(), I(0)});
    setPredicate(Idx, In.Rd, R);
    return finish();
  };
  bool ScalarOperands = false;
  if (isCompare(Op))
    ScalarOperands = isS(A()) && isS(B());
  auto ICmp = [&](StringRef S, StringRef V) {
    return ScalarOperands ? SCmp(S) : VCmp(V);
  };
  auto FalsePred = [&]() {
    uint32_t R = newMask();
    emit(m("s_mov"), {D(R), I(0)});
    setPredicate(Idx, In.Rd, R);
    return finish();
  };
  auto F16Fix = [&](uint32_t R) {
    if (!T.F16ZeroesHigh)
      emit("v_and_b32", {D(R), I(0xFFFF), U(R)});
  };

  switch (Op) {
  // --- Integer (formats/isa.md §4.5)
  case Opcode::Iadd:
    return V2(T.VAddU32);
  case Opcode::Isub:
    return V2(T.VSubU32);
  case Opcode::Imul:
    return V2("v_mul_lo_u32");
  case Opcode::ImulHi:
    return V2("v_mul_hi_u32");
  case Opcode::Imad: {
    uint32_t Tm = newV();
    emit("v_mul_lo_u32", {D(Tm), U(A()), U(B())});
    emit(T.VAddU32, {D(Dst()), U(Tm), U(C())});
    return finish();
  }
  case Opcode::Idiv:
  case Opcode::Imod: {
    // By a constant 2^k: round towards zero by adding 2^k - 1 to negative
    // dividends, then shift (the quotient) or mask (the remainder is
    // a - that multiple); LLVM's sdiv/srem by a power of two. A dividend
    // known to be non-negative loses the bias later (runRangeFold).
    std::optional<int64_t> KB = constantOf(B());
    if (KB && *KB > 0 && *KB <= (1 << 30) && isPowerOf2_64(uint64_t(*KB))) {
      unsigned Sh = Log2_64(uint64_t(*KB));
      uint32_t X = A();
      if (Sh == 0) {
        if (Op == Opcode::Idiv)
          emit("v_mov_b32", {D(Dst()), U(X)});
        else
          emit("v_mov_b32", {D(Dst()), I(0)});
        return finish();
      }
      uint32_t Sign = newV(), Bias = newV(), Sum = newV();
      emit("v_ashrrev_i32", {D(Sign), I(31), U(X)});
      emit("v_lshrrev_b32", {D(Bias), I(32 - Sh), U(Sign)});
      emit(T.VAddU32, {D(Sum), U(X), U(Bias)});
      if (Op == Opcode::Idiv) {
        emit("v_ashrrev_i32", {D(Dst()), I(Sh), U(Sum)});
      } else {
        uint32_t Mult = newV();
        emit("v_and_b32", {D(Mult), I(-int64_t(*KB)), U(Sum)});
        emit(T.VSubU32, {D(Dst()), U(X), U(Mult)});
      }
      return finish();
    }
    uint32_t SA = newV(), SB = newV(), UA0 = newV(), UA = newV(),
             UB0 = newV(), UB = newV(), Q = newV(), R = newV(), Res = newV(),
             Z = newMask();
    emit("v_ashrrev_i32", {D(SA), I(31), U(A())});
    emit("v_ashrrev_i32", {D(SB), I(31), U(B())});
    emit(T.VAddU32, {D(UA0), U(A()), U(SA)});
    emit("v_xor_b32", {D(UA), U(UA0), U(SA)});
    emit(T.VAddU32, {D(UB0), U(B()), U(SB)});
    emit("v_xor_b32", {D(UB), U(UB0), U(SB)});
    udivmod(Q, R, UA, UB, Op == Opcode::Idiv);
    if (Op == Opcode::Idiv) {
      uint32_t S = newV();
      emit("v_xor_b32", {D(S), U(SA), U(SB)});
      emit("v_xor_b32", {D(Res), U(Q), U(S)});
      emit(T.VSubU32, {D(Res), U(Res), U(S)});
    } else {
      emit("v_xor_b32", {D(Res), U(R), U(SA)});
      emit(T.VSubU32, {D(Res), U(Res), U(SA)});
    }
    emit("v_cmp_eq_u32_e64", {D(Z), I(0), U(UB)});
    emit("v_cndmask_b32_e64", {D(Dst()), U(Res), I(0), U(Z)});
    return finish();
  }
  case Opcode::Ineg:
    emit(T.VSubU32, {D(Dst()), I(0), U(A())});
    return finish();
  case Opcode::Iabs: {
    uint32_t N = newV();
    emit(T.VSubU32, {D(N), I(0), U(A())});
    emit("v_max_i32", {D(Dst()), U(A()), U(N)});
    return finish();
  }
  case Opcode::Imin:
    return V2("v_min_i32");
  case Opcode::Imax:
    return V2("v_max_i32");
  case Opcode::Iclamp: {
    uint32_t Tm = newV();
    emit("v_max_i32", {D(Tm), U(A()), U(B())});
    emit("v_min_i32", {D(Dst()), U(Tm), U(C())});
    return finish();
  }
  // --- f32 (formats/isa.md §4.7)
  case Opcode::Fadd:
    return V2("v_add_f32");
  case Opcode::Fsub:
    return V2("v_sub_f32");
  case Opcode::Fmul:
    return V2("v_mul_f32");
  case Opcode::Fma:
    return V3("v_fma_f32");
  case Opcode::Fdiv:
    fdiv(Dst(), U(A()), B(), /*ZeroDenIsInf=*/true);
    return finish();
  case Opcode::Fneg:
    emit("v_xor_b32", {D(Dst()), I(0x80000000), U(A())});
    return finish();
  case Opcode::Fabs:
    emit("v_and_b32", {D(Dst()), I(0x7FFFFFFF), U(A())});
    return finish();
  case Opcode::Fmin:
  case Opcode::Fmax: {
    // a NaN -> b; b NaN -> a; b < a (b > a) -> b; else a.
    uint32_t Lt = newMask(), Tm = newV(), Na = newMask();
    emit(Op == Opcode::Fmin ? "v_cmp_lt_f32_e64" : "v_cmp_gt_f32_e64",
         {D(Lt), U(B()), U(A())});
    emit("v_cndmask_b32_e64", {D(Tm), U(A()), U(B()), U(Lt)});
    emit("v_cmp_u_f32_e64", {D(Na), U(A()), U(A())});
    emit("v_cndmask_b32_e64", {D(Dst()), U(Tm), U(B()), U(Na)});
    return finish();
  }
  case Opcode::Fclamp:
  case Opcode::Fsat: {
    // D11 default: a < lo -> lo; then > hi -> hi; NaN bounds ignored.
    MOperand Lo = Op == Opcode::Fsat ? I(0) : U(B());
    MOperand Hi = Op == Opcode::Fsat ? I(0x3F800000) : U(C());
    uint32_t C1 = newMask(), Tm = newV(), C2 = newMask();
    emit("v_cmp_lt_f32_e64", {D(C1), U(A()), Lo});
    emit("v_cndmask_b32_e64", {D(Tm), U(A()), Lo, U(C1)});
    emit("v_cmp_gt_f32_e64", {D(C2), U(Tm), Hi});
    emit("v_cndmask_b32_e64", {D(Dst()), U(Tm), Hi, U(C2)});
    return finish();
  }
  case Opcode::Fsqrt: {
    uint32_t R = fsqrt(toV(A()));
    emit("v_mov_b32", {D(Dst()), U(R)});
    return finish();
  }
  case Opcode::Frsqrt: {
    uint32_t R = fsqrt(toV(A()));
    fdiv(Dst(), I(0x3F800000), R, /*ZeroDenIsInf=*/false);
    return finish();
  }
  case Opcode::Frcp:
    fdiv(Dst(), I(0x3F800000), toV(A()), /*ZeroDenIsInf=*/false);
    return finish();
  case Opcode::Ffloor:
    return V1("v_floor_f32");
  case Opcode::Fceil:
    return V1("v_ceil_f32");
  case Opcode::Ftrunc:
    return V1("v_trunc_f32");
  case Opcode::Ffract: {
    uint32_t Tr = newV();
    emit("v_trunc_f32", {D(Tr), U(A())});
    emit("v_sub_f32", {D(Dst()), U(A()), U(Tr)});
    return finish();
  }
  case Opcode::Fround: { // ties away from zero
    uint32_t Tr = newV(), Df = newV(), C1 = newMask(), One = newV(),
             Adj = newV();
    emit("v_trunc_f32", {D(Tr), U(A())});
    emit("v_sub_f32", {D(Df), U(A()), U(Tr)});
    // Round away from zero when |a - trunc(a)| >= 0.5.
    uint32_t Ab = newV();
    emit("v_and_b32", {D(Ab), I(0x7FFFFFFF), U(Df)});
    emit("v_cmp_le_f32_e64", {D(C1), I(0x3F000000), U(Ab)});
    // ±1 with a's sign, else a zero with a's sign (so -0.4 gives -0).
    uint32_t Zero = newV();
    emit("v_bfi_b32", {D(One), I(0x7FFFFFFF), I(0x3F800000), U(A())});
    emit("v_and_b32", {D(Zero), I(0x80000000), U(A())});
    emit("v_cndmask_b32_e64", {D(Adj), U(Zero), U(One), U(C1)});
    emit("v_add_f32", {D(Dst()), U(Tr), U(Adj)});
    return finish();
  }
  case Opcode::Fsin:
  case Opcode::Fcos:
    sinCos(Dst(), A(), Op == Opcode::Fcos);
    return finish();
  case Opcode::Fexp2:
    return V1("v_exp_f32");
  case Opcode::Flog2:
    return V1("v_log_f32");
  // --- f16 (formats/isa.md §4.8)
  case Opcode::Hadd:
  case Opcode::Hsub:
  case Opcode::Hmul: {
    uint32_t Dd = Dst();
    emit(Op == Opcode::Hadd   ? "v_add_f16"
         : Op == Opcode::Hsub ? "v_sub_f16"
                              : "v_mul_f16",
         {D(Dd), U(A()), U(B())});
    F16Fix(Dd);
    return finish();
  }
  case Opcode::Hma: {
    uint32_t FA = newV(), FB = newV(), FC = newV(), R = newV();
    emit("v_cvt_f32_f16", {D(FA), U(A())});
    emit("v_cvt_f32_f16", {D(FB), U(B())});
    emit("v_cvt_f32_f16", {D(FC), U(C())});
    emit("v_fma_f32", {D(R), U(FA), U(FB), U(FC)});
    uint32_t Dd = Dst();
    emit("v_cvt_f16_f32", {D(Dd), U(R)});
    F16Fix(Dd);
    return finish();
  }
  case Opcode::Hadd2:
    return V2("v_pk_add_f16");
  case Opcode::Hmul2:
    return V2("v_pk_mul_f16");
  case Opcode::Hma2: {
    uint32_t Half[2];
    for (unsigned H = 0; H < 2; ++H) {
      uint32_t Src[3];
      uint32_t Ins[3] = {A(), B(), C()};
      for (unsigned K2 = 0; K2 < 3; ++K2) {
        uint32_t X = Ins[K2];
        if (H == 1) {
          uint32_t S = newV();
          emit("v_lshrrev_b32", {D(S), I(16), U(X)});
          X = S;
        }
        Src[K2] = newV();
        emit("v_cvt_f32_f16", {D(Src[K2]), U(X)});
      }
      uint32_t R = newV();
      emit("v_fma_f32", {D(R), U(Src[0]), U(Src[1]), U(Src[2])});
      Half[H] = newV();
      emit("v_cvt_f16_f32", {D(Half[H]), U(R)});
      emit("v_and_b32", {D(Half[H]), I(0xFFFF), U(Half[H])});
    }
    emit("v_lshl_or_b32", {D(Dst()), U(Half[1]), I(16), U(Half[0])});
    return finish();
  }
  // --- bf16 (formats/isa.md §4.8): widen, f32 op, truncate.
  case Opcode::Badd:
  case Opcode::Bsub:
  case Opcode::Bmul:
  case Opcode::Bma: {
    uint32_t W[3], Ins[3] = {A(), B(), Op == Opcode::Bma ? C() : 0};
    unsigned N = Op == Opcode::Bma ? 3 : 2;
    for (unsigned K2 = 0; K2 < N; ++K2) {
      W[K2] = newV();
      emit("v_lshlrev_b32", {D(W[K2]), I(16), U(Ins[K2])});
    }
    uint32_t R = newV();
    if (Op == Opcode::Bma)
      emit("v_fma_f32", {D(R), U(W[0]), U(W[1]), U(W[2])});
    else
      emit(Op == Opcode::Badd   ? "v_add_f32"
           : Op == Opcode::Bsub ? "v_sub_f32"
                                : "v_mul_f32",
           {D(R), U(W[0]), U(W[1])});
    emit("v_lshrrev_b32", {D(Dst()), I(16), U(R)});
    return finish();
  }
  case Opcode::Badd2:
  case Opcode::Bmul2:
  case Opcode::Bma2: {
    unsigned N = Op == Opcode::Bma2 ? 3 : 2;
    uint32_t Ins[3] = {A(), B(), N == 3 ? C() : 0};
    uint32_t R[2];
    for (unsigned H = 0; H < 2; ++H) {
      uint32_t W[3];
      for (unsigned K2 = 0; K2 < N; ++K2) {
        W[K2] = newV();
        if (H == 0)
          emit("v_lshlrev_b32", {D(W[K2]), I(16), U(Ins[K2])});
        else
          emit("v_and_b32", {D(W[K2]), I(int64_t(0xFFFF0000)), U(Ins[K2])});
      }
      R[H] = newV();
      if (N == 3)
        emit("v_fma_f32", {D(R[H]), U(W[0]), U(W[1]), U(W[2])});
      else
        emit(Op == Opcode::Badd2 ? "v_add_f32" : "v_mul_f32",
             {D(R[H]), U(W[0]), U(W[1])});
    }
    uint32_t Lo = newV();
    emit("v_lshrrev_b32", {D(Lo), I(16), U(R[0])});
    emit("v_and_or_b32", {D(Dst()), U(R[1]), I(int64_t(0xFFFF0000)), U(Lo)});
    return finish();
  }
  // --- f64 (formats/isa.md §4.9)
  case Opcode::Dadd:
  case Opcode::Dsub:
  case Opcode::Dmul:
  case Opcode::Dma: {
    uint32_t PA = pairIn(Idx, In.Rs1), PB = pairIn(Idx, In.Rs2);
    uint32_t PD = F.newVReg(RegClass::V64);
    if (Op == Opcode::Dma) {
      uint32_t PC = pairIn(Idx, In.Rs3);
      emit("v_fma_f64", {D(PD), U(PA), U(PB), U(PC)});
    } else if (Op == Opcode::Dsub) {
      emit("v_add_f64", {D(PD), U(PA), Neg(U(PB))});
    } else {
      emit(Op == Opcode::Dadd ? "v_add_f64" : "v_mul_f64",
           {D(PD), U(PA), U(PB)});
    }
    pairOut(Idx, In.Rd, PD);
    return finish();
  }
  case Opcode::Ddiv: {
    uint32_t PA = pairIn(Idx, In.Rs1), PB = pairIn(Idx, In.Rs2);
    auto P = [&]() { return F.newVReg(RegClass::V64); };
    uint32_t DS = P(), R = P(), E = P(), NS = P(), Q = P(), Rm = P(),
             Res = P(), Out = P();
    uint32_t Dummy = newMask();
    MOperand Vcc = MOperand::hw(HwReg::Vcc, true, false);
    emit("v_div_scale_f64", {D(DS), D(Dummy), U(PB), U(PB), U(PA)});
    emit("v_rcp_f64", {D(R), U(DS)});
    emit("v_fma_f64", {D(E), Neg(U(DS)), U(R), I(0x3FF0000000000000LL)});
    emit("v_fma_f64", {D(R), U(R), U(E), U(R)});
    emit("v_fma_f64", {D(E), Neg(U(DS)), U(R), I(0x3FF0000000000000LL)});
    emit("v_fma_f64", {D(R), U(R), U(E), U(R)});
    emit("v_div_scale_f64", {D(NS), Vcc, U(PA), U(PB), U(PA)});
    emit("v_mul_f64", {D(Q), U(NS), U(R)});
    emit("v_fma_f64", {D(Rm), Neg(U(DS)), U(Q), U(NS)});
    emit("v_div_fmas_f64", {D(Res), U(Rm), U(R), U(Q)}); // reads VCC
    F.UsesVCC = true;
    emit("v_div_fixup_f64", {D(Out), U(Res), U(PB), U(PA)});
    pairOut(Idx, In.Rd, Out);
    return finish();
  }
  case Opcode::Dsqrt: {
    // Scaled rsq with Goldschmidt/Newton refinement (LLVM's f64 sqrt).
    uint32_t X = pairIn(Idx, In.Rs1);
    auto P = [&]() { return F.newVReg(RegClass::V64); };
    uint32_t Need = newMask(), Sc = newV(), XS = P(), G = P(), S = P(),
             H = P(), R = P(), Dd = P(), Out = P(), Cls = newMask(),
             Res = P(), SO = newV();
    uint32_t Tiny = P(); // 2^-767: below it, scale by 2^256 first
    emit("v_mov_b32", {D(Tiny, 0), I(0)});
    emit("v_mov_b32", {D(Tiny, 1), I(0x10000000)});
    emit("v_cmp_gt_f64_e64", {D(Need), U(Tiny), U(X)});
    emit("v_cndmask_b32_e64", {D(Sc), I(0), I(256), U(Need)});
    emit("v_ldexp_f64", {D(XS), U(X), U(Sc)});
    emit("v_rsq_f64", {D(G), U(XS)});
    emit("v_mul_f64", {D(S), U(XS), U(G)});
    emit("v_mul_f64", {D(H), U(G), I(0x3FE0000000000000LL)});
    emit("v_fma_f64", {D(R), Neg(U(H)), U(S), I(0x3FE0000000000000LL)});
    emit("v_fma_f64", {D(S), U(S), U(R), U(S)});
    emit("v_fma_f64", {D(H), U(H), U(R), U(H)});
    for (int K2 = 0; K2 < 2; ++K2) {
      emit("v_fma_f64", {D(Dd), Neg(U(S)), U(S), U(XS)});
      emit("v_fma_f64", {D(S), U(Dd), U(H), U(S)});
    }
    emit("v_cndmask_b32_e64", {D(SO), I(0), I(-128), U(Need)});
    emit("v_ldexp_f64", {D(Out), U(S), U(SO)});
    emit("v_cmp_class_f64_e64", {D(Cls), U(XS), I(0x260)});
    emit("v_cndmask_b32_e64", {D(Res, 0), U(Out, 0), U(XS, 0), U(Cls)});
    emit("v_cndmask_b32_e64", {D(Res, 1), U(Out, 1), U(XS, 1), U(Cls)});
    pairOut(Idx, In.Rd, Res);
    return finish();
  }
  // --- Bitwise (formats/isa.md §4.6)
  case Opcode::And:
    return V2("v_and_b32");
  case Opcode::Or:
    return V2("v_or_b32");
  case Opcode::Xor:
    return V2("v_xor_b32");
  case Opcode::Not:
    return V1("v_not_b32");
  case Opcode::Shl:
    emit("v_lshlrev_b32", {D(Dst()), U(B()), U(A())});
    return finish();
  case Opcode::Shr:
    emit("v_lshrrev_b32", {D(Dst()), U(B()), U(A())});
    return finish();
  case Opcode::Sar:
    emit("v_ashrrev_i32", {D(Dst()), U(B()), U(A())});
    return finish();
  case Opcode::Bitcount:
    emit("v_bcnt_u32_b32", {D(Dst()), U(A()), I(0)});
    return finish();
  case Opcode::Bitfind:
    return V1("v_ffbh_u32");
  case Opcode::Bitrev:
    return V1("v_bfrev_b32");
  case Opcode::Bfe:
    return V3("v_bfe_u32");
  case Opcode::Bfi: {
    uint32_t M = newV(), Sh = newV();
    uint32_t Off = use(Idx, In.Rs3), Wd = use(Idx, In.Rs4);
    emit("v_bfm_b32", {D(M), U(Wd), U(Off)});
    emit("v_lshlrev_b32", {D(Sh), U(Off), U(B())});
    emit("v_bfi_b32", {D(Dst()), U(M), U(Sh), U(A())});
    return finish();
  }
  // --- Compares (formats/isa.md §4.10 with D19 defaults)
  case Opcode::IcmpEq:
    return ICmp("s_cmp_eq_u32", "v_cmp_eq_u32_e64");
  case Opcode::IcmpNe:
    return ICmp("s_cmp_lg_u32", "v_cmp_ne_u32_e64");
  case Opcode::IcmpLt:
    return ICmp("s_cmp_lt_i32", "v_cmp_lt_i32_e64");
  case Opcode::IcmpLe:
    return ICmp("s_cmp_le_i32", "v_cmp_le_i32_e64");
  case Opcode::IcmpGt:
    return ICmp("s_cmp_gt_i32", "v_cmp_gt_i32_e64");
  case Opcode::IcmpGe:
    return ICmp("s_cmp_ge_i32", "v_cmp_ge_i32_e64");
  case Opcode::UcmpEq:
    return ICmp("s_cmp_eq_u32", "v_cmp_eq_u32_e64");
  case Opcode::UcmpNe:
    return ICmp("s_cmp_lg_u32", "v_cmp_ne_u32_e64");
  case Opcode::UcmpLt:
    return ICmp("s_cmp_lt_u32", "v_cmp_lt_u32_e64");
  case Opcode::UcmpLe:
    return ICmp("s_cmp_le_u32", "v_cmp_le_u32_e64");
  case Opcode::UcmpGt:
    return ICmp("s_cmp_gt_u32", "v_cmp_gt_u32_e64");
  case Opcode::UcmpGe:
    return ICmp("s_cmp_ge_u32", "v_cmp_ge_u32_e64");
  case Opcode::IcmpOrd:
  case Opcode::IcmpUnord:
  case Opcode::UcmpOrd:
  case Opcode::UcmpUnord:
    return FalsePred();
  case Opcode::FcmpEq:
    return VCmp("v_cmp_eq_f32_e64");
  case Opcode::FcmpNe:
    return VCmp("v_cmp_neq_f32_e64");
  case Opcode::FcmpLt:
    return VCmp("v_cmp_lt_f32_e64");
  case Opcode::FcmpLe:
    return VCmp("v_cmp_le_f32_e64");
  case Opcode::FcmpGt:
    return VCmp("v_cmp_gt_f32_e64");
  case Opcode::FcmpGe:
    return VCmp("v_cmp_ge_f32_e64");
  case Opcode::FcmpOrd:
    return VCmp("v_cmp_o_f32_e64");
  case Opcode::FcmpUnord:
    return VCmp("v_cmp_u_f32_e64");
  case Opcode::Select:
    emit("v_cndmask_b32_e64",
         {D(Dst()), U(C()), U(B()), U(useP(Idx, In.Rs1))});
    return finish();
  // --- Conversions (formats/isa.md §4.11)
  case Opcode::CvtF32I32:
    return V1("v_cvt_f32_i32");
  case Opcode::CvtF32U32:
    return V1("v_cvt_f32_u32");
  case Opcode::CvtI32F32:
    return V1("v_cvt_i32_f32");
  case Opcode::CvtU32F32:
    return V1("v_cvt_u32_f32");
  case Opcode::CvtF32F16:
    return V1("v_cvt_f32_f16");
  case Opcode::CvtF16F32: {
    uint32_t Dd = Dst();
    emit("v_cvt_f16_f32", {D(Dd), U(A())});
    F16Fix(Dd);
    return finish();
  }
  case Opcode::CvtF32F64: {
    uint32_t PA = pairIn(Idx, In.Rs1);
    emit("v_cvt_f32_f64", {D(Dst()), U(PA)});
    return finish();
  }
  case Opcode::CvtF64F32: {
    uint32_t PD = F.newVReg(RegClass::V64);
    emit("v_cvt_f64_f32", {D(PD), U(A())});
    pairOut(Idx, In.Rd, PD);
    return finish();
  }
  case Opcode::CvtF32Bf16:
    emit("v_lshlrev_b32", {D(Dst()), I(16), U(A())});
    return finish();
  case Opcode::CvtBf16F32:
    emit("v_lshrrev_b32", {D(Dst()), I(16), U(A())});
    return finish();
  // --- Moves
  case Opcode::Mov:
    emit("v_mov_b32", {D(Dst()), U(A())});
    return finish();
  case Opcode::MovImm:
    emit("v_mov_b32", {D(Dst()), I(int64_t(In.Word1))});
    return finish();
  case Opcode::MovSr:
    emit("v_mov_b32", {D(Dst()), U(specialReg(In.Rs1, false))});
    return finish();
  default:
    return unsupported(In.desc().Mnemonic);
  }
}

} // namespace wave::amdgcn::detail
