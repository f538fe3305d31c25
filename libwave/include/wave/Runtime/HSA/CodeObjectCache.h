//===- CodeObjectCache.h - On-disk cache of translated code objects -*- C++ -*-===//
//
// wave-run --device=hsa translates a .wbin through the AMDGCN stage for the
// agent's ISA; the resulting .hsaco is kept under
// $XDG_CACHE_HOME/wavetools/ (else ~/.cache/wavetools/), named by a key
// that changes whenever the input, the target or the toolchain does, so a
// stale entry is never found (issue 8; XDG Base Directory Specification).
//
//===----------------------------------------------------------------------===//
#ifndef WAVE_RUNTIME_HSA_CODEOBJECTCACHE_H
#define WAVE_RUNTIME_HSA_CODEOBJECTCACHE_H

#include "wave/Object/Wbin.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace wave::hsa {

/// The cache key of the code object for \p Wbin (the .wbin file's bytes)
/// translated for \p Target (an `--mcpu` name) by \p Toolchain (a string
/// naming wavetools' version and the external assembler's): 64 lowercase
/// hex digits of the SHA-256 of the three, each length-prefixed so that no
/// two different triples hash the same bytes.
std::string codeObjectCacheKey(llvm::ArrayRef<uint8_t> Wbin,
                               llvm::StringRef Target,
                               llvm::StringRef Toolchain);

/// The cache directory: $XDG_CACHE_HOME/wavetools when XDG_CACHE_HOME is an
/// absolute path, else $HOME/.cache/wavetools. Fails when neither variable
/// gives one. The directory is not created here.
llvm::Expected<std::string> codeObjectCacheDir();

/// A cache of code objects in directory Dir, one file `<key>.hsaco` each.
class CodeObjectCache {
public:
  explicit CodeObjectCache(std::string Dir) : Dir(std::move(Dir)) {}

  /// The cached code object for \p Key, or std::nullopt when there is none
  /// (or it cannot be read: a cache miss, never an error).
  std::optional<std::vector<uint8_t>> lookup(llvm::StringRef Key) const;

  /// Stores \p CodeObject under \p Key, creating the directory if needed.
  /// The file appears atomically (written to a temporary file, then
  /// renamed), so a concurrent lookup sees all of it or nothing.
  llvm::Error store(llvm::StringRef Key,
                    llvm::ArrayRef<uint8_t> CodeObject) const;

  /// The file an entry lives in.
  std::string pathFor(llvm::StringRef Key) const;

private:
  std::string Dir;
};

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
/// key covers the file, the processor, wavetools' version and the clang
/// binary used (path, size and modification time). Fails when the
/// processor is not a wavetools target or the translation fails; a cache
/// that cannot be written is not an error.
llvm::Expected<std::vector<uint8_t>> codeObjectFor(const WbinFile &File,
                                                   const CodeObjectRequest &R);

} // namespace wave::hsa

#endif // WAVE_RUNTIME_HSA_CODEOBJECTCACHE_H
