//===- ISA.h - WAVE v0.4 instructions, encoding and decoding ----*- C++ -*-===//
//
// The instruction model shared by every tool: the Opcode enumeration and its
// static descriptions (expanded from Opcodes.def and Forms.def), the decoded
// instruction `Inst`, and the bit-exact encoder and decoder of formats/isa.md
// §1.
//
//===----------------------------------------------------------------------===//
#ifndef WAVE_ISA_ISA_H
#define WAVE_ISA_ISA_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace wave {

/// One enumerator per row of Opcodes.def: a (primary opcode, modifier) pair
/// with distinct semantics. Not the 8-bit primary opcode itself; see
/// InstDesc::PrimaryOpcode for that.
enum class Opcode : uint16_t {
#define WAVE_INST(Id, Mnemonic, Op, Mod, Form, Class, Flags, Kind, Space,      \
                  Bytes, Dst, Src)                                             \
  Id,
#include "wave/ISA/Opcodes.def"
};

/// Number of Opcode enumerators.
inline constexpr unsigned NumOpcodes = 0
#define WAVE_INST(Id, Mnemonic, Op, Mod, Form, Class, Flags, Kind, Space,      \
                  Bytes, Dst, Src)                                             \
  +1
#include "wave/ISA/Opcodes.def"
    ;

/// Operand forms (Forms.def).
enum class Form : uint8_t {
#define WAVE_FORM(Id, Len, Opt, O0, O1, O2, O3, O4) Id,
#include "wave/ISA/Forms.def"
};

/// What an assembly operand denotes (formats/isa.md §2.2; formats/wave-asm.md
/// §5).
enum class OperandKind : uint8_t {
  None,
  Reg,     ///< general register rN, N in 0..254 (255 encodable, not written).
  Pred,    ///< predicate register pN, N in 0..3.
  Frag,    ///< MMA fragment id, spelled like a register (formats/isa.md §2.15).
  Special, ///< special register sr_NAME (formats/isa.md §3).
  Imm,     ///< 32-bit immediate (mov_imm).
  Scope,   ///< memory scope (formats/isa.md §1.4 (a)).
  Label,   ///< code label; encodes as a byte offset in W1 (call).
};

/// Encoding field an operand occupies (formats/isa.md §1.2, §1.4).
enum class Field : uint8_t { None, Rd, Rs1, Rs2, Rs3, Rs4, Scope, Word1 };

/// One operand slot of a form.
struct OperandDesc {
  OperandKind Kind;
  Field Fld;
};

/// Static description of an operand form.
struct FormDesc {
  const char *Name;
  uint8_t Length;      ///< instruction length in bytes, 4 or 8.
  bool OptionalDest;   ///< first operand may be omitted (field written 0).
  uint8_t NumOperands; ///< operands in assembly order (at most 5).
  OperandDesc Operands[5];
};

/// Statistics class (formats/isa.md §4.21).
enum class InstClass : uint8_t { Integer, Float, Memory, Control, Wave, Atomic };

/// Row flags of Opcodes.def.
enum InstFlag : uint8_t {
  /// The reference assembler accepts this mnemonic.
  REF = 1,
  /// An extension of ours (formats/isa.md §8); accepted by our assembler by
  /// default.
  EXT = 2,
};

/// Modifier value of opcodes without sub-operations (Opcodes.def `ANY`).
inline constexpr int8_t ANY = -1;

/// What an instruction does, as far as analyses and translators need to know
/// (Opcodes.def column Kind).
enum class OpKind : uint8_t {
  /// Reads and writes registers and predicates only: arithmetic, select,
  /// conversions, wave operations, moves.
  Plain,
  /// icmp_/ucmp_/fcmp_: writes a predicate (formats/isa.md §2.8).
  Compare,
  /// *_load_*: memory to registers (formats/isa.md §2.10).
  Load,
  /// *_store_*: registers to memory (formats/isa.md §2.10).
  Store,
  /// 32-bit read-modify-write, local or device (formats/isa.md §2.11).
  Atomic,
  /// Opcode 0x3F: structured control flow and synchronisation
  /// (formats/isa.md §2.13, §2.14); not the moves, which share their
  /// statistics class.
  Control,
  /// Opcode 0x40: matrix multiply-accumulate (formats/isa.md §2.15).
  Mma,
};

