//===- Runtime.h - NVIDIA GPUs through the CUDA driver API -------*- C++
//-*-===//
//
// wave-run --device=cuda: the CUDA devices (--list-devices) and one launch
// of a translated kernel (PTX from wave/NVPTX/Translate.h) on one of them
// -- context, PTX JIT, device memory, parameters, launch, completion and
// timing -- through the driver loaded by Driver.h. The pieces of a dispatch
// are a Context's methods, which the host runtime's CUDA devices
// (lib/Host/CudaDevice.cpp) use too, keeping one context, its device memory
// and its modules across launches. Builds and links on machines without
// CUDA; there, opening fails with a CudaError of kind NoDevice.
//
//===----------------------------------------------------------------------===//
#ifndef WAVE_RUNTIME_CUDA_RUNTIME_H
#define WAVE_RUNTIME_CUDA_RUNTIME_H

#include "wave/Runtime/CUDA/Driver.h"
#include "wave/Runtime/CUDA/Launch.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace wave::cuda {

/// A CUDA device as --list-devices shows it.
struct DeviceInfo {
  std::string Name;   ///< cuDeviceGetName, e.g. "NVIDIA H100 80GB HBM3".
  unsigned Major = 0; ///< compute capability, major.
  unsigned Minor = 0; ///< compute capability, minor.
  unsigned Multiprocessors = 0;
  uint64_t Memory = 0; ///< global memory, bytes.
  /// Largest dynamic shared memory of one CTA after opting in
  /// (CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN), bytes.
  uint32_t MaxSharedPerBlock = 0;

  /// "sm_<Major><Minor>", the device's own architecture.
  std::string arch() const;
};

/// Largest architecture the translation targets: LLVM's NVPTX backend
/// emits for up to sm_90 without architecture-specific features, and the
/// driver's PTX JIT runs that PTX on every newer GPU.
constexpr unsigned MaxTargetSM = 90;

/// The SM number to translate for on \p D (nvptx::TranslateOptions::SM):
/// the highest one that nvptx::parseMCPU accepts and that is at most both
/// the device's own (10 * Major + Minor) and MaxTargetSM. Fails with
/// NoDevice when the device is older than nvptx::MinSM.
llvm::Expected<unsigned> targetSM(const DeviceInfo &D);

/// The launch shape of a grid of \p Workgroups workgroups of \p GroupSize
/// work-items with \p LocalMemory bytes of local memory on device \p Dev:
/// computeLaunchShape(), and a check that the shared memory fits the
/// device. Fails with Failure naming kernel \p Kernel.
llvm::Expected<LaunchShape> launchShapeFor(const DeviceInfo &Dev,
                                           std::array<uint32_t, 3> Workgroups,
                                           std::array<uint32_t, 3> GroupSize,
                                           uint32_t LocalMemory,
                                           llvm::StringRef Kernel);

/// One launch of a translated kernel (KernelABI "Parameters" and "Launch").
struct DispatchRequest {
  llvm::StringRef PTX;    ///< the module's text (PTXModule::PTX).
  std::string Symbol;     ///< the `.entry` name (KernelABI::Symbol).
  std::string KernelName; ///< the WAVE kernel's name, for messages.
  /// Device memory as the kernel starts; receives the final bytes. Copied
  /// to a cuMemAlloc'd buffer before the first launch and back after the
  /// last.
  llvm::MutableArrayRef<uint8_t> Memory;
  /// r0 .. r(N-1) on entry, N = KernelABI::NumRegParams.
  std::vector<uint32_t> Registers;
  uint32_t LocalMemory = 0;                       ///< bytes per workgroup.
  std::array<uint32_t, 3> GroupSize = {1, 1, 1};  ///< work-items.
  std::array<uint32_t, 3> Workgroups = {1, 1, 1}; ///< the grid.
  double TimeoutSeconds = 60; ///< per launch; <= 0: wait forever.
  unsigned Repeat = 1;        ///< launches, one after another.
  bool Profile = false;       ///< time each launch with CUDA events.
};

/// What a dispatch reports.
struct DispatchResult {
  std::vector<double> Seconds; ///< GPU time of each launch (Profile).
};

/// The CUDA driver, initialised (cuInit), and its devices.
class Runtime {
public:
  /// Loads the driver (Driver::get()) and calls cuInit. Fails with
  /// NoDevice when the library is missing, cuInit fails (no device node,
  /// no GPU: CUDA_ERROR_NO_DEVICE, or a driver that cannot start) or there
  /// is no device; with Failure when a device query fails.
  static llvm::Expected<std::unique_ptr<Runtime>> open();
  ~Runtime();
  Runtime(const Runtime &) = delete;
  Runtime &operator=(const Runtime &) = delete;

  llvm::ArrayRef<DeviceInfo> devices() const { return Infos; }

  /// Prints the devices as --list-devices does: the driver's version and
  /// library, then one block per device with its index (the --agent
  /// value), name, compute capability, multiprocessors, memory and shared
  /// memory per CTA.
  void printDevices(llvm::raw_ostream &OS) const;

  /// Fails with NoDevice ("no CUDA device N: there are M") unless \p Index
  /// names one of devices().
  llvm::Error checkDevice(unsigned Index) const;

