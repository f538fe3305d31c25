//===- Toolchain.h - Driving ROCm's clang and ld.lld -------------*- C++ -*-===//
//
// Turns AMDGCN assembly text into an HSA code object (`.hsaco`) by running
// `clang -x assembler --target=amdgcn-amd-amdhsa -mcpu=CPU -c` and
// `ld.lld -shared` in a private temporary directory (libwave/README.md "The
// AMDGCN stage"; AMDGPUUsage "Code Object").
//
//===----------------------------------------------------------------------===//
#ifndef WAVE_AMDGCN_TOOLCHAIN_H
#define WAVE_AMDGCN_TOOLCHAIN_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>
#include <vector>

namespace wave::amdgcn {

/// Absolute paths of the external tools.
struct Toolchain {
  std::string Clang;
  std::string LdLld;
};

/// Explicit choices, strongest first: the option (`--clang=`,
/// `--ld-lld=`), then the environment (`WAVE_CLANG`, `WAVE_LD_LLD`), then
/// PATH (`clang-22`, then `clang`; `ld.lld-22`, then `ld.lld`).
struct ToolchainRequest {
  std::string Clang; ///< from --clang=, or empty.
  std::string LdLld; ///< from --ld-lld=, or empty.
};

/// Finds both tools. Fails with one message naming everything it looked
/// for, e.g. "cannot find clang: tried --clang, $WAVE_CLANG, clang-22 and
/// clang on PATH; install clang-22 or pass --clang=PATH".
llvm::Expected<Toolchain> findToolchain(const ToolchainRequest &Req);

/// Assembles \p AsmText for \p MCPU and links it into a shared code object.
/// Temporary files are removed on every path; on SIGINT or SIGTERM the
/// running tool is killed, the files removed and the process ends with exit
/// status 130. One call at a time per process. When a tool fails, the error
/// message is "clang failed (exit N):" or "ld.lld failed (exit N):" followed
/// by the tool's stderr.
llvm::Expected<std::vector<uint8_t>>
buildCodeObject(const Toolchain &TC, llvm::StringRef AsmText,
                llvm::StringRef MCPU);

} // namespace wave::amdgcn

#endif // WAVE_AMDGCN_TOOLCHAIN_H
