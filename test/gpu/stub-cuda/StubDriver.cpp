//===- StubDriver.cpp - A fake CUDA driver for wave-run's tests ----------===//
//
// libwave-cuda-stub.so exports every entry point of
// libwave/include/wave/Runtime/CUDA/DriverAPI.def, so that wave-run
// --device=cuda runs end to end without a GPU when WAVE_CUDA_DRIVER names
// it (test/lit/run/cuda-*.test, test/bats/wave-run-cuda.bats). It has one
// device, "Stub GPU", sm_90 with 132 multiprocessors; device memory is host
// memory behind fake device addresses from 0xd00000000 on; a launch runs
// nothing (memory keeps the bytes copied in). Every call appends one line
// to the file named by $WAVE_CUDA_STUB_LOG (when set), e.g.
//
//   cuLaunchKernel fn=k grid=2,1,1 block=128,1,1 shared=16384
//   params=0xd00000000/8,0x5/4,...
//
// with each parameter's value in hex and its size in bytes, taken from the
// `.param` list of the `.entry` in the loaded PTX. $WAVE_CUDA_STUB_FAIL
// picks a failure: `nodevice` (cuInit: CUDA_ERROR_NO_DEVICE), `jit`
// (cuModuleLoadDataEx: CUDA_ERROR_INVALID_PTX with an error log), `launch`
// (the launch faults: CUDA_ERROR_ILLEGAL_ADDRESS from the stream and
// context queries) or `hang` (a launch never completes).
//
//===----------------------------------------------------------------------===//
#include "../StubLog.h"

#include "wave/Runtime/CUDA/DriverAPI.h"

#include <cctype>
#include <chrono>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <type_traits>
#include <memory>
#include <vector>

using namespace wave::cuda;

namespace {

/// Appends one formatted line to $WAVE_CUDA_STUB_LOG.
void logLine(const char *Fmt, ...) {
  va_list Args;
  va_start(Args, Fmt);
  wave::stub::appendLine("WAVE_CUDA_STUB_LOG", Fmt, Args);
  va_end(Args);
}

bool failMode(const char *Mode) {
  return wave::stub::failing("WAVE_CUDA_STUB_FAIL", Mode);
}

/// What the stub's handles point to.
struct Function {
  std::string Name;
  std::vector<unsigned> ParamSizes; ///< bytes of each `.param`.
};
/// A module owns its functions, as the driver's does: cuModuleUnload frees
/// them (LeakSanitizer checks it in the ASan suite).
struct Module {
  std::string PTX;
  std::vector<std::unique_ptr<Function>> Functions;
};
/// Every live handle (context, module, stream, event), so that what a
/// caller leaves for process exit (wave-run does after a --timeout, as a
/// real kernel may still run) stays reachable rather than leaked.
std::map<void *, std::shared_ptr<void>> Live;
template <class T> T *keep(T Value) {
  auto P = std::make_shared<T>(std::move(Value));
  Live[P.get()] = P;
  return P.get();
}
void release(void *Handle) { Live.erase(Handle); }
struct Event {
  std::chrono::steady_clock::time_point When;
};

/// Device allocations by fake device address.
std::map<CUdeviceptr, std::vector<uint8_t>> &allocations() {
  static std::map<CUdeviceptr, std::vector<uint8_t>> M;
  return M;
}
CUdeviceptr NextAddress = 0xd00000000ull;
int Contexts = 0;
bool Faulted = false;

/// The host bytes behind [Address, Address + Bytes), or null when that is
/// not inside one allocation.
uint8_t *hostAddress(CUdeviceptr Address, size_t Bytes) {
  auto &M = allocations();
  auto It = M.upper_bound(Address);
  if (It == M.begin())
    return nullptr;
  --It;
  size_t Off = Address - It->first;
  if (Off + Bytes > It->second.size())
    return nullptr;
  return It->second.data() + Off;
}

/// The sizes of the parameters of `.entry Name(...)` in \p PTX; false when
/// there is no such entry.
bool parseEntry(const std::string &PTX, const std::string &Name,
                std::vector<unsigned> &Sizes) {
  for (size_t At = PTX.find(".entry"); At != std::string::npos;
       At = PTX.find(".entry", At + 1)) {
    size_t P = At + 6;
    while (P < PTX.size() && std::isspace((unsigned char)PTX[P]))
      ++P;
    if (PTX.compare(P, Name.size(), Name) != 0)
      continue;
    P += Name.size();
    while (P < PTX.size() && std::isspace((unsigned char)PTX[P]))
      ++P;
    if (P >= PTX.size() || PTX[P] != '(')
      continue;
    size_t Close = PTX.find(')', P);
    std::string List = PTX.substr(P + 1, Close - P - 1);
    for (size_t Q = List.find(".param"); Q != std::string::npos;
         Q = List.find(".param", Q + 1)) {
      size_t T = List.find('.', Q + 6);
      std::string Type = List.substr(T + 1, 3);
      unsigned Bits = std::atoi(Type.c_str() + 1);
      Sizes.push_back(Bits ? Bits / 8 : 0);
    }
    return true;
  }
  return false;
}

} // namespace

