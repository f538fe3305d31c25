//===- Translate.h - WAVE to AMDGCN assembly ---------------------*- C++ -*-===//
//
// The AMDGCN stage's translator (libwave/README.md "The AMDGCN stage";
// WaveASM's design): every kernel of an executable `.wbin` becomes an AMDGCN
// kernel with an `.amdhsa_kernel` descriptor and code-object-v5
// `.amdgpu_metadata`, in one assembly text that `clang -x assembler
// --target=amdgcn-amd-amdhsa` accepts. The ABI is formats/amdgcn-abi.md.
//
//===----------------------------------------------------------------------===//
#ifndef WAVE_AMDGCN_TRANSLATE_H
#define WAVE_AMDGCN_TRANSLATE_H

#include "wave/AMDGCN/Target.h"
#include "wave/Object/Wbin.h"

#include "llvm/Support/Error.h"

#include <string>

namespace wave::amdgcn {

/// Options of translateToAMDGCN().
struct TranslateOptions {
  const GCNTarget *Target = nullptr; ///< required.
  /// Name of the input for the `.file` comment at the top (display only).
  std::string SourceName;
  /// Print `; WAVE: <instruction>` comments before each translated WAVE
  /// instruction.
  bool Comments = true;
};

/// A WAVE instruction the target cannot express, or a program shape the
/// stage does not translate. The message names the kernel and the PC
/// (byte offset inside the kernel), e.g. "kernel 'k', PC 0x0010: 'dsqrt' is
/// not supported on gfx1100".
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

/// Translates every kernel of \p File (an executable: relocatable objects
/// are rejected) to one AMDGCN assembly text for Opts.Target. Fails with a
/// TranslateError for the first instruction that cannot be translated.
llvm::Expected<std::string> translateToAMDGCN(const WbinFile &File,
                                              const TranslateOptions &Opts);

} // namespace wave::amdgcn

#endif // WAVE_AMDGCN_TRANSLATE_H
