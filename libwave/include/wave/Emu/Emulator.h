//===- Emulator.h - The WAVE reference emulator -----------------*- C++ -*-===//
//
// The reference emulator of libwave/README.md "The reference emulator": runs
// one kernel of a `.wbin` over a grid of workgroups with the execution
// semantics of formats/isa.md §4, using the "default" column of formats/isa.md
// §8 where the reference toolchain is defective. A kernel is decoded once into
// a compact internal form; each step executes one instruction for a whole wave
// over structure-of-arrays registers ([register][lane]), so lane loops
// vectorize. Waves of a workgroup are interleaved one instruction at a time in
// the round-robin order of formats/isa.md §4.3, which makes every race
// deterministic. Workgroups may run on several threads (EmuConfig::Jobs); they
// then run speculatively and commit in grid order, so that every result is the
// one of formats/isa.md §4.2's one-after-another order (lib/Emu/Speculation.h).
//
//===----------------------------------------------------------------------===//
#ifndef WAVE_EMU_EMULATOR_H
#define WAVE_EMU_EMULATOR_H

#include "wave/Emu/Checks.h"
#include "wave/Object/Wbin.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace wave::emu {

/// Launch configuration of one run (formats/isa.md §4.1, §4.2, §7.1). Values
/// given in the kernel metadata override Workgroup, Registers and LocalMemory
/// as described in formats/isa.md §4.1-§4.2.
struct EmuConfig {
  /// Grid size in workgroups (x, y, z).
  std::array<uint32_t, 3> Grid = {1, 1, 1};
  /// Workgroup size in threads (x, y, z); used when the kernel metadata's
  /// workgroup_size x is 0.
  std::array<uint32_t, 3> Workgroup = {32, 1, 1};
  /// Registers per lane; used when the metadata's register_count is 0.
  uint32_t Registers = 32;
  /// Local memory per workgroup in bytes; used when the metadata's
  /// local_memory_size is 0.
  uint32_t LocalMemory = 16384;
  /// Device memory size in bytes (shared by the whole run).
  uint64_t DeviceMemory = 1048576;
  /// Lanes per wave, 1..64 (D27).
  uint32_t WaveWidth = 32;
  /// Step limit per workgroup (formats/isa.md §4.3); 0 = unlimited.
  uint64_t MaxInstructions = 10000000;
  /// Initial register values (register number 0..255, value), applied in
  /// order to every lane of every wave (formats/isa.md §4.1).
  std::vector<std::pair<unsigned, uint32_t>> SetRegs;
  /// Index of the kernel to run in the file's kernel table (D18).
  unsigned KernelIndex = 0;
  /// Threads that run workgroups: 1 runs them one after another on the
  /// calling thread; 0 uses one per hardware thread the process may run
  /// on. Results, faults and statistics do not depend on it. A trace
  /// (Emulator::setTrace) always runs on one thread.
  unsigned Jobs = 1;
};

/// Execution statistics (formats/isa.md §4.21, with D29's default split of
/// atomic counts). Counted over all workgroups of a run.
struct EmuStats {
  uint64_t Instructions = 0;
  uint64_t IntegerOps = 0, FloatOps = 0, MemoryOps = 0, ControlOps = 0,
           WaveOps = 0;
  /// Atomic instructions executed (one per instruction).
  uint64_t AtomicOps = 0;
  /// Lane-level atomic read-modify-writes (one per active lane).
  uint64_t AtomicLaneOps = 0;
  uint64_t DeviceLoads = 0, DeviceLoadBytes = 0;
  uint64_t DeviceStores = 0, DeviceStoreBytes = 0;
  uint64_t LocalLoads = 0, LocalLoadBytes = 0;
  uint64_t LocalStores = 0, LocalStoreBytes = 0;
  uint64_t Barriers = 0;
  uint64_t DivergentBranches = 0;
  uint64_t Workgroups = 0;
  uint64_t Waves = 0;

  /// Prints the `--stats` block of formats/isa.md §7.4 (plus the "Atomic lane
  /// ops" line of D29) to \p OS.
  void print(llvm::raw_ostream &OS) const;
  /// Adds every count of \p O to this one.
  EmuStats &operator+=(const EmuStats &O);
};

