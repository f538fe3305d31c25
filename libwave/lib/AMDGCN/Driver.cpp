//===- Driver.cpp - The AMDGCN stage from a .wbin to output bytes ---------===//
#include "wave/AMDGCN/Driver.h"

#include "wave/AMDGCN/Translate.h"

#include <optional>

using namespace llvm;

namespace wave::amdgcn {

Expected<std::vector<uint8_t>> runAMDGCNStage(const WbinFile &File,
                                              const StageOptions &Opts) {
  std::optional<Toolchain> TC;
  if (!Opts.AssemblyOnly) {
    Expected<Toolchain> Found = findToolchain(Opts.Tools);
    if (!Found)
      return Found.takeError();
    TC = std::move(*Found);
  }

  TranslateOptions TOpts;
  TOpts.Target = Opts.Target;
  TOpts.SourceName = Opts.SourceName;
  Expected<std::string> Asm = translateToAMDGCN(File, TOpts);
  if (!Asm)
    return Asm.takeError();
  if (Opts.AssemblyOnly)
    return std::vector<uint8_t>(Asm->begin(), Asm->end());
  return buildCodeObject(*TC, *Asm, Opts.Target->Name);
}

} // namespace wave::amdgcn
