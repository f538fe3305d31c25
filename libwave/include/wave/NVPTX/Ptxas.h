//===- Ptxas.h - Assembling PTX into a cubin with NVIDIA's ptxas -*- C++
//-*-===//
//
// wave-as --target=nvptx64-nvidia-cuda --emit=cubin hands the translated
// PTX to ptxas, found like the AMDGCN stage's clang and ld.lld
// (wave/Support/ExternalTool.h): --ptxas, then $WAVE_PTXAS, then PATH.
// ptxas is not part of any build or test dependency: it lives in Debian's
// non-free nvidia-cuda-toolkit and in NVIDIA's CUDA toolkit.
//
//===----------------------------------------------------------------------===//
#ifndef WAVE_NVPTX_PTXAS_H
#define WAVE_NVPTX_PTXAS_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>
#include <vector>

namespace wave::nvptx {

/// The ptxas to run: \p FromOption (--ptxas) when not empty, else
/// $WAVE_PTXAS, else ptxas on PATH. Fails with "cannot find ptxas: tried
/// --ptxas, $WAVE_PTXAS and ptxas on PATH; install nvidia-cuda-toolkit or
/// pass --ptxas=PATH", or names the explicit choice that does not resolve.
llvm::Expected<std::string> findPtxas(llvm::StringRef FromOption);

/// Assembles \p PTX for sm_<SM> with \p Ptxas (`ptxas -arch sm_SM -o
/// kernel.cubin kernel.ptx` in a private temporary directory) into the
/// cubin's bytes. Fails with "ptxas failed (exit N):" and ptxas's messages.
llvm::Expected<std::vector<uint8_t>>
buildCubin(llvm::StringRef Ptxas, llvm::StringRef PTX, unsigned SM);

} // namespace wave::nvptx

#endif // WAVE_NVPTX_PTXAS_H
