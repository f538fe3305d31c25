//===- EmulatorImpl.h - The emulator's internal types -----------*- C++ -*-===//
//
// Private to lib/Emu. The types the emulator's translation units share:
// EmulatorImpl (a run's decoded kernel, launch shape and device memory) and
// WorkgroupRunner (waves, registers and local memory of one thread's
// workgroups), with the decoded form of an instruction and a wave's state.
// The code is in
//
//   Emulator.cpp    the public facade (Emulator::create etc.),
//                   EmulatorImpl::run and the sequential run
//   Decode.cpp      EmulatorImpl::decode: the kernel's code into DInst records
//   Faults.cpp      instruction text, the runner's faults and --trace lines
//   Interpreter.cpp the execution loop (compiled twice, see below), workgroup
//                   setup and the speculative run's checkpoints
//   LaneMemory.h    the loop's per-lane loads and stores (inlined into it)
//   ParallelRun.cpp EmulatorImpl::runParallel: speculative runs committed in
//                   grid order (Speculation.h), on threads of WorkerPool.h
//
// Implementation notes.
//
// * Decoding. The selected kernel's code range is decoded once into DInst
//   records (32 bytes each): the internal op (wave::Opcode, or Invalid/End),
//   the predicate nibble, raw register numbers and precomputed element
//   offsets of the rd/rs1/rs2/rs3 rows in the register file. Registers at or
//   beyond the kernel's register count map to a zero row (reads) or a sink
// row (writes), which implements "reads 0, writes dropped" (formats/isa.md
// §4.1)
//   without a branch. Byte PCs become instruction indices; a call target
//   that is not an instruction boundary faults when the call executes.
//   Undecodable words become Invalid records that fault when reached; an
//   End record after the last instruction reports a wave running past the
//   end of its kernel (D18).
//
// * Registers. One wave's registers are a [row][lane] array of u32, so an
//   ALU instruction is a loop over lanes that the compiler vectorizes. A
//   partially active wave blends the result with the active mask.
//
// * Control. Per wave: a 64-bit active mask, an "exited" mask (D8), a
//   32-frame divergence stack and an 8-entry call stack. The default column
// of formats/isa.md §8 is implemented for D5 (continue), D6 (break inside if),
// D8
//   (halt), D9 (predicated control flow).
//
// * Scheduling (formats/isa.md §4.3): one instruction of one wave per step,
// waves
//   picked round-robin; barriers release when every wave of the workgroup
//   waits. Workgroups run one after another.
//
// The execution loop is compiled twice on x86-64 (baseline and AVX2+FMA) and
// picked at load time; both give bit-identical results (IEEE operations,
// no contraction, std::fma is correctly rounded either way).
//
//===----------------------------------------------------------------------===//
#ifndef WAVE_LIB_EMU_EMULATORIMPL_H
#define WAVE_LIB_EMU_EMULATORIMPL_H

#include "Checker.h"
#include "Speculation.h"

#include "wave/Emu/Emulator.h"
#include "wave/ISA/ISA.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <array>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace wave::emu {

/// Internal ops beyond wave::Opcode.
constexpr uint16_t OpInvalid = NumOpcodes;
constexpr uint16_t OpEnd = NumOpcodes + 1;
constexpr unsigned NumInternalOps = NumOpcodes + 2;
constexpr uint32_t NoTarget = ~0u;
/// Runners per thread of a parallel run: a thread whose finished batch waits
/// for an older one to commit runs its next batch meanwhile, on another.
constexpr unsigned RunnersPerThread = 2;
/// The most local memory the runners of a parallel run hold together
/// (bytes); a kernel with more per workgroup runs on fewer threads.
constexpr uint64_t MaxParallelLocal = uint64_t(1) << 30;

