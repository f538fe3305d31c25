//===- Type.h - MIR value types ---------------------------------*- C++ -*-===//
//
// The closed set of MIR types (formats/mir.md, "Types"; libwave/README.md
// "Formats on pipes"): i1, the 32-bit integers i32 and u32 (same bits,
// signedness is part of the type so that div/rem/min/max/icmp/cvt need no
// flag), the floating types f16 bf16 f32 f64, packed pairs v2f16 v2bf16 (one
// 32-bit register, formats/isa.md §4.8), 32-bit byte-offset pointers into
// device or local memory, and `ptr<private>`, the address of a per-thread
// variable slot made by `alloca` (formats/mir.md, "Private variables"). `void`
// is only a function result type.
//
//===----------------------------------------------------------------------===//
#ifndef WAVE_IR_TYPE_H
#define WAVE_IR_TYPE_H

#include "llvm/ADT/StringRef.h"

namespace llvm {
struct fltSemantics;
} // namespace llvm

#include <cstdint>
#include <optional>

namespace wave::mir {

/// A MIR type. Types are plain values: compare them with ==.
enum class Type : uint8_t {
  Void,
  I1,
  I32,
  U32,
  F16,
  BF16,
  F32,
  F64,
  V2F16,
  V2BF16,
  PtrDevice,
  PtrLocal,
  /// The address of an `alloca` slot (a per-thread variable). Only an
  /// alloca produces one and only load/store addresses use one (Verifier.h,
  /// verifyPrivateSlots); it is not in TM_Ptr, so ptradd, icmp and pointer
  /// stores do not take it.
  PtrPrivate,
};

/// Number of Type enumerators.
inline constexpr unsigned NumTypes = 13;
static_assert(unsigned(Type::PtrPrivate) + 1 == NumTypes,
              "NumTypes must follow the last Type");

/// A set of types, one bit per Type enumerator (used by MIROps.def).
using TypeMask = uint32_t;

constexpr TypeMask typeBit(Type T) { return TypeMask(1) << unsigned(T); }

inline constexpr TypeMask TM_None = 0;
inline constexpr TypeMask TM_Int = typeBit(Type::I32) | typeBit(Type::U32);
inline constexpr TypeMask TM_IntBool = TM_Int | typeBit(Type::I1);
inline constexpr TypeMask TM_Ptr =
    typeBit(Type::PtrDevice) | typeBit(Type::PtrLocal);
inline constexpr TypeMask TM_IntPtr = TM_Int | TM_Ptr;
inline constexpr TypeMask TM_F32 = typeBit(Type::F32);
inline constexpr TypeMask TM_F32F64 = TM_F32 | typeBit(Type::F64);
inline constexpr TypeMask TM_Float = typeBit(Type::F16) | typeBit(Type::BF16) |
                                     TM_F32F64 | typeBit(Type::V2F16) |
                                     typeBit(Type::V2BF16);
inline constexpr TypeMask TM_Value32 = TM_Int | TM_F32;
/// Types a plain load/store moves: every 32-bit type, f64 (a u64 access) and
/// pointers.
inline constexpr TypeMask TM_Mem = TM_Int | TM_F32 | typeBit(Type::F64) |
                                   typeBit(Type::V2F16) |
                                   typeBit(Type::V2BF16) | TM_Ptr;
/// Types a 16-bit load/store moves.
inline constexpr TypeMask TM_Mem16 =
    TM_Int | typeBit(Type::F16) | typeBit(Type::BF16);
inline constexpr TypeMask TM_Any = (TypeMask(1) << NumTypes) - 2; // no void
inline constexpr TypeMask TM_AnyVoid = TM_Any | typeBit(Type::Void);

/// Text spelling ("i32", "ptr<device>", ...).
llvm::StringRef typeName(Type T);
/// Inverse of typeName; std::nullopt for anything else.
std::optional<Type> parseTypeName(llvm::StringRef S);

/// Size in bits of a value of \p T (i1: 1, f64: 64, void: 0).
unsigned typeBits(Type T);

inline bool isIntType(Type T) { return T == Type::I32 || T == Type::U32; }
/// Any address type a load or store accepts: ptr<device>, ptr<local> and
/// ptr<private>.
inline bool isPtrType(Type T) {
  return T == Type::PtrDevice || T == Type::PtrLocal || T == Type::PtrPrivate;
}
/// Scalar or packed floating type.
inline bool isFloatType(Type T) { return (TM_Float & typeBit(T)) != 0; }

/// The IEEE format of a scalar float type (f16, bf16, f32, f64), for
/// reading and printing constants; nullptr for every other type.
const llvm::fltSemantics *getFloatSemantics(Type T);

} // namespace wave::mir

#endif // WAVE_IR_TYPE_H
