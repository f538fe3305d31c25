//===- Runtime.h - The host runtime API: devices, buffers, kernels -*- C++ -*-===//
//
// What a program uses to run WAVE kernels without a command line: open a
// Device, allocate Buffers that stay on it across launches, load or compile
// a Module, look up a Kernel, bind its arguments by parameter name or
// position (checked against the .wbin parameter descriptors, formats/wbin.md
// "PARAMS"), and launch it, synchronously or on a Stream with an Event to
// wait for and time. wave/wave.h is the same API for C, and the Python
// module `wavetools` wraps this one.
//
// Handles (Device, Buffer, Module, Kernel, Stream, Event) are cheap to copy:
// each copy refers to the same object, which lives as long as any copy or any
// launch in flight that uses it. Every function may be called from any
// thread; a device serialises what must be serialised. Errors are
// llvm::Errors; every error this API creates is a HostError with a code
// (HostErrorCode) and a message in the tools' words.
//
// Backends: the reference emulator ("emu", always there), AMD GPU agents
// through ROCm's HSA runtime ("hsa:N", when libhsa-runtime64.so.1 loads and
// finds a GPU) and NVIDIA GPUs through the CUDA driver API ("cuda:N", when
// libcuda.so.1 loads); the GPU runtimes are opened at run time, never
// linked. docs/host-api.md describes each backend's memory, launches and
// faults.
//
//===----------------------------------------------------------------------===//
#ifndef WAVE_HOST_RUNTIME_H
#define WAVE_HOST_RUNTIME_H

#include "wave/Driver/Compiler.h"
#include "wave/Object/Wbin.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

