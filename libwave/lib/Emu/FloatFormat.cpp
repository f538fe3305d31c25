//===- FloatFormat.cpp - f16/bf16 conversions and float printing ----------===//
//
// Implements the conversions of formats/isa.md §4.8/§4.11 with integer bit
// manipulation (no dependence on the host's _Float16 support) and the
// float formatting algorithm of formats/isa.md §7.3 on top of C++17's shortest
// std::to_chars, with exact ties resolved upward as the reference does.
//
//===----------------------------------------------------------------------===//
#include "wave/Emu/FloatFormat.h"

#include <charconv>
#include <cmath>
#include <string_view>
#include <type_traits>

namespace wave::emu {

uint32_t f16ToF32Bits(uint16_t H) {
  uint32_t Sign = uint32_t(H & 0x8000) << 16;
  uint32_t Exp = (H >> 10) & 0x1F;
  uint32_t Man = H & 0x3FF;
  if (Exp == 0x1F) // inf or NaN (quieted, payload kept).
    return Sign | 0x7F800000 | (Man << 13) | (Man ? 0x400000 : 0);
  if (Exp == 0) {
    if (Man == 0)
      return Sign;
    // Subnormal: normalise into f32's range.
    int E = -1;
    do {
      Man <<= 1;
      ++E;
    } while (!(Man & 0x400));
    Man &= 0x3FF;
    return Sign | uint32_t(127 - 15 - E) << 23 | (Man << 13);
  }
  return Sign | (Exp + 127 - 15) << 23 | (Man << 13);
}

uint16_t f32BitsToF16(uint32_t X) {
  uint32_t Sign = (X >> 16) & 0x8000;
  uint32_t Exp = (X >> 23) & 0xFF;
  uint32_t Man = X & 0x7FFFFF;
  if (Exp == 0xFF) {
    if (Man)
      return uint16_t(Sign | 0x7E00 | (Man >> 13));
    return uint16_t(Sign | 0x7C00);
  }
  int E = int(Exp) - 127 + 15;
  if (E >= 31)
    return uint16_t(Sign | 0x7C00);
  if (E <= 0) {
    if (E < -10)
      return uint16_t(Sign); // below half the smallest subnormal.
    uint32_t M = Man | 0x800000;
    unsigned Shift = unsigned(14 - E);
    uint32_t Half = M >> Shift;
    uint32_t Rem = M & ((1u << Shift) - 1);
    uint32_t Mid = 1u << (Shift - 1);
    if (Rem > Mid || (Rem == Mid && (Half & 1)))
      ++Half;
    return uint16_t(Sign | Half);
  }
  uint32_t Half = Sign | uint32_t(E) << 10 | (Man >> 13);
  uint32_t Rem = Man & 0x1FFF;
  // A carry out of the mantissa correctly bumps the exponent (up to inf).
  if (Rem > 0x1000 || (Rem == 0x1000 && (Half & 1)))
    ++Half;
  return uint16_t(Half);
}

/// Where the exact value of \p A lies exactly halfway between two strings of
/// \p Digits' length (the digits of \p A in scientific form with decimal
/// exponent \p Exp10), std::to_chars picks the even one; formats/isa.md
/// §7.3 takes the one of larger magnitude. Rewrites \p Digits and \p Exp10
/// to that one when it also reads back as \p A.
template <typename T>
static void roundTiesUp(T A, std::string &Digits, int &Exp10) {
  // A binary float's decimal expansion is finite: at most 112 significant
  // digits for a float and 767 for a double, so this precision prints it
  // exactly.
  constexpr int Precision = std::is_same_v<T, float> ? 120 : 780;
  char Buf[Precision + 16];
  auto R = std::to_chars(Buf, Buf + sizeof(Buf), A,
                         std::chars_format::scientific, Precision);
  std::string_view Text(Buf, size_t(R.ptr - Buf));
  size_t EPos = Text.find('e');
  int ExactExp10 = 0;
  std::from_chars(Text.data() + EPos + 1 + (Text[EPos + 1] == '+'),
                  Text.data() + Text.size(), ExactExp10);
  std::string Exact;
  for (char C : Text.substr(0, EPos))
    if (C != '.')
      Exact += C;
  size_t N = Digits.size();
  if (ExactExp10 != Exp10 || Exact.size() <= N || Exact[N] != '5' ||
      Exact.find_first_not_of('0', N + 1) != std::string::npos)
    return;
  // A tie: the larger candidate is the first N exact digits plus one unit.
  std::string Up = Exact.substr(0, N);
  int UpExp10 = Exp10;
  size_t I = N;
  while (I > 0 && Up[I - 1] == '9')
    Up[--I] = '0';
  if (I == 0) {
    Up.insert(Up.begin(), '1');
    ++UpExp10;
  } else {
    ++Up[I - 1];
  }
  while (Up.size() > 1 && Up.back() == '0')
    Up.pop_back();
  if (Up == Digits)
    return;
  std::string Check =
      Up.substr(0, 1) + "." + Up.substr(1) + "e" + std::to_string(UpExp10);
  T Back{};
  auto P = std::from_chars(Check.data(), Check.data() + Check.size(), Back);
  if (P.ec == std::errc() && Back == A) {
    Digits = std::move(Up);
    Exp10 = UpExp10;
  }
}

/// The §7.3 format for float or double: the same rules, with each type's
/// own shortest round-trip digits.
template <typename T> static std::string formatFloat(T F) {
  if (std::isnan(F))
    return "NaN";
  if (std::isinf(F))
    return F < 0 ? "-inf" : "inf";
  std::string Out;
  if (std::signbit(F))
    Out += '-';
  T A = std::fabs(F);
  if (A == T(0))
    return Out + "0.0";
  // Shortest round-trip digits in scientific form: d[.ddd]e[-]XX.
  char Buf[64];
  auto R =
      std::to_chars(Buf, Buf + sizeof(Buf), A, std::chars_format::scientific);
  std::string SciText(Buf, R.ptr);
  size_t EPos = SciText.find('e');
  std::string Mant = SciText.substr(0, EPos);
  int Exp10 = std::stoi(SciText.substr(EPos + 1)); // |x| = d.ddd × 10^Exp10
  std::string Digits;
  for (char C : Mant)
    if (C != '.')
      Digits += C;
  roundTiesUp(A, Digits, Exp10);
  // formats/isa.md §7.3 writes |x| = 0.d1...dn × 10^E, so E = Exp10 + 1.
  int E = Exp10 + 1;
  int N = int(Digits.size());
  bool Sci;
  if constexpr (std::is_same_v<T, float>)
    Sci = A < 1.0e-4f || A >= 1.0e16f;
  else
    Sci = A < 1.0e-4 || A >= 1.0e16;
  if (Sci) {
    Out += Digits[0];
    if (N > 1) {
      Out += '.';
      Out += Digits.substr(1);
    }
    Out += 'e';
    Out += std::to_string(E - 1);
    return Out;
  }
  if (E <= 0) {
    Out += "0.";
    Out.append(size_t(-E), '0');
    Out += Digits;
  } else if (E < N) {
    Out += Digits.substr(0, size_t(E));
    Out += '.';
    Out += Digits.substr(size_t(E));
  } else {
    Out += Digits;
    Out.append(size_t(E - N), '0');
    Out += ".0";
  }
  return Out;
}

std::string formatF32(float F) { return formatFloat(F); }

std::string formatF64(double F) { return formatFloat(F); }

} // namespace wave::emu
