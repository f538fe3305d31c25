//===- TranslateError.cpp - A kernel a backend cannot translate -----------===//

#include "wave/Object/TranslateError.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace wave {

char TranslateError::ID = 0;

void TranslateError::log(raw_ostream &OS) const {
  OS << "kernel '" << Kernel << "', PC " << format("0x%04x", PC) << ": "
     << Message;
}

std::error_code TranslateError::convertToErrorCode() const {
  return inconvertibleErrorCode();
}

} // namespace wave