  /// Runs \p R on device \p Device: creates a context, JIT-compiles R.PTX
  /// (cuModuleLoadDataEx; a failure carries the JIT's error log), copies
  /// R.Memory to device memory, launches R.Symbol R.Repeat times on one
  /// stream (computeLaunchShape(), packKernelParams()), waiting for each
  /// launch by polling for at most R.TimeoutSeconds, and copies the memory
  /// back. Fails with Failure for a bad launch shape, local memory beyond
  /// the device's shared memory, a failed call, or a fault ("kernel 'k'
  /// faulted on the GPU: CUDA_ERROR_ILLEGAL_ADDRESS (...)"); with Timeout
  /// when a launch does not complete in time. Every resource is released
  /// on every path except Timeout, where the context is left to the
  /// process's exit (destroying it would wait for the running kernel).
  llvm::Expected<DispatchResult> dispatch(unsigned Device,
                                          const DispatchRequest &R);

  /// The loaded driver.
  const Driver &driver() const { return D; }
  /// The handle of device \p Index (< devices().size()).
  CUdevice handle(unsigned Index) const { return Handles[Index]; }

private:
  explicit Runtime(const Driver &D) : D(D) {}
  const Driver &D;
  int Version = 0; ///< cuDriverGetVersion: 1000 * major + 10 * minor.
  std::vector<CUdevice> Handles;
  std::vector<DeviceInfo> Infos;
};

/// One CUDA context on one device and what a dispatch does in it: device
/// memory, copies, PTX modules, launches waited for with a deadline. Every
/// method makes the context current on the calling thread first
/// (cuCtxSetCurrent), so a Context may be used from any thread, one call at
/// a time (callers serialise). Failed driver calls are CudaErrors of kind
/// Failure ("WHAT failed: CUDA_ERROR_... (...)").
///
/// A fault of a kernel (any error a launch's completion reports) leaves the
/// context unusable, as CUDA's "sticky" errors do: every later call fails.
/// A launch that times out still runs; the context is then abandoned: its
/// destructor releases nothing (destroying it would wait for the kernel),
/// and the process's exit reclaims it.
class Context {
public:
  /// Creates a context on device \p Index of \p RT (cuCtxCreate); checks
  /// the index first (Runtime::checkDevice()).
  static llvm::Expected<std::unique_ptr<Context>> create(const Runtime &RT,
                                                         unsigned Index);
  /// Destroys the events, the stream and the context, unless abandoned.
  /// Memory and modules are the caller's to free first.
  ~Context();
  Context(const Context &) = delete;
  Context &operator=(const Context &) = delete;

  const DeviceInfo &info() const { return Info; }
  const Driver &driver() const { return D; }

  /// cuCtxSetCurrent.
  llvm::Error makeCurrent();
  /// cuMemAlloc of \p Bytes (at least 1).
  llvm::Expected<CUdeviceptr> allocate(uint64_t Bytes);
  /// cuMemFree; errors are ignored (after a fault, the fault matters).
  void free(CUdeviceptr P);
  /// cuMemcpyHtoD of \p Bytes bytes to \p To.
  llvm::Error copyToDevice(CUdeviceptr To, const void *From, uint64_t Bytes);
  /// cuMemcpyDtoH of \p Bytes bytes from \p From.
  llvm::Error copyFromDevice(void *To, CUdeviceptr From, uint64_t Bytes);
  /// cuMemsetD8 of \p Bytes zero bytes at \p At.
  llvm::Error zero(CUdeviceptr At, uint64_t Bytes);
  /// JIT-compiles \p PTX (cuModuleLoadDataEx); a refusal carries the JIT's
  /// error log on the lines after "PTX JIT compilation for sm_NN failed".
  llvm::Expected<CUmodule> loadModule(llvm::StringRef PTX);
  /// cuModuleUnload; errors are ignored.
  void unloadModule(CUmodule M);
  /// cuModuleGetFunction of the `.entry` \p Symbol.
  llvm::Expected<CUfunction> function(CUmodule M, llvm::StringRef Symbol);

  /// Launches \p F with shape \p Shape (launchShapeFor(); the opt-in to
  /// more than 48 KiB of shared memory is made here) and parameters \p V
  /// on the context's stream, and waits for it by polling for at most
  /// \p TimeoutSeconds (<= 0: forever). With \p Profile, returns the GPU
  /// time in seconds from two CUDA events, else 0. Fails with Failure
  /// "kernel 'K' faulted on the GPU: CUDA_ERROR_..." (the context is
  /// unusable from then on) or with Timeout "kernel 'K' did not complete in
  /// N s (--timeout)" (the context is abandoned).
  llvm::Expected<double> launch(CUfunction F, const LaunchShape &Shape,
                                const KernelParamValues &V,
                                llvm::StringRef Kernel, double TimeoutSeconds,
                                bool Profile);

  /// Whether a launch timed out: the context is left to the process's exit.
  bool abandoned() const { return Abandoned; }
  /// Whether a launch faulted: the context is unusable.
  bool faulted() const { return Faulted; }

private:
  Context(const Driver &D, DeviceInfo Info) : D(D), Info(std::move(Info)) {}
  const Driver &D;
  DeviceInfo Info;
  CUcontext Ctx = nullptr;
  CUstream Stream = nullptr;
  CUevent Start = nullptr, End = nullptr;
  bool Abandoned = false, Faulted = false;
};

} // namespace wave::cuda

#endif // WAVE_RUNTIME_CUDA_RUNTIME_H
