//===- StubLog.h - The log and failure switch of the stub GPU runtimes ----===//
//
// Shared by the stub CUDA driver (stub-cuda/) and the stub HSA runtime
// (stub-hsa/): each appends one line per call to the file an environment
// variable names, and fails where another variable says.
//
//===----------------------------------------------------------------------===//
#ifndef WAVE_TEST_GPU_STUBLOG_H
#define WAVE_TEST_GPU_STUBLOG_H

#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace wave::stub {

/// Appends the line \p Fmt, \p Args formats to the file $\p LogVar names
/// (nothing when it is unset or empty, or cannot be opened).
inline void appendLine(const char *LogVar, const char *Fmt, va_list Args) {
  const char *Path = std::getenv(LogVar);
  if (!Path || !*Path)
    return;
  FILE *F = std::fopen(Path, "a");
  if (!F)
    return;
  std::vfprintf(F, Fmt, Args);
  std::fputc('\n', F);
  std::fclose(F);
}

/// True when $\p FailVar is \p Mode.
inline bool failing(const char *FailVar, const char *Mode) {
  const char *Env = std::getenv(FailVar);
  return Env && std::strcmp(Env, Mode) == 0;
}

} // namespace wave::stub

#endif // WAVE_TEST_GPU_STUBLOG_H
