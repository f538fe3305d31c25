//===- LowerMMA.cpp - Matrix multiply-accumulate --------------------------===//
//
// Lowering of the MMA instructions (formats/isa.md §4.18): each fragment is 16
// f32 values per lane, kept in VGPRs from the prologue on; loads and stores
// are ds_read/ds_write of four rows, mma_compute is 64 multiply-adds.
//
//===----------------------------------------------------------------------===//

#include "Lowering.h"

using namespace llvm;

namespace wave::amdgcn::detail {

uint32_t KernelLowering::fragment(unsigned Id, unsigned Row, unsigned Col) {
  return Frags[Id][Row * 4 + Col];
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

/// MMA (formats/isa.md §4.18): per-lane 4x4 f32 fragments kept in VGPRs.
Error KernelLowering::lowerMMA(unsigned Idx) {
  const Inst &In = Ops[Idx].I;
  Opcode Op = In.Op;
  switch (Op) {
  case Opcode::MmaLoadA:
  case Opcode::MmaLoadB: {
    uint32_t Addr = toV(A()), Stride = toV(B());
    for (unsigned Row = 0; Row < 4; ++Row) {
      uint32_t RA = rowAddress(Addr, Stride, Row);
      for (unsigned Col = 0; Col < 4; ++Col)
        emit("ds_read_b32", {D(fragment(In.Rd, Row, Col)), U(RA)},
             Col ? (" offset:" + Twine(4 * Col)).str() : "");
    }
    return finish();
  }
  case Opcode::MmaStoreC: {
    uint32_t Addr = toV(use(Idx, In.Rd)), Stride = toV(A());
    for (unsigned Row = 0; Row < 4; ++Row) {
      uint32_t RA = rowAddress(Addr, Stride, Row);
      for (unsigned Col = 0; Col < 4; ++Col)
        emit("ds_write_b32", {U(RA), U(fragment(In.Rs2, Row, Col))},
             Col ? (" offset:" + Twine(4 * Col)).str() : "");
    }
    return finish();
  }
  case Opcode::MmaCompute: {
    for (unsigned Row = 0; Row < 4; ++Row)
      for (unsigned Col = 0; Col < 4; ++Col) {
        uint32_t Cc = fragment(In.Rs2, Row, Col);
        for (unsigned Kk = 0; Kk < 4; ++Kk) {
          uint32_t P = newV();
          emit("v_mul_f32", {D(P), U(fragment(In.Rd, Row, Kk)),
                             U(fragment(In.Rs1, Kk, Col))});
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
