//===- ArenaBackend.h - What the host runtime's GPU backends share -*- C++ -*-=//
//
// Private to lib/Host. The CUDA (CudaDevice.cpp) and HSA (HsaBackend.cpp)
// backends keep device memory the same way: one allocation made when the
// device opens, the arena, whose first byte is WAVE device address 0;
// buffers are ranges of it (Device.cpp's allocator), host copies move
// exactly the bytes asked for, and a launch copies nothing. A fault or a
// launch that does not complete leaves the device unusable until it is
// opened again. ArenaBackend holds that part; a backend supplies the
// runtime's copies and fills, its modules and its launches.
//
//===----------------------------------------------------------------------===//
#ifndef WAVE_LIB_HOST_ARENABACKEND_H
#define WAVE_LIB_HOST_ARENABACKEND_H

#include "HostImpl.h"

#include <mutex>
#include <optional>
#include <string>

namespace wave::host {

/// The arena when DeviceOptions::DeviceMemory is 0: 1 GiB, or the device's
/// whole memory when it has less.
inline constexpr uint64_t DefaultArenaBytes = uint64_t(1) << 30;
/// The most device memory a WAVE kernel can address: 32-bit addresses
/// (formats/isa.md §4.9).
inline constexpr uint64_t MaxArenaBytes = uint64_t(1) << 32;

/// \p E, an error of a GPU runtime or any other, as a HostError with every
/// message of \p E: an \p RuntimeError (cuda::CudaError, hsa::HsaError) of
/// kind NoDevice is NoDevice, of kind Timeout is Limit; anything else is
/// \p Failure.
template <typename RuntimeError>
llvm::Error hostErrorOf(llvm::Error E, HostErrorCode Failure) {
  HostErrorCode C = Failure;
  std::string Msg;
  llvm::handleAllErrors(std::move(E), [&](const llvm::ErrorInfoBase &EI) {
    if (EI.isA<RuntimeError>()) {
      auto Kind = static_cast<const RuntimeError &>(EI).getKind();
      if (Kind == decltype(Kind)::NoDevice)
        C = HostErrorCode::NoDevice;
      else if (Kind == decltype(Kind)::Timeout)
        C = HostErrorCode::Limit;
    }
    Msg += (Msg.empty() ? "" : "\n") + EI.message();
  });
  return hostError(C, Msg);
}

/// Checks DeviceOptions::DeviceMemory \p Asked for device \p Name before
/// the device is opened: InvalidArgument when it is more than 4 GiB
/// (MaxArenaBytes) or leaves no room for a buffer above
/// emu::NamedBufferBase; 0 (the default) passes.
llvm::Error checkArenaOption(llvm::StringRef Name, uint64_t Asked);

/// The arena's size for device \p Name: \p Asked (checked by
/// checkArenaOption()), or DefaultArenaBytes when it is 0, at most
/// \p Available (the bytes \p Owner, e.g. "CUDA device 'NVIDIA H100'",
/// has), rounded up to emu::NamedBufferAlign.
/// InvalidArgument when \p Asked is more than \p Available.
llvm::Expected<uint64_t> arenaSize(llvm::StringRef Name, uint64_t Asked,
                                   uint64_t Available,
                                   const llvm::Twine &Owner);

/// NoDevice: "no WHAT INDEX: there are COUNT (listDevices() names them)",
/// \p What being e.g. "CUDA device".
llvm::Error noSuchDevice(const llvm::Twine &What, unsigned Index,
                         size_t Count);

/// Allocates the \p Size-byte arena on \p Ctx (cuda::Context,
/// hsa::Context) and zeroes it, as the emulator's memory starts; its device
/// address, or the runtime's error as a HostError (nothing is left
/// allocated).
template <typename RuntimeError, typename Context>
llvm::Expected<uint64_t> allocateArena(Context &Ctx, uint64_t Size) {
  auto Base = Ctx.allocate(Size);
  if (!Base)
    return hostErrorOf<RuntimeError>(Base.takeError(), HostErrorCode::Backend);
  if (llvm::Error E = Ctx.zero(*Base, Size)) {
    Ctx.free(*Base);
    return hostErrorOf<RuntimeError>(std::move(E), HostErrorCode::Backend);
  }
  return uint64_t(*Base);
}

/// listDevices()' entries of a GPU runtime: "PREFIX:I" of kind \p Kind for
/// each of \p Devices, described by \p Describe(device).
template <typename Info, typename DescribeFn>
std::vector<DeviceInfo> deviceList(llvm::StringRef Prefix, BackendKind Kind,
                                   llvm::ArrayRef<Info> Devices,
                                   DescribeFn Describe) {
  std::vector<DeviceInfo> Ds;
  for (size_t I = 0; I != Devices.size(); ++I) {
    DeviceInfo D;
    D.Name = Prefix.str() + ":" + std::to_string(I);
    D.Kind = Kind;
    D.Description = Describe(Devices[I]);
    Ds.push_back(std::move(D));
  }
  return Ds;
}

/// A GPU backend's arena, host copies and broken state. Every driver call
/// sequence holds Mu.
class ArenaBackend : public DeviceBackend {
public:
  uint64_t memorySize() const final { return Size; }
  std::string memoryDescription() const final;
  llvm::Error write(uint64_t Addr, llvm::ArrayRef<uint8_t> Data) final;
  llvm::Error read(uint64_t Addr, llvm::MutableArrayRef<uint8_t> Out) final;
  llvm::Error zero(uint64_t Addr, uint64_t Len) final;

protected:
  /// A backend named \p Name ("cuda:0") whose arena is \p Size bytes at
  /// device address \p Base; \p Kind ("CUDA", "HSA") and \p Channel
  /// ("CUDA context", "HSA queue", what a fault or timeout breaks) name it
  /// in messages.
  ArenaBackend(std::string Name, std::string Kind, std::string Channel,
               uint64_t Base, uint64_t Size, double Timeout)
      : Name(std::move(Name)), Kind(std::move(Kind)),
        Channel(std::move(Channel)), Base(Base), Size(Size), Timeout(Timeout) {
  }

