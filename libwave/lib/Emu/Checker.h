//===- Checker.h - The state of wave-run --check during a run ---*- C++ -*-===//
//
// Internal to lib/Emu. The emulator's execution loop has a checked
// instantiation (runLoop<..., Checked = true>) that calls the hooks below
// before every memory access and at every barrier; the unchecked
// instantiations never mention the checker, so a run without --check is
// unchanged. A checked run always runs its workgroups one after another on
// one thread, in grid order (formats/isa.md §4.2), so that the reports come
// in one deterministic order whatever --jobs says.
//
// Shadow state, allocated only for the checkers asked for:
//   * initcheck: one byte per device byte (1 = initialised by a fill, an
//     argument or a kernel write), one u32 per local byte holding the
//     sequence number of the workgroup that last wrote it (local memory
//     starts uninitialised for every workgroup).
//   * racecheck: per local byte, the last write and the last read (epoch,
//     instruction, wave, lane), where the epoch counts barrier releases and
//     workgroups, so a cell from an earlier epoch is stale without being
//     cleared; per device word, the workgroups that last wrote and read it.
//
//===----------------------------------------------------------------------===//
#ifndef WAVE_LIB_EMU_CHECKER_H
#define WAVE_LIB_EMU_CHECKER_H

#include "wave/Emu/Checks.h"
#include "wave/Object/Wbin.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace wave::emu {

/// How an instruction touches memory, for the checkers.
enum class AccessKind : uint8_t {
  Read,  ///< a plain load (and the loads of mma_load_a/b).
  Write, ///< a plain store (and the stores of mma_store_c).
  Atomic ///< an atomic read-modify-write: reads, writes, never races.
};

/// Where an access or a barrier happens: the instruction (index into the
/// decoded kernel and its kernel-relative byte PC) and the wave.
struct CheckSite {
  uint32_t Idx = 0; ///< decoded instruction index.
  uint32_t PC = 0;  ///< byte offset of the instruction in the kernel.
  unsigned Wave = 0;
};

/// The checkers of one emulator run. Not thread-safe: a checked run is
/// sequential. Every hook returns nothing and never changes memory or
/// registers; faults stay the emulator's.
class Checker {
public:
  /// \p InstText gives the assembly text of a decoded instruction index,
  /// \p PCOf its kernel-relative byte PC; \p Grid is the grid in workgroups.
  /// \p CodeOffset is the kernel's first byte in the code section (for the
  /// line table of \p File). \p DeviceSize and \p LocalSize are bytes; \p W
  /// lanes per wave; \p Buffers the named-launch buffers (memcheck's rule
  /// applies only when there is at least one).
  Checker(const CheckOptions &Opts, llvm::ArrayRef<CheckBuffer> Buffers,
          llvm::raw_ostream &OS, const WbinFile &File, uint32_t CodeOffset,
          std::string KernelName,
          std::function<std::string(uint32_t)> InstText,
          std::function<uint32_t(uint32_t)> PCOf, uint64_t DeviceSize,
          uint32_t LocalSize, unsigned W, std::array<uint32_t, 3> Grid);

  bool has(CheckKind K) const { return (Opts.Kinds & K) != 0; }

  /// Marks device bytes [Offset, Offset + Size) initialised (a fill or an
  /// argument). The range is clipped to device memory.
  void markDevice(uint64_t Offset, uint64_t Size);

  /// A new workgroup \p Id (linear index \p Linear in grid order) starts:
  /// its local memory is uninitialised and no access of it has happened.
  void beginWorkgroup(std::array<uint32_t, 3> Id, uint64_t Linear);

  /// An access of \p N bytes by every lane in \p Exec of the wave of \p S,
  /// at the byte addresses \p Ap[lane] (one per lane, W lanes), to local
  /// (\p IsLocal) or device memory, before it is performed.
  void access(const CheckSite &S, const uint32_t *Ap, uint64_t Exec,
              unsigned N, AccessKind K, bool IsLocal);
  /// The same for one lane's access at \p Addr (the MMA instructions).
  void accessLane(const CheckSite &S, unsigned Lane, uint64_t Addr,
                  unsigned N, AccessKind K, bool IsLocal);

