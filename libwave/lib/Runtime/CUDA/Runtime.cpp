//===- Runtime.cpp - NVIDIA GPUs through the CUDA driver API --------------===//
//
// Device queries, and one dispatch: context, module from PTX, device
// memory, the launches on one stream with completion polled against a
// deadline, event timing, and the copy back. The parameter bytes and the
// launch shape come from Launch.cpp.
//
//===----------------------------------------------------------------------===//
#include "wave/Runtime/CUDA/Runtime.h"
#include "wave/NVPTX/Translate.h"
#include "wave/Runtime/CUDA/Launch.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <thread>
#include <type_traits>

using namespace llvm;

namespace wave::cuda {

namespace {

Error cudaError(CudaErrorKind Kind, const Twine &Msg) {
  return make_error<CudaError>(Kind, Msg.str());
}

/// Bytes of each PTX JIT log buffer.
constexpr size_t JitLogBytes = 16384;

/// Everything a dispatch holds, released in reverse order of creation
/// unless Abandon is set (a launch that timed out still runs; destroying
/// its context would wait for it).
struct Resources {
  const Driver &D;
  CUcontext Context = nullptr;
  CUmodule Module = nullptr;
  CUdeviceptr Memory = 0;
  CUstream Stream = nullptr;
  CUevent Start = nullptr, End = nullptr;
  bool Abandon = false;