/// The elementwise instructions: rd = EXPR in every executing lane, where
/// a, b, c are the lane's rs1, rs2, rs3 values (U and F convert f32 bits).
/// This one list gives the execution loop its cases and GroupKindOf its
/// Rows entries.
#define WAVE_EMU_ELEMENTWISE_OPS(X)                                            \
  /* Integer (isa.md §4.5). */                                                \
  X(Iadd, a + b)                                                               \
  X(Isub, a - b)                                                               \
  X(Imul, (a * b))                                                             \
  X(ImulHi, sem::imulHi(a, b))                                                 \
  X(Imad, (a * b + c))                                                         \
  X(Idiv, sem::idiv(a, b))                                                     \
  X(Imod, sem::imod(a, b))                                                     \
  X(Ineg, sem::ineg(a))                                                        \
  X(Iabs, sem::iabs(a))                                                        \
  X(Imin, sem::imin(a, b))                                                     \
  X(Imax, sem::imax(a, b))                                                     \
  X(Iclamp, sem::iclamp(a, b, c))                                              \
  /* f32 (isa.md §4.7). */                                                    \
  X(Fadd, U(F(a) + F(b)))                                                      \
  X(Fsub, U(F(a) - F(b)))                                                      \
  X(Fmul, U(F(a) * F(b)))                                                      \
  X(Fma, U(std::fma(F(a), F(b), F(c))))                                        \
  X(Fdiv, U(sem::fdiv(F(a), F(b))))                                            \
  X(Fneg, a ^ 0x80000000u)                                                     \
  X(Fabs, a & 0x7FFFFFFFu)                                                     \
  X(Fmin, U(sem::fmin(F(a), F(b))))                                            \
  X(Fmax, U(sem::fmax(F(a), F(b))))                                            \
  X(Fclamp, U(sem::fclamp(F(a), F(b), F(c))))                                  \
  X(Fsqrt, U(std::sqrt(F(a))))                                                 \
  X(Frsqrt, U(1.0f / std::sqrt(F(a))))                                         \
  X(Frcp, U(1.0f / F(a)))                                                      \
  X(Ffloor, U(std::floor(F(a))))                                               \
  X(Fceil, U(std::ceil(F(a))))                                                 \
  X(Fround, U(std::round(F(a))))                                               \
  X(Ftrunc, U(std::trunc(F(a))))                                               \
  X(Ffract, U(F(a) - std::trunc(F(a))))                                        \
  X(Fsat, U(sem::fsat(F(a))))                                                  \
  X(Fsin, U(std::sin(F(a))))                                                   \
  X(Fcos, U(std::cos(F(a))))                                                   \
  X(Fexp2, U(std::exp2(F(a))))                                                 \
  X(Flog2, U(std::log2(F(a))))                                                 \
  /* f16 / bf16 (isa.md §4.8). */                                             \
  X(Hadd, f2h(h2f(a) + h2f(b)))                                                \
  X(Hsub, f2h(h2f(a) - h2f(b)))                                                \
  X(Hmul, f2h(h2f(a) * h2f(b)))                                                \
  X(Hma, f2h(std::fma(h2f(a), h2f(b), h2f(c))))                                \
  X(Hadd2, f2h(h2f(a) + h2f(b)) | f2h(h2f(a >> 16) + h2f(b >> 16)) << 16)      \
  X(Hmul2, f2h(h2f(a) * h2f(b)) | f2h(h2f(a >> 16) * h2f(b >> 16)) << 16)      \
  X(Hma2, f2h(std::fma(h2f(a), h2f(b), h2f(c))) |                              \
              f2h(std::fma(h2f(a >> 16), h2f(b >> 16), h2f(c >> 16))) << 16)   \
  X(Badd, f2b(b2f(a) + b2f(b)))                                                \
  X(Bsub, f2b(b2f(a) - b2f(b)))                                                \
  X(Bmul, f2b(b2f(a) * b2f(b)))                                                \
  X(Bma, f2b(std::fma(b2f(a), b2f(b), b2f(c))))                                \
  X(Badd2, f2b(b2f(a) + b2f(b)) | f2b(b2f(a >> 16) + b2f(b >> 16)) << 16)      \
  X(Bmul2, f2b(b2f(a) * b2f(b)) | f2b(b2f(a >> 16) * b2f(b >> 16)) << 16)      \
  X(Bma2, f2b(std::fma(b2f(a), b2f(b), b2f(c))) |                              \
              f2b(std::fma(b2f(a >> 16), b2f(b >> 16), b2f(c >> 16))) << 16)   \
  /* Bitwise (isa.md §4.6). */                                                \
  X(And, (a & b))                                                              \
  X(Or, a | b)                                                                 \
  X(Xor, a ^ b)                                                                \
  X(Not, ~a)                                                                   \
  X(Shl, sem::shl(a, b))                                                       \
  X(Shr, sem::shr(a, b))                                                       \
  X(Sar, sem::sar(a, b))                                                       \
  X(Bitcount, sem::bitcount(a))                                                \
  X(Bitfind, sem::bitfind(a))                                                  \
  X(Bitrev, sem::bitrev(a))                                                    \
  X(Bfe, sem::bfe(a, b, c))                                                    \
  /* Conversions (isa.md §4.11). */                                           \
  X(CvtF32I32, U(float(int32_t(a))))                                           \
  X(CvtF32U32, U(float(a)))                                                    \
  X(CvtI32F32, sem::cvtI32F32(F(a)))                                           \
  X(CvtU32F32, sem::cvtU32F32(F(a)))                                           \
  X(CvtF32F16, f16ToF32Bits(uint16_t(a)))                                      \
  X(CvtF16F32, f32BitsToF16(a))                                                \
  X(CvtF32Bf16, a << 16)                                                       \
  X(CvtBf16F32, a >> 16)                                                       \
  /* Moves (isa.md §4.19). */                                                 \
  X(Mov, a)                                                                    \
  X(MovImm, I.Imm)

