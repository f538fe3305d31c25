//===- Emulator.cpp - The WAVE reference emulator -------------------------===//
//
// The public facade (wave/Emu/Emulator.h): Emulator::create and the launch
// shape it derives, device memory access, checks and tracing, and
// EmulatorImpl::run, which runs the grid's workgroups one after another or,
// with several threads, through runParallel (ParallelRun.cpp), and folds the
// per-opcode counts into the statistics. The implementation notes and the
// map of the emulator's files are in EmulatorImpl.h.
//
//===----------------------------------------------------------------------===//
#include "wave/Emu/Emulator.h"

#include "Checker.h"
#include "EmulatorImpl.h"

#include "wave/ISA/ISA.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/Threading.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>

using namespace llvm;

namespace wave::emu {

char EmuError::ID = 0;

std::error_code EmuError::convertToErrorCode() const {
  return std::make_error_code(std::errc::invalid_argument);
}

void EmuStats::print(raw_ostream &OS) const {
  OS << "Execution Statistics:\n"
     << "  Instructions executed: " << Instructions << "\n"
     << "    Integer ops:         " << IntegerOps << "\n"
     << "    Float ops:           " << FloatOps << "\n"
     << "    Memory ops:          " << MemoryOps << "\n"
     << "    Control ops:         " << ControlOps << "\n"
     << "    Wave ops:            " << WaveOps << "\n"
     << "    Atomic ops:          " << AtomicOps << "\n"
     << "    Atomic lane ops:     " << AtomicLaneOps << "\n"
     << "\n"
     << "  Device memory:\n"
     << "    Loads:  " << DeviceLoads << " (" << DeviceLoadBytes << " bytes)\n"
     << "    Stores: " << DeviceStores << " (" << DeviceStoreBytes
     << " bytes)\n"
     << "\n"
     << "  Local memory:\n"
     << "    Loads:  " << LocalLoads << " (" << LocalLoadBytes << " bytes)\n"
     << "    Stores: " << LocalStores << " (" << LocalStoreBytes << " bytes)\n"
     << "\n"
     << "  Barriers: " << Barriers << "\n"
     << "  Divergent branches: " << DivergentBranches << "\n"
     << "\n"
     << "  Workgroups executed: " << Workgroups << "\n"
     << "  Waves executed: " << Waves << "\n";
}

EmuStats &EmuStats::operator+=(const EmuStats &O) {
  Instructions += O.Instructions;
  IntegerOps += O.IntegerOps;
  FloatOps += O.FloatOps;
  MemoryOps += O.MemoryOps;
  ControlOps += O.ControlOps;
  WaveOps += O.WaveOps;
  AtomicOps += O.AtomicOps;
  AtomicLaneOps += O.AtomicLaneOps;
  DeviceLoads += O.DeviceLoads;
  DeviceLoadBytes += O.DeviceLoadBytes;
  DeviceStores += O.DeviceStores;
  DeviceStoreBytes += O.DeviceStoreBytes;
  LocalLoads += O.LocalLoads;
  LocalLoadBytes += O.LocalLoadBytes;
  LocalStores += O.LocalStores;
  LocalStoreBytes += O.LocalStoreBytes;
  Barriers += O.Barriers;
  DivergentBranches += O.DivergentBranches;
  Workgroups += O.Workgroups;
  Waves += O.Waves;
  return *this;
}

void EmulatorImpl::absorb(const EmuStats &S, const uint64_t *Counts) {
  Stats += S;
  for (unsigned Op = 0; Op != NumInternalOps; ++Op)
    OpCount[Op] += Counts[Op];
}

std::array<uint32_t, 3> EmulatorImpl::groupId(uint64_t Linear) const {
  // formats/isa.md §4.2: for z, for y, for x (x fastest).
  uint64_t X = Cfg.Grid[0], Y = Cfg.Grid[1];
  return {uint32_t(Linear % X), uint32_t(Linear / X % Y),
          uint32_t(Linear / X / Y)};
}

Error EmulatorImpl::runSequential(uint64_t NumGroups) {
  WorkgroupRunner R(*this);
  R.begin(MemMode::Direct);
  bool Ok = true;
  for (uint64_t G = 0; G != NumGroups && Ok; ++G)
    Ok = R.runWorkgroup(groupId(G));
  absorb(R.Stats, R.OpCount);
  if (!Ok)
    return make_error<EmuError>(std::move(*R.Fault));
  return Error::success();
}

Error EmulatorImpl::run() {
  std::fill(std::begin(OpCount), std::end(OpCount), 0);
  uint64_t NumGroups = 0;
  if (NumWaves)
    NumGroups = uint64_t(Cfg.Grid[0]) * Cfg.Grid[1] * Cfg.Grid[2];
  unsigned Threads = Cfg.Jobs ? Cfg.Jobs
                              : hardware_concurrency().compute_thread_count();
  // Ticks are 32-bit; a trace is one stream in grid order, and so are the
  // reports of a checked run.
  if (Trace || Chk || NumGroups >= UINT32_MAX)
    Threads = 1;
  Threads = unsigned(std::min<uint64_t>(Threads, NumGroups));
  // Each thread holds RunnersPerThread workgroups' local memory at once;
  // large local memories run on fewer threads, so that --jobs N costs at
  // most MaxParallelLocal bytes of it (one workgroup's always runs).
  uint64_t PerThread = uint64_t(RunnersPerThread) * std::max(LocalSize, 1u);
  Threads = unsigned(std::clamp<uint64_t>(MaxParallelLocal / PerThread, 1,
                                          std::max(Threads, 1u)));
  Profile = JobsProfile();
  Error Result = Threads > 1 ? runParallel(NumGroups, Threads)
                             : runSequential(NumGroups);
  if (Chk)
    Chk->printSummary();
  // Fold per-opcode counts into the statistics classes (formats/isa.md §4.21).
  for (unsigned Op = 0; Op != NumOpcodes; ++Op) {
    uint64_t N = OpCount[Op];
    if (!N)
      continue;
    Stats.Instructions += N;
    switch (getInstDesc(Opcode(Op)).Class) {
    case InstClass::Integer:
      Stats.IntegerOps += N;
      break;
    case InstClass::Float:
      Stats.FloatOps += N;
      break;
    case InstClass::Memory:
      Stats.MemoryOps += N;
      break;
    case InstClass::Control:
      Stats.ControlOps += N;
      break;
    case InstClass::Wave:
      Stats.WaveOps += N;
      break;
    case InstClass::Atomic:
      Stats.AtomicOps += N;
      break;
    }
  }
  return Result;
}

//===----------------------------------------------------------------------===//
// Emulator
//===----------------------------------------------------------------------===//

Emulator::Emulator(std::unique_ptr<EmulatorImpl> Impl)
    : Impl(std::move(Impl)) {}
Emulator::~Emulator() = default;

Expected<std::unique_ptr<Emulator>> Emulator::create(const WbinFile &File,
                                                     const EmuConfig &Config) {
  return createImpl(File, Config, std::nullopt);
}

Expected<std::unique_ptr<Emulator>>
Emulator::create(const WbinFile &File, const EmuConfig &Config,
                 MutableArrayRef<uint8_t> Memory) {
  return createImpl(File, Config, Memory);
}

Expected<std::unique_ptr<Emulator>>
Emulator::createImpl(const WbinFile &File, const EmuConfig &Config,
                     std::optional<MutableArrayRef<uint8_t>> Memory) {
  if (Config.WaveWidth < 1 || Config.WaveWidth > 64)
    return createStringError("invalid wave width %u: must be 1..64",
                             Config.WaveWidth);
  uint64_t MemSize = Memory ? Memory->size() : Config.DeviceMemory;
  if (MemSize > (uint64_t(1) << 32) + 16)
    return createStringError(
        "device memory of %llu bytes is too large (at most 4294967312; "
        "addresses are 32-bit)",
        (unsigned long long)MemSize);
  auto Impl = std::make_unique<EmulatorImpl>(File, Config);
  Impl->Cfg.DeviceMemory = MemSize;
  EmulatorImpl &E = *Impl;
  if (File.Kernels.empty()) {
    // A file without kernel entries runs from code offset 0
    // (formats/isa.md §4.2).
    if (Config.KernelIndex != 0)
      return createStringError("kernel index %u out of range: the file has "
                               "no kernels",
                               Config.KernelIndex);
    E.Kernel.RegisterCount = 0;
    E.Kernel.CodeSize = uint32_t(File.Code.size());
  } else {
    if (Config.KernelIndex >= File.Kernels.size())
      return createStringError("kernel index %u out of range: the file has "
                               "%zu kernel(s)",
                               Config.KernelIndex, File.Kernels.size());
    E.Kernel = File.Kernels[Config.KernelIndex];
  }
  E.Name = E.Kernel.Name.empty()
               ? "kernel_" + std::to_string(Config.KernelIndex)
               : E.Kernel.Name;
  E.W = Config.WaveWidth;
  E.Stride = alignTo(E.W, 8);
  E.Full = E.W == 64 ? ~uint64_t(0) : (uint64_t(1) << E.W) - 1;
  uint32_t RC =
      E.Kernel.RegisterCount ? E.Kernel.RegisterCount : Config.Registers;
  E.NumRegs = std::min<uint32_t>(RC, 256);
  E.NumRows = E.NumRegs + 2;
  E.WG = effectiveWorkgroupSize(E.Kernel, Config.Workgroup);
  E.LocalSize = effectiveLocalMemory(E.Kernel, Config.LocalMemory);
  uint64_t T = uint64_t(E.WG[0]) * E.WG[1] * E.WG[2];
  if (T > MaxWorkgroupThreads)
    return createStringError("workgroup of %llu threads is too large (at "
                             "most %llu)",
                             (unsigned long long)T,
                             (unsigned long long)MaxWorkgroupThreads);
  if (E.LocalSize > MaxLocalMemoryBytes)
    return createStringError("local memory of %u bytes per workgroup is too "
                             "large (at most %u)",
                             E.LocalSize, MaxLocalMemoryBytes);
  E.NumWaves = unsigned((T + E.W - 1) / E.W);
  // Register r of wave w is at row r, lanes [w * Stride, (w + 1) * Stride):
  // one instruction for every wave of a workgroup is one loop over a row.
  E.RowSize = E.NumWaves * E.Stride;
  for (unsigned R = 0; R != 256; ++R) {
    E.RRow[R] = (R < E.NumRegs ? R : E.NumRegs) * E.RowSize;
    E.WRow[R] = (R < E.NumRegs ? R : E.NumRegs + 1) * E.RowSize;
  }
  if (Memory) {
    E.Device = *Memory;
  } else {
    E.OwnedDevice.reset(static_cast<uint8_t *>(
        std::calloc(std::max<uint64_t>(Config.DeviceMemory, 1), 1)));
    if (!E.OwnedDevice)
      throw std::bad_alloc();
    E.Device = MutableArrayRef<uint8_t>(E.OwnedDevice.get(),
                                        size_t(Config.DeviceMemory));
  }
  E.decode();
  return std::unique_ptr<Emulator>(new Emulator(std::move(Impl)));
}

MutableArrayRef<uint8_t> Emulator::deviceMemory() { return Impl->Device; }

Error Emulator::writeDevice(uint64_t Offset, ArrayRef<uint8_t> Bytes) {
  uint64_t Size = Impl->Device.size();
  if (Offset > Size || Bytes.size() > Size - Offset) {
    std::string Msg;
    raw_string_ostream OS(Msg);
    uint64_t First = std::max<uint64_t>(Offset, Size);
    OS << "memory access out of bounds: address "
       << format("0x%016llx", (unsigned long long)First) << " (writing "
       << Bytes.size() << " bytes at offset " << Offset << ", device memory is "
       << Size << " bytes)";
    return make_error<EmuError>(EmuErrorKind::Fault, std::move(Msg));
  }
  if (!Bytes.empty())
    std::memcpy(Impl->Device.data() + Offset, Bytes.data(), Bytes.size());
  markInitialized(Offset, Bytes.size());
  return Error::success();
}

void Emulator::enableChecks(const CheckOptions &Opts,
                            ArrayRef<CheckBuffer> Buffers, raw_ostream &OS) {
  EmulatorImpl &E = *Impl;
  if (!Opts.Kinds) {
    E.Chk.reset();
    return;
  }
  uint32_t CodeOffset =
      E.File.Kernels.empty() ? 0 : E.File.Kernels[E.Cfg.KernelIndex].CodeOffset;
  E.Chk = std::make_unique<Checker>(
      Opts, Buffers, OS, E.File, CodeOffset, E.Name,
      [&E](uint32_t Idx) { return E.instText(Idx); },
      [&E](uint32_t Idx) { return E.Code[Idx].PC; }, E.Device.size(),
      E.LocalSize, E.W, E.Cfg.Grid);
}

void Emulator::markInitialized(uint64_t Offset, uint64_t Size) {
  if (Impl->Chk)
    Impl->Chk->markDevice(Offset, Size);
}

CheckCounts Emulator::checkCounts() const {
  return Impl->Chk ? Impl->Chk->counts() : CheckCounts();
}

void Emulator::setTrace(raw_ostream *OS) { Impl->Trace = OS; }

Error Emulator::run() { return Impl->run(); }

const EmuStats &Emulator::stats() const { return Impl->Stats; }

const JobsProfile &Emulator::jobsProfile() const { return Impl->Profile; }

void JobsProfile::print(raw_ostream &OS) const {
  if (Threads.empty()) {
    OS << "Parallel run: none, the workgroups ran on one thread\n";
    return;
  }
  OS << format("Parallel run: %u threads, %.3f s\n", unsigned(Threads.size()),
               WallSeconds);
  OS << "  thread  batches  specul.  workgroups    run s   wait s  "
        "valid. s  commit s  committed  rerun s  stale  gave up\n";
  for (size_t T = 0; T != Threads.size(); ++T) {
    const Thread &P = Threads[T];
    OS << format("  %6u  %7llu  %7llu  %10llu  %7.3f  %7.3f  %8.3f  %8.3f  "
                 "%9llu  %7.3f  %5llu  %7llu\n",
                 unsigned(T), (unsigned long long)P.Batches,
                 (unsigned long long)P.SpeculativeBatches,
                 (unsigned long long)P.Workgroups, P.RunSeconds,
                 P.WaitSeconds, P.ValidateSeconds, P.CommitSeconds,
                 (unsigned long long)P.Committed, P.RerunSeconds,
                 (unsigned long long)P.RerunStale,
                 (unsigned long long)P.RerunGaveUp);
  }
}

const std::string &Emulator::kernelName() const { return Impl->Name; }

} // namespace wave::emu
