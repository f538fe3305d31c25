//===- Driver.h - The CUDA driver API, loaded at run time --------*- C++
//-*-===//
//
// wave-run --device=cuda talks to NVIDIA GPUs through the CUDA driver API
// (libcuda.so.1, installed with the NVIDIA kernel driver; CUDA Driver API
// reference, docs.nvidia.com/cuda/cuda-driver-api). The library is opened
// with dlopen at first use and never linked, so wavetools builds and runs
// where there is no CUDA: there, loading fails with a CudaError of kind
// NoDevice. The part of cuda.h that is used is declared by hand in
// DriverAPI.h (types and values) and DriverAPI.def (entry points).
//
//===----------------------------------------------------------------------===//
#ifndef WAVE_RUNTIME_CUDA_DRIVER_H
#define WAVE_RUNTIME_CUDA_DRIVER_H

#include "wave/Runtime/CUDA/DriverAPI.h"

#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <cstddef>
#include <string>

namespace wave::cuda {

//===----------------------------------------------------------------------===//
// Errors
//===----------------------------------------------------------------------===//

/// What went wrong, for wave-run's exit status.
enum class CudaErrorKind {
  /// No driver library, cuInit fails, no device, or no device of that
  /// index: exit status 2.
  NoDevice,
  /// A driver call failed, the PTX does not load, or the kernel faulted: 1.
  Failure,
  /// A launch did not complete within --timeout: 3.
  Timeout,
};

/// An error of the CUDA runner: one line naming what was being done and,
/// for a failed driver call, the CUresult's name and description
/// ("cuLaunchKernel failed: CUDA_ERROR_INVALID_VALUE (invalid argument)");
/// a PTX JIT failure adds the driver's error log on the lines after.
class CudaError : public llvm::ErrorInfo<CudaError> {
public:
  static char ID;
  CudaError(CudaErrorKind Kind, std::string Message)
      : Kind(Kind), Message(std::move(Message)) {}
  CudaErrorKind getKind() const { return Kind; }
  void log(llvm::raw_ostream &OS) const override { OS << Message; }
  std::error_code convertToErrorCode() const override;

private:
  CudaErrorKind Kind;
  std::string Message;
};

//===----------------------------------------------------------------------===//
// The loaded driver
//===----------------------------------------------------------------------===//

/// The library path loaded when the environment variable WAVE_CUDA_DRIVER
/// is unset or empty: the driver's soname, found by the dynamic loader.
constexpr const char *DefaultDriverPath = "libcuda.so.1";

/// The entry points of the CUDA driver library, one member per row of
/// DriverAPI.def, named as in cuda.h (`D.cuMemAlloc(&P, N)` calls
/// cuMemAlloc_v2).
struct Driver {
#define WAVE_CUDA_ENTRY(Name, Symbol, Params) CUresult(*Name) Params = nullptr;
#include "wave/Runtime/CUDA/DriverAPI.def"

  /// The file the library was loaded from (the dlopen argument).
  std::string Path;

  /// The driver of this process: on the first call, dlopen of
  /// $WAVE_CUDA_DRIVER (a path, for tests and unusual installations) or
  /// else DefaultDriverPath, and dlsym of every entry point; later calls
  /// return the same object or the same error (thread-safe; the library is
  /// never closed). Fails with NoDevice "CUDA driver not found: dlopen
  /// PATH: <dlerror>" when the library does not load, and with Failure
  /// when it lacks an entry point ("CUDA driver 'PATH' has no entry point
  /// 'cuMemAlloc_v2'"). cuInit is not called here.
  static llvm::Expected<const Driver &> get();

  /// "CUDA_ERROR_NAME (description)" for \p R, from cuGetErrorName and
  /// cuGetErrorString, or "CUresult N" for a value the driver does not
  /// know.
  std::string describe(CUresult R) const;

  /// Success when \p R is CUDA_SUCCESS, else a CudaError of kind \p Kind:
  /// "WHAT failed: " + describe(R).
  llvm::Error check(CUresult R, const llvm::Twine &What,
                    CudaErrorKind Kind = CudaErrorKind::Failure) const;
};

} // namespace wave::cuda

#endif // WAVE_RUNTIME_CUDA_DRIVER_H
