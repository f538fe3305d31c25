//===- SemanticsTest.cpp - The reference scalar semantics -----------------===//
//
// wave/ISA/Semantics.h against formats/isa.md §4.5-§4.11: every expected value
// is the spec's own example or worked out by hand from the spec's rule (the
// comment beside it gives the working). The edge values are the spec's
// defect-list choices (D10, D11, D33, D34, D36). The functions are constexpr,
// so the integer rules are also checked at compile time.
//
//===----------------------------------------------------------------------===//
#include "wave/ISA/Semantics.h"

#include "gtest/gtest.h"

#include <cmath>

using namespace wave;

namespace {

constexpr uint32_t IntMin = 0x80000000u;
constexpr uint32_t neg(int32_t V) { return uint32_t(V); }

// §4.5: the spec's examples, at compile time.
static_assert(sem::imulHi(0xFFFFFFFFu, 2) == 1);         // D34: unsigned
static_assert(sem::idiv(neg(-7), 2) == neg(-3));         // toward zero
static_assert(sem::imod(neg(-7), 2) == neg(-1));         // dividend's sign
static_assert(sem::idiv(IntMin, neg(-1)) == IntMin);     // wraps
static_assert(sem::imod(IntMin, neg(-1)) == 0);          // 2^31 - 2^31
static_assert(sem::idiv(7, 0) == 0 && sem::imod(7, 0) == 0); // D36
static_assert(sem::ineg(IntMin) == IntMin);
static_assert(sem::iabs(IntMin) == IntMin);
// §4.6.
static_assert(sem::bitfind(1) == 31 && sem::bitfind(IntMin) == 0); // D33
static_assert(sem::bitfind(0) == 0xFFFFFFFFu);

TEST(Semantics, IntegerArithmetic) {
  EXPECT_EQ(sem::imulHi(0x80000000u, 0x80000000u), 0x40000000u); // 2^62>>32
  EXPECT_EQ(sem::imulHi(neg(-1), neg(-1)), 0xFFFFFFFEu); // (2^32-1)^2 >> 32
  EXPECT_EQ(sem::idiv(neg(-7), neg(-2)), 3u);
  EXPECT_EQ(sem::idiv(7, neg(-2)), neg(-3));
  EXPECT_EQ(sem::imod(7, neg(-2)), 1u);   // 7 - (-3)(-2)
  EXPECT_EQ(sem::imod(neg(-7), neg(-2)), neg(-1));
  EXPECT_EQ(sem::idiv(IntMin, 0), 0u);
  EXPECT_EQ(sem::idiv(0x7FFFFFFFu, neg(-1)), neg(-0x7FFFFFFF));
  // 2147483647 / 46341 = 46340.95...: the quotient nearest an integer from
  // below that fits (46341 * 46340 = 2147441940, remainder 41707).
  EXPECT_EQ(sem::idiv(0x7FFFFFFFu, 46341), 46340u);
  EXPECT_EQ(sem::imod(0x7FFFFFFFu, 46341), 41707u);
  // INT_MIN / 3 = -715827882.67 -> -715827882, remainder -2.
  EXPECT_EQ(sem::idiv(IntMin, 3), neg(-715827882));
  EXPECT_EQ(sem::imod(IntMin, 3), neg(-2));
  EXPECT_EQ(sem::iabs(neg(-5)), 5u);
  EXPECT_EQ(sem::imin(neg(-1), 1), neg(-1)); // signed
  EXPECT_EQ(sem::imax(neg(-1), 1), 1u);
}

TEST(Semantics, IntegerClampD11) {
  EXPECT_EQ(sem::iclamp(10, 0, 5), 5u);
  EXPECT_EQ(sem::iclamp(neg(-3), 0, 5), 0u); // signed: -3 < 0
  EXPECT_EQ(sem::iclamp(3, 0, 5), 3u);
  // lo > hi: min(max(a, lo), hi) = min(10, 5) for every a below 10.
  EXPECT_EQ(sem::iclamp(3, 10, 5), 5u);
  EXPECT_EQ(sem::iclamp(20, 10, 5), 5u);
}

TEST(Semantics, ShiftsAndBitFields) {
  EXPECT_EQ(sem::shl(1, 33), 2u); // amount & 31
  EXPECT_EQ(sem::shr(0x80000000u, 63), 1u);
  EXPECT_EQ(sem::sar(0x80000000u, 31), 0xFFFFFFFFu);
  EXPECT_EQ(sem::sar(0x40000000u, 30), 1u);
  EXPECT_EQ(sem::bitcount(0xF0F0F0F0u), 16u);
  EXPECT_EQ(sem::bitrev(1), 0x80000000u);
  EXPECT_EQ(sem::bitrev(0x0000FFFEu), 0x7FFF0000u);
  // bfe: 0xABCD1234 >> 8 = 0xABCD12, low 12 bits 0xD12.
  EXPECT_EQ(sem::bfe(0xABCD1234u, 8, 12), 0xD12u);
  EXPECT_EQ(sem::bfe(0xFFFFFFFFu, 0, 32), 0u);  // n = 32 & 31 = 0
  EXPECT_EQ(sem::bfe(0xFFFFFFFFu, 1, 31), 0x7FFFFFFFu);
  EXPECT_EQ(sem::bfe(0xFFFFFFFFu, 36, 4), 0xFu); // o = 36 & 31 = 4
  // bfi: mask = 0xFF << 8 = 0xFF00; (0x11223344 & ~0xFF00) | 0xAB00.
  EXPECT_EQ(sem::bfi(0x11223344u, 0xABu, 8, 8), 0x1122AB44u);
  EXPECT_EQ(sem::bfi(0x11223344u, 0xABu, 8, 0), 0x11223344u);
  // o = 28, n = 8: mask = 0xFF << 28 cut to 32 bits = 0xF0000000.
  EXPECT_EQ(sem::bfi(0x01234567u, 0xFFu, 28, 8), 0xF1234567u);
}

TEST(Semantics, FloatD10AndMinMax) {
  const float Inf = std::numeric_limits<float>::infinity();
  const float NaN = std::numeric_limits<float>::quiet_NaN();
  // D10: any dividend over a zero of either sign is +inf.
  for (float A : {1.0f, -1.0f, 0.0f, NaN})
    for (float B : {0.0f, -0.0f})
      EXPECT_EQ(sem::f32Bits(sem::fdiv(A, B)), 0x7F800000u) << A << "/" << B;
  EXPECT_EQ(sem::fdiv(1.0f, 4.0f), 0.25f);
  EXPECT_EQ(sem::fdiv(1.0f, -Inf), -0.0f);
  // fmin(+0, -0) is +0, fmin(-0, +0) is -0 (b < a is false both times).
  EXPECT_EQ(sem::f32Bits(sem::fmin(0.0f, -0.0f)), 0x00000000u);
  EXPECT_EQ(sem::f32Bits(sem::fmin(-0.0f, 0.0f)), 0x80000000u);
  EXPECT_EQ(sem::fmin(NaN, 2.0f), 2.0f);
  EXPECT_EQ(sem::fmin(2.0f, NaN), 2.0f);
  EXPECT_EQ(sem::fmax(NaN, -2.0f), -2.0f);
  EXPECT_EQ(sem::fmax(1.0f, 3.0f), 3.0f);
}

TEST(Semantics, FloatClampD11) {
  const float NaN = std::numeric_limits<float>::quiet_NaN();
  EXPECT_EQ(sem::fclamp(2.0f, 0.0f, 1.0f), 1.0f);
  EXPECT_EQ(sem::fclamp(-2.0f, 0.0f, 1.0f), 0.0f);
  EXPECT_TRUE(std::isnan(sem::fclamp(NaN, 0.0f, 1.0f))); // NaN a stays
  EXPECT_EQ(sem::f32Bits(sem::fsat(-0.0f)), 0x80000000u); // -0 stays -0
  // NaN bounds are ignored; lo > hi gives min(max(a, lo), hi) = hi.
  EXPECT_EQ(sem::fclamp(5.0f, NaN, 1.0f), 1.0f);
  EXPECT_EQ(sem::fclamp(-5.0f, 0.0f, NaN), 0.0f);
  EXPECT_EQ(sem::fclamp(0.5f, 3.0f, 1.0f), 1.0f);
}

TEST(Semantics, Conversions) {
  const float NaN = std::numeric_limits<float>::quiet_NaN();
  EXPECT_EQ(sem::cvtI32F32(NaN), 0u);
  EXPECT_EQ(sem::cvtI32F32(2147483648.0f), 0x7FFFFFFFu);
  EXPECT_EQ(sem::cvtI32F32(-2147483648.0f), IntMin); // exactly -2^31 fits
  EXPECT_EQ(sem::cvtI32F32(-3e9f), IntMin);
  EXPECT_EQ(sem::cvtI32F32(-1.75f), neg(-1)); // toward zero
  EXPECT_EQ(sem::cvtU32F32(NaN), 0u);
  EXPECT_EQ(sem::cvtU32F32(-0.5f), 0u);
  EXPECT_EQ(sem::cvtU32F32(-7.0f), 0u);
  EXPECT_EQ(sem::cvtU32F32(4294967296.0f), 0xFFFFFFFFu);
  EXPECT_EQ(sem::cvtU32F32(4294967040.0f), 4294967040u); // largest f32 < 2^32
  EXPECT_EQ(sem::cvtU32F32(3.99f), 3u);
}

} // namespace