/// How a lockstep step (every wave ready at the same instruction with every
/// lane executing, and wave 0 next) runs an opcode's NW steps at once.
enum class GroupKind : uint8_t {
  None,    ///< one wave per step.
  Rows,    ///< elementwise: one loop over whole register rows.
  EachWave ///< the opcode's case loops over the waves itself.
};

constexpr auto GroupKindOf = [] {
  std::array<GroupKind, NumInternalOps> T{};
#define ROWS(OP, ...) T[uint16_t(Opcode::OP)] = GroupKind::Rows;
  WAVE_EMU_ELEMENTWISE_OPS(ROWS)
#undef ROWS
  for (unsigned Op = 0; Op != NumOpcodes; ++Op)
    if (isLoad(Opcode(Op)) || isStore(Opcode(Op)) || isCompare(Opcode(Op)))
      T[Op] = GroupKind::EachWave;
  return T;
}();

constexpr unsigned MaxControlDepth = 32; // formats/isa.md §4.15
constexpr unsigned MaxCallDepth = 8;     // formats/isa.md §4.16

/// One decoded instruction in the internal form.
struct DInst {
  uint16_t Op;
  uint8_t Pred; ///< W0 bits 2:0; nonzero = predicated (formats/isa.md §1.3).
  uint8_t Rd, Rs1, Rs2, Rs3, Rs4;
  uint32_t D, A, B, C; ///< element offsets: write row of rd, read rows.
  uint32_t Imm;        ///< mov_imm value, call target index, sr index.
  uint32_t PC;         ///< byte offset within the kernel.
};
static_assert(sizeof(DInst) == 32);

struct Frame {
  uint64_t Entry;
  uint64_t Else; ///< IF: else mask; LOOP: break set.
  uint32_t Start;
  bool IsLoop;
};

enum class WaveStatus : uint8_t { Ready, Barrier, Halted };

struct Wave {
  uint32_t *R = nullptr;
  uint64_t P[4] = {0, 0, 0, 0};
  uint64_t Active = 0, Exited = 0, Live = 0;
  uint32_t PC = 0;
  WaveStatus St = WaveStatus::Ready;
  unsigned Depth = 0, CallDepth = 0;
  Frame Stack[MaxControlDepth];
  uint32_t CallStack[MaxCallDepth];
  uint32_t Id = 0;
  /// Per-lane thread ids (x, y, z).
  std::vector<uint32_t> Tid[3];
  /// MMA fragments (A, B, C tables): index into FragPool, or -1.
  std::array<std::array<int32_t, 256>, 3> Frag;
  std::vector<float> FragPool; ///< fragments of [16][W] floats.
};


