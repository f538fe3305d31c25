//===- Library.cpp - The ROCm HSA runtime, loaded at run time -------------===//
//
// Loading (LLVM's sys::DynamicLibrary, i.e. dlopen) of libhsa-runtime64.so.1
// (or $WAVE_HSA_RUNTIME) once per process and dlsym of every entry point of
// LibraryAPI.def.
//
//===----------------------------------------------------------------------===//
#include "Library.h"

#include "wave/Runtime/HSA/Runtime.h"

#include "llvm/Support/DynamicLibrary.h"

#include <cstdlib>
#include <mutex>

using namespace llvm;

namespace wave::hsa {

namespace {

/// The outcome of the one load of the process.
struct LoadResult {
  Library L;
  bool Loaded = false;
  HsaErrorKind Kind = HsaErrorKind::NoDevice;
  std::string Message;
};

LoadResult load() {
  LoadResult R;
  const char *Env = std::getenv("WAVE_HSA_RUNTIME");
  R.L.Path = Env && *Env ? Env : DefaultRuntimePath;
  // LLVM's loader keeps the library for the rest of the process.
  std::string Why;
  auto Lib = sys::DynamicLibrary::getPermanentLibrary(R.L.Path.c_str(), &Why);
  if (!Lib.isValid()) {
    R.Message = "HSA runtime not found: dlopen " + R.L.Path + ": " + Why;
    return R;
  }
  // Each member gets the address of its symbol; the first missing one
  // makes the library unusable.
#define WAVE_HSA_ENTRY(Name)                                                   \
  if (void *P = Lib.getAddressOfSymbol(#Name)) {                               \
    R.L.Name = reinterpret_cast<decltype(R.L.Name)>(P);                        \
  } else {                                                                     \
    R.Kind = HsaErrorKind::Failure;                                            \
    R.Message =                                                                \
        "HSA runtime '" + R.L.Path + "' has no entry point '" + #Name "'";     \
    return R;                                                                  \
  }
#include "LibraryAPI.def"
  R.Loaded = true;
  return R;
}

} // namespace

Expected<const Library &> Library::get() {
  static std::once_flag Once;
  static LoadResult *Result = nullptr;
  std::call_once(Once, [] { Result = new LoadResult(load()); });
  if (!Result->Loaded)
    return make_error<HsaError>(Result->Kind, Result->Message);
  return Result->L;
}

} // namespace wave::hsa
