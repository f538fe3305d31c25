//===- HostImpl.h - The objects behind the host API handles -*- C++ -*-===//
//
// What the handles of wave/Host/Runtime.h point at, shared by the files of
// lib/Host: a device (the backend-independent part: a first-fit allocator
// over the backend's device memory, streams, the launches pending on each
// buffer) and its backend (DeviceBackend: the memory's bytes, module
// preparation and launches; EmulatorDevice.cpp, CudaDevice.cpp and
// HsaBackend.cpp), buffers, modules, streams (a worker thread each,
// launches in FIFO order) and events. Lifetimes: a Buffer, Module or Stream
// handle keeps its device alive; a queued launch keeps its module and buffers
// alive; a device owns its streams and joins their threads when it goes, then
// its backend.
//
//===----------------------------------------------------------------------===//
#ifndef WAVE_LIB_HOST_HOSTIMPL_H
#define WAVE_LIB_HOST_HOSTIMPL_H

#include "wave/Emu/Emulator.h"
#include "wave/Host/Runtime.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <map>
#include <mutex>
#include <thread>

namespace wave::host {

/// A HostError with code \p C and message \p Msg.
llvm::Error hostError(HostErrorCode C, const llvm::Twine &Msg);

/// The completion of one launch: done flag, error (kept as code and
/// message until wait() or a synchronize() returns it) and run times.
class EventImpl {
public:
  std::mutex Mu;
  std::condition_variable CV;
  bool Done = false;
  /// The launch's error, while not yet returned.
  std::optional<std::pair<HostErrorCode, std::string>> Err;
  std::chrono::steady_clock::time_point Start, End;

  /// Records the end of the launch with \p E (consumed) and wakes waiters.
  void finish(llvm::Error E);
  /// Waits for Done.
  void waitDone();
  /// The error not yet returned, as a HostError, and forgets it.
  llvm::Error takeError();
};

/// One allocation of device memory: [Offset, Offset + Size) of the
/// device's address space, Reserved bytes (Size rounded up to the
/// allocator's alignment) held.
class BufferImpl {
public:
  std::shared_ptr<DeviceImpl> Dev;
  uint64_t Offset = 0, Size = 0, Reserved = 0;
  std::optional<WbinType> Element;
  /// Launches queued or running that use the buffer (guarded by the
  /// device's StateMu; the device's Idle condition signals a change).
  unsigned Pending = 0;
  ~BufferImpl();
};

/// What a backend keeps for one module (the CUDA backend: its PTX module,
/// loaded once, and the kernels' functions; the HSA backend: its code
/// object's executable and the kernels' descriptors); released with the
/// module, before the device.
class BackendModule {
public:
  virtual ~BackendModule();
};

/// A loaded, validated .wbin and its kernels' display names.
class ModuleImpl {
public:
  std::shared_ptr<DeviceImpl> Dev;
  std::string Name; ///< the path or name it was loaded or compiled as.
  WbinFile File;
  /// Kernel display names: the name, or "kernel_<i>" (the emulator's).
  std::vector<std::string> KernelNames;
  /// The backend's state, from DeviceBackend::prepare() (may be null).
  /// Declared after Dev, so destroyed while the device still lives.
  std::unique_ptr<BackendModule> Backend;
};

/// A launch waiting in a stream's queue: everything it needs, alive.
struct LaunchJob {
  std::shared_ptr<ModuleImpl> M;
  emu::EmuConfig Cfg; ///< grid, workgroup, SetRegs, KernelIndex.
  std::vector<std::shared_ptr<BufferImpl>> Buffers;
  std::shared_ptr<EventImpl> Ev;
};

/// An in-order queue of launches and the thread that runs them.
class StreamImpl {
public:
  explicit StreamImpl(DeviceImpl &Dev);
  /// Stops the worker after the queue drains and joins it (or, when the
  /// worker itself destroys the device, lets it leave on its own).
  ~StreamImpl();
  DeviceImpl &Dev;

