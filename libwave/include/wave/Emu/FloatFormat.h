//===- FloatFormat.h - f16/bf16 conversions and float printing --*- C++ -*-===//
//
// Bit-exact helpers shared by the emulator and wave-run's dumps: binary16
// and bfloat16 conversions with the rounding rules of formats/isa.md §4.8 and
// §4.11, and the reference emulator's float formatting of formats/isa.md §7.3.
//
//===----------------------------------------------------------------------===//
#ifndef WAVE_EMU_FLOATFORMAT_H
#define WAVE_EMU_FLOATFORMAT_H

#include <bit>
#include <cstdint>
#include <string>

namespace wave::emu {

/// The bits of \p F.
inline uint32_t f32Bits(float F) { return std::bit_cast<uint32_t>(F); }
/// The float with bits \p B.
inline float bitsF32(uint32_t B) { return std::bit_cast<float>(B); }

/// Widens an IEEE binary16 (bits) to f32 exactly (formats/isa.md §4.11
/// `cvt_f32_f16`): subnormals become normal f32, NaNs are quieted with their
/// payload kept.
uint32_t f16ToF32Bits(uint16_t H);

/// Rounds the f32 with bits \p F to binary16, round-to-nearest-even;
/// overflow gives ±inf (65536.0 -> 0x7C00), NaN gives a quiet NaN keeping
/// the top 10 mantissa bits (formats/isa.md §4.8, §4.11).
uint16_t f32BitsToF16(uint32_t F);

/// bfloat16 -> f32: `H << 16` (exact).
inline uint32_t bf16ToF32Bits(uint16_t H) { return uint32_t(H) << 16; }
/// f32 -> bfloat16 by truncation (formats/isa.md §4.8, D35): the upper 16 bits.
inline uint16_t f32BitsToBf16(uint32_t F) { return uint16_t(F >> 16); }
/// f32 -> bfloat16 rounded to nearest even, NaN kept quiet: how values a
/// user writes (wave-run's buffer generators) become bf16, unlike the
/// ISA's truncating `cvt`.
inline uint16_t f32BitsToBf16Nearest(uint32_t F) {
  if ((F & 0x7fffffffu) > 0x7f800000u)
    return uint16_t((F >> 16) | 0x40);
  return uint16_t((F + 0x7fffu + ((F >> 16) & 1)) >> 16);
}

/// Formats \p F like the reference emulator's `--dump-f32` (formats/isa.md
/// §7.3): `NaN`, `inf`, `-inf`, `0.0`/`-0.0`; shortest round-trip digits,
/// printed positionally for 1e-4 <= |x| < 1e16 (always with a `.`) and as
/// `d[.ddd]eE` otherwise (e.g. `1e-5`, `1.5e16`, `3.4028235e38`).
std::string formatF32(float F);

/// Formats \p F with the rules of formatF32() and the shortest digits that
/// read back as the same double (wave-run's `--print` of f64 buffers).
std::string formatF64(double F);

} // namespace wave::emu

#endif // WAVE_EMU_FLOATFORMAT_H
