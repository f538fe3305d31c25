//===- Driver.h - The AMDGCN stage from a .wbin to output bytes --*- C++ -*-===//
//
// What `wave-as --target=amdgcn-amd-amdhsa` does once it holds an executable
// WbinFile: translate it (Translate.h) and, unless only the assembly text is
// wanted, assemble and link it with clang and ld.lld (Toolchain.h). Kept in
// the library so that every client of the stage (wave-as, and wave-run
// --device=hsa, which translates on the fly) runs the same steps in the
// same order.
//
//===----------------------------------------------------------------------===//
#ifndef WAVE_AMDGCN_DRIVER_H
#define WAVE_AMDGCN_DRIVER_H

#include "wave/AMDGCN/Target.h"
#include "wave/AMDGCN/Toolchain.h"
#include "wave/Object/Wbin.h"

#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>
#include <vector>

namespace wave::amdgcn {

/// The target triple that selects the AMDGCN stage.
inline constexpr const char *AMDGCNTriple = "amdgcn-amd-amdhsa";

/// Options of runAMDGCNStage().
struct StageOptions {
  const GCNTarget *Target = nullptr; ///< required (lookupTarget()).
  /// Stop after translation: the result is AMDGCN assembly text (`-S`).
  bool AssemblyOnly = false;
  /// Name of the input, for the assembly's `.file` comment (display only).
  std::string SourceName;
  /// Where clang and ld.lld come from; unused with AssemblyOnly.
  ToolchainRequest Tools;
};

/// Translates every kernel of \p File for Opts.Target and returns either
/// the assembly text (AssemblyOnly) or the bytes of one HSA code object
/// holding all kernels. Without AssemblyOnly the toolchain is looked up
/// first, so a missing clang or ld.lld is reported before any translation
/// work. Fails with: findToolchain()'s "cannot find ..." error; a
/// TranslateError (relocatable input included); buildCodeObject()'s tool
/// failure. Nothing is written anywhere but the private temporary
/// directory buildCodeObject() removes.
llvm::Expected<std::vector<uint8_t>>
runAMDGCNStage(const WbinFile &File, const StageOptions &Opts);

} // namespace wave::amdgcn

#endif // WAVE_AMDGCN_DRIVER_H
