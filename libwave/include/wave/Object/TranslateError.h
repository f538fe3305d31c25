//===- TranslateError.h - A kernel a backend cannot translate ---*- C++ -*-===//
//
// The error every backend stage (AMDGCN, NVPTX) gives for a WAVE
// instruction its target cannot express or a program shape it does not
// translate, located by kernel and PC like the emulator's faults
// (formats/isa.md §4.20).
//
//===----------------------------------------------------------------------===//
#ifndef WAVE_OBJECT_TRANSLATEERROR_H
#define WAVE_OBJECT_TRANSLATEERROR_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>

namespace wave {

/// A kernel that cannot be translated. The message names the kernel and the
/// PC (byte offset inside the kernel), e.g. "kernel 'k', PC 0x0010: 'dsqrt'
/// is not supported on gfx1100".
class TranslateError : public llvm::ErrorInfo<TranslateError> {
public:
  static char ID;
  TranslateError(std::string Kernel, uint32_t PC, std::string Message)
      : Kernel(std::move(Kernel)), PC(PC), Message(std::move(Message)) {}
  llvm::StringRef kernel() const { return Kernel; }
  uint32_t pc() const { return PC; }
  void log(llvm::raw_ostream &OS) const override;
  std::error_code convertToErrorCode() const override;

private:
  std::string Kernel;
  uint32_t PC;
  std::string Message;
};

} // namespace wave

#endif // WAVE_OBJECT_TRANSLATEERROR_H
