//===- Semantics.h - Reference scalar semantics of WAVE ---------*- C++ -*-===//
//
// The value each WAVE ALU instruction writes for one lane, as constexpr
// functions of the lane's operand bits: the one definition of these rules
// that the emulator executes, SCCP folds with, and the tests check (WABT's
// interp-math.h is the model). Registers are u32 words; an i32 operand is the
// same bits read as signed and an f32 operand the same bits read as binary32.
//
// Where formats/isa.md §8 gives the reference toolchain's behaviour and ours
// apart, these functions are ours (the "default" column): iclamp and fclamp
// with lo > hi or NaN bounds do not fault (D11), fdiv by zero is +inf (D10),
// idiv and imod by zero give 0 (D36).
//
// Everything here is a pure function of its arguments and small enough to
// inline into the emulator's lane loops, which the compiler vectorizes; that
// is why idiv divides in double precision (see truncatedQuotient).
//
//===----------------------------------------------------------------------===//
#ifndef WAVE_ISA_SEMANTICS_H
#define WAVE_ISA_SEMANTICS_H

#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <limits>

namespace wave::sem {

/// f32 bits as a float, and back.
constexpr float asF32(uint32_t Bits) { return std::bit_cast<float>(Bits); }
constexpr uint32_t f32Bits(float X) { return std::bit_cast<uint32_t>(X); }
/// True for a NaN (std::isnan is not constexpr before C++23).
constexpr bool isNaN(float X) { return X != X; }

//===----------------------------------------------------------------------===//
// Integer arithmetic (formats/isa.md §4.5)
//===----------------------------------------------------------------------===//

/// imul_hi: the upper 32 bits of the *unsigned* 64-bit product (D34).
constexpr uint32_t imulHi(uint32_t A, uint32_t B) {
  return uint32_t((uint64_t(A) * B) >> 32);
}

/// The i32 quotient of \p X / \p Y (Y != 0) truncated toward zero, with
/// INT_MIN / -1 wrapping to INT_MIN, computed in double precision so that a
/// lane loop of it vectorizes (x86 has no vector integer division). It is
/// exact: X and Y are exact doubles and the quotient t = X / Y rounds with
/// an error of at most |t| * 2^-53 < 2^31 / |Y| * 2^-53 = 2^-22 / |Y|, while
/// a t that is not an integer is at least 1 / |Y| from every integer, so
/// truncation lands on the same integer as for t itself.
constexpr int32_t truncatedQuotient(int32_t X, int32_t Y) {
  double Q = double(X) / double(Y);
  // Only INT_MIN / -1 = 2^31 exceeds the range; clamp it (a conversion out
  // of range is undefined) and wrap it below.
  Q = std::min(Q, 2147483647.0);
  int32_t T = int32_t(Q);
  return X == std::numeric_limits<int32_t>::min() && Y == -1 ? X : T;
}

/// idiv: the i32 quotient rounded toward zero; b == 0 gives 0 (D36) and
/// INT_MIN / -1 gives INT_MIN.
constexpr uint32_t idiv(uint32_t A, uint32_t B) {
  int32_t Y = int32_t(B);
  int32_t Q = truncatedQuotient(int32_t(A), Y == 0 ? 1 : Y);
  return Y == 0 ? 0 : uint32_t(Q);
}

/// imod: a - trunc(a / b) * b, with the sign of the dividend; b == 0 gives 0
/// (D36) and INT_MIN mod -1 gives 0 (the wrapping product gives it).
constexpr uint32_t imod(uint32_t A, uint32_t B) {
  int32_t Y = int32_t(B);
  int32_t Q = truncatedQuotient(int32_t(A), Y == 0 ? 1 : Y);
  return Y == 0 ? 0 : A - uint32_t(Q) * B;
}

/// ineg: -a modulo 2^32 (INT_MIN gives INT_MIN).
constexpr uint32_t ineg(uint32_t A) { return 0u - A; }

/// iabs: the magnitude of the i32 value as u32 (INT_MIN gives 0x80000000).
constexpr uint32_t iabs(uint32_t A) { return int32_t(A) < 0 ? 0u - A : A; }

/// imin / imax: signed minimum and maximum.
constexpr uint32_t imin(uint32_t A, uint32_t B) {
  return int32_t(A) < int32_t(B) ? A : B;
}
constexpr uint32_t imax(uint32_t A, uint32_t B) {
  return int32_t(A) > int32_t(B) ? A : B;
}

/// iclamp: signed min(max(a, lo), hi). With lo > hi the reference toolchain
/// aborts; ours gives hi and never faults (D11 default). MIR leaves that
/// case undefined (formats/mir.md), so SCCP does not fold it.
constexpr uint32_t iclamp(uint32_t A, uint32_t Lo, uint32_t Hi) {
  int32_t X = int32_t(A);
  if (X < int32_t(Lo))
    X = int32_t(Lo);
  if (X > int32_t(Hi))
    X = int32_t(Hi);
  return uint32_t(X);
}

//===----------------------------------------------------------------------===//
// Bitwise and bit-field instructions (formats/isa.md §4.6)
//===----------------------------------------------------------------------===//

/// shl / shr / sar: the shift amount is b & 31; sar fills with the sign bit.
constexpr uint32_t shl(uint32_t A, uint32_t B) { return A << (B & 31); }
constexpr uint32_t shr(uint32_t A, uint32_t B) { return A >> (B & 31); }
constexpr uint32_t sar(uint32_t A, uint32_t B) {
  return uint32_t(int32_t(A) >> (B & 31));
}

/// bitcount: the number of 1 bits.
constexpr uint32_t bitcount(uint32_t A) { return uint32_t(std::popcount(A)); }

/// bitfind: the count of leading zero bits; 0 gives 0xFFFFFFFF (D33).
constexpr uint32_t bitfind(uint32_t A) {
  return A == 0 ? 0xFFFFFFFFu : uint32_t(std::countl_zero(A));
}

/// bitrev: bit 0 becomes bit 31, and so on.
constexpr uint32_t bitrev(uint32_t A) { return llvm::reverseBits(A); }

/// bfe: o = off & 31, n = w & 31; n == 0 gives 0, otherwise the n bits of a
/// from bit o, zero-extended (at most 31 bits).
constexpr uint32_t bfe(uint32_t A, uint32_t Off, uint32_t Wd) {
  unsigned O = Off & 31, N = Wd & 31;
  if (N == 0)
    return 0;
  return (A >> O) & ((1u << N) - 1);
}

/// bfi: o and n as for bfe; n == 0 gives base, otherwise base with the bits
/// of mask = ((1 << n) - 1) << o (cut to 32 bits) taken from ins << o.
constexpr uint32_t bfi(uint32_t Base, uint32_t Ins, uint32_t Off,
                       uint32_t Wd) {
  unsigned O = Off & 31, N = Wd & 31;
  if (N == 0)
    return Base;
  uint32_t Mask = uint32_t(((uint64_t(1) << N) - 1) << O);
  return (Base & ~Mask) | ((Ins << O) & Mask);
}

//===----------------------------------------------------------------------===//
// f32 (formats/isa.md §4.7); IEEE round-to-nearest-even, no flush to zero
//===----------------------------------------------------------------------===//

/// fdiv: a divisor of either zero sign gives +inf whatever the dividend
/// (D10); otherwise IEEE a / b.
constexpr float fdiv(float A, float B) {
  return B == 0.0f ? std::numeric_limits<float>::infinity() : A / B;
}

/// fmin: a NaN: b; else b NaN: a; else b < a: b; else a (so fmin(+0, -0) is
/// +0 and fmin(-0, +0) is -0).
constexpr float fmin(float A, float B) {
  if (isNaN(A))
    return B;
  if (isNaN(B))
    return A;
  return B < A ? B : A;
}

/// fmax: a NaN: b; else b NaN: a; else b > a: b; else a.
constexpr float fmax(float A, float B) {
  if (isNaN(A))
    return B;
  if (isNaN(B))
    return A;
  return B > A ? B : A;
}

/// fclamp: lo when a < lo, hi when a > hi, else a (a NaN a stays NaN, -0
/// clamped to [0, 1] stays -0). A NaN bound is ignored and lo > hi gives
/// min(max(a, lo), hi), never a fault (D11 default).
constexpr float fclamp(float A, float Lo, float Hi) {
  if (!isNaN(Lo) && A < Lo)
    A = Lo;
  if (!isNaN(Hi) && A > Hi)
    A = Hi;
  return A;
}

/// fsat: fclamp to [0, 1].
constexpr float fsat(float A) { return fclamp(A, 0.0f, 1.0f); }

//===----------------------------------------------------------------------===//
// Conversions (formats/isa.md §4.11)
//===----------------------------------------------------------------------===//

/// cvt.i32.f32: truncation toward zero, saturating; NaN gives 0.
constexpr uint32_t cvtI32F32(float X) {
  if (isNaN(X))
    return 0;
  if (X >= 2147483648.0f)
    return 0x7FFFFFFF;
  if (X < -2147483648.0f)
    return 0x80000000;
  return uint32_t(int32_t(X));
}

/// cvt.u32.f32: truncation toward zero, saturating; NaN and negative values
/// give 0.
constexpr uint32_t cvtU32F32(float X) {
  if (isNaN(X) || X < 0.0f)
    return 0;
  if (X >= 4294967296.0f)
    return 0xFFFFFFFF;
  return uint32_t(X);
}

} // namespace wave::sem

#endif // WAVE_ISA_SEMANTICS_H
