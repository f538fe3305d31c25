//===- ISATest.cpp - Opcode table, encoder and decoder --------------------===//
#include "wave/ISA/ISA.h"

#include <gtest/gtest.h>

#include <set>

using namespace wave;

namespace {

// Every example of formats/isa.md §2.17, built field by field (independent of
// the assembler), must encode to the documented words.
struct Example {
  Inst I;
  uint32_t W0, W1;
};

Inst make(Opcode Op, uint8_t Rd = 0, uint8_t Rs1 = 0, uint8_t Rs2 = 0,
          uint8_t Rs3 = 0, uint8_t Rs4 = 0) {
  Inst I;
  I.Op = Op;
  I.Rd = Rd;
  I.Rs1 = Rs1;
  I.Rs2 = Rs2;
  I.Rs3 = Rs3;
  I.Rs4 = Rs4;
  return I;
}

TEST(ISA, SpecExampleEncodings) {
  std::vector<Example> Examples;
  Examples.push_back({make(Opcode::MovSr, 0, 4), 0x41000420, 0});
  Inst MovImm = make(Opcode::MovImm, 1);
  MovImm.Word1 = 4;
  Examples.push_back({MovImm, 0x41010010, 4});
  Examples.push_back({make(Opcode::Imul, 2, 0, 1), 0x02020000, 0x01000000});
  Examples.push_back({make(Opcode::DeviceStoreU32, 0, 2, 0), 0x39000220, 0});
  Examples.push_back({make(Opcode::DeviceLoadU128, 4, 1), 0x38040140, 0});
  Examples.push_back({make(Opcode::Halt), 0x3F000090, 0});
  Inst NegHalt = make(Opcode::Halt);
  NegHalt.PredReg = 3;
  NegHalt.PredNeg = true;
  Examples.push_back({NegHalt, 0x3F000097, 0});
  Inst Iadd = make(Opcode::Iadd, 0, 1, 2);
  Iadd.PredNeg = true;
  Examples.push_back({Iadd, 0x00000104, 0x02000000});
  Examples.push_back({make(Opcode::IcmpNe, 3, 1, 2), 0x28030110, 0x02000000});
  Examples.push_back({make(Opcode::Select, 0, 1, 2, 3), 0x2B000100, 0x02030000});
  Examples.push_back({make(Opcode::Bfi, 0, 1, 2, 3, 4), 0x27000140, 0x02030400});
  Examples.push_back({make(Opcode::Hma2, 1, 2, 3, 4), 0x1D010220, 0x03040000});
  Examples.push_back({make(Opcode::Ddiv, 0, 2, 4), 0x1F000200, 0x04000000});
  Examples.push_back({make(Opcode::Dsqrt, 0, 2), 0x1F000210, 0});
  Examples.push_back({make(Opcode::CvtBf16F32, 1, 2), 0x2C010290, 0});
  Inst Xchg = make(Opcode::AtomicXchg, 5, 1, 2);
  Xchg.ScopeBits = 1;
  Examples.push_back({Xchg, 0x3D050170, 0x02000001});
  Examples.push_back({make(Opcode::WaveBallot, 0, 1), 0x3E000150, 0});
  Examples.push_back({make(Opcode::WaveAny, 0, 1), 0x3E000160, 0});
  Examples.push_back({make(Opcode::WaveReduceMax, 1, 2), 0x3E0102B0, 0});
  Examples.push_back({make(Opcode::If, 0, 1), 0x3F000100, 0});
  Examples.push_back({make(Opcode::Continue, 0, 2), 0x3F000250, 0});
  Examples.push_back({make(Opcode::Endloop), 0x3F000060, 0});
  Inst Fence = make(Opcode::FenceAcqRel);
  Fence.ScopeBits = 3;
  Examples.push_back({Fence, 0x3F0000D0, 3});
  Examples.push_back({make(Opcode::MmaCompute, 1, 2, 3), 0x40010230, 0x03000000});
  Examples.push_back({make(Opcode::MovSr, 0, 19), 0x41001320, 0});
  for (const Example &E : Examples) {
    SCOPED_TRACE(E.I.desc().Mnemonic);
    EXPECT_EQ(encodeWord0(E.I), E.W0);
    if (E.I.length() == 8)
      EXPECT_EQ(encodeWord1(E.I), E.W1);
  }
}

TEST(ISA, TableIsConsistent) {
  std::set<std::string> Names;
  std::set<std::pair<int, int>> Codes;
  for (unsigned I = 0; I != NumOpcodes; ++I) {
    const InstDesc &D = getInstDesc(static_cast<Opcode>(I));
    EXPECT_TRUE(Names.insert(D.Mnemonic).second) << D.Mnemonic;
    EXPECT_TRUE(Codes.insert({D.PrimaryOpcode, D.Mod}).second) << D.Mnemonic;
    EXPECT_EQ(lookupMnemonic(D.Mnemonic), static_cast<Opcode>(I));
  }
}

// formats/isa.md §1.5: length table, checked for the opcodes whose length
// depends on the modifier.
TEST(ISA, LengthsFollowTable15) {
  EXPECT_EQ(getInstLength(Opcode::Ddiv), 8u);
  EXPECT_EQ(getInstLength(Opcode::Dsqrt), 4u);
  EXPECT_EQ(getInstLength(Opcode::Bitrev), 4u);
  EXPECT_EQ(getInstLength(Opcode::Bfe), 8u);
  EXPECT_EQ(getInstLength(Opcode::WaveBroadcast), 8u);
  EXPECT_EQ(getInstLength(Opcode::WaveBallot), 4u);
  EXPECT_EQ(getInstLength(Opcode::Call), 8u);
  EXPECT_EQ(getInstLength(Opcode::Barrier), 4u);
  EXPECT_EQ(getInstLength(Opcode::FenceAcquire), 8u);
  EXPECT_EQ(getInstLength(Opcode::Mov), 4u);
  EXPECT_EQ(getInstLength(Opcode::MovImm), 8u);
  EXPECT_EQ(getInstLength(Opcode::LocalLoadU32), 4u);
  EXPECT_EQ(getInstLength(Opcode::LocalStoreU32), 8u);
}

// formats/isa.md §1.6: which words decode.
TEST(ISA, DecodeErrors) {
  auto Dec = [](std::vector<uint8_t> B) { return decodeInst(B, 0); };
  auto Kind = [](llvm::Expected<Inst> R) {
    DecodeErrorKind K{};
    EXPECT_FALSE(static_cast<bool>(R));
    llvm::handleAllErrors(R.takeError(),
                          [&](const DecodeError &E) { K = E.getKind(); });
    return K;
  };
  EXPECT_EQ(Kind(Dec({0x00, 0x00, 0x00})), DecodeErrorKind::Truncated);
  // iadd without its W1 (D24).
  EXPECT_EQ(Kind(Dec({0x00, 0x00, 0x00, 0x00})), DecodeErrorKind::Truncated);
  for (unsigned Op : {0x0Cu, 0x0Fu, 0x2Fu, 0x32u, 0x37u, 0x3Au, 0x3Bu, 0x42u,
                      0xFFu})
    EXPECT_EQ(Kind(Dec({0, 0, 0, uint8_t(Op)})), DecodeErrorKind::InvalidOpcode)
        << Op;
  // f32 unary mod 12, memory width 5, wave op 12, misc 3, MMA 4.
  EXPECT_EQ(Kind(Dec({0xC0, 0, 0, 0x1B})), DecodeErrorKind::InvalidModifier);
  EXPECT_EQ(Kind(Dec({0x50, 0, 0, 0x38})), DecodeErrorKind::InvalidModifier);
  EXPECT_EQ(Kind(Dec({0xC0, 0, 0, 0x3E})), DecodeErrorKind::InvalidModifier);
  EXPECT_EQ(Kind(Dec({0x30, 0, 0, 0x41})), DecodeErrorKind::InvalidModifier);
  EXPECT_EQ(Kind(Dec({0x40, 0, 0, 0x40, 0, 0, 0, 0})),
            DecodeErrorKind::InvalidModifier);
  // Mod-less opcodes decode any modifier; reserved bit 3 is ignored.
  auto R = Dec({0xF8, 0x01, 0x02, 0x00, 0, 0, 0, 0x03});
  ASSERT_TRUE(static_cast<bool>(R));
  EXPECT_EQ(R->Op, Opcode::Iadd);
  EXPECT_EQ(R->Rd, 2);
  EXPECT_EQ(R->Rs1, 1);
  EXPECT_EQ(R->Rs2, 3);
}

// Every opcode x predicate form x boundary register numbers survives
// encode -> decode.
TEST(ISA, EncodeDecodeRoundTripAllOpcodes) {
  const uint8_t Regs[] = {0, 1, 3, 127, 254, 255};
  for (unsigned Op = 0; Op != NumOpcodes; ++Op) {
    for (unsigned Pred = 0; Pred != 8; ++Pred) {
      for (uint8_t R : Regs) {
        Inst I;
        I.Op = static_cast<Opcode>(Op);
        I.PredReg = Pred & 3;
        I.PredNeg = Pred >> 2;
        const FormDesc &F = I.form();
        for (unsigned K = 0; K != F.NumOperands; ++K) {
          const OperandDesc &O = F.Operands[K];
          uint32_t V = R;
          if (O.Kind == OperandKind::Pred || O.Kind == OperandKind::Scope)
            V = R & 3;
          if (O.Kind == OperandKind::Imm || O.Kind == OperandKind::Label)
            V = 0xDEADBEEFu ^ R;
          I.setField(O.Fld, V);
        }
        std::vector<uint8_t> Bytes;
        encodeInst(I, Bytes);
        ASSERT_EQ(Bytes.size(), I.length());
        auto D = decodeInst(Bytes, 0);
        ASSERT_TRUE(static_cast<bool>(D)) << llvm::toString(D.takeError());
        EXPECT_EQ(D->Op, I.Op);
        std::vector<uint8_t> Again;
        encodeInst(*D, Again);
        EXPECT_EQ(Again, Bytes) << I.desc().Mnemonic;
      }
    }
  }
}

TEST(ISA, SpecialRegisters) {
  EXPECT_EQ(lookupSpecialReg("sr_lane_id"), 4u);
  EXPECT_EQ(lookupSpecialReg("sr_mma_k"), 19u);
  EXPECT_EQ(lookupSpecialReg("sr_200"), 200u);
  EXPECT_EQ(lookupSpecialReg("sr_256"), std::nullopt);
  EXPECT_EQ(lookupSpecialReg("sr_bogus"), std::nullopt);
  EXPECT_EQ(getSpecialRegName(14), "sr_wave_width");
  EXPECT_EQ(getSpecialRegName(20), "");
}

} // namespace
