//===- ProgramBuilder.h - Build small .wbin programs in C++ -----*- C++ -*-===//
//
// A header-only helper that encodes wave::Inst values with wave::encodeInst
// into a one-kernel WbinFile, so unit tests, benchmarks and fuzz seeds can
// make emulator inputs without the assembler. Labels are byte offsets
// relative to the kernel (formats/isa.md §4.16).
//
//===----------------------------------------------------------------------===//
#ifndef WAVE_EMU_PROGRAMBUILDER_H
#define WAVE_EMU_PROGRAMBUILDER_H

#include "wave/ISA/ISA.h"
#include "wave/Object/Wbin.h"

#include <cstdint>
#include <string>
#include <vector>

namespace wave::emu {

/// Accumulates instructions of one kernel. Register operands are plain
/// numbers (0..255); predicate operands are predicate numbers (0..3).
class ProgramBuilder {
public:
  explicit ProgramBuilder(std::string Name = "k") { K.Name = std::move(Name); }

  /// Appends \p I; returns its byte offset within the kernel.
  uint32_t add(const Inst &I) {
    uint32_t Off = uint32_t(Code.size());
    encodeInst(I, Code);
    return Off;
  }
  /// An unpredicated instruction with the given raw encoding fields.
  static Inst make(Opcode Op, unsigned Rd, unsigned Rs1, unsigned Rs2,
                   unsigned Rs3, unsigned Rs4) {
    Inst I;
    I.Op = Op;
    I.Rd = uint8_t(Rd);
    I.Rs1 = uint8_t(Rs1);
    I.Rs2 = uint8_t(Rs2);
    I.Rs3 = uint8_t(Rs3);
    I.Rs4 = uint8_t(Rs4);
    return I;
  }
  /// Byte offset the next instruction will get (a label).
  uint32_t here() const { return uint32_t(Code.size()); }

  /// `Op rd, rs1, rs2, rs3, rs4` with raw encoding fields.
  uint32_t op(Opcode Op, unsigned Rd = 0, unsigned Rs1 = 0, unsigned Rs2 = 0,
              unsigned Rs3 = 0, unsigned Rs4 = 0) {
    return add(make(Op, Rd, Rs1, Rs2, Rs3, Rs4));
  }
  /// Same as op() with a predicate prefix `@pN` / `@!pN`.
  uint32_t pred(unsigned PReg, bool Neg, Opcode Op, unsigned Rd = 0,
                unsigned Rs1 = 0, unsigned Rs2 = 0, unsigned Rs3 = 0) {
    Inst I = make(Op, Rd, Rs1, Rs2, Rs3, 0);
    I.PredReg = uint8_t(PReg & 3);
    I.PredNeg = Neg;
    return add(I);
  }
  /// `mov_imm rd, value`.
  uint32_t movImm(unsigned Rd, uint32_t V) {
    Inst I;
    I.Op = Opcode::MovImm;
    I.Rd = uint8_t(Rd);
    I.Word1 = V;
    return add(I);
  }
  /// `mov rd, sr_<index>`.
  uint32_t movSr(unsigned Rd, unsigned Sr) { return op(Opcode::MovSr, Rd, Sr); }
  /// `call <byte offset>`.
  uint32_t call(uint32_t Target) {
    Inst I;
    I.Op = Opcode::Call;
    I.Word1 = Target;
    return add(I);
  }
  /// Patches the W1 of the call at \p At to \p Target.
  void patchCall(uint32_t At, uint32_t Target) {
    for (unsigned B = 0; B != 4; ++B)
      Code[At + 4 + B] = uint8_t(Target >> (8 * B));
  }
  uint32_t halt() { return op(Opcode::Halt); }

  /// Kernel metadata (formats/wbin.md "Kernel entry"); zeros mean "use the
  /// runner's value".
  KernelInfo &kernel() { return K; }

  /// The single-kernel file.
  WbinFile build() const {
    WbinFile F;
    F.Code = Code;
    KernelInfo KI = K;
    KI.CodeOffset = 0;
    KI.CodeSize = uint32_t(Code.size());
    F.Kernels.push_back(KI);
    return F;
  }

  std::vector<uint8_t> Code;

private:
  KernelInfo K;
};

} // namespace wave::emu

#endif // WAVE_EMU_PROGRAMBUILDER_H
