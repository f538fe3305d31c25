//===- CodeObjectCache.cpp - On-disk cache of translated code objects -----===//
//
// Keys are SHA-256 digests (llvm::SHA256); entries are written with
// llvm::writeToOutput, which writes a temporary file and renames it.
//
//===----------------------------------------------------------------------===//
#include "wave/Runtime/CodeObjectCache.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Chrono.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/raw_ostream.h"

#include <dlfcn.h>

using namespace llvm;

namespace wave::runtime {

std::string codeObjectCacheKey(ArrayRef<uint8_t> Wbin, StringRef Target,
                               StringRef Toolchain) {
  SHA256 H;
  auto Part = [&](ArrayRef<uint8_t> Bytes) {
    uint8_t Len[8];
    support::endian::write64le(Len, Bytes.size());
    H.update(ArrayRef<uint8_t>(Len));
    H.update(Bytes);
  };
  Part(arrayRefFromStringRef("wavetools code object cache 1"));
  Part(arrayRefFromStringRef(Target));
  Part(arrayRefFromStringRef(Toolchain));
  Part(Wbin);
  return toHex(H.final(), /*LowerCase=*/true);
}

Expected<std::string> codeObjectCacheDir() {
  SmallString<256> Dir;
  std::optional<std::string> Xdg = sys::Process::GetEnv("XDG_CACHE_HOME");
  if (Xdg && sys::path::is_absolute(*Xdg)) {
    Dir = *Xdg;
  } else if (std::optional<std::string> Home = sys::Process::GetEnv("HOME");
             Home && !Home->empty()) {
    Dir = *Home;
    sys::path::append(Dir, ".cache");
  } else {
    return createStringError(inconvertibleErrorCode(),
                             "no cache directory: neither XDG_CACHE_HOME nor "
                             "HOME is set (use --no-cache)");
  }
  sys::path::append(Dir, "wavetools");
  return std::string(Dir);
}

std::string CodeObjectCache::pathFor(StringRef Key) const {
  SmallString<256> Path(Dir);
  sys::path::append(Path, Key + Extension);
  return std::string(Path);
}

std::optional<std::vector<uint8_t>>
CodeObjectCache::lookup(StringRef Key) const {
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buf =
      MemoryBuffer::getFile(pathFor(Key), /*IsText=*/false,
                            /*RequiresNullTerminator=*/false);
  if (!Buf)
    return std::nullopt;
  StringRef B = (*Buf)->getBuffer();
  return std::vector<uint8_t>(B.bytes_begin(), B.bytes_end());
}

Error CodeObjectCache::store(StringRef Key,
                             ArrayRef<uint8_t> CodeObject) const {
  if (std::error_code EC = sys::fs::create_directories(Dir))
    return createStringError(EC, "cannot create cache directory '%s': %s",
                             Dir.c_str(), EC.message().c_str());
  return writeToOutput(pathFor(Key), [&](raw_ostream &OS) {
    OS.write(reinterpret_cast<const char *>(CodeObject.data()),
             CodeObject.size());
    return Error::success();
  });
}

std::string fileIdentity(StringRef Path) {
  std::string Id = Path.str();
  sys::fs::file_status St;
  if (!sys::fs::status(Path, St))
    Id += "; " + std::to_string(St.getSize()) + "; " +
          std::to_string(sys::toTimeT(St.getLastModificationTime()));
  return Id;
}

/// The file holding this code: the shared library (libwave.so, when a
/// program or the Python module links it) or else the executable.
static std::string translatorFile() {
  static int Anchor;
  std::string Exe = sys::fs::getMainExecutable(nullptr, &Anchor);
  Dl_info Info;
  if (dladdr(&Anchor, &Info) && Info.dli_fname && *Info.dli_fname &&
      sys::path::is_absolute(Info.dli_fname) && Exe != Info.dli_fname &&
      sys::fs::is_regular_file(Info.dli_fname))
    return Info.dli_fname;
  return Exe;
}

std::string toolchainIdentity(StringRef Extra) {
  std::string Id = "wavetools " WAVE_VERSION_STRING;
  // The translator is this code: a rebuilt libwave.so under a program
  // that did not change (python3 running the host runtime) changes the key.
  std::string Exe = translatorFile();
  if (!Exe.empty())
    Id += "; " + fileIdentity(Exe);
  if (!Extra.empty())
    Id += "; " + Extra.str();
  return Id;
}

Expected<std::vector<uint8_t>>
cachedCodeObject(ArrayRef<uint8_t> Wbin, StringRef Target,
                 StringRef ToolIdentity, StringRef Extension, bool UseCache,
                 function_ref<Expected<std::vector<uint8_t>>()> Build) {
  std::optional<CodeObjectCache> Cache;
  std::string Key;
  if (UseCache) {
    Key = codeObjectCacheKey(Wbin, Target, toolchainIdentity(ToolIdentity));
    if (Expected<std::string> Dir = codeObjectCacheDir()) {
      Cache.emplace(*Dir, Extension.str());
      if (std::optional<std::vector<uint8_t>> Hit = Cache->lookup(Key))
        return std::move(*Hit);
    } else {
      consumeError(Dir.takeError()); // no cache directory: build anyway
    }
  }
  Expected<std::vector<uint8_t>> Obj = Build();
  if (Obj && Cache)
    consumeError(Cache->store(Key, *Obj)); // best effort
  return Obj;
}

} // namespace wave::runtime