  explicit Resources(const Driver &D) : D(D) {}
  ~Resources() {
    if (Abandon || !Context)
      return;
    // Release errors are not reported: a fault already made the context
    // unusable, and the fault is the error that matters.
    if (End)
      D.cuEventDestroy(End);
    if (Start)
      D.cuEventDestroy(Start);
    if (Stream)
      D.cuStreamDestroy(Stream);
    if (Memory)
      D.cuMemFree(Memory);
    if (Module)
      D.cuModuleUnload(Module);
    D.cuCtxDestroy(Context);
  }
};

/// The JIT log text of \p Buffer: up to the first NUL, without trailing
/// blank lines.
std::string logText(const std::vector<char> &Buffer) {
  return StringRef(Buffer.data(), strnlen(Buffer.data(), Buffer.size()))
      .rtrim()
      .str();
}

} // namespace

std::string DeviceInfo::arch() const {
  return "sm_" + std::to_string(Major) + std::to_string(Minor);
}

Expected<unsigned> targetSM(const DeviceInfo &D) {
  unsigned Own = 10 * D.Major + D.Minor;
  for (unsigned SM = std::min(Own, MaxTargetSM); SM >= nvptx::MinSM; --SM) {
    Expected<unsigned> Parsed = nvptx::parseMCPU("sm_" + std::to_string(SM));
    if (Parsed)
      return *Parsed;
    consumeError(Parsed.takeError());
  }
  return cudaError(CudaErrorKind::NoDevice,
                   "CUDA device '" + D.Name + "' is " + D.arch() +
                       "; the NVPTX translation needs sm_" +
                       Twine(nvptx::MinSM) + " or newer");
}

Runtime::~Runtime() = default;

Expected<std::unique_ptr<Runtime>> Runtime::open() {
  Expected<const Driver &> DOrErr = Driver::get();
  if (!DOrErr)
    return DOrErr.takeError();
  const Driver &D = *DOrErr;
  // cuInit fails for a missing device node or GPU (CUDA_ERROR_NO_DEVICE)
  // and for a driver that cannot run here (a library newer than the kernel
  // module, a container without the devices): none leaves a device to use.
  if (CUresult R = D.cuInit(0); R != CUDA_SUCCESS)
    return cudaError(CudaErrorKind::NoDevice,
                     (R == CUDA_ERROR_NO_DEVICE ? "no CUDA device: "
                                                : "CUDA driver unusable: ") +
                         Twine("cuInit failed: ") + D.describe(R));
  std::unique_ptr<Runtime> RT(new Runtime(D));
  if (Error E =
          D.check(D.cuDriverGetVersion(&RT->Version), "cuDriverGetVersion"))
    return std::move(E);
  int Count = 0;
  if (Error E = D.check(D.cuDeviceGetCount(&Count), "cuDeviceGetCount"))
    return std::move(E);
  if (Count <= 0)
    return cudaError(CudaErrorKind::NoDevice,
                     "no CUDA device: the CUDA driver found no GPU");
  for (int I = 0; I < Count; ++I) {
    CUdevice Dev = 0;
    if (Error E = D.check(D.cuDeviceGet(&Dev, I),
                          "cuDeviceGet of device " + Twine(I)))
      return std::move(E);
    DeviceInfo Info;
    char Name[256] = {};
    if (Error E = D.check(D.cuDeviceGetName(Name, sizeof(Name), Dev),
                          "cuDeviceGetName of device " + Twine(I)))
      return std::move(E);
    Info.Name = std::string(Name, strnlen(Name, sizeof(Name)));
    auto Attribute = [&](CUdevice_attribute A, const char *What,
                         auto &Dest) -> Error {
      int V = 0;
      if (Error E = D.check(D.cuDeviceGetAttribute(&V, A, Dev),
                            "cuDeviceGetAttribute (" + Twine(What) +
                                ") of device " + Twine(I)))
        return E;
      Dest = std::remove_reference_t<decltype(Dest)>(std::max(V, 0));
      return Error::success();
    };
    if (Error E = Attribute(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR,
                            "compute capability", Info.Major))
      return std::move(E);
    if (Error E = Attribute(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR,
                            "compute capability", Info.Minor))
      return std::move(E);
    if (Error E = Attribute(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT,
                            "multiprocessors", Info.Multiprocessors))
      return std::move(E);
    if (Error E =
            Attribute(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN,
                      "shared memory", Info.MaxSharedPerBlock))
      return std::move(E);
    size_t Bytes = 0;
    if (Error E = D.check(D.cuDeviceTotalMem(&Bytes, Dev),
                          "cuDeviceTotalMem of device " + Twine(I)))
      return std::move(E);
    Info.Memory = Bytes;
    RT->Handles.push_back(Dev);
    RT->Infos.push_back(std::move(Info));
  }
  return std::move(RT);
}

void Runtime::printDevices(raw_ostream &OS) const {
  OS << "CUDA driver " << Version / 1000 << "." << Version % 1000 / 10 << " ("
     << D.Path << ")\n";
  for (size_t I = 0; I < Infos.size(); ++I) {
    const DeviceInfo &Dev = Infos[I];
    OS << "cuda device " << I << ": " << Dev.Name
       << "\n  compute capability: " << Dev.Major << "." << Dev.Minor << " ("
       << Dev.arch() << ")\n  multiprocessors: " << Dev.Multiprocessors
       << "\n  memory: " << Dev.Memory
       << " bytes\n  shared memory per CTA: " << Dev.MaxSharedPerBlock
       << " bytes\n";
  }
}

Error Runtime::checkDevice(unsigned Index) const {
  if (Index < Infos.size())
    return Error::success();
  std::string There =
      Infos.size() == 1 ? "is 1" : "are " + std::to_string(Infos.size());
  return cudaError(CudaErrorKind::NoDevice, "no CUDA device " + Twine(Index) +
                                                ": there " + There +
                                                " (see --list-devices)");
}

Expected<DispatchResult> Runtime::dispatch(unsigned DeviceIndex,
                                           const DispatchRequest &R) {
  if (Error E = checkDevice(DeviceIndex))
    return std::move(E);
  const DeviceInfo &Dev = Infos[DeviceIndex];
  const std::string &Kernel = R.KernelName;
  Expected<LaunchShape> Shape =
      computeLaunchShape(R.Workgroups, R.GroupSize, R.LocalMemory);
  if (!Shape)
    return cudaError(CudaErrorKind::Failure,
                     "kernel '" + Kernel + "': " + toString(Shape.takeError()));
  if (Shape->SharedBytes > Dev.MaxSharedPerBlock)
    return cudaError(
        CudaErrorKind::Failure,
        "kernel '" + Kernel + "' needs " + Twine(Shape->SharedBytes) +
            " bytes of local memory per workgroup; CUDA device '" + Dev.Name +
            "' has at most " + Twine(Dev.MaxSharedPerBlock) + " per CTA");

  Resources Res(D);
  if (Error E = D.check(
          D.cuCtxCreate(&Res.Context, CU_CTX_SCHED_AUTO, Handles[DeviceIndex]),
          "cuCtxCreate"))
    return std::move(E);

  // The PTX JIT, with its logs: the error log says why PTX was refused.
  std::vector<char> ErrorLog(JitLogBytes, 0), InfoLog(JitLogBytes, 0);
  CUjit_option Options[] = {
      CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
      CU_JIT_INFO_LOG_BUFFER, CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES};
  void *Values[] = {ErrorLog.data(), reinterpret_cast<void *>(JitLogBytes),
                    InfoLog.data(), reinterpret_cast<void *>(JitLogBytes)};
  // cuModuleLoadDataEx reads PTX as a NUL-terminated string.
  std::string Text = R.PTX.str();
  if (CUresult C = D.cuModuleLoadDataEx(&Res.Module, Text.c_str(),
                                        std::size(Options), Options, Values);
      C != CUDA_SUCCESS) {
    Res.Module = nullptr;
    std::string Msg = "PTX JIT compilation for " + Dev.arch() +
                      " failed: cuModuleLoadDataEx: " + D.describe(C);
    std::string Log = logText(ErrorLog);
    if (!Log.empty())
      Msg += "\n" + Log;
    return cudaError(CudaErrorKind::Failure, Msg);
  }
  CUfunction Function = nullptr;
  if (Error E = D.check(
          D.cuModuleGetFunction(&Function, Res.Module, R.Symbol.c_str()),
          "cuModuleGetFunction of '" + R.Symbol + "'"))
    return std::move(E);
  if (Shape->needsSharedOptIn())
    if (Error E = D.check(D.cuFuncSetAttribute(
                              Function,
                              CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                              int(Shape->SharedBytes)),
                          "cuFuncSetAttribute (" + Twine(Shape->SharedBytes) +
                              " bytes of dynamic shared memory)"))
      return std::move(E);

  // Device memory, with the start image.
  if (Error E = D.check(
          D.cuMemAlloc(&Res.Memory, std::max<size_t>(R.Memory.size(), 1)),
          "cuMemAlloc of " + Twine(R.Memory.size()) + " bytes"))
    return std::move(E);
  if (!R.Memory.empty())
    if (Error E = D.check(
            D.cuMemcpyHtoD(Res.Memory, R.Memory.data(), R.Memory.size()),
            "cuMemcpyHtoD of " + Twine(R.Memory.size()) + " bytes"))
      return std::move(E);

  if (Error E = D.check(D.cuStreamCreate(&Res.Stream, CU_STREAM_DEFAULT),
                        "cuStreamCreate"))
    return std::move(E);
  if (R.Profile) {
    if (Error E = D.check(D.cuEventCreate(&Res.Start, CU_EVENT_DEFAULT),
                          "cuEventCreate"))
      return std::move(E);
    if (Error E = D.check(D.cuEventCreate(&Res.End, CU_EVENT_DEFAULT),
                          "cuEventCreate"))
      return std::move(E);
  }

  KernelParamValues V;
  V.DeviceBase = Res.Memory;
  V.Registers = R.Registers;
  V.DeviceMemorySize = R.Memory.size();
  V.LocalMemorySize = R.LocalMemory;
  V.WorkgroupSize = R.GroupSize;
  KernelParams Params = packKernelParams(V);
  std::vector<void *> Pointers = Params.pointers();

  DispatchResult Result;
  for (unsigned N = 0; N < std::max(R.Repeat, 1u); ++N) {
    if (R.Profile)
      if (Error E =
              D.check(D.cuEventRecord(Res.Start, Res.Stream), "cuEventRecord"))
        return std::move(E);
    if (Error E = D.check(
            D.cuLaunchKernel(Function, Shape->Grid[0], Shape->Grid[1],
                             Shape->Grid[2], Shape->Block[0], Shape->Block[1],
                             Shape->Block[2], Shape->SharedBytes, Res.Stream,
                             Pointers.data(), nullptr),
            "cuLaunchKernel of kernel '" + Kernel + "'"))
      return std::move(E);
    if (R.Profile)
      if (Error E =
              D.check(D.cuEventRecord(Res.End, Res.Stream), "cuEventRecord"))
        return std::move(E);

    // Poll, sleeping a little longer each time up to 1 ms, so that a
    // timeout is honoured without a blocking synchronise that could not be
    // interrupted.
    auto Begin = std::chrono::steady_clock::now();
    for (unsigned Polls = 0;; ++Polls) {
      CUresult Q = D.cuStreamQuery(Res.Stream);
      if (Q == CUDA_SUCCESS)
        break;
      if (Q != CUDA_ERROR_NOT_READY)
        return cudaError(CudaErrorKind::Failure,
                         "kernel '" + Kernel +
                             "' faulted on the GPU: " + D.describe(Q));
      double Waited = std::chrono::duration<double>(
                          std::chrono::steady_clock::now() - Begin)
                          .count();
      if (R.TimeoutSeconds > 0 && Waited >= R.TimeoutSeconds) {
        Res.Abandon = true;
        return cudaError(CudaErrorKind::Timeout,
                         "kernel '" + Kernel + "' did not complete in " +
                             formatv("{0}", R.TimeoutSeconds).str() +
                             " s (--timeout)");
      }
      std::this_thread::sleep_for(std::chrono::microseconds(
          std::min(10u << std::min(Polls, 7u), 1000u)));
    }
    if (R.Profile) {
      float Milliseconds = 0;
      if (Error E =
              D.check(D.cuEventElapsedTime(&Milliseconds, Res.Start, Res.End),
                      "cuEventElapsedTime"))
        return std::move(E);
      Result.Seconds.push_back(double(Milliseconds) / 1000);
    }
  }

  if (!R.Memory.empty())
    if (Error E = D.check(
            D.cuMemcpyDtoH(R.Memory.data(), Res.Memory, R.Memory.size()),
            "cuMemcpyDtoH of " + Twine(R.Memory.size()) + " bytes"))
      return std::move(E);
  return Result;
}

} // namespace wave::cuda