/// The memory an instruction accesses (Opcodes.def column Space;
/// formats/isa.md §4.12, §4.13, §4.18).
enum class AddressSpace : uint8_t { None, Local, Device };

/// Static description of one opcode row.
struct InstDesc {
  const char *Mnemonic;
  uint8_t PrimaryOpcode; ///< W0 bits 31:24.
  int8_t Mod;            ///< W0 bits 7:4, or ANY.
  Form InstForm;
  InstClass Class;
  uint8_t Flags; ///< InstFlag bits.
  OpKind Kind;
  AddressSpace Space;
  uint8_t AccessBytes; ///< bytes per access and lane; 0 without memory.
  uint8_t DestRegs;    ///< registers of the value written through rd.
  uint8_t SourceRegs;  ///< registers of each value read through rs1..rs4.
};

namespace detail {
/// The rows of Opcodes.def, indexed by Opcode.
inline constexpr InstDesc InstTable[] = {
#define WAVE_INST(Id, Mnemonic, Op, Mod, F, Cls, Flg, Kind, Space, Bytes, Dst, \
                  Src)                                                         \
  {Mnemonic,       Op,  Mod,          Form::F,                                 \
   InstClass::Cls, Flg, OpKind::Kind, AddressSpace::Space,                     \
   Bytes,          Dst, Src},
#include "wave/ISA/Opcodes.def"
};
} // namespace detail

/// The description of \p Op. Never fails.
constexpr const InstDesc &getInstDesc(Opcode Op) {
  return detail::InstTable[static_cast<unsigned>(Op)];
}

/// What \p Op does (Opcodes.def column Kind; OpKind).
constexpr OpKind getOpKind(Opcode Op) { return getInstDesc(Op).Kind; }
/// Whether \p Op is a local or device load, `*_load_u8` .. `*_load_u128`
/// (formats/isa.md §2.10, §4.12). Neither atomics nor MMA loads are.
constexpr bool isLoad(Opcode Op) { return getOpKind(Op) == OpKind::Load; }
/// Whether \p Op is a local or device store, `*_store_u8` .. `*_store_u128`
/// (formats/isa.md §2.10, §4.12). Neither atomics nor `mma_store_c` are.
constexpr bool isStore(Opcode Op) { return getOpKind(Op) == OpKind::Store; }
/// Whether \p Op is a local or device atomic, CAS included (formats/isa.md
/// §2.11, §4.13).
constexpr bool isAtomic(Opcode Op) { return getOpKind(Op) == OpKind::Atomic; }
/// Whether \p Op is a load, a store or an atomic (formats/isa.md §2.10,
/// §2.11); the MMA loads and stores are not (isMMA).
constexpr bool isMemoryAccess(Opcode Op) {
  return isLoad(Op) || isStore(Op) || isAtomic(Op);
}
/// Whether \p Op is an `icmp_`, `ucmp_` or `fcmp_` compare, which writes the
/// predicate named by rd (formats/isa.md §2.8, §4.10).
constexpr bool isCompare(Opcode Op) { return getOpKind(Op) == OpKind::Compare; }
/// Whether \p Op is structured control flow or synchronisation, `if` ..
/// `nop` (opcode 0x3F; formats/isa.md §2.13, §2.14, §4.15-§4.17). The moves
/// share statistics class Control but are not control instructions.
constexpr bool isControl(Opcode Op) { return getOpKind(Op) == OpKind::Control; }
/// Whether \p Op is an MMA instruction (opcode 0x40; formats/isa.md §2.15,
/// §4.18).
constexpr bool isMMA(Opcode Op) { return getOpKind(Op) == OpKind::Mma; }