  /// Queues \p J.
  void push(LaunchJob J);
  /// Waits until every launch queued so far has finished; returns the
  /// first error not yet returned by an Event.
  llvm::Error synchronize();

private:
  void work(std::shared_ptr<std::atomic<bool>> Alive);
  std::mutex Mu;
  std::condition_variable CV;
  std::deque<LaunchJob> Queue;
  bool Running = false, Stop = false;
  /// Events of launches since the last synchronize(), in queue order.
  std::vector<std::shared_ptr<EventImpl>> Issued;
  /// Cleared by the destructor when it runs on the worker thread.
  std::shared_ptr<std::atomic<bool>> Alive;
  std::thread Worker;
};

/// The part of a device that differs between backends: the bytes of its
/// device memory, WAVE device addresses [0, memorySize()), and running
/// kernels over them. The DeviceImpl calls it with no lock of its own held
/// and never for the same buffer's bytes while a launch using the buffer is
/// queued or running; a backend serialises what it must.
class DeviceBackend {
public:
  virtual ~DeviceBackend();
  /// Bytes of device addresses the backend has; buffers are allocated in
  /// [NamedBufferBase, memorySize()).
  virtual uint64_t memorySize() const = 0;
  /// What "device memory exhausted" messages say the memory is, e.g. "the
  /// emulator's 4 GiB of 32-bit addresses (formats/isa.md §4.9)".
  virtual std::string memoryDescription() const = 0;
  /// Copies \p Data to device addresses [Addr, Addr + size).
  virtual llvm::Error write(uint64_t Addr, llvm::ArrayRef<uint8_t> Data) = 0;
  /// Copies device addresses [Addr, Addr + size) to \p Out.
  virtual llvm::Error read(uint64_t Addr,
                           llvm::MutableArrayRef<uint8_t> Out) = 0;
  /// Zeroes device addresses [Addr, Addr + Len).
  virtual llvm::Error zero(uint64_t Addr, uint64_t Len) = 0;
  /// Makes \p M launchable, once, as the module is created (translation,
  /// loading); may set M.Backend.
  virtual llvm::Error prepare(ModuleImpl &M) = 0;
  /// Runs \p J over device memory [0, \p Top): Top is the end of the
  /// highest allocation, the memory a launch sees.
  virtual llvm::Error run(LaunchJob &J, uint64_t Top) = 0;
};

/// The emulator backend (EmulatorDevice.cpp): NoDevice never; Backend
/// when the 4 GiB mapping cannot be reserved.
llvm::Expected<std::unique_ptr<DeviceBackend>>
createEmulatorBackend(const DeviceOptions &Opts);
/// The CUDA backend of device \p Index (CudaDevice.cpp); \p Info gets its
/// name and description.
llvm::Expected<std::unique_ptr<DeviceBackend>>
createCudaBackend(unsigned Index, const DeviceOptions &Opts, DeviceInfo &Info);
/// The CUDA devices the driver reports, none when it does not load.
std::vector<DeviceInfo> listCudaDevices();
/// The HSA backend of GPU agent \p Index (HsaBackend.cpp); \p Info gets
/// its name and description.
llvm::Expected<std::unique_ptr<DeviceBackend>>
createHsaBackend(unsigned Index, const DeviceOptions &Opts, DeviceInfo &Info);
/// The GPU agents the HSA runtime reports, none when it does not load or
/// has no usable device.
std::vector<DeviceInfo> listHsaDevices();

/// A device: its backend and what every backend shares.
class DeviceImpl : public std::enable_shared_from_this<DeviceImpl> {
public:
  /// A device over \p B, described by \p Info.
  static std::shared_ptr<DeviceImpl> create(std::unique_ptr<DeviceBackend> B,
                                            DeviceInfo Info,
                                            const DeviceOptions &Opts);
  ~DeviceImpl();

  DeviceInfo Info;
  DeviceOptions Opts;
  std::unique_ptr<DeviceBackend> Backend;

  /// Allocates \p Bytes (> 0) at a 256-byte-aligned offset, zero-filled.
  llvm::Expected<uint64_t> allocate(uint64_t Bytes, uint64_t &Reserved);
  /// Returns [Offset, Offset + Reserved) to the free list (zeroed when it
  /// is next allocated).
  void release(uint64_t Offset, uint64_t Reserved);
  /// The end of the highest allocation (NamedBufferBase when none): the
  /// device memory a launch sees.
  uint64_t top();

  /// Waits until no queued or running launch uses \p B.
  void waitForBuffer(const BufferImpl &B);
  /// Marks the buffers of \p J used (at enqueue) or no longer (after it).
  void markPending(const LaunchJob &J, bool Add);

  /// Runs \p J on the backend over [0, top()).
  llvm::Error run(LaunchJob &J);

  /// The default stream and every created one; they live as long as the
  /// device (guarded by StateMu).
  std::vector<std::unique_ptr<StreamImpl>> Streams;
  StreamImpl *DefaultStream = nullptr;
  std::mutex StateMu;
  std::condition_variable Idle;

private:
  DeviceImpl() = default;
  std::mutex AllocMu;
  /// Free ranges by offset -> size, coalesced; covers [NamedBufferBase,
  /// Backend->memorySize()) minus the allocations.
  std::map<uint64_t, uint64_t> Free;
  uint64_t End = 0; ///< Backend->memorySize().
};

} // namespace wave::host

#endif // WAVE_LIB_HOST_HOSTIMPL_H
