//===- ReadFile.h - Reading a whole input, with a bound ---------*- C++ -*-===//
//
// Inputs that never end (`wave-dis /dev/zero`, `yes nop | wave-as -`,
// `wave-run --arg y=@/dev/zero`) must fail with a message, not grow a buffer
// until LLVM reports "out of memory" and aborts.
//
//===----------------------------------------------------------------------===//
#ifndef WAVE_SUPPORT_READFILE_H
#define WAVE_SUPPORT_READFILE_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cstdint>
#include <memory>

namespace wave {

/// The most bytes any input may have: a `.wbin` addresses its sections with
/// 32-bit offsets and device memory is at most 4 GiB (formats/wbin.md,
/// formats/isa.md §4.1).
constexpr uint64_t MaxInputBytes = uint64_t(1) << 32;

/// Reads \p Path ("-" is stdin) whole. A regular file larger than
/// \p MaxBytes fails before it is read; anything else (a pipe, a device, a
/// terminal) is read in chunks until end of file and fails as soon as it has
/// given more than \p MaxBytes ("larger than N bytes"). When
/// \p RequiredPrefix is not empty and a stream does not start with it,
/// reading stops after the first chunk (64 KiB at most), which is returned,
/// so that the caller's parser reports the mismatch without reading the
/// rest. The buffer
/// is null-terminated and named \p Path. Fails with the OS error otherwise.
llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>>
readFileBounded(llvm::StringRef Path, uint64_t MaxBytes = MaxInputBytes,
                llvm::StringRef RequiredPrefix = "");

} // namespace wave

#endif // WAVE_SUPPORT_READFILE_H
