//===- Decode.cpp - The emulator's instruction decoding -------------------===//
//
// EmulatorImpl::decode: the selected kernel's code range, decoded once into
// DInst records (EmulatorImpl.h, "Decoding"), with an Invalid record for
// each undecodable word, an End record after the last instruction, and call
// targets as instruction indices.
//
//===----------------------------------------------------------------------===//
#include "EmulatorImpl.h"

#include "wave/ISA/ISA.h"

#include "llvm/Support/Error.h"

#include <string>
#include <vector>

using namespace llvm;

namespace wave::emu {

//===----------------------------------------------------------------------===//
// Decoding
//===----------------------------------------------------------------------===//

void EmulatorImpl::decode() {
  ArrayRef<uint8_t> Bytes = File.kernelCode(Kernel);
  std::vector<int32_t> IdxOf(Bytes.size() / 4 + 1, -1);
  auto RowOff = [&](unsigned R) { return RRow[R & 255]; };
  auto WOff = [&](unsigned R) { return WRow[R & 255]; };
  uint64_t Off = 0;
  while (Off < Bytes.size()) {
    DInst D{};
    D.PC = uint32_t(Off);
    IdxOf[Off / 4] = int32_t(Code.size());
    Expected<Inst> IOrErr = decodeInst(Bytes, Off);
    if (!IOrErr) {
      std::string Reason;
      handleAllErrors(
          IOrErr.takeError(),
          [&](const DecodeError &E) { Reason = E.reason(); },
          [&](const ErrorInfoBase &E) { Reason = E.message(); });
      D.Op = OpInvalid;
      D.Imm = Off + 4 <= Bytes.size() ? readLE32(Bytes.data() + Off) : 0;
      Code.push_back(D);
      Orig.push_back(Inst());
      InvalidReason.push_back(Reason);
      Off += 4;
      continue;
    }
    const Inst &I = *IOrErr;
    D.Op = uint16_t(I.Op);
    D.Pred = uint8_t((I.PredNeg ? 4 : 0) | (I.PredReg & 3));
    D.Rd = I.Rd;
    D.Rs1 = I.Rs1;
    D.Rs2 = I.Rs2;
    D.Rs3 = I.Rs3;
    D.Rs4 = I.Rs4;
    D.D = WOff(I.Rd);
    D.A = RowOff(I.Rs1);
    D.B = RowOff(I.Rs2);
    D.C = RowOff(I.Rs3);
    D.Imm = I.Op == Opcode::MovSr ? I.Rs1 : I.Word1;
    Code.push_back(D);
    Orig.push_back(I);
    InvalidReason.emplace_back();
    Off += I.length();
  }
  // The End sentinel: reaching it means running past the kernel (D18).
  DInst End{};
  End.Op = OpEnd;
  End.PC = uint32_t(Bytes.size());
  IdxOf[Bytes.size() / 4] = int32_t(Code.size());
  Code.push_back(End);
  Orig.push_back(Inst());
  InvalidReason.emplace_back();
  // Call targets: byte offsets relative to the kernel (formats/isa.md §4.16).
  for (DInst &D : Code) {
    if (D.Op != uint16_t(Opcode::Call))
      continue;
    uint32_t T = D.Imm;
    D.Imm = NoTarget;
    if (T % 4 == 0 && T / 4 < IdxOf.size() && IdxOf[T / 4] >= 0)
      D.Imm = uint32_t(IdxOf[T / 4]);
  }
}

} // namespace wave::emu
