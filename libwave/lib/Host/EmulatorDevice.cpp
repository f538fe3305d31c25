//===- EmulatorDevice.cpp - The emulator backend of the host runtime ------===//
//
// The emulator backend of the host runtime: device memory is one anonymous
// mapping of the whole 32-bit address space (2^32 + 16 bytes, the most
// Emulator::create() takes) with MAP_NORESERVE, so that pages are committed
// only when touched and a buffer never moves. Each launch is an
// emu::Emulator over [0, end of the highest allocation) of that memory, in
// place: nothing is copied between launches, and host copies are memcpy.
// The device runs one launch at a time; results are deterministic (the
// emulator's guarantee, whatever DeviceOptions::Jobs is).
//
//===----------------------------------------------------------------------===//
#include "HostImpl.h"

#include "wave/Emu/RunOptions.h"

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

namespace {

class EmulatorBackend final : public DeviceBackend {
public:
  explicit EmulatorBackend(uint8_t *Mem) : Mem(Mem) {}
  ~EmulatorBackend() override { munmap(Mem, MappedBytes); }

  uint64_t memorySize() const override { return AddressSpace; }
  std::string memoryDescription() const override {
    return "the emulator's 4 GiB of 32-bit addresses (formats/isa.md §4.9)";
  }
  Error write(uint64_t Addr, ArrayRef<uint8_t> Data) override {
    if (!Data.empty())
      std::memcpy(Mem + Addr, Data.data(), Data.size());
    return Error::success();
  }
  Error read(uint64_t Addr, MutableArrayRef<uint8_t> Out) override {
    if (!Out.empty())
      std::memcpy(Out.data(), Mem + Addr, Out.size());
    return Error::success();
  }
  Error zero(uint64_t Addr, uint64_t Len) override {
    zeroRange(Mem, Addr, Len);
    return Error::success();
  }
  Error prepare(ModuleImpl &) override { return Error::success(); }
  Error run(LaunchJob &J, uint64_t Top) override;

private:
  uint8_t *Mem;
  std::mutex RunMu;
};

} // namespace

Expected<std::unique_ptr<DeviceBackend>>
createEmulatorBackend(const DeviceOptions &Opts) {
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
  return std::make_unique<EmulatorBackend>(static_cast<uint8_t *>(P));
}

Error EmulatorBackend::run(LaunchJob &J, uint64_t Top) {
  std::lock_guard<std::mutex> L(RunMu);
  J.Ev->Start = std::chrono::steady_clock::now();
  const WbinFile &File = J.M->File;
  unsigned K = J.Cfg.KernelIndex;
  uint32_t CodeOffset = File.Kernels.empty() ? 0 : File.Kernels[K].CodeOffset;
  Expected<std::unique_ptr<emu::Emulator>> E =
      emu::Emulator::create(File, J.Cfg, MutableArrayRef<uint8_t>(Mem, Top));
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
