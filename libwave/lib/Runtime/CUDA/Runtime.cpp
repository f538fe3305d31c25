//===- Runtime.cpp - NVIDIA GPUs through the CUDA driver API --------------===//
//
// Device queries; a Context's pieces: module from PTX, device memory and
// copies, a launch on the context's stream with completion polled against
// a deadline and event timing; and one dispatch made of them. The parameter
// bytes and the launch shape come from Launch.cpp.
//
//===----------------------------------------------------------------------===//
#include "wave/Runtime/CUDA/Runtime.h"
#include "wave/NVPTX/Translate.h"
#include "wave/Runtime/CUDA/Launch.h"

#include "llvm/ADT/ScopeExit.h"
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

Expected<LaunchShape> launchShapeFor(const DeviceInfo &Dev,
                                     std::array<uint32_t, 3> Workgroups,
                                     std::array<uint32_t, 3> GroupSize,
                                     uint32_t LocalMemory, StringRef Kernel) {
  Expected<LaunchShape> Shape =
      computeLaunchShape(Workgroups, GroupSize, LocalMemory);
  if (!Shape)
    return cudaError(CudaErrorKind::Failure,
                     "kernel '" + Kernel + "': " + toString(Shape.takeError()));
  if (Shape->SharedBytes > Dev.MaxSharedPerBlock)
    return cudaError(
        CudaErrorKind::Failure,
        "kernel '" + Kernel + "' needs " + Twine(Shape->SharedBytes) +
            " bytes of local memory per workgroup; CUDA device '" + Dev.Name +
            "' has at most " + Twine(Dev.MaxSharedPerBlock) + " per CTA");
  return Shape;
}

//===----------------------------------------------------------------------===//
// Context
//===----------------------------------------------------------------------===//

Expected<std::unique_ptr<Context>> Context::create(const Runtime &RT,
                                                   unsigned Index) {
  if (Error E = RT.checkDevice(Index))
    return std::move(E);
  const Driver &D = RT.driver();
  std::unique_ptr<Context> C(new Context(D, RT.devices()[Index]));
  if (Error E =
          D.check(D.cuCtxCreate(&C->Ctx, CU_CTX_SCHED_AUTO, RT.handle(Index)),
                  "cuCtxCreate")) {
    C->Ctx = nullptr;
    return std::move(E);
  }
  return std::move(C);
}

Context::~Context() {
  if (Abandoned || !Ctx)
    return;
  // Release errors are not reported: a fault already made the context
  // unusable, and the fault is the error that matters.
  D.cuCtxSetCurrent(Ctx);
  if (End)
    D.cuEventDestroy(End);
  if (Start)
    D.cuEventDestroy(Start);
  if (Stream)
    D.cuStreamDestroy(Stream);
  D.cuCtxDestroy(Ctx);
}

Error Context::makeCurrent() {
  return D.check(D.cuCtxSetCurrent(Ctx), "cuCtxSetCurrent");
}

Expected<CUdeviceptr> Context::allocate(uint64_t Bytes) {
  CUdeviceptr P = 0;
  if (Error E = D.check(D.cuMemAlloc(&P, std::max<uint64_t>(Bytes, 1)),
                        "cuMemAlloc of " + Twine(Bytes) + " bytes"))
    return std::move(E);
  return P;
}

void Context::free(CUdeviceptr P) {
  if (P && !Abandoned)
    D.cuMemFree(P);
}

Error Context::copyToDevice(CUdeviceptr To, const void *From, uint64_t Bytes) {
  return D.check(D.cuMemcpyHtoD(To, From, Bytes),
                 "cuMemcpyHtoD of " + Twine(Bytes) + " bytes");
}

Error Context::copyFromDevice(void *To, CUdeviceptr From, uint64_t Bytes) {
  return D.check(D.cuMemcpyDtoH(To, From, Bytes),
                 "cuMemcpyDtoH of " + Twine(Bytes) + " bytes");
}