  /// synccheck: the wave of \p S executes `barrier` with lanes \p Exec
  /// active out of its \p Present lanes (live and not halted).
  void barrier(const CheckSite &S, uint64_t Exec, uint64_t Present);
  /// All waves of the workgroup have arrived and are released. \p WaitIdx
  /// holds each wave's barrier instruction index, or UINT32_MAX for a
  /// halted wave (a deadlock: some waves halted, the others wait).
  /// racecheck starts a new epoch; synccheck reports waves at different
  /// barriers and waves that never arrive.
  void release(llvm::ArrayRef<uint32_t> WaitIdx);

  /// Prints the summary line (always, when any checker is on).
  void printSummary();
  const CheckCounts &counts() const { return Counts; }

private:
  struct Race {
    uint32_t WEpoch = 0, REpoch = 0;
    uint32_t WIdx = 0, RIdx = 0;
    uint16_t WWave = 0, RWave = 0;
    uint8_t WLane = 0, RLane = 0;
    /// Read in this epoch by more than one wave; the last read was atomic.
    bool RMulti = false, RAtomic = false;
  };
  struct DevRace {
    uint32_t WGroup = 0, RGroup = 0; ///< linear workgroup + 1; 0 = none.
    uint32_t WIdx = 0, RIdx = 0;
    /// A reading workgroup other than RGroup, when RMulti.
    uint32_t ROther = 0;
    bool RMulti = false;
  };

  /// Starts a report of checker \p K: false (and counted) past the limit.
  bool begin(CheckKind K);
  /// "pc 0x.... (text)[ at FILE:LINE[:COL]]" for decoded instruction \p Idx.
  void site(uint32_t Idx);
  /// " at <site>, workgroup (x,y,z) wave W[ lane L]".
  void where(uint32_t Idx, unsigned Wave, int Lane);
  /// "workgroup (x,y,z)" of linear index + 1 \p G.
  void groupOf(uint32_t G);
  /// Describes device address \p Addr relative to the buffers.
  void describeDevice(uint64_t Addr, unsigned N);
  /// memcheck of one lane; true when the access is bad.
  bool badDevice(uint64_t Addr, unsigned N) const;
  const CheckBuffer *bufferAt(uint64_t Addr) const;

  void memcheck(const CheckSite &S, const uint32_t *Ap, uint64_t Exec,
                unsigned N, AccessKind K, bool IsLocal);
  void initcheck(const CheckSite &S, const uint32_t *Ap, uint64_t Exec,
                 unsigned N, AccessKind K, bool IsLocal);
  void racecheck(const CheckSite &S, const uint32_t *Ap, uint64_t Exec,
                 unsigned N, AccessKind K, bool IsLocal);

  CheckOptions Opts;
  std::vector<CheckBuffer> Buffers; ///< sorted by offset.
  llvm::raw_ostream &OS;
  const WbinFile &File;
  uint32_t CodeOffset;
  std::string Name;
  std::function<std::string(uint32_t)> InstText;
  std::function<uint32_t(uint32_t)> PCOf;
  uint64_t DeviceSize;
  uint32_t LocalSize;
  unsigned W;
  uint64_t Full; ///< the mask of all W lanes.
  std::array<uint32_t, 3> Grid;

  CheckCounts Counts;
  std::array<uint32_t, 3> WgId = {0, 0, 0};
  uint32_t Group = 0;      ///< linear workgroup index + 1.
  uint32_t Epoch = 0;      ///< racecheck epoch (barrier phases).
  std::vector<uint8_t> DevInit;
  std::vector<uint32_t> LocalInit; ///< Group of the last write.
  std::vector<Race> LocalRace;
  std::vector<DevRace> DeviceRace; ///< per 4-byte word.
};

} // namespace wave::emu

#endif // WAVE_LIB_EMU_CHECKER_H