namespace wave::host {

/// What went wrong, as the C API's status codes name it (wave/wave.h
/// wave_status_t has the same values).
enum class HostErrorCode {
  InvalidArgument = 1, ///< a bad name, type, size, shape or handle.
  NoDevice = 2,        ///< the backend's runtime or device is missing.
  Compile = 3,         ///< a kernel source or .wbin did not compile/load.
  Fault = 4,   ///< the kernel faulted (emu::EmuErrorKind::Fault; on a GPU,
               ///< the fault the driver reports, or a device a fault broke).
  Limit = 5,   ///< the instruction limit was reached (EmuErrorKind::Limit),
               ///< or a GPU launch outran DeviceOptions::TimeoutSeconds.
  Io = 6,      ///< a file could not be read.
  Backend = 7, ///< the GPU runtime reported a failure.
};

/// The error of every failing host API call: a code and a message. The
/// message is one or more lines without the "error: " prefix (for a
/// compile error, the located diagnostics with their source lines and
/// carets, as wave-compiler prints them).
class HostError : public llvm::ErrorInfo<HostError> {
public:
  static char ID;
  HostError(HostErrorCode Code, std::string Message)
      : Code(Code), Message(std::move(Message)) {}
  HostErrorCode code() const { return Code; }
  /// The message (ErrorInfoBase::message(), which log() prints).
  std::string message() const override { return Message; }
  void log(llvm::raw_ostream &OS) const override;
  std::error_code convertToErrorCode() const override;

private:
  HostErrorCode Code;
  std::string Message;
};

/// The code of \p E when it is a HostError, else HostErrorCode::Backend.
/// Does not consume \p E.
HostErrorCode errorCode(const llvm::Error &E);

/// The backends a build may have.
enum class BackendKind {
  Emulator, ///< the reference emulator (wave/Emu/Emulator.h); always there.
  Hsa,      ///< an AMD GPU agent through the ROCm HSA runtime.
  Cuda,     ///< an NVIDIA GPU through the CUDA driver API.
};

/// One device a program may open.
struct DeviceInfo {
  /// What Device::open() takes: "emu", "hsa:N" or "cuda:N".
  std::string Name;
  BackendKind Kind = BackendKind::Emulator;
  /// One line for people, e.g. "WAVE reference emulator, 32-lane waves",
  /// "AMD Instinct MI300X, gfx942, 304 compute units, 64-lane waves,
  /// 196592 MiB (HSA)" or "NVIDIA H100 80GB HBM3, sm_90, 132
  /// multiprocessors, 81079 MiB (CUDA)".
  std::string Description;
};

/// The devices present: "emu" first, then "hsa:0", "hsa:1", ... when the
/// HSA runtime loads and reports GPU agents, then "cuda:0", "cuda:1", ...
/// when the CUDA driver loads and reports devices (a missing or unusable
/// runtime or driver lists none). Each call asks them again.
std::vector<DeviceInfo> listDevices();

/// How a device runs kernels. Jobs and MaxInstructions are the emulator's
/// (a GPU ignores them); DeviceMemory and TimeoutSeconds are the GPU
/// backends' (the emulator ignores them).
struct DeviceOptions {
  /// Threads per launch (EmuConfig::Jobs): 1 one after another on the
  /// launching thread, 0 one per hardware thread. Results never depend on it.
  unsigned Jobs = 0;
  /// Lanes per wave, 1..64 (EmuConfig::WaveWidth); a CUDA device takes
  /// only 32 (one wave per warp, formats/nvptx-abi.md); an HSA device runs
  /// at its target's width (64 on gfx9, 32 on gfx11 and gfx12,
  /// formats/amdgcn-abi.md "Targets") and ignores it.
  uint32_t WaveWidth = 32;
  /// Step limit per workgroup (EmuConfig::MaxInstructions); 0 = none.
  uint64_t MaxInstructions = 0;
  /// Bytes of device memory a GPU device allocates when it opens (one
  /// allocation, the arena, that every Buffer is carved from; WAVE device
  /// addresses are offsets into it, so it is at most 4 GiB). 0: 1 GiB, or
  /// the GPU's whole memory (an HSA agent's coarse-grained region) when it
  /// has less. Rounded up to 256 bytes.
  /// The emulator always has the whole 4 GiB address space (reserved, and
  /// committed as pages are touched).
  uint64_t DeviceMemory = 0;
  /// Seconds a GPU launch may run before it fails with Limit (<= 0: no
  /// limit); wave-run's --timeout.
  double TimeoutSeconds = 60;
};

/// Checks wave-compiler's optimisation level \p OptLevel (-O, 0..3) and
/// register count \p MaxRegisters (--max-registers, 1..256), the one check
/// of the C++, C and Python APIs: InvalidArgument "<Prefix><OptLevelName> N
/// is not one of 0..3" or "<Prefix><MaxRegistersName> N is not one of
/// 1..256", the names those of the caller's API.
llvm::Error
checkCompileLimits(unsigned OptLevel, unsigned MaxRegisters,
                   llvm::StringRef OptLevelName = "optimisation level",
                   llvm::StringRef MaxRegistersName = "--max-registers",
                   llvm::StringRef Prefix = "");

class Buffer;
class Module;
class Kernel;
class Stream;
class Event;
class DeviceImpl;
class BufferImpl;
class ModuleImpl;
class StreamImpl;
class EventImpl;

/// A place kernels run, with its device memory.
class Device {
public:
  /// Opens the device named \p Name: "emu", "hsa" or "hsa:N", "cuda" or
  /// "cuda:N" ("hsa" is "hsa:0", "cuda" is "cuda:0"), as listDevices()
  /// names them. A GPU device gets one CUDA context or one HSA queue and
  /// allocates its arena (DeviceOptions::DeviceMemory) here. Errors:
  /// InvalidArgument for an unknown name or an option it cannot take;
  /// NoDevice when the HSA runtime or the CUDA driver is missing or
  /// unusable (for HSA: no /dev/kfd, no GPU agent), there is no device N,
  /// or it is one the translation does not target (older than sm_70, an
  /// AMD processor not in formats/amdgcn-abi.md "Targets"; the message
  /// says which); Backend when the runtime fails (the arena does not fit,
  /// ...).
  static llvm::Expected<Device> open(llvm::StringRef Name = "emu",
                                     const DeviceOptions &Opts = {});

  /// Its name, backend and description, as listDevices() gives them.
  const DeviceInfo &info() const;

  /// A buffer of \p Bytes bytes, zero-filled, whose element type is
  /// \p Element (checked against buffer parameters at launch) or untyped
  /// (std::nullopt: any element type). Errors: InvalidArgument for 0
  /// bytes or a size not a multiple of the element size; Backend when the
  /// device's memory is exhausted (the emulator's is 4 GiB, addresses are
  /// 32-bit, formats/isa.md §4.9; a GPU's is its arena,
  /// DeviceOptions::DeviceMemory) or a GPU's zero-fill fails; Fault on a
  /// GPU device a fault broke.
  llvm::Expected<Buffer> allocate(uint64_t Bytes,
                                  std::optional<WbinType> Element = {});