Error Context::zero(CUdeviceptr At, uint64_t Bytes) {
  return D.check(D.cuMemsetD8(At, 0, Bytes),
                 "cuMemsetD8 of " + Twine(Bytes) + " bytes");
}

Expected<CUmodule> Context::loadModule(StringRef PTX) {
  // The PTX JIT, with its logs: the error log says why PTX was refused.
  std::vector<char> ErrorLog(JitLogBytes, 0), InfoLog(JitLogBytes, 0);
  CUjit_option Options[] = {
      CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
      CU_JIT_INFO_LOG_BUFFER, CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES};
  void *Values[] = {ErrorLog.data(), reinterpret_cast<void *>(JitLogBytes),
                    InfoLog.data(), reinterpret_cast<void *>(JitLogBytes)};
  // cuModuleLoadDataEx reads PTX as a NUL-terminated string.
  std::string Text = PTX.str();
  CUmodule M = nullptr;
  if (CUresult C = D.cuModuleLoadDataEx(&M, Text.c_str(), std::size(Options),
                                        Options, Values);
      C != CUDA_SUCCESS) {
    std::string Msg = "PTX JIT compilation for " + Info.arch() +
                      " failed: cuModuleLoadDataEx: " + D.describe(C);
    std::string Log = logText(ErrorLog);
    if (!Log.empty())
      Msg += "\n" + Log;
    return cudaError(CudaErrorKind::Failure, Msg);
  }
  return M;
}

void Context::unloadModule(CUmodule M) {
  if (M && !Abandoned)
    D.cuModuleUnload(M);
}

Expected<CUfunction> Context::function(CUmodule M, StringRef Symbol) {
  CUfunction F = nullptr;
  std::string Name = Symbol.str();
  if (Error E = D.check(D.cuModuleGetFunction(&F, M, Name.c_str()),
                        "cuModuleGetFunction of '" + Name + "'"))
    return std::move(E);
  return F;
}

Expected<double> Context::launch(CUfunction F, const LaunchShape &Shape,
                                 const KernelParamValues &V, StringRef Kernel,
                                 double TimeoutSeconds, bool Profile) {
  if (Shape.needsSharedOptIn())
    if (Error E =
            D.check(D.cuFuncSetAttribute(
                        F, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                        int(Shape.SharedBytes)),
                    "cuFuncSetAttribute (" + Twine(Shape.SharedBytes) +
                        " bytes of dynamic shared memory)"))
      return std::move(E);
  if (!Stream)
    if (Error E = D.check(D.cuStreamCreate(&Stream, CU_STREAM_DEFAULT),
                          "cuStreamCreate")) {
      Stream = nullptr;
      return std::move(E);
    }
  if (Profile && !Start) {
    if (Error E =
            D.check(D.cuEventCreate(&Start, CU_EVENT_DEFAULT), "cuEventCreate"))
      return std::move(E);
    if (Error E =
            D.check(D.cuEventCreate(&End, CU_EVENT_DEFAULT), "cuEventCreate"))
      return std::move(E);
  }

  KernelParams Params = packKernelParams(V);
  std::vector<void *> Pointers = Params.pointers();
  if (Profile)
    if (Error E = D.check(D.cuEventRecord(Start, Stream), "cuEventRecord"))
      return std::move(E);
  if (Error E = D.check(
          D.cuLaunchKernel(F, Shape.Grid[0], Shape.Grid[1], Shape.Grid[2],
                           Shape.Block[0], Shape.Block[1], Shape.Block[2],
                           Shape.SharedBytes, Stream, Pointers.data(), nullptr),
          "cuLaunchKernel of kernel '" + Kernel + "'"))
    return std::move(E);
  if (Profile)
    if (Error E = D.check(D.cuEventRecord(End, Stream), "cuEventRecord"))
      return std::move(E);

  // Poll, sleeping a little longer each time up to 1 ms, so that a timeout
  // is honoured without a blocking synchronise that could not be
  // interrupted.
  auto Begin = std::chrono::steady_clock::now();
  for (unsigned Polls = 0;; ++Polls) {
    CUresult Q = D.cuStreamQuery(Stream);
    if (Q == CUDA_SUCCESS)
      break;
    if (Q != CUDA_ERROR_NOT_READY) {
      Faulted = true;
      return cudaError(CudaErrorKind::Failure,
                       "kernel '" + Kernel +
                           "' faulted on the GPU: " + D.describe(Q));
    }
    double Waited =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - Begin)
            .count();
    if (TimeoutSeconds > 0 && Waited >= TimeoutSeconds) {
      Abandoned = true;
      return cudaError(CudaErrorKind::Timeout,
                       "kernel '" + Kernel + "' did not complete in " +
                           formatv("{0}", TimeoutSeconds).str() +
                           " s (--timeout)");
    }
    std::this_thread::sleep_for(
        std::chrono::microseconds(std::min(10u << std::min(Polls, 7u), 1000u)));
  }
  if (!Profile)
    return 0.0;
  float Milliseconds = 0;
  if (Error E = D.check(D.cuEventElapsedTime(&Milliseconds, Start, End),
                        "cuEventElapsedTime"))
    return std::move(E);
  return double(Milliseconds) / 1000;
}

