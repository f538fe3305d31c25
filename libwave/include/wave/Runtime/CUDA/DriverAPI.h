//===- DriverAPI.h - The part of cuda.h that wavetools uses ------*- C++
//-*-===//
//
// Hand-written declarations of the CUDA driver API types and enumerator
// values that wave-run --device=cuda passes (CUDA Driver API reference,
// "Data types used by CUDA driver"), with cuda.h's spellings and values,
// inside namespace wave::cuda; the entry points are DriverAPI.def. No
// CUDA header is needed to build wavetools. Plain C++ without LLVM, so that
// the stub driver of the tests (test/gpu/stub-cuda/) shares it.
//
//===----------------------------------------------------------------------===//
#ifndef WAVE_RUNTIME_CUDA_DRIVERAPI_H
#define WAVE_RUNTIME_CUDA_DRIVERAPI_H

#include <cstddef>

namespace wave::cuda {

using CUresult = int;
using CUdevice = int;
using CUdeviceptr = unsigned long long; ///< a device address (64-bit).
using CUdevice_attribute = int;
using CUfunction_attribute = int;
using CUjit_option = int;
using CUcontext = struct CUctx_st *;
using CUmodule = struct CUmod_st *;
using CUfunction = struct CUfunc_st *;
using CUstream = struct CUstream_st *;
using CUevent = struct CUevent_st *;

/// CUresult values (enum cudaError_enum) that the runner tells apart.
constexpr CUresult CUDA_SUCCESS = 0;
constexpr CUresult CUDA_ERROR_INVALID_VALUE = 1;
constexpr CUresult CUDA_ERROR_OUT_OF_MEMORY = 2;
constexpr CUresult CUDA_ERROR_NOT_INITIALIZED = 3;
constexpr CUresult CUDA_ERROR_NO_DEVICE = 100;
constexpr CUresult CUDA_ERROR_INVALID_DEVICE = 101;
constexpr CUresult CUDA_ERROR_INVALID_PTX = 218;
constexpr CUresult CUDA_ERROR_INVALID_HANDLE = 400;
constexpr CUresult CUDA_ERROR_NOT_FOUND = 500;
constexpr CUresult CUDA_ERROR_NOT_READY = 600;
constexpr CUresult CUDA_ERROR_ILLEGAL_ADDRESS = 700;
constexpr CUresult CUDA_ERROR_LAUNCH_FAILED = 719;
constexpr CUresult CUDA_ERROR_UNKNOWN = 999;

/// CUjit_option values for cuModuleLoadDataEx (enum CUjit_option_enum). The
/// buffer options take a char pointer, the size options a byte count cast
/// to void * (on return: the bytes written, terminating NUL included).
constexpr CUjit_option CU_JIT_INFO_LOG_BUFFER = 3;
constexpr CUjit_option CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES = 4;
constexpr CUjit_option CU_JIT_ERROR_LOG_BUFFER = 5;
constexpr CUjit_option CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6;

/// CUdevice_attribute values (enum CUdevice_attribute_enum).
constexpr CUdevice_attribute CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 1;
constexpr CUdevice_attribute CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT = 16;
constexpr CUdevice_attribute CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75;
constexpr CUdevice_attribute CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76;
constexpr CUdevice_attribute
    CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN = 97;

/// CUfunction_attribute values (enum CUfunction_attribute_enum).
constexpr CUfunction_attribute CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES =
    8;

/// Flags: cuCtxCreate's CU_CTX_SCHED_AUTO, cuStreamCreate's
/// CU_STREAM_DEFAULT (synchronises with the legacy default stream, which
/// the synchronous cuMemcpy calls use), cuEventCreate's CU_EVENT_DEFAULT.
constexpr unsigned CU_CTX_SCHED_AUTO = 0;
constexpr unsigned CU_STREAM_DEFAULT = 0;
constexpr unsigned CU_EVENT_DEFAULT = 0;

} // namespace wave::cuda

#endif // WAVE_RUNTIME_CUDA_DRIVERAPI_H