extern "C" {

CUresult cuInit(unsigned Flags) {
  logLine("cuInit flags=%u", Flags);
  return failMode("nodevice") ? CUDA_ERROR_NO_DEVICE : CUDA_SUCCESS;
}

CUresult cuDriverGetVersion(int *Version) {
  *Version = 12040;
  return CUDA_SUCCESS;
}

CUresult cuGetErrorName(CUresult Error, const char **Name) {
  switch (Error) {
#define NAME(N)                                                                \
  case N:                                                                      \
    *Name = #N;                                                                \
    return CUDA_SUCCESS;
    NAME(CUDA_SUCCESS)
    NAME(CUDA_ERROR_INVALID_VALUE)
    NAME(CUDA_ERROR_OUT_OF_MEMORY)
    NAME(CUDA_ERROR_NOT_INITIALIZED)
    NAME(CUDA_ERROR_NO_DEVICE)
    NAME(CUDA_ERROR_INVALID_DEVICE)
    NAME(CUDA_ERROR_INVALID_PTX)
    NAME(CUDA_ERROR_INVALID_HANDLE)
    NAME(CUDA_ERROR_NOT_FOUND)
    NAME(CUDA_ERROR_NOT_READY)
    NAME(CUDA_ERROR_ILLEGAL_ADDRESS)
#undef NAME
  }
  *Name = nullptr;
  return CUDA_ERROR_INVALID_VALUE;
}

CUresult cuGetErrorString(CUresult Error, const char **Text) {
  switch (Error) {
  case CUDA_SUCCESS:
    *Text = "no error";
    return CUDA_SUCCESS;
  case CUDA_ERROR_INVALID_VALUE:
    *Text = "invalid argument";
    return CUDA_SUCCESS;
  case CUDA_ERROR_OUT_OF_MEMORY:
    *Text = "out of memory";
    return CUDA_SUCCESS;
  case CUDA_ERROR_NO_DEVICE:
    *Text = "no CUDA-capable device is detected";
    return CUDA_SUCCESS;
  case CUDA_ERROR_INVALID_DEVICE:
    *Text = "invalid device ordinal";
    return CUDA_SUCCESS;
  case CUDA_ERROR_INVALID_PTX:
    *Text = "a PTX JIT compilation failed";
    return CUDA_SUCCESS;
  case CUDA_ERROR_NOT_FOUND:
    *Text = "named symbol not found";
    return CUDA_SUCCESS;
  case CUDA_ERROR_ILLEGAL_ADDRESS:
    *Text = "an illegal memory access was encountered";
    return CUDA_SUCCESS;
  }
  *Text = nullptr;
  return CUDA_ERROR_INVALID_VALUE;
}

CUresult cuDeviceGetCount(int *Count) {
  *Count = 1;
  return CUDA_SUCCESS;
}

CUresult cuDeviceGet(CUdevice *Device, int Ordinal) {
  if (Ordinal != 0)
    return CUDA_ERROR_INVALID_DEVICE;
  *Device = 0;
  return CUDA_SUCCESS;
}

CUresult cuDeviceGetName(char *Name, int Length, CUdevice Device) {
  std::snprintf(Name, Length, "%s", "Stub GPU");
  return CUDA_SUCCESS;
}

CUresult cuDeviceGetAttribute(int *Value, CUdevice_attribute Attribute,
                              CUdevice Device) {
  switch (Attribute) {
  case CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK:
    *Value = 1024;
    return CUDA_SUCCESS;
  case CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT:
    *Value = 132;
    return CUDA_SUCCESS;
  case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR:
    *Value = 9;
    return CUDA_SUCCESS;
  case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR:
    *Value = 0;
    return CUDA_SUCCESS;
  case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN:
    *Value = 232448;
    return CUDA_SUCCESS;
  }
  return CUDA_ERROR_INVALID_VALUE;
}

CUresult cuDeviceTotalMem_v2(size_t *Bytes, CUdevice Device) {
  *Bytes = size_t(80) << 30;
  return CUDA_SUCCESS;
}

CUresult cuCtxCreate_v2(CUcontext *Context, unsigned Flags, CUdevice Device) {
  logLine("cuCtxCreate device=%d", Device);
  *Context = reinterpret_cast<CUcontext>(keep(++Contexts));
  return CUDA_SUCCESS;
}

CUresult cuCtxDestroy_v2(CUcontext Context) {
  logLine("cuCtxDestroy");
  release(Context);
  return CUDA_SUCCESS;
}

CUresult cuCtxSetCurrent(CUcontext Context) {
  logLine("cuCtxSetCurrent");
  return CUDA_SUCCESS;
}

CUresult cuCtxSynchronize() {
  logLine("cuCtxSynchronize");
  return Faulted ? CUDA_ERROR_ILLEGAL_ADDRESS : CUDA_SUCCESS;
}

CUresult cuModuleLoadDataEx(CUmodule *Out, const void *Image,
                            unsigned NumOptions, CUjit_option *Options,
                            void **OptionValues) {
  const char *PTX = static_cast<const char *>(Image);
  logLine("cuModuleLoadDataEx ptx_bytes=%zu options=%u", std::strlen(PTX),
          NumOptions);
  if (failMode("jit")) {
    const char *Log = "ptxas application ptx input, line 1; error   : stub "
                      "JIT failure\nptxas fatal   : Ptx assembly aborted due "
                      "to errors";
    char *Buffer = nullptr;
    size_t Size = 0;
    for (unsigned I = 0; I < NumOptions; ++I) {
      if (Options[I] == CU_JIT_ERROR_LOG_BUFFER)
        Buffer = static_cast<char *>(OptionValues[I]);
      if (Options[I] == CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES)
        Size = reinterpret_cast<size_t>(OptionValues[I]);
    }
    if (Buffer && Size)
      std::snprintf(Buffer, Size, "%s", Log);
    return CUDA_ERROR_INVALID_PTX;
  }
  *Out = reinterpret_cast<CUmodule>(keep(Module{PTX, {}}));
  return CUDA_SUCCESS;
}

CUresult cuModuleGetFunction(CUfunction *Out, CUmodule M, const char *Name) {
  auto *Mod = reinterpret_cast<Module *>(M);
  auto F = std::make_unique<Function>(Function{Name, {}});
  if (!parseEntry(Mod->PTX, Name, F->ParamSizes)) {
    logLine("cuModuleGetFunction name=%s: not found", Name);
    return CUDA_ERROR_NOT_FOUND;
  }
  logLine("cuModuleGetFunction name=%s params=%zu", Name, F->ParamSizes.size());
  *Out = reinterpret_cast<CUfunction>(F.get());
  Mod->Functions.push_back(std::move(F));
  return CUDA_SUCCESS;
}

CUresult cuModuleUnload(CUmodule M) {
  logLine("cuModuleUnload");
  release(M);
  return CUDA_SUCCESS;
}

CUresult cuFuncSetAttribute(CUfunction F, CUfunction_attribute Attribute,
                            int Value) {
  logLine("cuFuncSetAttribute fn=%s attribute=%d value=%d",
          reinterpret_cast<Function *>(F)->Name.c_str(), Attribute, Value);
  return CUDA_SUCCESS;
}

CUresult cuMemAlloc_v2(CUdeviceptr *Pointer, size_t Bytes) {
  logLine("cuMemAlloc bytes=%zu", Bytes);
  if (Bytes == 0)
    return CUDA_ERROR_INVALID_VALUE;
  *Pointer = NextAddress;
  allocations()[NextAddress].assign(Bytes, 0xA5);
  NextAddress += (Bytes + 0xFFFF) & ~size_t(0xFFFF);
  return CUDA_SUCCESS;
}

CUresult cuMemFree_v2(CUdeviceptr Pointer) {
  logLine("cuMemFree ptr=0x%llx", Pointer);
  return allocations().erase(Pointer) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

CUresult cuMemcpyHtoD_v2(CUdeviceptr Destination, const void *Source,
                         size_t Bytes) {
  logLine("cuMemcpyHtoD ptr=0x%llx bytes=%zu", Destination, Bytes);
  uint8_t *P = hostAddress(Destination, Bytes);
  if (!P)
    return CUDA_ERROR_INVALID_VALUE;
  std::memcpy(P, Source, Bytes);
  return CUDA_SUCCESS;
}

CUresult cuMemcpyDtoH_v2(void *Destination, CUdeviceptr Source, size_t Bytes) {
  logLine("cuMemcpyDtoH ptr=0x%llx bytes=%zu", Source, Bytes);
  uint8_t *P = hostAddress(Source, Bytes);
  if (!P)
    return CUDA_ERROR_INVALID_VALUE;
  std::memcpy(Destination, P, Bytes);
  return CUDA_SUCCESS;
}

CUresult cuMemsetD8_v2(CUdeviceptr Destination, unsigned char Value,
                       size_t Bytes) {
  logLine("cuMemsetD8 ptr=0x%llx bytes=%zu", Destination, Bytes);
  uint8_t *P = hostAddress(Destination, Bytes);
  if (!P)
    return CUDA_ERROR_INVALID_VALUE;
  std::memset(P, Value, Bytes);
  return CUDA_SUCCESS;
}

CUresult cuStreamCreate(CUstream *Stream, unsigned Flags) {
  logLine("cuStreamCreate flags=%u", Flags);
  *Stream = reinterpret_cast<CUstream>(keep(0));
  return CUDA_SUCCESS;
}

CUresult cuStreamDestroy_v2(CUstream Stream) {
  logLine("cuStreamDestroy");
  release(Stream);
  return CUDA_SUCCESS;
}

CUresult cuStreamQuery(CUstream Stream) {
  if (failMode("hang"))
    return CUDA_ERROR_NOT_READY;
  logLine("cuStreamQuery");
  return Faulted ? CUDA_ERROR_ILLEGAL_ADDRESS : CUDA_SUCCESS;
}

CUresult cuStreamSynchronize(CUstream Stream) {
  logLine("cuStreamSynchronize");
  if (failMode("hang"))
    return CUDA_ERROR_NOT_READY;
  return Faulted ? CUDA_ERROR_ILLEGAL_ADDRESS : CUDA_SUCCESS;
}

CUresult cuEventCreate(CUevent *E, unsigned Flags) {
  logLine("cuEventCreate flags=%u", Flags);
  *E = reinterpret_cast<CUevent>(keep(Event{}));
  return CUDA_SUCCESS;
}

CUresult cuEventDestroy_v2(CUevent E) {
  logLine("cuEventDestroy");
  release(E);
  return CUDA_SUCCESS;
}

CUresult cuEventRecord(CUevent E, CUstream Stream) {
  logLine("cuEventRecord");
  reinterpret_cast<Event *>(E)->When = std::chrono::steady_clock::now();
  return CUDA_SUCCESS;
}

CUresult cuEventSynchronize(CUevent E) {
  logLine("cuEventSynchronize");
  return Faulted ? CUDA_ERROR_ILLEGAL_ADDRESS : CUDA_SUCCESS;
}

CUresult cuEventElapsedTime(float *Milliseconds, CUevent Start, CUevent End) {
  logLine("cuEventElapsedTime");
  *Milliseconds = std::chrono::duration<float, std::milli>(
                      reinterpret_cast<Event *>(End)->When -
                      reinterpret_cast<Event *>(Start)->When)
                      .count();
  return CUDA_SUCCESS;
}

CUresult cuLaunchKernel(CUfunction F, unsigned GridX, unsigned GridY,
                        unsigned GridZ, unsigned BlockX, unsigned BlockY,
                        unsigned BlockZ, unsigned SharedBytes, CUstream Stream,
                        void **KernelParams, void **Extra) {
  const Function &Fn = *reinterpret_cast<Function *>(F);
  std::string Params;
  for (size_t I = 0; I < Fn.ParamSizes.size(); ++I) {
    unsigned long long V = 0;
    std::memcpy(&V, KernelParams[I], Fn.ParamSizes[I]); // little-endian
    char Text[40];
    std::snprintf(Text, sizeof(Text), "%s0x%llx/%u", I ? "," : "", V,
                  Fn.ParamSizes[I]);
    Params += Text;
  }
  logLine("cuLaunchKernel fn=%s grid=%u,%u,%u block=%u,%u,%u shared=%u "
          "params=%s",
          Fn.Name.c_str(), GridX, GridY, GridZ, BlockX, BlockY, BlockZ,
          SharedBytes, Params.c_str());
  if (failMode("launch"))
    Faulted = true;
  return CUDA_SUCCESS;
}

} // extern "C"

// Every entry point has the signature the runner calls it with.
#define WAVE_CUDA_ENTRY(Name, Symbol, Params)                                  \
  static_assert(std::is_same_v<decltype(&::Symbol), CUresult(*) Params>,       \
                #Symbol " does not match DriverAPI.def");
#include "wave/Runtime/CUDA/DriverAPI.def"
