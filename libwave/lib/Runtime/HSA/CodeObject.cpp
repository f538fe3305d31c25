//===- CodeObject.cpp - The code object wave-run dispatches to an agent ---===//
#include "wave/Runtime/HSA/CodeObject.h"

#include "wave/AMDGCN/Target.h"
#include "wave/AMDGCN/Toolchain.h"
#include "wave/AMDGCN/Translate.h"
#include "wave/Runtime/CodeObjectCache.h"

using namespace llvm;

namespace wave::hsa {

Expected<std::vector<uint8_t>> codeObjectFor(const WbinFile &File,
                                             const CodeObjectRequest &R) {
  const amdgcn::GCNTarget *Target = amdgcn::lookupTarget(R.MCPU);
  if (!Target)
    return createStringError(inconvertibleErrorCode(),
                             "the agent's processor '%s' is not a target the "
                             "AMDGCN stage translates for (supported: %s)",
                             R.MCPU.c_str(),
                             amdgcn::supportedTargetList().c_str());
  Expected<amdgcn::Toolchain> TC = amdgcn::findToolchain({R.Clang, R.LdLld});
  if (!TC)
    return TC.takeError();
  return runtime::cachedCodeObject(
      R.WbinBytes, R.MCPU, runtime::fileIdentity(TC->Clang), ".hsaco",
      R.UseCache,
      [&]() -> Expected<std::vector<uint8_t>> {
        amdgcn::TranslateOptions O;
        O.Target = Target;
        O.SourceName = "wave-run";
        Expected<std::string> Asm = amdgcn::translateToAMDGCN(File, O);
        if (!Asm)
          return Asm.takeError();
        return amdgcn::buildCodeObject(*TC, *Asm, R.MCPU);
      });
}

} // namespace wave::hsa