/// How the threads of the last parallel run (EmuConfig::Jobs > 1) spent
/// their time: wave-run --profile-jobs, for finding what keeps a kernel from
/// scaling (wave-run(1) "PARALLEL EXECUTION"). A thread claims batches of
/// consecutive workgroups; a batch runs directly when it is the oldest not
/// yet committed, speculatively otherwise; whichever thread finds the next
/// batches in grid order finished validates and commits them, running
/// again (directly) one whose reads went stale or whose speculative view
/// gave up (libwave/lib/Emu/Speculation.h). Times are wall-clock seconds;
/// unlike EmuStats, none of it is deterministic.
struct JobsProfile {
  struct Thread {
    uint64_t Batches = 0;            ///< batches claimed and run.
    uint64_t Workgroups = 0;         ///< workgroups in them.
    uint64_t SpeculativeBatches = 0; ///< of the batches, run speculatively.
    /// Speculative batches (any thread's) this thread validated and
    /// committed; those that became the oldest while running need neither.
    uint64_t Committed = 0;
    /// Speculative batches this thread ran again while committing: one read
    /// a granule that an older batch wrote after it started (stale), or its
    /// speculative view gave up (it outgrew its bounds, or mixed logged
    /// atomics with plain accesses in one granule).
    uint64_t RerunStale = 0, RerunGaveUp = 0;
    double RunSeconds = 0;      ///< running its batches.
    double WaitSeconds = 0;     ///< waiting for a batch of its to commit.
    double ValidateSeconds = 0; ///< checking speculative batches' reads.
    double CommitSeconds = 0;   ///< copying valid batches' writes.
    double RerunSeconds = 0;    ///< running batches again.
  };
  /// One entry per thread; empty after a run on one thread.
  std::vector<Thread> Threads;
  /// Seconds from the first thread's start to the last one's end.
  double WallSeconds = 0;

  /// Prints a table, a header and one row per thread, to \p OS; when
  /// Threads is empty, one line saying that the run used one thread.
  void print(llvm::raw_ostream &OS) const;
};

/// Why a run stopped early.
enum class EmuErrorKind {
  Fault, ///< kernel fault (bad access, stack overflow, ...): exit status 1.
  Limit, ///< the --max-instructions limit was reached: exit status 3 (D41).
};

/// A run-time error of the emulated program. The message is one line
/// without the "error: " prefix, naming kernel, pc, instruction text, wave,
/// lane and address where they apply.
class EmuError : public llvm::ErrorInfo<EmuError> {
public:
  static char ID;
  /// \p PC is the byte offset of the faulting instruction relative to the
  /// kernel's first byte, when the error concerns one instruction.
  EmuError(EmuErrorKind Kind, std::string Message,
           std::optional<uint32_t> PC = std::nullopt)
      : Kind(Kind), Message(std::move(Message)), PC(PC) {}
  EmuErrorKind getKind() const { return Kind; }
  const std::string &getMessage() const { return Message; }
  /// The kernel-relative byte offset of the instruction the error is about
  /// (a fault, the instruction limit), or std::nullopt (a deadlock, an
  /// access made by the runner itself).
  std::optional<uint32_t> getPC() const { return PC; }
  void log(llvm::raw_ostream &OS) const override { OS << Message; }
  std::error_code convertToErrorCode() const override;

private:
  EmuErrorKind Kind;
  std::string Message;
  std::optional<uint32_t> PC;
};

/// The largest workgroup the emulator runs (threads, x * y * z) and the most
/// local memory a workgroup may have (bytes): bounds of this emulator, not
/// of the ISA (formats/isa.md §4.1 sets neither).
inline constexpr uint64_t MaxWorkgroupThreads = 65536;
inline constexpr uint32_t MaxLocalMemoryBytes = uint32_t(1) << 30;

class EmulatorImpl;

