//===- Device.cpp - What every host runtime device shares -----------------===//
//
// The backend-independent part of a device (HostImpl.h): a first-fit
// allocator handing out 256-byte-aligned ranges of the backend's device
// memory from NamedBufferBase on (address 0 stays invalid, as in wave-run's
// named launches; a range is zeroed through the backend when it is handed
// out), the launches pending on each buffer, streams (worker threads
// running their queue in order) and events. The backends -- the emulator
// (EmulatorDevice.cpp), HSA agents (HsaBackend.cpp) and CUDA devices
// (CudaDevice.cpp) -- hold the bytes and run the launches.
//
//===----------------------------------------------------------------------===//
#include "HostImpl.h"

#include "wave/Emu/RunOptions.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

using namespace llvm;

namespace wave::host {

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
    std::shared_ptr<EventImpl> Ev = std::move(J->Ev);
    {
      std::lock_guard<std::mutex> L(Mu);
      Running = false;
    }
    CV.notify_all();
    // The launch's references go before its event finishes, so that a
    // caller waiting for it holds the last ones when it returns (and then
    // destroys the device on its own thread, not this one, which might race
    // with the process's exit). They may still be the device's last (a
    // launch whose handles were all released while it ran): this may
    // destroy the device and this stream (~StreamImpl() then clears the
    // flag), and nothing of this stream is touched after it.
    J.reset();
    Ev->finish(std::move(E));
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

DeviceBackend::~DeviceBackend() = default;

BackendModule::~BackendModule() = default;

std::shared_ptr<DeviceImpl> DeviceImpl::create(std::unique_ptr<DeviceBackend> B,
                                               DeviceInfo Info,
                                               const DeviceOptions &Opts) {
  std::shared_ptr<DeviceImpl> D(new DeviceImpl());
  D->Info = std::move(Info);
  D->Opts = Opts;
  D->Backend = std::move(B);
  D->End = D->Backend->memorySize();
  if (D->End > emu::NamedBufferBase)
    D->Free[emu::NamedBufferBase] = D->End - emu::NamedBufferBase;
  D->Streams.push_back(std::make_unique<StreamImpl>(*D));
  D->DefaultStream = D->Streams.back().get();
  return D;
}

DeviceImpl::~DeviceImpl() {
  // No launch is queued: each would hold a reference to the device.
  Streams.clear();
  Backend.reset();
}

Expected<uint64_t> DeviceImpl::allocate(uint64_t Bytes, uint64_t &Reserved) {
  if (Bytes > End)
    return hostError(HostErrorCode::Backend,
                     "device memory exhausted: a buffer of " + Twine(Bytes) +
                         " bytes does not fit " + Backend->memoryDescription());
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
                           Twine(Need) + " bytes is left in " +
                           Backend->memoryDescription());
    Off = It->first;
    uint64_t Left = It->second - Need;
    Free.erase(It);
    if (Left)
      Free[Off + Need] = Left;
  }
  // A kernel may have written past its buffers into free space.
  if (Error E = Backend->zero(Off, Need)) {
    release(Off, Need);
    return std::move(E);
  }
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
    return End;
  auto Last = std::prev(Free.end());
  return Last->first + Last->second == End ? Last->first : End;
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

Error DeviceImpl::run(LaunchJob &J) { return Backend->run(J, top()); }

} // namespace wave::host
