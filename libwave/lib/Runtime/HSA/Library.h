//===- Library.h - The ROCm HSA runtime, loaded at run time -----*- C++ -*-===//
//
// wave-run --device=hsa talks to AMD GPUs through ROCm's HSA runtime
// (libhsa-runtime64.so.1, Debian libhsa-runtime64-1). The library is opened
// with dlopen at first use and never linked, so every tool starts on
// machines without it: there, Runtime::open() fails with an HsaError of kind
// NoDevice. hsa.h and hsa_ext_amd.h (Debian libhsa-runtime-dev, needed to
// build) give the types, constants and signatures only; every function is
// called through Library, whose entry points LibraryAPI.def lists. This
// header is private to the HSA runner: the public Runtime.h does not
// include hsa.h.
//
//===----------------------------------------------------------------------===//
#ifndef WAVE_LIB_RUNTIME_HSA_LIBRARY_H
#define WAVE_LIB_RUNTIME_HSA_LIBRARY_H

#include "llvm/Support/Error.h"

#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>

#include <string>

namespace wave::hsa {

/// The library path loaded when the environment variable WAVE_HSA_RUNTIME
/// is unset or empty: the runtime's soname, found by the dynamic loader.
constexpr const char *DefaultRuntimePath = "libhsa-runtime64.so.1";

/// The functions of the HSA runtime library, one member per row of
/// LibraryAPI.def, named and typed as in hsa.h (`L.hsa_init()`).
struct Library {
#define WAVE_HSA_ENTRY(Name) decltype(&::Name) Name = nullptr;
#include "LibraryAPI.def"

  /// The file the library was loaded from (the dlopen argument).
  std::string Path;

  /// The runtime library of this process: on the first call, dlopen of
  /// $WAVE_HSA_RUNTIME (a path, for tests and unusual installations) or
  /// else DefaultRuntimePath, and dlsym of every entry point; later calls
  /// return the same object or the same error (thread-safe; the library is
  /// never closed). Fails with NoDevice "HSA runtime not found: dlopen
  /// PATH: <dlerror>" when the library does not load, and with Failure
  /// when it lacks an entry point ("HSA runtime 'PATH' has no entry point
  /// 'hsa_init'"). hsa_init is not called here.
  static llvm::Expected<const Library &> get();
};

} // namespace wave::hsa

#endif // WAVE_LIB_RUNTIME_HSA_LIBRARY_H
