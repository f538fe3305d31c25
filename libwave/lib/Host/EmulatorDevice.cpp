//===- EmulatorDevice.cpp - The emulator device, streams and events -------===//
//
// The emulator backend of the host runtime: device memory is one anonymous
// mapping of the whole 32-bit address space (2^32 + 16 bytes, the most
// Emulator::create() takes) with MAP_NORESERVE, so that pages are committed
// only when touched and a buffer never moves; a first-fit allocator hands out
// 256-byte-aligned ranges from NamedBufferBase on (address 0 stays invalid,
// as in wave-run's named launches). Each launch is an emu::Emulator over
// [0, end of the highest allocation) of that memory, in place: nothing is
// copied between launches. Streams are worker threads running their queue
// in order; the device runs one launch at a time.
//
//===----------------------------------------------------------------------===//
#include "HostImpl.h"

#include "wave/Emu/RunOptions.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

#include <cstring>
#include <sys/mman.h>
#include <unistd.h>

using namespace llvm;

namespace wave::host {

/// The device address space: 32-bit addresses (formats/isa.md §4.9); the
/// mapping has the 16 bytes more that Emulator::create() allows, so that
/// an access straddling 2^32 is still inside it.
static constexpr uint64_t AddressSpace = uint64_t(1) << 32;
static constexpr uint64_t MappedBytes = AddressSpace + 16;

Error hostError(HostErrorCode C, const Twine &Msg) {
  return make_error<HostError>(C, Msg.str());
}

//===----------------------------------------------------------------------===//
// EventImpl
//===----------------------------------------------------------------------===//

void EventImpl::finish(Error E) {
  std::optional<std::pair<HostErrorCode, std::string>> R;
  if (E) {
    HostErrorCode C = errorCode(E);
    std::string Msg;
    handleAllErrors(std::move(E), [&](const ErrorInfoBase &EI) {
      Msg += (Msg.empty() ? "" : "\n") + EI.message();
    });
    R.emplace(C, std::move(Msg));
  }
  {
    std::lock_guard<std::mutex> L(Mu);
    End = std::chrono::steady_clock::now();
    Err = std::move(R);
    Done = true;
  }
  CV.notify_all();
}

void EventImpl::waitDone() {
  std::unique_lock<std::mutex> L(Mu);
  CV.wait(L, [&] { return Done; });
}

Error EventImpl::takeError() {
  std::lock_guard<std::mutex> L(Mu);
  if (!Err)
    return Error::success();
  Error E = hostError(Err->first, Err->second);
  Err.reset();
  return E;
}

//===----------------------------------------------------------------------===//
// StreamImpl
//===----------------------------------------------------------------------===//

StreamImpl::StreamImpl(DeviceImpl &Dev)
    : Dev(Dev), Alive(std::make_shared<std::atomic<bool>>(true)) {
  Worker = std::thread([this, A = Alive] { work(A); });
}

StreamImpl::~StreamImpl() {
  {
    std::lock_guard<std::mutex> L(Mu);
    Stop = true;
  }
  CV.notify_all();
  if (Worker.get_id() == std::this_thread::get_id()) {
    // The worker released the last reference to the device (its launch's
    // module or buffers): it leaves as soon as this returns.
    Alive->store(false);
    Worker.detach();
  } else {
    Worker.join();
  }
}

/// Whether \p Ev has finished with no error left to return.
static bool settled(EventImpl &Ev) {
  std::lock_guard<std::mutex> L(Ev.Mu);
  return Ev.Done && !Ev.Err;
}

void StreamImpl::push(LaunchJob J) {
  {
    std::lock_guard<std::mutex> L(Mu);
    // Forget the launches that synchronize() has nothing to say about, so
    // that a program that never synchronizes does not grow the list.
    if (Issued.size() >= 64)
      llvm::erase_if(Issued, [](const std::shared_ptr<EventImpl> &Ev) {
        return settled(*Ev);
      });
    Issued.push_back(J.Ev);
    Queue.push_back(std::move(J));
  }
  CV.notify_all();
}

void StreamImpl::work(std::shared_ptr<std::atomic<bool>> AliveFlag) {
  for (;;) {
    std::optional<LaunchJob> J;
    {
      std::unique_lock<std::mutex> L(Mu);
      CV.wait(L, [&] { return Stop || !Queue.empty(); });
      if (Queue.empty())
        return;
      J.emplace(std::move(Queue.front()));
      Queue.pop_front();
      Running = true;
    }
    Error E = Dev.run(*J);
    Dev.markPending(*J, /*Add=*/false);
    J->Ev->finish(std::move(E));
    {
      std::lock_guard<std::mutex> L(Mu);
      Running = false;
    }
    CV.notify_all();
    // The launch's references may be the device's last: this may destroy
    // the device and this stream (~StreamImpl() then clears the flag).
    J.reset();
    if (!AliveFlag->load())
      return;
  }
}

Error StreamImpl::synchronize() {
  std::vector<std::shared_ptr<EventImpl>> Evs;
  {
    std::unique_lock<std::mutex> L(Mu);
    CV.wait(L, [&] { return Queue.empty() && !Running; });
    Evs.swap(Issued);
  }
  Error First = Error::success();
  for (const std::shared_ptr<EventImpl> &Ev : Evs) {
    Ev->waitDone();
    if (First)
      continue;
    if (Error E = Ev->takeError())
      First = std::move(E);
  }
  return First;
}

//===----------------------------------------------------------------------===//
// DeviceImpl
//===----------------------------------------------------------------------===//

Expected<std::shared_ptr<DeviceImpl>>
DeviceImpl::create(const DeviceOptions &Opts) {
  if (Opts.WaveWidth < 1 || Opts.WaveWidth > 64)
    return hostError(HostErrorCode::InvalidArgument, "invalid wave width " +
                                                         Twine(Opts.WaveWidth) +
                                                         ": must be 1..64");
  void *P = mmap(nullptr, MappedBytes, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (P == MAP_FAILED)
    return hostError(HostErrorCode::Backend,
                     "cannot reserve the emulator's 4 GiB of device memory: " +
                         Twine(std::strerror(errno)));
  std::shared_ptr<DeviceImpl> D(new DeviceImpl());
  D->Mem = static_cast<uint8_t *>(P);
  D->Opts = Opts;
  D->Info.Name = "emu";
  D->Info.Kind = BackendKind::Emulator;
  D->Info.Description = "WAVE reference emulator, " +
                        std::to_string(Opts.WaveWidth) + "-lane waves";
  D->Free[emu::NamedBufferBase] = AddressSpace - emu::NamedBufferBase;
  D->Streams.push_back(std::make_unique<StreamImpl>(*D));
  D->DefaultStream = D->Streams.back().get();
  return D;
}

DeviceImpl::~DeviceImpl() {
  // No launch is queued: each would hold a reference to the device.
  Streams.clear();
  munmap(Mem, MappedBytes);
}

/// Zeroes [Off, Off + Len) of \p Mem: whole pages by dropping them (an
/// anonymous private mapping reads back zeros), the rest with memset.
static void zeroRange(uint8_t *Mem, uint64_t Off, uint64_t Len) {
  static const uint64_t Page = uint64_t(sysconf(_SC_PAGESIZE));
  uint64_t A = alignTo(Off, Page), B = alignDown(Off + Len, Page);
  if (B <= A || B - A < 16 * Page) {
    std::memset(Mem + Off, 0, Len);
    return;
  }
  std::memset(Mem + Off, 0, A - Off);
  if (madvise(Mem + A, B - A, MADV_DONTNEED) != 0)
    std::memset(Mem + A, 0, B - A);
  std::memset(Mem + B, 0, Off + Len - B);
}

Expected<uint64_t> DeviceImpl::allocate(uint64_t Bytes, uint64_t &Reserved) {
  if (Bytes > AddressSpace)
    return hostError(HostErrorCode::Backend,
                     "device memory exhausted: a buffer of " + Twine(Bytes) +
                         " bytes does not fit the emulator's 4 GiB of "
                         "32-bit addresses (formats/isa.md §4.9)");
  uint64_t Need = alignTo(Bytes, emu::NamedBufferAlign);
  uint64_t Off = 0;
  {
    std::lock_guard<std::mutex> L(AllocMu);
    auto It = Free.begin();
    while (It != Free.end() && It->second < Need)
      ++It;
    if (It == Free.end())
      return hostError(HostErrorCode::Backend,
                       "device memory exhausted: no free range of " +
                           Twine(Need) +
                           " bytes is left in the emulator's 4 GiB of "
                           "32-bit addresses (formats/isa.md §4.9)");
    Off = It->first;
    uint64_t Left = It->second - Need;
    Free.erase(It);
    if (Left)
      Free[Off + Need] = Left;
  }
  // A kernel may have written past its buffers into free space.
  zeroRange(Mem, Off, Need);
  Reserved = Need;
  return Off;
}

void DeviceImpl::release(uint64_t Offset, uint64_t Reserved) {
  std::lock_guard<std::mutex> L(AllocMu);
  auto [It, Inserted] = Free.emplace(Offset, Reserved);
  (void)Inserted;
  // Coalesce with the next range, then with the previous one.
  auto Next = std::next(It);
  if (Next != Free.end() && It->first + It->second == Next->first) {
    It->second += Next->second;
    Free.erase(Next);
  }
  if (It != Free.begin()) {
    auto Prev = std::prev(It);
    if (Prev->first + Prev->second == It->first) {
      Prev->second += It->second;
      Free.erase(It);
    }
  }
}

uint64_t DeviceImpl::top() {
  std::lock_guard<std::mutex> L(AllocMu);
  if (Free.empty())
    return AddressSpace;
  auto Last = std::prev(Free.end());
  return Last->first + Last->second == AddressSpace ? Last->first
                                                    : AddressSpace;
}

void DeviceImpl::waitForBuffer(const BufferImpl &B) {
  std::unique_lock<std::mutex> L(StateMu);
  Idle.wait(L, [&] { return B.Pending == 0; });
}

void DeviceImpl::markPending(const LaunchJob &J, bool Add) {
  {
    std::lock_guard<std::mutex> L(StateMu);
    for (const std::shared_ptr<BufferImpl> &B : J.Buffers) {
      if (Add)
        ++B->Pending;
      else
        --B->Pending;
    }
  }
  if (!Add)
    Idle.notify_all();
}

Error DeviceImpl::run(LaunchJob &J) {
  std::lock_guard<std::mutex> L(RunMu);
  J.Ev->Start = std::chrono::steady_clock::now();
  const WbinFile &File = J.M->File;
  unsigned K = J.Cfg.KernelIndex;
  uint32_t CodeOffset = File.Kernels.empty() ? 0 : File.Kernels[K].CodeOffset;
  Expected<std::unique_ptr<emu::Emulator>> E =
      emu::Emulator::create(File, J.Cfg, MutableArrayRef<uint8_t>(Mem, top()));
  if (!E)
    return hostError(HostErrorCode::InvalidArgument,
                     "kernel '" + J.M->KernelNames[K] +
                         "': " + toString(E.takeError()));
  Error R = emu::addSourcePosition(File, CodeOffset, (*E)->run());
  return handleErrors(std::move(R), [](const emu::EmuError &EE) {
    return hostError(EE.getKind() == emu::EmuErrorKind::Limit
                         ? HostErrorCode::Limit
                         : HostErrorCode::Fault,
                     EE.getMessage());
  });
}

} // namespace wave::host
