//===- Driver.cpp - The CUDA driver API, loaded at run time ---------------===//
//
// Loading (LLVM's sys::DynamicLibrary, i.e. dlopen) of libcuda.so.1 (or
// $WAVE_CUDA_DRIVER) once per process, dlsym of every entry point of
// DriverAPI.def, and the driver's own names and descriptions of CUresult values
// for messages.
//
//===----------------------------------------------------------------------===//
#include "wave/Runtime/CUDA/Driver.h"

#include "llvm/Support/DynamicLibrary.h"

#include <cstdlib>
#include <mutex>

using namespace llvm;

namespace wave::cuda {

char CudaError::ID = 0;

std::error_code CudaError::convertToErrorCode() const {
  return inconvertibleErrorCode();
}

namespace {

/// The outcome of the one load of the process.
struct LoadResult {
  Driver D;
  bool Loaded = false;
  CudaErrorKind Kind = CudaErrorKind::NoDevice;
  std::string Message;
};

LoadResult load() {
  LoadResult R;
  const char *Env = std::getenv("WAVE_CUDA_DRIVER");
  R.D.Path = Env && *Env ? Env : DefaultDriverPath;
  // LLVM's loader keeps the library for the rest of the process.
  std::string Why;
  auto Lib = sys::DynamicLibrary::getPermanentLibrary(R.D.Path.c_str(), &Why);
  if (!Lib.isValid()) {
    R.Message = "CUDA driver not found: dlopen " + R.D.Path + ": " + Why;
    return R;
  }
  // Each member gets the address of its Symbol; the first missing one
  // makes the library unusable.
#define WAVE_CUDA_ENTRY(Name, Symbol, Params)                                  \
  if (void *P = Lib.getAddressOfSymbol(#Symbol)) {                             \
    R.D.Name = reinterpret_cast<decltype(R.D.Name)>(P);                        \
  } else {                                                                     \
    R.Kind = CudaErrorKind::Failure;                                           \
    R.Message =                                                                \
        "CUDA driver '" + R.D.Path + "' has no entry point '" + #Symbol "'";   \
    return R;                                                                  \
  }
#include "wave/Runtime/CUDA/DriverAPI.def"
  R.Loaded = true;
  return R;
}

} // namespace

Expected<const Driver &> Driver::get() {
  static std::once_flag Once;
  static LoadResult *Result = nullptr;
  std::call_once(Once, [] { Result = new LoadResult(load()); });
  if (!Result->Loaded)
    return make_error<CudaError>(Result->Kind, Result->Message);
  return Result->D;
}

std::string Driver::describe(CUresult R) const {
  const char *Name = nullptr, *Text = nullptr;
  if (cuGetErrorName(R, &Name) != CUDA_SUCCESS || !Name)
    return "CUresult " + std::to_string(R);
  std::string S = Name;
  if (cuGetErrorString(R, &Text) == CUDA_SUCCESS && Text)
    S += std::string(" (") + Text + ")";
  return S;
}

Error Driver::check(CUresult R, const Twine &What, CudaErrorKind Kind) const {
  if (R == CUDA_SUCCESS)
    return Error::success();
  return make_error<CudaError>(Kind, (What + " failed: " + describe(R)).str());
}

} // namespace wave::cuda
