//===- ISA.cpp - WAVE instruction tables, encoder and decoder -------------===//
//
// Expands Forms.def and SpecialRegs.def into lookup tables, builds the
// mnemonic and decode lookups from the Opcodes.def rows (expanded in ISA.h)
// and implements the bit-exact encoding of formats/isa.md §1.
//
//===----------------------------------------------------------------------===//
#include "wave/ISA/ISA.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <array>

using namespace llvm;

namespace wave {

using detail::InstTable;
static_assert(std::size(InstTable) == NumOpcodes);

#define OPND(K, F) {OperandKind::K, Field::F}
#define NOOPND {OperandKind::None, Field::None}
static constexpr unsigned countOperands(std::array<OperandDesc, 5> Ops) {
  unsigned N = 0;
  while (N < 5 && Ops[N].Kind != OperandKind::None)
    ++N;
  return N;
}
static constexpr FormDesc FormTable[] = {
#define WAVE_FORM(Id, Len, Opt, O0, O1, O2, O3, O4)                            \
  {#Id, Len, Opt,                                                              \
   static_cast<uint8_t>(countOperands(std::array<OperandDesc, 5>{             \
       {O0, O1, O2, O3, O4}})),                                                \
   {O0, O1, O2, O3, O4}},
#include "wave/ISA/Forms.def"
};
#undef OPND
#undef NOOPND

const FormDesc &getFormDesc(Form F) {
  return FormTable[static_cast<unsigned>(F)];
}

std::optional<Opcode> lookupMnemonic(StringRef Mnemonic) {
  static const StringMap<Opcode> Map = [] {
    StringMap<Opcode> M;
    for (unsigned I = 0; I != NumOpcodes; ++I)
      M[InstTable[I].Mnemonic] = static_cast<Opcode>(I);
    return M;
  }();
  auto It = Map.find(Mnemonic);
  if (It == Map.end())
    return std::nullopt;
  return It->second;
}

static constexpr const char *ScopeNames[] = {"wave", "workgroup", "device",
                                             "system"};

StringRef getScopeName(unsigned S) { return ScopeNames[S & 3]; }

std::optional<unsigned> lookupScope(StringRef Word) {
  Word.consume_front(".");
  for (unsigned I = 0; I != 4; ++I)
    if (Word == ScopeNames[I])
      return I;
  return std::nullopt;
}

static constexpr const char *SpecialRegNames[NumSpecialRegs] = {
#define WAVE_SPECIAL_REG(Id, Name, Index) Name,
#include "wave/ISA/SpecialRegs.def"
};

StringRef getSpecialRegName(unsigned Index) {
  return Index < NumSpecialRegs ? SpecialRegNames[Index] : "";
}

std::optional<unsigned> lookupSpecialReg(StringRef Word) {
  for (unsigned I = 0; I != NumSpecialRegs; ++I)
    if (Word == SpecialRegNames[I])
      return I;
  // Numeric extension sr_N, so every decodable index has a spelling.
  unsigned N;
  if (Word.consume_front("sr_") && !Word.empty() &&
      Word.find_first_not_of("0123456789") == StringRef::npos &&
      (Word.size() == 1 || Word[0] != '0') && !Word.getAsInteger(10, N) &&
      N <= 255)
    return N;
  return std::nullopt;
}

uint32_t Inst::getField(Field F) const {
  switch (F) {
  case Field::None:
    return 0;
  case Field::Rd:
    return Rd;
  case Field::Rs1:
    return Rs1;
  case Field::Rs2:
    return Rs2;
  case Field::Rs3:
    return Rs3;
  case Field::Rs4:
    return Rs4;
  case Field::Scope:
    return ScopeBits;
  case Field::Word1:
    return Word1;
  }
  return 0;
}

void Inst::setField(Field F, uint32_t Value) {
  switch (F) {
  case Field::None:
    return;
  case Field::Rd:
    Rd = Value;
    return;
  case Field::Rs1:
    Rs1 = Value;
    return;
  case Field::Rs2:
    Rs2 = Value;
    return;
  case Field::Rs3:
    Rs3 = Value;
    return;
  case Field::Rs4:
    Rs4 = Value;
    return;
  case Field::Scope:
    ScopeBits = Value & 3;
    return;
  case Field::Word1:
    Word1 = Value;
    return;
  }
}

uint32_t encodeWord0(const Inst &I) {
  const InstDesc &D = I.desc();
  uint32_t Mod = D.Mod == ANY ? 0 : uint32_t(D.Mod);
  return uint32_t(D.PrimaryOpcode) << 24 | uint32_t(I.Rd) << 16 |
         uint32_t(I.Rs1) << 8 | (Mod & 0xF) << 4 | uint32_t(I.PredNeg) << 2 |
         (I.PredReg & 3);
}

uint32_t encodeWord1(const Inst &I) {
  switch (I.desc().InstForm) {
  case Form::MovImm:
  case Form::Call:
    return I.Word1;
  default:
    return uint32_t(I.Rs2) << 24 | uint32_t(I.Rs3) << 16 |
           uint32_t(I.Rs4) << 8 | (I.ScopeBits & 3);
  }
}

void encodeInst(const Inst &I, std::vector<uint8_t> &Out) {
  appendLE32(Out, encodeWord0(I));
  if (I.length() == 8)
    appendLE32(Out, encodeWord1(I));
}

namespace {
/// Decode table: primary opcode x modifier -> opcode row + 1 (0 = invalid),
/// plus whether the primary opcode exists at all.
struct DecodeTable {
  std::array<std::array<uint16_t, 16>, 256> Row{};
  std::array<bool, 256> Valid{};
  DecodeTable() {
    for (unsigned I = 0; I != NumOpcodes; ++I) {
      const InstDesc &D = InstTable[I];
      Valid[D.PrimaryOpcode] = true;
      if (D.Mod == ANY) {
        for (auto &Slot : Row[D.PrimaryOpcode])
          Slot = I + 1;
      } else {
        Row[D.PrimaryOpcode][D.Mod] = I + 1;
      }
    }
  }
};
} // namespace

char DecodeError::ID = 0;

std::string DecodeError::reason() const {
  std::string S;
  raw_string_ostream OS(S);
  switch (Kind) {
  case DecodeErrorKind::Truncated:
    OS << "unexpected end of code";
    break;
  case DecodeErrorKind::InvalidOpcode:
    OS << "invalid opcode " << format("0x%02x", Word0 >> 24);
    break;
  case DecodeErrorKind::InvalidModifier:
    OS << "invalid modifier " << ((Word0 >> 4) & 0xF) << " for opcode "
       << format("0x%02x", Word0 >> 24);
    break;
  }
  return S;
}

void DecodeError::log(raw_ostream &OS) const {
  OS << reason() << " at offset " << format("0x%x", Offset);
}

std::error_code DecodeError::convertToErrorCode() const {
  return std::make_error_code(std::errc::illegal_byte_sequence);
}

Expected<Inst> decodeInst(ArrayRef<uint8_t> Code, uint64_t Offset) {
  static const DecodeTable Table;
  if (Offset > Code.size() || Code.size() - Offset < 4)
    return make_error<DecodeError>(DecodeErrorKind::Truncated, Offset, 0);
  uint32_t W0 = readLE32(Code.data() + Offset);
  unsigned Primary = W0 >> 24, Mod = (W0 >> 4) & 0xF;
  if (!Table.Valid[Primary])
    return make_error<DecodeError>(DecodeErrorKind::InvalidOpcode, Offset, W0);
  uint16_t Row = Table.Row[Primary][Mod];
  if (!Row)
    return make_error<DecodeError>(DecodeErrorKind::InvalidModifier, Offset,
                                   W0);
  Inst I;
  I.Op = static_cast<Opcode>(Row - 1);
  I.Rd = (W0 >> 16) & 0xFF;
  I.Rs1 = (W0 >> 8) & 0xFF;
  I.PredNeg = (W0 >> 2) & 1;
  I.PredReg = W0 & 3;
  if (I.length() == 8) {
    if (Code.size() - Offset < 8)
      return make_error<DecodeError>(DecodeErrorKind::Truncated, Offset, W0);
    uint32_t W1 = readLE32(Code.data() + Offset + 4);
    Form F = I.desc().InstForm;
    if (F == Form::MovImm || F == Form::Call) {
      I.Word1 = W1;
    } else {
      I.Rs2 = W1 >> 24;
      I.Rs3 = (W1 >> 16) & 0xFF;
      I.Rs4 = (W1 >> 8) & 0xFF;
      I.ScopeBits = W1 & 3;
    }
  }
  return I;
}

} // namespace wave
