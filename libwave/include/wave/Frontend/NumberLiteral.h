//===- NumberLiteral.h - Number tokens shared by the tokenizers -*- C++ -*-===//
//
// The four kernel languages write numbers almost alike: decimal, 0x / 0b /
// 0o (C++: leading-0 octal instead of 0o) integers, decimal floats with an
// optional exponent, digit separators (`_` in Python, Rust and TypeScript;
// `'` in C++), and a trailing suffix made of identifier characters (C++
// `u`, `f`; Rust `u32`, `f32`). scanNumber() measures and evaluates one;
// each tokenizer decides what a suffix means in its language.
//
//===----------------------------------------------------------------------===//
#ifndef WAVE_FRONTEND_NUMBERLITERAL_H
#define WAVE_FRONTEND_NUMBERLITERAL_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>

namespace wave::fe {

/// One scanned number literal.
struct NumberLiteral {
  size_t Length = 0;   ///< Characters consumed, suffix included.
  bool IsFloat = false;
  uint64_t IntValue = 0;   ///< Valid when !IsFloat (saturated on overflow).
  bool Overflow = false;   ///< The integer does not fit in 64 bits.
  double FloatValue = 0.0; ///< Valid when IsFloat (correctly rounded).
  llvm::StringRef Suffix;  ///< Identifier characters after the digits.
  std::string Error;       ///< Non-empty: malformed ("0x" with no digits).
};

/// Digit separators a language allows.
enum class DigitSeparator : uint8_t { Underscore, Apostrophe };

/// Scans the number that starts at \p Text[0] (a digit, or `.` followed by
/// a digit). \p CLegacyOctal: a leading `0` followed by digits is octal
/// (C++); otherwise `0o` introduces octal. A float suffix that starts with
/// `e`/`E` is read as an exponent when digits follow.
NumberLiteral scanNumber(llvm::StringRef Text, DigitSeparator Sep,
                         bool CLegacyOctal);

} // namespace wave::fe

#endif // WAVE_FRONTEND_NUMBERLITERAL_H