/// The memory \p Op accesses: Local for local loads, stores and atomics and
/// for the MMA loads and `mma_store_c`, Device for device loads, stores and
/// atomics, None for every other instruction (formats/isa.md §2.10, §2.11,
/// §4.12, §4.13, §4.18).
constexpr AddressSpace getAddressSpace(Opcode Op) {
  return getInstDesc(Op).Space;
}
/// Bytes of each memory access \p Op makes in one lane: the width of a load
/// or store, 1, 2, 4, 8 or 16 (formats/isa.md §2.10; `local_*_u128` is 16
/// bytes, the default of formats/isa.md D25); 4 for an atomic (§4.13) and
/// for each element an MMA load or store moves (§4.18); 0 for an instruction
/// that accesses no memory.
constexpr unsigned getAccessBytes(Opcode Op) {
  return getInstDesc(Op).AccessBytes;
}
/// How many consecutive 32-bit registers, from rd, the value \p Op writes
/// through rd spans: 2 for the f64 results of `dadd` .. `dsqrt` and
/// `cvt_f64_f32` and for `*_load_u64`, 4 for `*_load_u128` (formats/isa.md
/// §2.6, §2.9, §4.9, §4.12); 1 for every other instruction, including those
/// whose rd holds no register value.
constexpr unsigned getDestRegs(Opcode Op) { return getInstDesc(Op).DestRegs; }
/// How many consecutive 32-bit registers each value \p Op reads through
/// rs1..rs4 spans: 2 for the f64 operands of `dadd` .. `dsqrt` and
/// `cvt_f32_f64` and for the value of `*_store_u64`, 4 for the value of
/// `*_store_u128` (formats/isa.md §2.6, §2.9, §4.9, §4.12); 1 for every other
/// instruction. A memory address is one register (getOperandRegs).
constexpr unsigned getSourceRegs(Opcode Op) {
  return getInstDesc(Op).SourceRegs;
}
/// How many consecutive 32-bit registers the operand of \p Op in encoding
/// field \p F spans: getDestRegs(Op) for rd, 1 for rs1 of a load, store or
/// atomic (the address, formats/isa.md §2.10, §2.11), getSourceRegs(Op) for
/// any other rs field; 0 for the fields that hold no register (Scope, Word1,
/// None). Predicate and fragment operands count as 1.
constexpr unsigned getOperandRegs(Opcode Op, Field F) {
  switch (F) {
  case Field::Rd:
    return getDestRegs(Op);
  case Field::Rs1:
    return isMemoryAccess(Op) ? 1 : getSourceRegs(Op);
  case Field::Rs2:
  case Field::Rs3:
  case Field::Rs4:
    return getSourceRegs(Op);
  case Field::None:
  case Field::Scope:
  case Field::Word1:
    break;
  }
  return 0;
}

/// The description of \p F. Never fails.
const FormDesc &getFormDesc(Form F);
/// Length of \p Op in bytes (4 or 8), from its form (formats/isa.md §1.5).
inline unsigned getInstLength(Opcode Op) {
  return getFormDesc(getInstDesc(Op).InstForm).Length;
}
/// The opcode spelled \p Mnemonic (exact, case-sensitive), if any. Only the
/// table's own spellings; aliases (`mov rd, sr_x`, scope suffixes) are the
/// assembler's business.
std::optional<Opcode> lookupMnemonic(llvm::StringRef Mnemonic);

/// Memory scopes of W1 bits 1:0 (formats/isa.md §1.4).
enum class Scope : uint8_t { Wave = 0, Workgroup = 1, Device = 2, System = 3 };
/// "wave", "workgroup", "device" or "system" for \p S (taken modulo 4).
llvm::StringRef getScopeName(unsigned S);
/// Parses a scope word with or without a leading dot (".device", "device").
std::optional<unsigned> lookupScope(llvm::StringRef Word);

/// Number of named special registers (indices 0..19, formats/isa.md §3).
inline constexpr unsigned NumSpecialRegs = 20;
/// The name (with `sr_` prefix) of special register \p Index, or an empty
/// string for indices without a name (20..255).
llvm::StringRef getSpecialRegName(unsigned Index);
/// Parses `sr_NAME` or the numeric extension `sr_N` (N in 0..255).
std::optional<unsigned> lookupSpecialReg(llvm::StringRef Word);