  /// A buffer holding a copy of \p Data, typed by T (the WbinType of
  /// float, double, int32_t, uint32_t, uint16_t (f16 bits); other types
  /// give an untyped buffer).
  template <typename T>
  llvm::Expected<Buffer> upload(llvm::ArrayRef<T> Data);

  /// Loads the .wbin at \p Path (formats/wbin.md). On a CUDA device every
  /// kernel is translated to PTX for the device (formats/nvptx-abi.md) and
  /// the module JIT-loaded once, here; on an HSA device the module is
  /// translated to a code object for the agent's processor
  /// (formats/amdgcn-abi.md; clang and ld.lld assemble and link it) and
  /// loaded once, here; launches reuse it. Errors: Io for an unreadable
  /// file, Compile for a malformed one (the reader's located message), one
  /// the translation refuses, PTX the driver's JIT refuses (with the JIT's
  /// error log) or a code object the HSA loader refuses; Fault on a GPU
  /// device a fault broke.
  llvm::Expected<Module> loadModule(llvm::StringRef Path);
  /// Loads a .wbin held in \p Bytes; \p Name names it in messages.
  llvm::Expected<Module> loadModule(llvm::ArrayRef<uint8_t> Bytes,
                                    llvm::StringRef Name);

  /// Compiles the kernel source \p Source (its name in diagnostics \p Name)
  /// through the whole pipeline, as wave-compiler does with \p Opts
  /// (Opts.Emit and Opts.Target are ignored: the result is an executable
  /// .wbin). Errors: InvalidArgument for options out of range
  /// (checkCompileLimits(), driver::checkOptions()); Compile with every
  /// diagnostic of the failing stage; then as loadModule().
  llvm::Expected<Module> compile(llvm::StringRef Source, llvm::StringRef Name,
                                 const driver::CompilerOptions &Opts);
  /// Reads and compiles the source file \p Path; its language comes from
  /// the extension (.py .cpp .rs .ts .wir .wave) unless \p Lang names one.
  /// \p OptLevel and \p MaxRegisters are wave-compiler's -O and
  /// --max-registers (0..3, 1..256; neither applies to .wave). Errors: Io
  /// for an unreadable file, InvalidArgument for an unknown extension or
  /// an option out of range, Compile as compile().
  llvm::Expected<Module> compileFile(llvm::StringRef Path,
                                     std::optional<hir::Language> Lang = {},
                                     unsigned OptLevel = 2,
                                     unsigned MaxRegisters = 32);

  /// The stream launches without one go to; launches on it run in order.
  Stream defaultStream();
  /// A new stream: launches on different streams may run concurrently
  /// (on the emulator and on a GPU device they run one at a time, in no
  /// promised order; a GPU launch is made and waited for synchronously by
  /// the stream's worker thread). Each
  /// stream has a worker thread; streams live as long as their device.
  llvm::Expected<Stream> createStream();
  /// Waits until every launch on every stream of this device has finished.
  /// Returns the first launch error not yet returned by an Event.
  llvm::Error synchronize();

  /// Whether both handles refer to the same opened device.
  bool operator==(const Device &O) const { return Impl == O.Impl; }

private:
  friend class Buffer;
  friend class Module;
  friend class Kernel;
  friend class Stream;
  explicit Device(std::shared_ptr<DeviceImpl> Impl) : Impl(std::move(Impl)) {}
  std::shared_ptr<DeviceImpl> Impl;
};

/// A device allocation. Its storage is freed when the last handle and the
/// last launch using it are gone. Host copies wait for the launches queued
/// on its device that use it to finish first.
class Buffer {
public:
  /// Size in bytes.
  uint64_t size() const;
  /// The element type the buffer was created with, if any.
  std::optional<WbinType> elementType() const;
  /// The 32-bit device address a kernel sees in the parameter's register
  /// (a byte offset into the device's memory, formats/kernel-abi.md; on a
  /// GPU device, into its arena, formats/nvptx-abi.md and
  /// formats/amdgcn-abi.md), a multiple
  /// of 256 and at least 256 (address 0 is never a buffer's). It never
  /// changes while the buffer lives.
  uint64_t deviceAddress() const;
  /// The device the buffer is on.
  Device device() const;

