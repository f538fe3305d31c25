//===- NumberLiteral.cpp - Number tokens shared by the tokenizers ---------===//
#include "wave/Frontend/NumberLiteral.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Error.h"

using namespace wave::fe;

static bool isIdentChar(char C) { return llvm::isAlnum(C) || C == '_'; }

static unsigned digitValue(char C) {
  if (llvm::isDigit(C))
    return C - '0';
  return llvm::toLower(C) - 'a' + 10;
}

NumberLiteral wave::fe::scanNumber(llvm::StringRef Text, DigitSeparator Sep,
                                   bool CLegacyOctal) {
  NumberLiteral R;
  const char SepChar = Sep == DigitSeparator::Underscore ? '_' : '\'';
  size_t I = 0, N = Text.size();
  auto Peek = [&](size_t K) { return I + K < N ? Text[I + K] : '\0'; };
  // Collects digits of radix Radix (skipping separators) into Digits.
  std::string Digits;
  auto ScanDigits = [&](unsigned Radix) {
    while (I < N) {
      char C = Text[I];
      if (C == SepChar && I + 1 < N && llvm::isHexDigit(Text[I + 1]) &&
          !Digits.empty()) {
        ++I;
        continue;
      }
      if (!llvm::isHexDigit(C) || digitValue(C) >= Radix)
        break;
      Digits += C;
      ++I;
    }
  };
  auto FinishInt = [&](unsigned Radix) {
    for (char C : Digits) {
      uint64_t D = digitValue(C);
      if (R.IntValue > (UINT64_MAX - D) / Radix) {
        R.Overflow = true;
        R.IntValue = UINT64_MAX;
        break;
      }
      R.IntValue = R.IntValue * Radix + D;
    }
  };

  if (Peek(0) == '0' && llvm::is_contained("xXbBoO", Peek(1)) &&
      Peek(1) != '\0') {
    char P = llvm::toLower(Peek(1));
    if (P == 'o' && CLegacyOctal) {
      R.Length = 1;
      R.Error = "invalid number literal";
      return R;
    }
    unsigned Radix = P == 'x' ? 16 : P == 'b' ? 2 : 8;
    I = 2;
    ScanDigits(Radix);
    if (Digits.empty()) {
      R.Error = "expected digits after '" + Text.substr(0, 2).str() + "'";
    }
    FinishInt(Radix);
  } else {
    ScanDigits(10);
    bool Float = false;
    std::string Mantissa = Digits;
    if (Peek(0) == '.' && llvm::isDigit(Peek(1))) {
      Float = true;
      ++I;
      Digits.clear();
      ScanDigits(10);
      Mantissa += "." + Digits;
    } else if (Peek(0) == '.' && !Mantissa.empty() && Peek(1) != '.' &&
               (!isIdentChar(Peek(1)) ||
                ((Peek(1) == 'e' || Peek(1) == 'E') &&
                 (llvm::isDigit(Peek(2)) ||
                  ((Peek(2) == '+' || Peek(2) == '-') &&
                   llvm::isDigit(Peek(3))))))) {
      // "1." and "1.e5" are floats in every dialect; a second '.' is a Rust
      // range ("1..n"), and "1.x" a member access.
      Float = true;
      ++I;
      Mantissa += ".0";
    }
    if ((Peek(0) == 'e' || Peek(0) == 'E') &&
        (llvm::isDigit(Peek(1)) ||
         ((Peek(1) == '+' || Peek(1) == '-') && llvm::isDigit(Peek(2))))) {
      Float = true;
      Mantissa += 'e';
      ++I;
      if (Peek(0) == '+' || Peek(0) == '-')
        Mantissa += Text[I++];
      Digits.clear();
      ScanDigits(10);
      Mantissa += Digits;
    }
    if (Float) {
      R.IsFloat = true;
      llvm::APFloat F(llvm::APFloat::IEEEdouble());
      auto St = F.convertFromString(Mantissa,
                                    llvm::APFloat::rmNearestTiesToEven);
      if (!St)
        llvm::consumeError(St.takeError());
      R.FloatValue = F.convertToDouble();
    } else {
      unsigned Radix = 10;
      if (CLegacyOctal && Mantissa.size() > 1 && Mantissa[0] == '0') {
        Radix = 8;
        for (char C : Mantissa)
          if (C > '7')
            R.Error = "invalid digit '" + std::string(1, C) +
                      "' in octal literal";
      }
      Digits = Mantissa;
      FinishInt(Radix);
    }
  }
  size_t SuffixStart = I;
  while (I < N && isIdentChar(Text[I]))
    ++I;
  R.Suffix = Text.slice(SuffixStart, I);
  R.Length = I;
  return R;
}