/// A decoded instruction: its opcode row plus the raw encoding fields. Which
/// fields mean something depends on the form; unused fields are 0 when
/// produced by the assembler and ignored by the encoder's consumers.
struct Inst {
  Opcode Op = Opcode::Nop;
  uint8_t Rd = 0, Rs1 = 0, Rs2 = 0, Rs3 = 0, Rs4 = 0;
  uint8_t ScopeBits = 0; ///< W1 bits 1:0.
  uint32_t Word1 = 0;    ///< immediate (mov_imm) or call target byte offset.
  uint8_t PredReg = 0;   ///< W0 bits 1:0.
  bool PredNeg = false;  ///< W0 bit 2.

  const InstDesc &desc() const { return getInstDesc(Op); }
  const FormDesc &form() const { return getFormDesc(desc().InstForm); }
  unsigned length() const { return form().Length; }
  /// formats/isa.md §1.3: predicated iff preg != 0 or pneg.
  bool isPredicated() const { return PredReg != 0 || PredNeg; }
  /// Value of an encoding field.
  uint32_t getField(Field F) const;
  /// Sets an encoding field (register fields take the low 8 bits, scope the
  /// low 2).
  void setField(Field F, uint32_t Value);
};

/// W0 of \p I (formats/isa.md §1.2): opcode, rd, rs1, modifier (0 for ANY),
/// pneg, preg; reserved bit 3 is 0.
uint32_t encodeWord0(const Inst &I);
/// W1 of \p I (formats/isa.md §1.4); meaningful only when I.length() == 8.
uint32_t encodeWord1(const Inst &I);
/// Appends the little-endian bytes of \p I (4 or 8) to \p Out.
void encodeInst(const Inst &I, std::vector<uint8_t> &Out);

/// Why a word failed to decode (formats/isa.md §1.6).
enum class DecodeErrorKind { Truncated, InvalidOpcode, InvalidModifier };

/// A decode failure at a byte offset of the code being decoded.
class DecodeError : public llvm::ErrorInfo<DecodeError> {
public:
  static char ID;
  DecodeError(DecodeErrorKind Kind, uint64_t Offset, uint32_t Word0)
      : Kind(Kind), Offset(Offset), Word0(Word0) {}
  DecodeErrorKind getKind() const { return Kind; }
  /// Byte offset of the instruction within the decoded buffer.
  uint64_t getOffset() const { return Offset; }
  uint32_t getWord0() const { return Word0; }
  /// The reason without the offset, e.g. "invalid opcode 0x42".
  std::string reason() const;
  void log(llvm::raw_ostream &OS) const override;
  std::error_code convertToErrorCode() const override;

private:
  DecodeErrorKind Kind;
  uint64_t Offset;
  uint32_t Word0;
};

/// Decodes the instruction at byte \p Offset of \p Code (formats/isa.md §1.5,
/// §1.6). Fails with DecodeError when fewer than 4 bytes remain, when W1 would
/// run past the end (the reference panics here, D24), for an unassigned opcode,
/// or for a modifier outside the opcode's valid set. Reserved bits are ignored.
/// Never reads outside \p Code.
llvm::Expected<Inst> decodeInst(llvm::ArrayRef<uint8_t> Code, uint64_t Offset);

/// Little-endian helpers for byte buffers.
inline uint32_t readLE32(const uint8_t *P) {
  return uint32_t(P[0]) | uint32_t(P[1]) << 8 | uint32_t(P[2]) << 16 |
         uint32_t(P[3]) << 24;
}
inline void appendLE32(std::vector<uint8_t> &Out, uint32_t V) {
  Out.push_back(V & 0xFF);
  Out.push_back((V >> 8) & 0xFF);
  Out.push_back((V >> 16) & 0xFF);
  Out.push_back((V >> 24) & 0xFF);
}

} // namespace wave

#endif // WAVE_ISA_ISA_H
