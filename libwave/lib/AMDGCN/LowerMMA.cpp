//===- LowerMMA.cpp - Matrix multiply-accumulate --------------------------===//
//
// Lowering of the MMA instructions (formats/isa.md §4.18): each fragment is 16
// f32 values per lane, kept in VGPRs from the prologue on; loads and stores
// are ds_read/ds_write of four rows, mma_compute is 64 multiplies and 64
// adds, each rounded (no fused multiply-add). With packed f32 (gfx90a and
// later CDNA) a fragment is eight VGPR pairs, two neighbouring columns of a
// row each: a row is two ds_read2_b32 / ds_write2_b32, and mma_compute is
// 32 v_pk_mul_f32 (A's element for both halves through op_sel) and 32
// v_pk_add_f32, the same roundings in the same order per element.
//
//===----------------------------------------------------------------------===//

#include "Lowering.h"

using namespace llvm;

namespace wave::amdgcn::detail {

uint32_t KernelLowering::fragment(unsigned Key, unsigned Row, unsigned Col) {
  return Frags[Key][Row * 4 + Col];
}

/// The local address of row \p Row of an MMA tile: Addr + Row * Stride
/// (formats/isa.md §4.18; wraps modulo 2^32).
uint32_t KernelLowering::rowAddress(uint32_t Addr, uint32_t Stride,
                                    unsigned Row) {
  uint32_t RA = newV();
  if (Row == 0) {
    emit("v_mov_b32", {D(RA), U(Addr)});
    return RA;
  }
  uint32_t Off = newV();
  emit("v_mul_lo_u32", {D(Off), U(Stride), I(Row)});
  emit(T.VAddU32, {D(RA), U(Addr), U(Off)});
  return RA;
}

/// The offsets of ds_read2_b32/ds_write2_b32 for columns 2 * \p C2 and
/// 2 * \p C2 + 1 of a row (in dwords).
static std::string pairOffsets(unsigned C2) {
  return (" offset0:" + Twine(2 * C2) + " offset1:" + Twine(2 * C2 + 1)).str();
}

/// MMA (formats/isa.md §4.18): per-lane 4x4 f32 fragments kept in VGPRs.
Error KernelLowering::lowerMMA(unsigned Idx) {
  const Inst &In = Ops[Idx].I;
  Opcode Op = In.Op;
  switch (Op) {
  case Opcode::MmaLoadA:
  case Opcode::MmaLoadB: {
    unsigned Key = fragKey(Op == Opcode::MmaLoadA ? FragA : FragB, In.Rd);
    uint32_t Addr = toV(A()), Stride = toV(B());
    for (unsigned Row = 0; Row < 4; ++Row) {
      uint32_t RA = rowAddress(Addr, Stride, Row);
      if (T.PackedF32) {
        for (unsigned C2 = 0; C2 < 2; ++C2)
          emit("ds_read2_b32", {D(FragPairs[Key][Row * 2 + C2]), U(RA)},
               pairOffsets(C2));
        continue;
      }
      for (unsigned Col = 0; Col < 4; ++Col)
        emit("ds_read_b32", {D(fragment(Key, Row, Col)), U(RA)},
             Col ? (" offset:" + Twine(4 * Col)).str() : "");
    }
    return finish();
  }
  case Opcode::MmaStoreC: {
    unsigned Key = fragKey(FragC, In.Rs2);
    uint32_t Addr = toV(use(Idx, In.Rd)), Stride = toV(A());
    for (unsigned Row = 0; Row < 4; ++Row) {
      uint32_t RA = rowAddress(Addr, Stride, Row);
      if (T.PackedF32) {
        for (unsigned C2 = 0; C2 < 2; ++C2) {
          uint32_t P = FragPairs[Key][Row * 2 + C2];
          emit("ds_write2_b32", {U(RA), U(P, 0), U(P, 1)}, pairOffsets(C2));
        }
        continue;
      }
      for (unsigned Col = 0; Col < 4; ++Col)
        emit("ds_write_b32", {U(RA), U(fragment(Key, Row, Col))},
             Col ? (" offset:" + Twine(4 * Col)).str() : "");
    }
    return finish();
  }
  case Opcode::MmaCompute: {
    unsigned KA = fragKey(FragA, In.Rd), KB = fragKey(FragB, In.Rs1),
             KC = fragKey(FragC, In.Rs2);
    // Packed: C[r][2c..2c+1] += A[r][k] * B[k][2c..2c+1] for k = 0..3, the
    // four products first (no product waits on the add before it); A, B
    // and C are separate tables, so no update is read back.
    if (T.PackedF32) {
      auto &FA = FragPairs[KA], &FB = FragPairs[KB], &FC = FragPairs[KC];
      for (unsigned Row = 0; Row < 4; ++Row)
        for (unsigned C2 = 0; C2 < 2; ++C2) {
          uint32_t Prod[4];
          for (unsigned Kk = 0; Kk < 4; ++Kk) {
            Prod[Kk] = F.newVReg(RegClass::V64);
            // A[r][k] is half k % 2 of pair (r, k / 2), for both results.
            emit("v_pk_mul_f32",
                 {D(Prod[Kk]), U(FA[Row * 2 + Kk / 2]), U(FB[Kk * 2 + C2])},
                 Kk % 2 ? " op_sel:[1,0] op_sel_hi:[1,1]" : " op_sel_hi:[0,1]");
          }
          uint32_t Cc = FC[Row * 2 + C2];
          for (unsigned Kk = 0; Kk < 4; ++Kk)
            emit("v_pk_add_f32", {D(Cc), U(Cc), U(Prod[Kk])});
        }
      return finish();
    }
    for (unsigned Row = 0; Row < 4; ++Row)
      for (unsigned Col = 0; Col < 4; ++Col) {
        uint32_t Cc = fragment(KC, Row, Col);
        for (unsigned Kk = 0; Kk < 4; ++Kk) {
          uint32_t P = newV();
          emit("v_mul_f32", {D(P), U(fragment(KA, Row, Kk)),
                             U(fragment(KB, Kk, Col))});
          emit("v_add_f32", {D(Cc), U(Cc), U(P)});
        }
      }
    return finish();
  }
  default:
    return unsupported(In.desc().Mnemonic);
  }
}

} // namespace wave::amdgcn::detail
