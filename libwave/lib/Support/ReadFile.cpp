//===- ReadFile.cpp - Reading a whole input, with a bound -----------------===//
#include "wave/Support/ReadFile.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Process.h"

#include <string>

using namespace llvm;

namespace wave {

Expected<std::unique_ptr<MemoryBuffer>>
readFileBounded(StringRef Path, uint64_t MaxBytes, StringRef RequiredPrefix) {
  auto TooLarge = [&] {
    return createStringError(std::errc::file_too_large,
                             "larger than %llu bytes",
                             (unsigned long long)MaxBytes);
  };
  sys::fs::file_t FD;
  bool Stdin = Path == "-";
  if (Stdin) {
    FD = sys::fs::getStdinHandle();
  } else {
    Expected<sys::fs::file_t> F = sys::fs::openNativeFileForRead(Path);
    if (!F)
      return F.takeError();
    FD = *F;
  }
  auto Close = make_scope_exit([&] {
    if (!Stdin)
      sys::fs::closeFile(FD);
  });
  sys::fs::file_status St;
  if (std::error_code EC = sys::fs::status(FD, St))
    return errorCodeToError(EC);
  if (St.type() == sys::fs::file_type::regular_file) {
    if (St.getSize() > MaxBytes)
      return TooLarge();
    ErrorOr<std::unique_ptr<MemoryBuffer>> Buf =
        MemoryBuffer::getOpenFile(FD, Path, St.getSize());
    if (!Buf)
      return errorCodeToError(Buf.getError());
    return std::move(*Buf);
  }
  // A stream: read until end of file, or until the bound or the prefix
  // says to stop.
  std::string Data;
  constexpr size_t Chunk = 1 << 16;
  for (;;) {
    size_t Old = Data.size();
    Data.resize(Old + Chunk);
    Expected<size_t> N = sys::fs::readNativeFile(
        FD, MutableArrayRef<char>(Data.data() + Old, Chunk));
    if (!N)
      return N.takeError();
    Data.resize(Old + *N);
    if (*N == 0)
      break;
    if (Data.size() > MaxBytes)
      return TooLarge();
    if (!RequiredPrefix.empty() && Data.size() >= RequiredPrefix.size() &&
        !StringRef(Data).starts_with(RequiredPrefix))
      break; // the parser reports the mismatch from what was read
  }
  return MemoryBuffer::getMemBufferCopy(Data, Path);
}

} // namespace wave