/// The shared, read-only part of a run once it starts: decoded kernel,
/// launch shape, device memory, and the statistics of committed workgroups.
class EmulatorImpl {
public:
  const WbinFile &File;
  EmuConfig Cfg;
  KernelInfo Kernel;
  std::string Name;
  std::vector<DInst> Code;
  std::vector<Inst> Orig;                 ///< for instruction text.
  std::vector<std::string> InvalidReason; ///< per instruction, if invalid.
  /// Device memory: OwnedDevice, or memory the caller owns (the host
  /// runtime's device, Emulator::create() with a span).
  llvm::MutableArrayRef<uint8_t> Device;
  /// calloc'd: the zero pages are mapped as first touched, by whichever
  /// thread touches them, not all by create().
  struct FreeDeleter {
    void operator()(uint8_t *P) const { std::free(P); }
  };
  std::unique_ptr<uint8_t[], FreeDeleter> OwnedDevice;
  EmuStats Stats;
  uint64_t OpCount[NumInternalOps] = {};
  llvm::raw_ostream *Trace = nullptr;
  /// wave-run --check (Emulator::enableChecks()); null = unchecked.
  std::unique_ptr<Checker> Chk;

  unsigned W = 32;
  /// Lanes per register row: W rounded up to a multiple of 8.
  unsigned Stride = 32;
  /// Elements per register row: Stride lanes of every wave (NumWaves).
  unsigned RowSize = 32;
  uint64_t Full = 0;
  unsigned NumRegs = 32, NumRows = 34;
  uint32_t RRow[256], WRow[256]; ///< element offsets per register number.
  std::array<uint32_t, 3> WG = {1, 1, 1};
  uint32_t LocalSize = 0;
  unsigned NumWaves = 0;

  /// The last run's (runParallel()).
  JobsProfile Profile;

  EmulatorImpl(const WbinFile &F, const EmuConfig &C) : File(F), Cfg(C) {}

  void decode();
  llvm::Error run();
  std::string instText(uint32_t Idx, bool RefTrace = false) const;

private:
  friend class WorkgroupRunner;
  /// Adds one workgroup's statistics (\p Counts per internal op).
  void absorb(const EmuStats &S, const uint64_t *Counts);
  llvm::Error runSequential(uint64_t NumGroups);
  llvm::Error runParallel(uint64_t NumGroups, unsigned Threads);
  std::array<uint32_t, 3> groupId(uint64_t Linear) const;
};

/// How a workgroup run reaches device memory (Speculation.h).
enum class MemMode {
  Direct,     ///< reads and writes device memory (the sequential run).
  Marked,     ///< Direct, and stamps written granules with the run's tick.
  Speculative ///< through the worker's SpeculativeMemory.
};

/// Runs workgroups, one at a time, for one thread: waves, registers, local
/// memory, the statistics of the current workgroup and, for parallel runs,
/// the speculative view of device memory.
class alignas(64) WorkgroupRunner {
public:
  explicit WorkgroupRunner(EmulatorImpl &E);

  /// Starts a run of one or more workgroups, in grid order, in mode \p M:
  /// resets Fault, Stats, OpCount and (Speculative) the speculative view.
  void begin(MemMode M);
  /// Runs workgroup \p Id as part of the run begin() started. Returns false
  /// when it stopped early: Fault is set, or (Speculative only)
  /// Spec.gaveUp(). A speculative run that becomes the oldest (Group is the
  /// number of workgroups committed) goes on directly (Promoted).
  bool runWorkgroup(std::array<uint32_t, 3> Id);

  EmulatorImpl &E;
  std::optional<EmuError> Fault;
  EmuStats Stats;
  uint64_t OpCount[NumInternalOps] = {};
  SpeculativeMemory Spec;
  /// Parallel runs: the tick of each granule's last write (Marked runs
  /// stamp, speculative runs validate against it), the tick of this run's
  /// commit, and the last tick committed when this run started.
  uint32_t *WriteTick = nullptr;
  uint32_t Tick = 0, StartTick = 0;
  /// Parallel runs: set when a run's result is no longer wanted.
  const std::atomic<bool> *Cancel = nullptr;
  /// Parallel runs: the number of workgroups committed, and the linear
  /// index of this run's first workgroup.
  const std::atomic<uint64_t> *Committed = nullptr;
  uint64_t Group = 0;
  /// Set when a speculative run became the oldest and went on directly:
  /// its stores are in device memory and need no commit.
  bool Promoted = false;