  /// Copies \p Data to device bytes [Offset, Offset + size): a memcpy on
  /// the emulator, one cuMemcpyHtoD of exactly those bytes on a CUDA
  /// device, one hsa_memory_copy of them (through a host staging buffer)
  /// on an HSA device. Errors: InvalidArgument when it does not fit; on a
  /// GPU, Backend when the copy fails and Fault when a fault broke the
  /// device.
  llvm::Error write(llvm::ArrayRef<uint8_t> Data, uint64_t Offset = 0);
  /// Copies device bytes [Offset, Offset + Out.size()) to \p Out (one
  /// cuMemcpyDtoH on a CUDA device, one hsa_memory_copy on an HSA device).
  /// Errors: as write().
  llvm::Error read(llvm::MutableArrayRef<uint8_t> Out,
                   uint64_t Offset = 0) const;

  /// Typed forms: element i at byte i * sizeof(T).
  template <typename T> llvm::Error write(llvm::ArrayRef<T> Data) {
    return write(llvm::ArrayRef<uint8_t>(
        reinterpret_cast<const uint8_t *>(Data.data()),
        Data.size() * sizeof(T)));
  }
  /// The whole buffer as elements of T (size() / sizeof(T) of them).
  template <typename T> llvm::Expected<std::vector<T>> read() const {
    std::vector<T> Out(size() / sizeof(T));
    if (llvm::Error E = read(llvm::MutableArrayRef<uint8_t>(
            reinterpret_cast<uint8_t *>(Out.data()), Out.size() * sizeof(T))))
      return std::move(E);
    return Out;
  }

  /// Whether both handles refer to the same allocation.
  bool operator==(const Buffer &O) const { return Impl == O.Impl; }

private:
  friend class Device;
  friend class Kernel;
  explicit Buffer(std::shared_ptr<BufferImpl> Impl) : Impl(std::move(Impl)) {}
  std::shared_ptr<BufferImpl> Impl;
};

/// The WbinType of T for typed buffers: F32 for float, F64 double, I32
/// int32_t, U32 uint32_t, F16 uint16_t; none for any other T.
template <typename T> constexpr std::optional<WbinType> wbinTypeOf() {
  if constexpr (std::is_same_v<T, float>)
    return WbinType::F32;
  else if constexpr (std::is_same_v<T, double>)
    return WbinType::F64;
  else if constexpr (std::is_same_v<T, int32_t>)
    return WbinType::I32;
  else if constexpr (std::is_same_v<T, uint32_t>)
    return WbinType::U32;
  else if constexpr (std::is_same_v<T, uint16_t>)
    return WbinType::F16;
  else
    return std::nullopt;
}

template <typename T>
llvm::Expected<Buffer> Device::upload(llvm::ArrayRef<T> Data) {
  llvm::Expected<Buffer> B = allocate(Data.size() * sizeof(T), wbinTypeOf<T>());
  if (!B)
    return B.takeError();
  if (llvm::Error E = B->write(Data))
    return std::move(E);
  return B;
}

/// A loaded .wbin on one device.
class Module {
public:
  /// The kernel named \p Name, or with index \p Name ("0", "1", ... as
  /// wave-run --kernel takes it). Errors: InvalidArgument "no kernel named
  /// 'K'" listing the kernels there are.
  llvm::Expected<Kernel> kernel(llvm::StringRef Name) const;
  /// Names of the kernels, in the file's kernel table order.
  std::vector<std::string> kernelNames() const;
  /// The loaded file.
  const WbinFile &file() const;
  /// The device the module was loaded on; its kernels launch there.
  Device device() const;

private:
  friend class Device;
  friend class Kernel;
  explicit Module(std::shared_ptr<ModuleImpl> Impl) : Impl(std::move(Impl)) {}
  std::shared_ptr<ModuleImpl> Impl;
};

/// A value for one kernel parameter: a buffer (its device address), an
/// integer or a floating-point number. Scalars are converted to the
/// parameter's type: an integer to i32/u32 when in range, to f32/f16 when
/// exactly representable; a float to f32/f16 rounded to nearest even (an
/// error for i32/u32 parameters); a bool parameter takes 0 or 1 (its
/// descriptor says u32, formats/kernel-abi.md "Buffers and scalars", so
/// any u32 is accepted: nonzero is true). A kernel without descriptors
/// takes positional arguments only: a buffer's address, an integer's 32
/// bits (-2^31 .. 2^32-1), a float's f32 bits.
using ArgValue = std::variant<Buffer, int64_t, double>;

/// An argument: by parameter name, or (Name empty) by position.
/// Positional arguments come first.
struct Arg {
  std::string Name;
  ArgValue Value;
  Arg(ArgValue V) : Value(std::move(V)) {}
  Arg(std::string N, ArgValue V) : Name(std::move(N)), Value(std::move(V)) {}
};

/// The launch shape: workgroups in the grid, threads per workgroup. A
/// kernel whose .wbin gives a workgroup size uses its own
/// (effectiveWorkgroupSize(), formats/isa.md §4.2); Workgroup {0,0,0}
/// means "the kernel's own, which it must have".
struct LaunchDims {
  std::array<uint32_t, 3> Grid = {1, 1, 1};
  std::array<uint32_t, 3> Workgroup = {0, 0, 0};
};

/// One kernel of a module.
class Kernel {
public:
  /// Its name in the kernel table, or "kernel_<i>" for a nameless one (as
  /// the emulator names it in messages).
  const std::string &name() const;
  /// Its parameter descriptors (formats/wbin.md "PARAMS"); empty when the
  /// file has none, and then it cannot be launched with named arguments.
  llvm::ArrayRef<WbinParam> params() const;

