//===- CodeObjectCache.h - On-disk cache of translated code objects -*- C++
//-*-===//
//
// wave-run translates a .wbin for the GPU it runs on: through the AMDGCN
// stage for an HSA agent (.hsaco), through the NVPTX stage for a CUDA
// device (.ptx). The result is kept under $XDG_CACHE_HOME/wavetools/ (else
// ~/.cache/wavetools/), named by a key that changes whenever the input,
// the target or the toolchain does, so a stale entry is never found (XDG
// Base Directory Specification).
//
//===----------------------------------------------------------------------===//
#ifndef WAVE_RUNTIME_CODEOBJECTCACHE_H
#define WAVE_RUNTIME_CODEOBJECTCACHE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace wave::runtime {

/// The cache key of the code object for \p Wbin (the .wbin file's bytes)
/// translated for \p Target (an `--mcpu` name) by \p Toolchain (a string
/// naming the translator and any external tool, toolchainIdentity()): 64
/// lowercase hex digits of the SHA-256 of the three, each length-prefixed so
/// that no two different triples hash the same bytes.
std::string codeObjectCacheKey(llvm::ArrayRef<uint8_t> Wbin,
                               llvm::StringRef Target,
                               llvm::StringRef Toolchain);

/// The cache directory: $XDG_CACHE_HOME/wavetools when XDG_CACHE_HOME is an
/// absolute path, else $HOME/.cache/wavetools. Fails when neither variable
/// gives one. The directory is not created here.
llvm::Expected<std::string> codeObjectCacheDir();

/// "PATH; SIZE; MTIME" (bytes, seconds since the epoch) of file \p Path, or
/// just PATH when it cannot be examined: names a tool binary in a cache
/// key, so that replacing it changes the key.
std::string fileIdentity(llvm::StringRef Path);

/// What identifies the translator in a cache key: wavetools' version and
/// the path, size and modification time of the file holding the
/// translator -- libwave.so when the code runs from it (a program or the
/// Python module using the host runtime), else the running executable --
/// so that a rebuilt translator never finds its predecessor's entries,
/// then \p Extra (an external tool's identity, or empty).
std::string toolchainIdentity(llvm::StringRef Extra);

/// A cache of code objects in directory Dir, one file `<key><Extension>`
/// each (".hsaco", ".ptx").
class CodeObjectCache {
public:
  CodeObjectCache(std::string Dir, std::string Extension)
      : Dir(std::move(Dir)), Extension(std::move(Extension)) {}

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
  std::string Dir, Extension;
};

/// The code object of \p Wbin for \p Target: the cached one (files
/// `<key><Extension>` in codeObjectCacheDir(), key codeObjectCacheKey(Wbin,
/// Target, toolchainIdentity(ToolIdentity))) when \p UseCache and present,
/// else what \p Build makes, then stored. Errors are Build's only: a cache
/// that cannot be found, read or written is a miss.
llvm::Expected<std::vector<uint8_t>> cachedCodeObject(
    llvm::ArrayRef<uint8_t> Wbin, llvm::StringRef Target,
    llvm::StringRef ToolIdentity, llvm::StringRef Extension, bool UseCache,
    llvm::function_ref<llvm::Expected<std::vector<uint8_t>>()> Build);

} // namespace wave::runtime

#endif // WAVE_RUNTIME_CODEOBJECTCACHE_H