  /// The execution loop over the current workgroup's waves (formats/isa.md
  /// §4.3).
  template <bool Tracing, MemMode M, bool Checked = false>
  [[gnu::always_inline]] inline bool runLoop();

private:
  /// Steps between a speculative run's checks of Cancel and of its reads.
  static constexpr uint64_t CheckInterval = 1 << 13;
  /// The step count at which the loop next calls checkpoint().
  uint64_t nextCheck(uint64_t Steps) const;
  enum class Check { Continue, Stop, Promote };
  /// The instruction limit (formats/isa.md §4.3) and a speculative run's
  /// periodic checks: Stop ends the run (Fault set, or the speculation
  /// abandoned); Promote ends the speculative loop of a run that has become the
  /// oldest with valid reads, to go on directly.
  [[gnu::noinline]] Check checkpoint(uint64_t Steps, const DInst &I,
                                     uint64_t &NextCheck);
  /// Where runLoop() starts: a new workgroup, or a promoted run.
  struct LoopState {
    uint64_t Steps;
    unsigned Cursor, NumHalted, NumBarrier;
  } Resume = {0, 0, 0, 0};
  void initWorkgroup();
  void promote();
  /// Tells the checker that the waves waiting at barriers are released.
  [[gnu::noinline]] void checkRelease();
  /// Whether every wave is at the same instruction \p I with every lane
  /// executing (its active mask and predicate cover the whole wave).
  bool lockstep(const DInst &I) const {
    uint32_t PC = Waves[0].PC;
    for (unsigned K = 0; K != NumWaves; ++K) {
      const Wave &Wv = Waves[K];
      uint64_t PM = I.Pred == 0    ? ~uint64_t(0)
                    : (I.Pred & 4) ? ~Wv.P[I.Pred & 3]
                                   : Wv.P[I.Pred & 3];
      if (Wv.PC != PC || (Wv.Active & PM) != Full)
        return false;
    }
    return true;
  }
  MemMode Mode = MemMode::Direct;
  /// runLoop() returned to be promoted (checkpoint() said Promote).
  bool Promoting = false;

  // Faults ---------------------------------------------------------------
  std::string where(const Wave &Wv, const DInst &I, int Lane) const;
  // The fault helpers are out of line and take only plain arguments, so
  // that the multiversioned hot loop needs no string code.
  [[gnu::noinline]] bool fault(const Wave &Wv, const DInst &I, int Lane,
                               const char *What, const char *Detail = nullptr);
  [[gnu::noinline]] bool memFault(const Wave &Wv, const DInst &I, int Lane,
                                  bool IsLocal, uint64_t Addr, unsigned N);
  [[gnu::noinline]] bool callTargetFault(const Wave &Wv, const DInst &I);
  [[gnu::noinline]] bool pastEndFault(const Wave &Wv, const DInst &I);
  [[gnu::noinline]] bool deadlockFault();
  [[gnu::noinline]] bool limitFault(uint64_t Steps, const DInst &I);
  [[gnu::noinline]] void traceStep(const Wave &Wv, uint32_t Idx);
  [[gnu::noinline]] void traceBreak(uint64_t Old, uint64_t Pred, unsigned Reg,
                                    uint64_t New);
  [[gnu::noinline]] void traceEndloop(uint64_t Old, uint64_t New, bool Jump,
                                      uint32_t Target);

  // Copies of the launch shape, so that the loop reads them from here.
  const std::vector<DInst> &Code;
  const std::vector<std::string> &InvalidReason;
  const EmuConfig &Cfg;
  const std::string &Name;
  const uint32_t *RRow, *WRow;
  const unsigned W, Stride, NumWaves, RowSize;
  const uint64_t Full;
  const std::array<uint32_t, 3> WG;
  llvm::raw_ostream *Trace;

  // Per-workgroup state.
  std::vector<Wave> Waves;
  std::vector<uint32_t> RegFile;
  std::vector<uint8_t> Local;
  std::vector<float> ZeroFrag;
  std::array<uint32_t, 3> WgId = {0, 0, 0};
};

} // namespace wave::emu

#endif // WAVE_LIB_EMU_EMULATORIMPL_H