  /// Checks \p Args against params() (every parameter given once, names
  /// known, buffers for buffer parameters of a matching element type and
  /// a size that is a multiple of the element size, scalars in range),
  /// then queues the launch on \p S and returns its Event. The checks'
  /// errors (InvalidArgument, naming the kernel and the parameter) come
  /// back here; the launch's own (Fault, Limit, Backend) from the Event.
  llvm::Expected<Event> enqueue(Stream &S, const LaunchDims &Dims,
                                llvm::ArrayRef<Arg> Args) const;
  /// enqueue() on the device's default stream, then waits for it. Returns
  /// the launch's error: on the emulator a fault's message names the
  /// kernel, PC, wave and lane as wave-run does, and the device stays
  /// usable; on a GPU device a fault is the runtime's error ("kernel 'k'
  /// faulted on the GPU: CUDA_ERROR_ILLEGAL_ADDRESS (...)", or
  /// "HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION: ..." from an HSA queue),
  /// and it leaves the device unusable: every later call that needs the
  /// GPU fails with Fault, until the device is opened again. A GPU launch
  /// that outruns DeviceOptions::TimeoutSeconds fails with Limit and
  /// leaves the device unusable too.
  llvm::Error launch(const LaunchDims &Dims, llvm::ArrayRef<Arg> Args) const;

private:
  friend class Module;
  Kernel(std::shared_ptr<ModuleImpl> M, unsigned Index)
      : M(std::move(M)), Index(Index) {}
  std::shared_ptr<ModuleImpl> M;
  unsigned Index = 0;
};

/// An in-order queue of launches on one device.
class Stream {
public:
  /// Waits for every launch queued so far. Returns the first error among
  /// them not yet returned by their Events.
  llvm::Error synchronize();
  /// The device whose launches it queues.
  Device device() const;

private:
  friend class Device;
  friend class Kernel;
  explicit Stream(std::shared_ptr<StreamImpl> Impl) : Impl(std::move(Impl)) {}
  std::shared_ptr<StreamImpl> Impl;
};

/// The completion of one launch.
class Event {
public:
  /// Waits for the launch to finish; returns its error once (later calls
  /// return success).
  llvm::Error wait();
  /// Whether the launch has finished.
  bool done() const;
  /// Microseconds the launch ran, from its start on the device to its end
  /// (wall clock, std::chrono::steady_clock, measured on the stream's
  /// worker thread, which runs a GPU launch synchronously and waits for
  /// it); waits for it first.
  double elapsedMicroseconds();

private:
  friend class Kernel;
  explicit Event(std::shared_ptr<EventImpl> Impl) : Impl(std::move(Impl)) {}
  std::shared_ptr<EventImpl> Impl;
};

} // namespace wave::host

#endif // WAVE_HOST_RUNTIME_H
