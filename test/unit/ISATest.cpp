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

// The semantic columns of Opcodes.def (Kind, Space, Bytes, Dst, Src) for a
// representative set of instructions, each expectation written from
// formats/isa.md: §2.6 and §4.9 (f64 pairs), §2.9 (cvt), §2.10 and §4.12
// (memory widths; local u128 is 16 bytes, the D25 default), §2.11 and §4.13
// (32-bit atomics), §2.8 (compares), §2.13 and §2.14 (opcode 0x3F), §2.15 and
// §4.18 (MMA on local memory), §2.16 (moves).
TEST(ISA, SemanticColumnsFollowSpec) {
  struct Row {
    Opcode Op;
    OpKind Kind;
    AddressSpace Space;
    unsigned Bytes, Dst, Src;
  };
  using K = OpKind;
  using S = AddressSpace;
  const Row Rows[] = {
      {Opcode::Iadd, K::Plain, S::None, 0, 1, 1},
      {Opcode::Fma, K::Plain, S::None, 0, 1, 1},
      {Opcode::Dadd, K::Plain, S::None, 0, 2, 2},
      {Opcode::Dma, K::Plain, S::None, 0, 2, 2},
      {Opcode::Ddiv, K::Plain, S::None, 0, 2, 2},
      {Opcode::Dsqrt, K::Plain, S::None, 0, 2, 2},
      {Opcode::CvtF32F64, K::Plain, S::None, 0, 1, 2},
      {Opcode::CvtF64F32, K::Plain, S::None, 0, 2, 1},
      {Opcode::CvtF32I32, K::Plain, S::None, 0, 1, 1},
      {Opcode::Select, K::Plain, S::None, 0, 1, 1},
      {Opcode::IcmpEq, K::Compare, S::None, 0, 1, 1},
      {Opcode::UcmpLt, K::Compare, S::None, 0, 1, 1},
      {Opcode::FcmpUnord, K::Compare, S::None, 0, 1, 1},
      {Opcode::LocalLoadU8, K::Load, S::Local, 1, 1, 1},
      {Opcode::LocalLoadU16, K::Load, S::Local, 2, 1, 1},
      {Opcode::LocalLoadU32, K::Load, S::Local, 4, 1, 1},
      {Opcode::LocalLoadU64, K::Load, S::Local, 8, 2, 1},
      {Opcode::LocalLoadU128, K::Load, S::Local, 16, 4, 1},
      {Opcode::LocalStoreU16, K::Store, S::Local, 2, 1, 1},
      {Opcode::LocalStoreU128, K::Store, S::Local, 16, 1, 4},
      {Opcode::DeviceLoadU8, K::Load, S::Device, 1, 1, 1},
      {Opcode::DeviceLoadU64, K::Load, S::Device, 8, 2, 1},
      {Opcode::DeviceLoadU128, K::Load, S::Device, 16, 4, 1},
      {Opcode::DeviceStoreU8, K::Store, S::Device, 1, 1, 1},
      {Opcode::DeviceStoreU32, K::Store, S::Device, 4, 1, 1},
      {Opcode::DeviceStoreU64, K::Store, S::Device, 8, 1, 2},
      {Opcode::DeviceStoreU128, K::Store, S::Device, 16, 1, 4},
      {Opcode::LocalAtomicAdd, K::Atomic, S::Local, 4, 1, 1},
      {Opcode::LocalAtomicCas, K::Atomic, S::Local, 4, 1, 1},
      {Opcode::AtomicXchg, K::Atomic, S::Device, 4, 1, 1},
      {Opcode::AtomicCas, K::Atomic, S::Device, 4, 1, 1},
      {Opcode::WaveShuffle, K::Plain, S::None, 0, 1, 1},
      {Opcode::WaveBallot, K::Plain, S::None, 0, 1, 1},
      {Opcode::If, K::Control, S::None, 0, 1, 1},
      {Opcode::Endloop, K::Control, S::None, 0, 1, 1},
      {Opcode::Call, K::Control, S::None, 0, 1, 1},
      {Opcode::Barrier, K::Control, S::None, 0, 1, 1},
      {Opcode::FenceAcqRel, K::Control, S::None, 0, 1, 1},
      {Opcode::Nop, K::Control, S::None, 0, 1, 1},
      {Opcode::MmaLoadA, K::Mma, S::Local, 4, 1, 1},
      {Opcode::MmaStoreC, K::Mma, S::Local, 4, 1, 1},
      {Opcode::MmaCompute, K::Mma, S::None, 0, 1, 1},
      {Opcode::Mov, K::Plain, S::None, 0, 1, 1},
      {Opcode::MovImm, K::Plain, S::None, 0, 1, 1},
      {Opcode::MovSr, K::Plain, S::None, 0, 1, 1},
  };
  for (const Row &R : Rows) {
    SCOPED_TRACE(getInstDesc(R.Op).Mnemonic);
    EXPECT_EQ(getOpKind(R.Op), R.Kind);
    EXPECT_EQ(getAddressSpace(R.Op), R.Space);
    EXPECT_EQ(getAccessBytes(R.Op), R.Bytes);
    EXPECT_EQ(getDestRegs(R.Op), R.Dst);
    EXPECT_EQ(getSourceRegs(R.Op), R.Src);
  }

  // The predicates, on the examples the issue names.
  EXPECT_TRUE(isLoad(Opcode::LocalLoadU128));
  EXPECT_FALSE(isStore(Opcode::LocalLoadU128));
  EXPECT_TRUE(isStore(Opcode::DeviceStoreU64));
  EXPECT_FALSE(isLoad(Opcode::DeviceStoreU64));
  EXPECT_TRUE(isAtomic(Opcode::AtomicCas));
  EXPECT_FALSE(isLoad(Opcode::AtomicCas) || isStore(Opcode::AtomicCas));
  EXPECT_TRUE(isMemoryAccess(Opcode::AtomicCas));
  EXPECT_TRUE(isCompare(Opcode::IcmpEq));
  EXPECT_FALSE(isCompare(Opcode::Select));
  EXPECT_TRUE(isControl(Opcode::Halt));
  EXPECT_FALSE(isControl(Opcode::MovImm)); // statistics class Control
  EXPECT_TRUE(isMMA(Opcode::MmaLoadB));
  EXPECT_FALSE(isLoad(Opcode::MmaLoadB) || isMemoryAccess(Opcode::MmaLoadB));

  // Usable in constant expressions (the emulator builds a table from them).
  static_assert(getAccessBytes(Opcode::DeviceStoreU64) == 8);
  static_assert(isCompare(Opcode::FcmpGe) && !isCompare(Opcode::Fmax));
}

