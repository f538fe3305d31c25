//===- Runtime.h - NVIDIA GPUs through the CUDA driver API -------*- C++
//-*-===//
//
// wave-run --device=cuda: the CUDA devices (--list-devices) and one launch
// of a translated kernel (PTX from wave/NVPTX/Translate.h) on one of them
// -- context, PTX JIT, device memory, parameters, launch, completion and
// timing -- through the driver loaded by Driver.h. Builds and links on
// machines without CUDA; there, opening fails with a CudaError of kind
// NoDevice.
//
//===----------------------------------------------------------------------===//
#ifndef WAVE_RUNTIME_CUDA_RUNTIME_H
#define WAVE_RUNTIME_CUDA_RUNTIME_H

#include "wave/Runtime/CUDA/Driver.h"

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

private:
  explicit Runtime(const Driver &D) : D(D) {}
  const Driver &D;
  int Version = 0; ///< cuDriverGetVersion: 1000 * major + 10 * minor.
  std::vector<CUdevice> Handles;
  std::vector<DeviceInfo> Infos;
};

} // namespace wave::cuda

#endif // WAVE_RUNTIME_CUDA_RUNTIME_H
