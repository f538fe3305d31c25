//===- Device.h - Where wave-run dispatches a kernel ------------*- C++ -*-===//
//
// The device side of wave-run: a Device runs one kernel of a loaded .wbin
// over device memory that runProgram() (wave/Emu/RunOptions.h) prepared, in
// place of the reference emulator. HsaDevice dispatches on an AMD GPU agent
// of the ROCm HSA runtime (formats/amdgcn-abi.md), CudaDevice launches on an
// NVIDIA GPU through the CUDA driver (formats/nvptx-abi.md). openDevice()
// opens the runtime, picks the agent or device and translates the binary
// once; exitCodeForDeviceError() and reportRunError() map the failures to
// the exit statuses of wave-run(1).
//
//===----------------------------------------------------------------------===//
#ifndef WAVE_LAUNCH_DEVICE_H
#define WAVE_LAUNCH_DEVICE_H

#include "wave/Emu/RunOptions.h"
#include "wave/Object/Wbin.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <memory>
#include <string>

namespace wave::launch {

/// Where a kernel runs: wave-run's --device value.
enum class DeviceKind {
  Emu,  ///< the reference emulator inside runProgram(): no Device object.
  Hsa,  ///< an AMD GPU agent through the ROCm HSA runtime.
  Cuda, ///< an NVIDIA GPU through the CUDA driver API.
};

/// The parsed device options of wave-run (wave-run(1) "GPU EXECUTION").
struct DeviceOptions {
  DeviceKind Kind = DeviceKind::Emu;
  /// --agent: an index into hsa::Runtime::agents() (Hsa) or
  /// cuda::Runtime::devices() (Cuda), as --list-devices numbers them.
  unsigned Agent = 0;
  /// --timeout: seconds to wait for each dispatch, 0 = forever.
  double TimeoutSeconds = 60;
  /// --repeat: dispatches of the kernel, at least 1.
  unsigned Repeat = 1;
  /// --timing: print each dispatch's time, in microseconds, to TimingOS.
  bool Timing = false;
  /// Not --no-cache: look up and store the translated code object (HSA
  /// .hsaco, CUDA .ptx) in the cache
  /// (wave/Runtime/CodeObjectCache.h).
  bool UseCache = true;
  /// --clang and --ld-lld for the HSA translation; empty = the default
  /// search (hsa::CodeObjectRequest). Hsa only.
  std::string Clang, LdLld;
  /// Prefix of the --timing lines ("TOOL: dispatch N: T us").
  std::string ToolName = "wave-run";
  /// Where the --timing lines go; null = llvm::errs().
  llvm::raw_ostream *TimingOS = nullptr;
};

/// A place runProgram() dispatches kernels to instead of the emulator. It
/// is callable as an emu::KernelExecutor: `runProgram(..., *Dev)`.
class Device {
public:
  virtual ~Device();

  /// Runs kernel \p Kernel (an index into \p File's Kernels) with the
  /// launch shape and initial registers of \p Cfg over \p Memory, the
  /// device memory runProgram() built; the GPU's final bytes are copied
  /// back into \p Memory. Errors: hsa::HsaError or cuda::CudaError from the
  /// runtime, or a plain error for a launch the device cannot express.
  virtual llvm::Error dispatch(const WbinFile &File, unsigned Kernel,
                               const emu::EmuConfig &Cfg,
                               llvm::MutableArrayRef<uint8_t> Memory) = 0;

  /// emu::KernelExecutor's signature: forwards to dispatch(), except that
  /// a workgroup without threads (a zero in the effective workgroup size,
  /// formats/isa.md §4.2) runs nothing, as on the emulator.
  llvm::Error operator()(const WbinFile &File, unsigned Kernel,
                         const emu::EmuConfig &Cfg,
                         llvm::MutableArrayRef<uint8_t> Memory);
};

/// Opens the device \p Opts names for \p File, whose bytes as read are
/// \p Bytes: for Hsa, the HSA runtime, agent Opts.Agent and the code object
/// (\p Bytes themselves when \p IsCodeObject, else translated by
/// hsa::codeObjectFor(), formats/amdgcn-abi.md); for Cuda, the CUDA driver,
/// device Opts.Agent, and PTX of every kernel for its SM
/// (nvptx::translateToPTX(), formats/nvptx-abi.md). Returns null for Emu.
/// Errors: the runtime's hsa::HsaError or cuda::CudaError (see
/// exitCodeForDeviceError()), or a plain error with the translation's
/// message (exit status 1).
llvm::Expected<std::unique_ptr<Device>>
openDevice(const DeviceOptions &Opts, const WbinFile &File,
           llvm::ArrayRef<uint8_t> Bytes, bool IsCodeObject = false);

/// The stand-in .wbin for an HSA code object input: one kernel named
/// \p Name whose code (a `halt`) never runs -- runProgram() only needs it
/// to hold device memory, and the GPU runs the real kernel.
WbinFile codeObjectStandIn(llvm::StringRef Name);

/// The exit status of wave-run(1) for a failure to open or use a device:
/// an hsa::HsaError or cuda::CudaError of kind NoDevice is 2 (ExitUsage),
/// Timeout 3 (ExitLimit), Failure 1; any other error 1 (ExitInvalidInput).
int exitCodeForDeviceError(const llvm::ErrorInfoBase &EI);

/// Prints every error in \p E as "TOOL: error: MESSAGE" on stderr and
/// returns the exit status of the last one (exitCodeForDeviceError()),
/// ExitInvalidInput when \p E holds none.
int reportDeviceError(llvm::StringRef ToolName, llvm::Error E);

/// The exit status of wave-run(1) for an error of runProgram(): a device's
/// as exitCodeForDeviceError(); a WbinError (a limit the file's metadata
/// breaks) 1; an emu::EmuError 3 for EmuErrorKind::Limit, else 1; any
/// other error (a bad option value found while running) 2 (ExitUsage).
int exitCodeForRunError(const llvm::ErrorInfoBase &EI);

/// Prints every error in \p E -- a WbinError located in \p Input, the rest
/// as "TOOL: error: MESSAGE" -- and returns the exit status of the last one
/// (exitCodeForRunError()), ExitSuccess when \p E is success.
int reportRunError(llvm::StringRef ToolName, llvm::StringRef Input,
                   llvm::Error E);

/// --list-devices: the HSA runtime's agents, then the CUDA driver's devices,
/// on \p OS. A runtime that is missing or fails to open is one line on \p OS,
/// its error's message, as long as the other one opens; when neither does,
/// both messages are errors (reportDeviceError()), and the result is 2 if
/// both are simply absent (NoDevice), else 1. Returns 0 otherwise.
int listDevices(llvm::StringRef ToolName, llvm::raw_ostream &OS);

} // namespace wave::launch

#endif // WAVE_LAUNCH_DEVICE_H
