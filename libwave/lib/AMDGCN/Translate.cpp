//===- Translate.cpp - WAVE to AMDGCN assembly ----------------------------===//
#include "wave/AMDGCN/Translate.h"

#include "llvm/Support/Format.h"

using namespace llvm;

namespace wave::amdgcn {

char TranslateError::ID = 0;

void TranslateError::log(raw_ostream &OS) const {
  OS << "kernel '" << Kernel << "', PC " << format("0x%04x", PC) << ": "
     << Message;
}

std::error_code TranslateError::convertToErrorCode() const {
  return inconvertibleErrorCode();
}

Expected<std::string> translateToAMDGCN(const WbinFile &File,
                                        const TranslateOptions &Opts) {
  (void)File;
  (void)Opts;
  return make_error<TranslateError>("", 0, "the AMDGCN translator is under "
                                           "construction");
}

} // namespace wave::amdgcn