// Operand widths by encoding field: a memory address is one register
// (formats/isa.md §2.10, §2.11), the value of a wide store or load and every
// f64 operand span several (§2.6, §2.9, §4.12).
TEST(ISA, OperandRegs) {
  EXPECT_EQ(getOperandRegs(Opcode::DeviceStoreU64, Field::Rs1), 1u);
  EXPECT_EQ(getOperandRegs(Opcode::DeviceStoreU64, Field::Rs2), 2u);
  EXPECT_EQ(getOperandRegs(Opcode::LocalStoreU128, Field::Rs2), 4u);
  EXPECT_EQ(getOperandRegs(Opcode::LocalLoadU128, Field::Rd), 4u);
  EXPECT_EQ(getOperandRegs(Opcode::LocalLoadU128, Field::Rs1), 1u);
  EXPECT_EQ(getOperandRegs(Opcode::Dadd, Field::Rd), 2u);
  EXPECT_EQ(getOperandRegs(Opcode::Dadd, Field::Rs1), 2u);
  EXPECT_EQ(getOperandRegs(Opcode::Dma, Field::Rs3), 2u);
  EXPECT_EQ(getOperandRegs(Opcode::CvtF32F64, Field::Rd), 1u);
  EXPECT_EQ(getOperandRegs(Opcode::CvtF32F64, Field::Rs1), 2u);
  EXPECT_EQ(getOperandRegs(Opcode::CvtF64F32, Field::Rd), 2u);
  EXPECT_EQ(getOperandRegs(Opcode::CvtF64F32, Field::Rs1), 1u);
  EXPECT_EQ(getOperandRegs(Opcode::AtomicCas, Field::Rs3), 1u);
  EXPECT_EQ(getOperandRegs(Opcode::AtomicCas, Field::Scope), 0u);
  EXPECT_EQ(getOperandRegs(Opcode::MovImm, Field::Word1), 0u);
}

// The groups of formats/isa.md §2 have the sizes its tables give, whatever
// the order of the rows: 3 compare opcodes x 8 condition codes (§2.8), 5
// widths of local and device loads and stores (§2.10), 9 local and 9 device
// atomics (§2.11), 16 control and synchronisation instructions (§2.13,
// §2.14), 4 MMA instructions (§2.15). Loads and stores move 1 << mod bytes
// (§2.10), and only instructions with memory have an access size.
TEST(ISA, SemanticGroups) {
  unsigned Compares = 0, Loads = 0, Stores = 0, Local = 0, Device = 0,
           Controls = 0, Mmas = 0;
  for (unsigned I = 0; I != NumOpcodes; ++I) {
    Opcode Op = static_cast<Opcode>(I);
    const InstDesc &D = getInstDesc(Op);
    SCOPED_TRACE(D.Mnemonic);
    Compares += isCompare(Op);
    Loads += isLoad(Op);
    Stores += isStore(Op);
    Controls += isControl(Op);
    Mmas += isMMA(Op);
    if (isAtomic(Op))
      ++(getAddressSpace(Op) == AddressSpace::Local ? Local : Device);
    EXPECT_EQ(isCompare(Op), D.InstForm == Form::P_RR);
    EXPECT_EQ(isControl(Op), D.PrimaryOpcode == 0x3F);
    EXPECT_EQ(isMMA(Op), D.PrimaryOpcode == 0x40);
    EXPECT_EQ(isLoad(Op) || isStore(Op), D.Class == InstClass::Memory);
    EXPECT_EQ(isAtomic(Op), D.Class == InstClass::Atomic);
    EXPECT_EQ(getAccessBytes(Op) != 0,
              getAddressSpace(Op) != AddressSpace::None);
    if (isLoad(Op) || isStore(Op))
      EXPECT_EQ(getAccessBytes(Op), 1u << D.Mod);
  }
  EXPECT_EQ(Compares, 24u);
  EXPECT_EQ(Loads, 10u);
  EXPECT_EQ(Stores, 10u);
  EXPECT_EQ(Local, 9u);
  EXPECT_EQ(Device, 9u);
  EXPECT_EQ(Controls, 16u);
  EXPECT_EQ(Mmas, 4u);
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
