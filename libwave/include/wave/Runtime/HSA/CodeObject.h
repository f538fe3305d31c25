//===- CodeObject.h - The code object wave-run dispatches to an agent -*- C++
//-*-===//
//
// wave-run --device=hsa translates a .wbin through the AMDGCN stage for the
// agent's ISA, then assembles and links it with clang and ld.lld, keeping
// the .hsaco in the code-object cache (wave/Runtime/CodeObjectCache.h).
//
//===----------------------------------------------------------------------===//
#ifndef WAVE_RUNTIME_HSA_CODEOBJECT_H
#define WAVE_RUNTIME_HSA_CODEOBJECT_H

#include "wave/Object/Wbin.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>
#include <vector>

namespace wave::hsa {

/// How codeObjectFor() gets a code object.
struct CodeObjectRequest {
  llvm::ArrayRef<uint8_t> WbinBytes; ///< the .wbin file as read.
  std::string MCPU;                  ///< the agent's processor, "gfx942".
  bool UseCache = true;              ///< false: --no-cache.
  std::string Clang, LdLld;          ///< --clang= / --ld-lld=, or empty.
};

/// The code object of \p File (whose bytes are \p R.WbinBytes) for
/// \p R.MCPU: from the cache when present, else translated through the
/// AMDGCN stage (translateToAMDGCN, then clang and ld.lld) and stored. The
/// key covers the file, the processor, the translator
/// (runtime::toolchainIdentity) and the clang binary used (path, size and
/// modification time). Fails when the processor is not a wavetools target
/// or the translation fails; a cache that cannot be written is not an
/// error.
llvm::Expected<std::vector<uint8_t>> codeObjectFor(const WbinFile &File,
                                                   const CodeObjectRequest &R);

} // namespace wave::hsa

#endif // WAVE_RUNTIME_HSA_CODEOBJECT_H