  /// The runtime's copies and fill of device addresses (the arena's base
  /// included), called with Mu held once usable() succeeded. Errors are
  /// HostErrors.
  virtual llvm::Error copyIn(uint64_t Device, const uint8_t *Data,
                             uint64_t Bytes) = 0;
  virtual llvm::Error copyOut(uint8_t *Out, uint64_t Device,
                              uint64_t Bytes) = 0;
  virtual llvm::Error fillZero(uint64_t Device, uint64_t Bytes) = 0;
  /// Prepares the calling thread for driver calls (CUDA makes the context
  /// current); a HostError when it cannot.
  virtual llvm::Error enter() { return llvm::Error::success(); }

  /// Success, or the Fault error of a device a fault or timeout broke;
  /// then enter(). Mu is held.
  llvm::Error usable();
  /// The error of a launch of \p KernelName that failed with \p Msg:
  /// Backend while the device is still usable; Limit after a launch that
  /// did not complete (\p TimedOut), Fault after a fault (\p Faulted), both
  /// of which break the device for every later call. Mu is held.
  llvm::Error launchFailed(const std::string &Msg, bool TimedOut,
                           bool Faulted, llvm::StringRef KernelName);

  const std::string Name, Kind, Channel;
  const uint64_t Base; ///< the arena: WAVE device address 0.
  const uint64_t Size; ///< the arena's bytes.
  const double Timeout; ///< seconds per launch; <= 0: none.
  std::mutex Mu;        ///< one driver call sequence at a time.
  /// Why the device is unusable (a fault or a timeout), if it is.
  std::optional<std::string> Broken;
};

} // namespace wave::host

#endif // WAVE_LIB_HOST_ARENABACKEND_H
