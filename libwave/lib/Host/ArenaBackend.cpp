//===- ArenaBackend.cpp - What the host runtime's GPU backends share ------===//
//
// See ArenaBackend.h.
//
//===----------------------------------------------------------------------===//
#include "ArenaBackend.h"

#include "wave/Emu/RunOptions.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

using namespace llvm;

namespace wave::host {

Error checkArenaOption(StringRef Name, uint64_t Asked) {
  if (Asked > MaxArenaBytes)
    return hostError(HostErrorCode::InvalidArgument,
                     "device '" + Name + "': " + Twine(Asked) +
                         " bytes of device memory is more than WAVE's 32-bit "
                         "addresses reach (4 GiB, formats/isa.md §4.9)");
  if (Asked && Asked <= emu::NamedBufferBase)
    return hostError(HostErrorCode::InvalidArgument,
                     "device '" + Name + "': " + Twine(Asked) +
                         " bytes of device memory leave no room for a "
                         "buffer (they start at address " +
                         Twine(emu::NamedBufferBase) + ")");
  return Error::success();
}

Expected<uint64_t> arenaSize(StringRef Name, uint64_t Asked,
                             uint64_t Available, const Twine &Owner) {
  if (Asked > Available)
    return hostError(HostErrorCode::InvalidArgument,
                     "device '" + Name + "': " + Twine(Asked) +
                         " bytes of device memory asked for, but " + Owner +
                         " has " + Twine(Available));
  uint64_t Size = Asked ? Asked : std::min(DefaultArenaBytes, Available);
  return alignTo(Size, emu::NamedBufferAlign);
}

Error noSuchDevice(const Twine &What, unsigned Index, size_t Count) {
  return hostError(HostErrorCode::NoDevice,
                   "no " + What + " " + Twine(Index) + ": there " +
                       (Count == 1 ? std::string("is 1")
                                   : "are " + std::to_string(Count)) +
                       " (listDevices() names them)");
}

std::string ArenaBackend::memoryDescription() const {
  return "the " + std::to_string(Size) + " bytes of device memory of '" +
         Name + "' (DeviceOptions::DeviceMemory)";
}

Error ArenaBackend::usable() {
  if (Broken)
    return hostError(HostErrorCode::Fault, Kind + " device '" + Name +
                                               "' is unusable: " + *Broken +
                                               "; open the device again");
  return enter();
}

Error ArenaBackend::write(uint64_t Addr, ArrayRef<uint8_t> Data) {
  if (Data.empty())
    return Error::success();
  std::lock_guard<std::mutex> L(Mu);
  if (Error E = usable())
    return E;
  return copyIn(Base + Addr, Data.data(), Data.size());
}

Error ArenaBackend::read(uint64_t Addr, MutableArrayRef<uint8_t> Out) {
  if (Out.empty())
    return Error::success();
  std::lock_guard<std::mutex> L(Mu);
  if (Error E = usable())
    return E;
  return copyOut(Out.data(), Base + Addr, Out.size());
}

Error ArenaBackend::zero(uint64_t Addr, uint64_t Len) {
  std::lock_guard<std::mutex> L(Mu);
  if (Error E = usable())
    return E;
  return fillZero(Base + Addr, Len);
}

Error ArenaBackend::launchFailed(const std::string &Msg, bool TimedOut,
                                 bool Faulted, StringRef KernelName) {
  if (TimedOut) {
    std::string Late = "kernel '" + KernelName.str() +
                       "' did not complete in " +
                       formatv("{0}", Timeout).str() + " s";
    Broken = Late + ", and its " + Channel + " was abandoned to it";
    return hostError(HostErrorCode::Limit,
                     Late + " (DeviceOptions::TimeoutSeconds); the device's " +
                         Channel + " is abandoned: open the device again");
  }
  if (!Faulted)
    return hostError(HostErrorCode::Backend, Msg);
  Broken = "an earlier launch faulted (" + Msg + "), and a fault leaves the " +
           Channel + " unusable";
  return hostError(HostErrorCode::Fault,
                   Msg + "; the device's " + Channel +
                       " is unusable from now on: open the device again");
}

} // namespace wave::host