//===----------------------------------------------------------------------===//
// Runtime::dispatch
//===----------------------------------------------------------------------===//

Expected<DispatchResult> Runtime::dispatch(unsigned DeviceIndex,
                                           const DispatchRequest &R) {
  if (Error E = checkDevice(DeviceIndex))
    return std::move(E);
  Expected<LaunchShape> Shape =
      launchShapeFor(Infos[DeviceIndex], R.Workgroups, R.GroupSize,
                     R.LocalMemory, R.KernelName);
  if (!Shape)
    return Shape.takeError();

  Expected<std::unique_ptr<Context>> C = Context::create(*this, DeviceIndex);
  if (!C)
    return C.takeError();
  Context &Ctx = **C;
  // The module and the memory, released before the context goes.
  CUmodule Module = nullptr;
  CUdeviceptr Memory = 0;
  llvm::scope_exit Release([&] {
    Ctx.free(Memory);
    Ctx.unloadModule(Module);
  });

  Expected<CUmodule> M = Ctx.loadModule(R.PTX);
  if (!M)
    return M.takeError();
  Module = *M;
  Expected<CUfunction> Function = Ctx.function(Module, R.Symbol);
  if (!Function)
    return Function.takeError();

  // Device memory, with the start image.
  Expected<CUdeviceptr> Mem = Ctx.allocate(R.Memory.size());
  if (!Mem)
    return Mem.takeError();
  Memory = *Mem;
  if (!R.Memory.empty())
    if (Error E = Ctx.copyToDevice(Memory, R.Memory.data(), R.Memory.size()))
      return std::move(E);

  KernelParamValues V;
  V.DeviceBase = Memory;
  V.Registers = R.Registers;
  V.DeviceMemorySize = R.Memory.size();
  V.LocalMemorySize = R.LocalMemory;
  V.WorkgroupSize = R.GroupSize;

  DispatchResult Result;
  for (unsigned N = 0; N < std::max(R.Repeat, 1u); ++N) {
    Expected<double> Seconds = Ctx.launch(*Function, *Shape, V, R.KernelName,
                                          R.TimeoutSeconds, R.Profile);
    if (!Seconds)
      return Seconds.takeError();
    if (R.Profile)
      Result.Seconds.push_back(*Seconds);
  }

  if (!R.Memory.empty())
    if (Error E = Ctx.copyFromDevice(R.Memory.data(), Memory, R.Memory.size()))
      return std::move(E);
  return Result;
}

} // namespace wave::cuda