/// One emulation run: device memory, the decoded kernel and statistics.
/// Typical use: create(), fill deviceMemory(), run(), read deviceMemory()
/// and stats(). Not thread-safe; run() uses EmuConfig::Jobs threads of its
/// own and returns when they are done. Semantics: formats/isa.md §4 with the
/// "default" column of §8 (D3 CAS, D5 continue, D6 break in if, D8 halt, D9
/// predicated control flow, D10 fdiv by zero, D11 clamps, D18 kernel end, D19
/// extra compares, D25 local u128, D26 shuffle-down wrap, D28 barriers, D29
/// stats). Predicated else/endif/loop/endloop act as if unpredicated; a
/// predicated call, return, barrier, fence, wait or nop is skipped when no
/// active lane satisfies the predicate; `halt` retires the active lanes for
/// good (the wave ends when all its lanes have); `return` with an empty call
/// stack ends the whole wave (formats/isa.md §4.16).
class Emulator {
public:
  /// Validates \p Config against \p File and decodes the selected kernel
  /// (the whole code section when the file has no kernel entries,
  /// formats/isa.md §4.2). \p File must outlive the emulator. Fails with a
  /// plain StringError for a wave width outside 1..64 (D27), a kernel index
  /// outside the table, a device memory above 2^32 + 16 bytes (addresses are
  /// 32-bit, so more is never useful), a workgroup of more than 65536 threads,
  /// or more than 1 GiB of local memory per workgroup. Undecodable instructions
  /// and bad call targets are not an error here; they fault when executed.
  /// Complexity: one pass over the kernel's code.
  static llvm::Expected<std::unique_ptr<Emulator>>
  create(const WbinFile &File, const EmuConfig &Config);
  /// As create(), but the run's device memory is \p Memory, which the
  /// caller owns, keeps alive and does not touch while run() runs:
  /// Config.DeviceMemory is ignored, \p Memory.size() (at most 2^32 + 16
  /// bytes) bounds every access, and the kernel reads and writes it in
  /// place, so that buffers persist across emulators without copies (the
  /// host runtime's device, wave/Host/Runtime.h). Nothing zeroes it.
  static llvm::Expected<std::unique_ptr<Emulator>>
  create(const WbinFile &File, const EmuConfig &Config,
         llvm::MutableArrayRef<uint8_t> Memory);
  ~Emulator();

  /// Device memory: Config.DeviceMemory bytes, zero at creation, or the
  /// caller's memory given to create().
  llvm::MutableArrayRef<uint8_t> deviceMemory();
  /// Copies \p Bytes to device memory at byte \p Offset. Fails (EmuError,
  /// Fault) with "memory access out of bounds" if it does not fit; marks
  /// the bytes initialised for initcheck (enableChecks()).
  llvm::Error writeDevice(uint64_t Offset, llvm::ArrayRef<uint8_t> Bytes);

  /// Turns on the checkers of \p Opts.Kinds (Checks.h; wave-run --check)
  /// for the next run(), or off when it is 0. \p Buffers are the buffers
  /// memcheck checks device accesses against (copied; none: only the end of
  /// device memory is checked). Reports and the summary line go to \p OS,
  /// which must outlive run(). A checked run runs its workgroups on one
  /// thread whatever EmuConfig::Jobs says, with the same results,
  /// statistics and faults as an unchecked one, except that synccheck turns
  /// a barrier deadlock into a report and goes on. Call it after create()
  /// and before filling device memory: initcheck starts with every byte
  /// uninitialised, and writeDevice() and markInitialized() initialise.
  void enableChecks(const CheckOptions &Opts,
                    llvm::ArrayRef<CheckBuffer> Buffers, llvm::raw_ostream &OS);
  /// initcheck: device bytes [\p Offset, \p Offset + \p Size) were
  /// initialised by the host (a fill written through deviceMemory()).
  /// Clipped to device memory; nothing without checks.
  void markInitialized(uint64_t Offset, uint64_t Size);
  /// Findings of the checked runs so far, per checker (zero when
  /// unchecked).
  CheckCounts checkCounts() const;

  /// Sends one line per executed step to \p OS (formats/isa.md §7.4 `--trace`
  /// format); nullptr turns tracing off. The stream must outlive run().
  void setTrace(llvm::raw_ostream *OS);

  /// Runs the selected kernel over the whole grid (formats/isa.md §4.2, §4.3).
  /// Fails with an EmuError: Fault for a kernel fault, Limit when a workgroup
  /// exceeds the instruction limit. Statistics count up to the failure.
  llvm::Error run();

  /// Statistics of the runs so far.
  const EmuStats &stats() const;

  /// Where the threads of the last run() spent their time (empty when it
  /// ran on one thread).
  const JobsProfile &jobsProfile() const;

  /// Display name of the selected kernel (its name, or `kernel_<i>`).
  const std::string &kernelName() const;

private:
  explicit Emulator(std::unique_ptr<EmulatorImpl> Impl);
  /// create() over \p Memory, or over memory of its own when none.
  static llvm::Expected<std::unique_ptr<Emulator>>
  createImpl(const WbinFile &File, const EmuConfig &Config,
             std::optional<llvm::MutableArrayRef<uint8_t>> Memory);
  std::unique_ptr<EmulatorImpl> Impl;
};

} // namespace wave::emu

#endif // WAVE_EMU_EMULATOR_H
