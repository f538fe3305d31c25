//===- Emulator.cpp - The WAVE reference emulator -------------------------===//
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
#include "wave/Emu/Emulator.h"

#include "Checker.h"
#include "Speculation.h"

#include "wave/Emu/FloatFormat.h"
#include "wave/ISA/ISA.h"
#include "wave/ISA/InstPrinter.h"
#include "wave/ISA/Semantics.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/Threading.h"

#include <atomic>
#include <bit>
#include <climits>
#include <cmath>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <new>
#include <thread>
#include <type_traits>

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

namespace {

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

} // namespace

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
  MutableArrayRef<uint8_t> Device;
  std::vector<uint8_t> OwnedDevice;
  EmuStats Stats;
  uint64_t OpCount[NumInternalOps] = {};
  raw_ostream *Trace = nullptr;
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

  EmulatorImpl(const WbinFile &F, const EmuConfig &C) : File(F), Cfg(C) {}

  void decode();
  Error run();
  std::string instText(uint32_t Idx, bool RefTrace = false) const;

private:
  friend class WorkgroupRunner;
  /// Adds one workgroup's statistics (\p Counts per internal op).
  void absorb(const EmuStats &S, const uint64_t *Counts);
  Error runSequential(uint64_t NumGroups);
  Error runParallel(uint64_t NumGroups, unsigned Threads);
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
  raw_ostream *Trace;

  // Per-workgroup state.
  std::vector<Wave> Waves;
  std::vector<uint32_t> RegFile;
  std::vector<uint8_t> Local;
  std::vector<float> ZeroFrag;
  std::array<uint32_t, 3> WgId = {0, 0, 0};
};

WorkgroupRunner::WorkgroupRunner(EmulatorImpl &E)
    : E(E), Code(E.Code), InvalidReason(E.InvalidReason), Cfg(E.Cfg),
      Name(E.Name), RRow(E.RRow), WRow(E.WRow), W(E.W), Stride(E.Stride),
      NumWaves(E.NumWaves), RowSize(E.RowSize), Full(E.Full), WG(E.WG),
      Trace(E.Trace) {
  Waves.assign(NumWaves, Wave());
  for (Wave &Wv : Waves)
    for (auto &Tid : Wv.Tid)
      Tid.assign(W, 0);
  RegFile.assign(size_t(E.NumRows) * RowSize, 0);
  Local.assign(E.LocalSize, 0);
  ZeroFrag.assign(16 * W, 0.0f);
}

//===----------------------------------------------------------------------===//
// Instruction text (for faults and --trace)
//===----------------------------------------------------------------------===//

std::string EmulatorImpl::instText(uint32_t Idx, bool RefTrace) const {
  const DInst &I = Code[Idx];
  if (I.Op == OpEnd)
    return "end of kernel";
  if (I.Op == OpInvalid)
    return formatv("word {0:x8}", I.Imm).str();
  std::string S;
  raw_string_ostream OS(S);
  printInst(Orig[Idx], OS,
            RefTrace ? InstSyntax::ReferenceTrace : InstSyntax::Assembly);
  return S;
}

std::string WorkgroupRunner::where(const Wave &Wv, const DInst &I,
                                   int Lane) const {
  std::string S;
  raw_string_ostream OS(S);
  OS << "at pc " << format("0x%04x", I.PC) << " ("
     << E.instText(uint32_t(&I - Code.data())) << "), workgroup (" << WgId[0]
     << ',' << WgId[1] << ',' << WgId[2] << ") wave " << Wv.Id;
  if (Lane >= 0)
    OS << " lane " << Lane;
  return S;
}

bool WorkgroupRunner::fault(const Wave &Wv, const DInst &I, int Lane,
                         const char *What, const char *Detail) {
  std::string Msg = "kernel '" + Name + "': " + What + " " + where(Wv, I, Lane);
  if (Detail && *Detail)
    Msg += std::string(": ") + Detail;
  Fault.emplace(EmuErrorKind::Fault, std::move(Msg), I.PC);
  return false;
}

bool WorkgroupRunner::callTargetFault(const Wave &Wv, const DInst &I) {
  std::string D = "offset " + std::to_string(E.Orig[&I - Code.data()].Word1) +
                  " is not an instruction boundary of the kernel";
  return fault(Wv, I, -1, "invalid call target", D.c_str());
}

bool WorkgroupRunner::pastEndFault(const Wave &Wv, const DInst &I) {
  std::string Msg;
  raw_string_ostream OS(Msg);
  OS << "kernel '" << Name << "': workgroup (" << WgId[0] << ',' << WgId[1]
     << ',' << WgId[2] << ") wave " << Wv.Id << " ran past the end of kernel '"
     << Name << "' (pc " << format("0x%04x", I.PC)
     << "; a kernel must end in halt)";
  Fault.emplace(EmuErrorKind::Fault, std::move(Msg));
  return false;
}

bool WorkgroupRunner::deadlockFault() {
  std::string Msg;
  raw_string_ostream OS(Msg);
  OS << "kernel '" << Name << "': deadlock detected: workgroup (" << WgId[0]
     << ',' << WgId[1] << ',' << WgId[2]
     << ") deadlocked - waves waiting at different barriers (";
  for (unsigned K = 0; K != NumWaves; ++K) {
    const Wave &X = Waves[K];
    OS << (K ? ", " : "") << "wave " << K;
    if (X.St == WaveStatus::Halted)
      OS << " halted";
    else
      OS << " at barrier pc " << format("0x%04x", Code[X.PC].PC);
  }
  OS << ")";
  Fault.emplace(EmuErrorKind::Fault, std::move(Msg));
  return false;
}

bool WorkgroupRunner::limitFault(uint64_t Steps, const DInst &I) {
  std::string Msg;
  raw_string_ostream OS(Msg);
  // The reference's text (formats/isa.md §4.20), then where, as faults say.
  OS << "instruction limit exceeded: " << Steps
     << " instructions (limit: " << Cfg.MaxInstructions << ") at PC "
     << format("0x%08x", I.PC) << " in kernel '" << Name << "', workgroup ("
     << WgId[0] << ',' << WgId[1] << ',' << WgId[2] << ")";
  Fault.emplace(EmuErrorKind::Limit, std::move(Msg), I.PC);
  return false;
}

void WorkgroupRunner::traceStep(const Wave &Wv, uint32_t Idx) {
  *Trace << "wg(" << WgId[0] << ',' << WgId[1] << ',' << WgId[2] << ") wave["
         << Wv.Id << "] pc=" << format("0x%04x", Code[Idx].PC) << ": "
         << E.instText(Idx, /*RefTrace=*/true) << "\n";
}

void WorkgroupRunner::traceBreak(uint64_t Old, uint64_t Pred, unsigned Reg,
                              uint64_t New) {
  *Trace << "  BREAK: active_mask=" << format("0x%llx", (unsigned long long)Old)
         << ", pred_mask=" << format("0x%llx", (unsigned long long)Pred)
         << ", pred_reg=p" << Reg << "\n"
         << "  BREAK: new_active_mask="
         << format("0x%llx", (unsigned long long)New) << ", jump=None\n";
}

void WorkgroupRunner::traceEndloop(uint64_t Old, uint64_t New, bool Jump,
                                uint32_t Target) {
  *Trace << "  ENDLOOP: active_mask="
         << format("0x%llx", (unsigned long long)Old)
         << "\n  ENDLOOP: new_active_mask="
         << format("0x%llx", (unsigned long long)New) << ", jump=";
  if (Jump)
    *Trace << "Some(" << Code[Target].PC << ")\n";
  else
    *Trace << "None\n";
}

bool WorkgroupRunner::memFault(const Wave &Wv, const DInst &I, int Lane,
                            bool IsLocal, uint64_t Addr, unsigned N) {
  std::string D;
  raw_string_ostream OS(D);
  OS << "address " << format("0x%08llx", (unsigned long long)Addr) << ", " << N
     << (N == 1 ? " byte, " : " bytes, ")
     << (IsLocal ? "local memory is " : "device memory is ")
     << (IsLocal ? Local.size() : E.Device.size()) << " bytes";
  return fault(Wv, I, Lane, "memory access out of bounds", D.c_str());
}

//===----------------------------------------------------------------------===//
// Decoding
//===----------------------------------------------------------------------===//

void EmulatorImpl::decode() {
  ArrayRef<uint8_t> Bytes = File.kernelCode(Kernel);
  std::vector<int32_t> IdxOf(Bytes.size() / 4 + 1, -1);
  auto RowOff = [&](unsigned R) { return RRow[R & 255]; };
  auto WOff = [&](unsigned R) { return WRow[R & 255]; };
  uint64_t Off = 0;
  while (Off < Bytes.size()) {
    DInst D{};
    D.PC = uint32_t(Off);
    IdxOf[Off / 4] = int32_t(Code.size());
    Expected<Inst> IOrErr = decodeInst(Bytes, Off);
    if (!IOrErr) {
      std::string Reason;
      handleAllErrors(
          IOrErr.takeError(),
          [&](const DecodeError &E) { Reason = E.reason(); },
          [&](const ErrorInfoBase &E) { Reason = E.message(); });
      D.Op = OpInvalid;
      D.Imm = Off + 4 <= Bytes.size() ? readLE32(Bytes.data() + Off) : 0;
      Code.push_back(D);
      Orig.push_back(Inst());
      InvalidReason.push_back(Reason);
      Off += 4;
      continue;
    }
    const Inst &I = *IOrErr;
    D.Op = uint16_t(I.Op);
    D.Pred = uint8_t((I.PredNeg ? 4 : 0) | (I.PredReg & 3));
    D.Rd = I.Rd;
    D.Rs1 = I.Rs1;
    D.Rs2 = I.Rs2;
    D.Rs3 = I.Rs3;
    D.Rs4 = I.Rs4;
    D.D = WOff(I.Rd);
    D.A = RowOff(I.Rs1);
    D.B = RowOff(I.Rs2);
    D.C = RowOff(I.Rs3);
    D.Imm = I.Op == Opcode::MovSr ? I.Rs1 : I.Word1;
    Code.push_back(D);
    Orig.push_back(I);
    InvalidReason.emplace_back();
    Off += I.length();
  }
  // The End sentinel: reaching it means running past the kernel (D18).
  DInst End{};
  End.Op = OpEnd;
  End.PC = uint32_t(Bytes.size());
  IdxOf[Bytes.size() / 4] = int32_t(Code.size());
  Code.push_back(End);
  Orig.push_back(Inst());
  InvalidReason.emplace_back();
  // Call targets: byte offsets relative to the kernel (formats/isa.md §4.16).
  for (DInst &D : Code) {
    if (D.Op != uint16_t(Opcode::Call))
      continue;
    uint32_t T = D.Imm;
    D.Imm = NoTarget;
    if (T % 4 == 0 && T / 4 < IdxOf.size() && IdxOf[T / 4] >= 0)
      D.Imm = uint32_t(IdxOf[T / 4]);
  }
}

//===----------------------------------------------------------------------===//
// Scalar semantics (formats/isa.md §4.5-§4.11)
//===----------------------------------------------------------------------===//

namespace {

inline float F(uint32_t B) { return std::bit_cast<float>(B); }
inline uint32_t U(float X) { return std::bit_cast<uint32_t>(X); }
inline double Dbl(uint32_t Lo, uint32_t Hi) {
  return std::bit_cast<double>(uint64_t(Lo) | uint64_t(Hi) << 32);
}

// f16 / bf16 helpers (formats/isa.md §4.8).
inline float h2f(uint32_t H) { return F(f16ToF32Bits(uint16_t(H))); }
inline uint32_t f2h(float X) { return f32BitsToF16(U(X)); }
inline float b2f(uint32_t H) { return F((H & 0xFFFF) << 16); }
inline uint32_t f2b(float X) { return U(X) >> 16; }

inline uint64_t laneBit(unsigned L) { return uint64_t(1) << L; }

/// The largest of the \p W lane values at \p Ap (a vectorized loop).
inline uint32_t maxLane(const uint32_t *Ap, unsigned W) {
  uint32_t Max = 0;
  for (unsigned L = 0; L != W; ++L)
    Max = std::max(Max, Ap[L]);
  return Max;
}

/// The smallest (\p Min) and the largest (\p Max) of the \p W lane values
/// at \p Ap (one vectorized loop).
inline void minMaxLane(const uint32_t *Ap, unsigned W, uint32_t &Min,
                       uint32_t &Max) {
  uint32_t Lo = ~0u, Hi = 0;
  for (unsigned L = 0; L != W; ++L) {
    Lo = std::min(Lo, Ap[L]);
    Hi = std::max(Hi, Ap[L]);
  }
  Min = Lo;
  Max = Hi;
}

/// Loads N bytes for each of the \p W lanes from Mem + Ap[lane] into rd
/// (and the following registers for N > 4), without bounds checks: the
/// caller has checked every address. Runs of 8 lanes that read one address
/// (a broadcast) or consecutive N-byte elements (a coalesced access, the
/// common GPU pattern) load as one block; other runs load lane by lane.
template <unsigned N>
[[gnu::always_inline]] inline void gatherLanes(uint32_t *R,
                                               const uint32_t *WRow,
                                               uint8_t Rd, const uint32_t *Ap,
                                               unsigned W,
                                               const uint8_t *Mem) {
  constexpr unsigned NR = N < 4 ? 1 : N / 4; // registers written
  uint32_t *Dp[NR];
  for (unsigned K = 0; K != NR; ++K)
    Dp[K] = R + WRow[(Rd + K) & 255];
  auto LoadLane = [&](unsigned L, uint32_t Addr) {
    uint32_t V[NR] = {};
    std::memcpy(V, Mem + Addr, N);
    for (unsigned K = 0; K != NR; ++K)
      Dp[K][L] = V[K];
  };
  unsigned L0 = 0;
  for (; L0 + 8 <= W; L0 += 8) {
    // Copy the addresses first: rd may be the address register.
    uint32_t A[8];
    std::memcpy(A, Ap + L0, sizeof(A));
    bool Same = true, Seq = true;
    for (unsigned K = 0; K != 8; ++K) {
      Same &= A[K] == A[0];
      Seq &= A[K] == A[0] + K * N;
    }
    if (Same) {
      uint32_t V[NR] = {};
      std::memcpy(V, Mem + A[0], N);
      for (unsigned K = 0; K != NR; ++K)
        for (unsigned J = 0; J != 8; ++J)
          Dp[K][L0 + J] = V[K];
    } else if (Seq) {
      uint32_t V[8][NR] = {};
      for (unsigned J = 0; J != 8; ++J)
        std::memcpy(V[J], Mem + A[0] + J * N, N);
      for (unsigned K = 0; K != NR; ++K)
        for (unsigned J = 0; J != 8; ++J)
          Dp[K][L0 + J] = V[J][K];
    } else {
      for (unsigned J = 0; J != 8; ++J)
        LoadLane(L0 + J, A[J]);
    }
  }
  for (; L0 != W; ++L0)
    LoadLane(L0, Ap[L0]);
}

/// Loads N bytes for every lane in Exec (ascending) from Mem into rd (and
/// the following registers for N > 4). Returns the first lane whose access
/// is out of bounds, or -1. N is a constant so memcpy becomes a move.
template <unsigned N>
[[gnu::always_inline]] inline int
loadLanes(uint32_t *R, const uint32_t *WRow, uint8_t Rd, const uint32_t *Ap,
          uint64_t Exec, uint64_t Full, unsigned W, const uint8_t *Mem,
          uint64_t Size) {
  if (Exec == Full) {
    // Whole wave: one vectorized bounds check, then a branch-free gather.
    if (uint64_t(maxLane(Ap, W)) + N <= Size) {
      gatherLanes<N>(R, WRow, Rd, Ap, W, Mem);
      return -1;
    }
  }
  for (uint64_t Rem = Exec; Rem; Rem &= Rem - 1) {
    unsigned L = unsigned(std::countr_zero(Rem));
    uint64_t Addr = Ap[L];
    if (Addr + N > Size)
      return int(L);
    if constexpr (N <= 4) {
      uint32_t V = 0;
      std::memcpy(&V, Mem + Addr, N);
      R[WRow[Rd] + L] = V;
    } else {
      uint32_t V[N / 4];
      std::memcpy(V, Mem + Addr, N);
      for (unsigned K = 0; K != N / 4; ++K)
        R[WRow[(Rd + K) & 255] + L] = V[K];
    }
  }
  return -1;
}

/// Stores N bytes of rval (and following registers for N > 4) for every
/// lane in Exec, ascending. Returns the first failing lane, or -1.
template <unsigned N>
[[gnu::always_inline]] inline int storeLanes(const uint32_t *R, const uint32_t *RRow, uint8_t Rv,
                      const uint32_t *Ap, uint64_t Exec, uint8_t *Mem,
                      uint64_t Size) {
  for (uint64_t Rem = Exec; Rem; Rem &= Rem - 1) {
    unsigned L = unsigned(std::countr_zero(Rem));
    uint64_t Addr = Ap[L];
    if (Addr + N > Size)
      return int(L);
    if constexpr (N <= 4) {
      uint32_t V = R[RRow[Rv] + L];
      std::memcpy(Mem + Addr, &V, N);
    } else {
      uint32_t V[N / 4];
      for (unsigned K = 0; K != N / 4; ++K)
        V[K] = R[RRow[(Rv + K) & 255] + L];
      std::memcpy(Mem + Addr, V, N);
    }
  }
  return -1;
}

/// speculativeLoadLanes/StoreLanes result: the run gave up (Speculation.h).
constexpr int GaveUpLane = SpeculativeMemory::GaveUpLane;

/// loadLanes for device memory seen through \p S: returns the first lane
/// out of bounds, GaveUpLane, or -1.
template <unsigned N>
[[gnu::always_inline]] inline int
speculativeLoadLanes(SpeculativeMemory &S, uint32_t *R, const uint32_t *WRow,
                     uint8_t Rd, const uint32_t *Ap, uint64_t Exec,
                     uint64_t Full, unsigned W, const uint8_t *Mem,
                     uint64_t Size) {
  // Record every lane's read first; when none touches this run's own
  // stores, the loads are the plain gather from committed memory.
  if (Exec == Full) {
    uint32_t Lo, Hi;
    minMaxLane(Ap, W, Lo, Hi);
    if (uint64_t(Hi) + N <= Size) {
      // Whole wave within two neighbouring granules (a coalesced access):
      // the lowest and the highest lane touch both, so they are the ones
      // to record.
      uint64_t GLo = Lo >> GranuleLog,
               GHi = (uint64_t(Hi) + N - 1) >> GranuleLog;
      if (GHi - GLo <= 1) {
        SpeculativeMemory::ReadKind K = S.prepareRead(GLo << GranuleLog, 1);
        if (K == SpeculativeMemory::ReadKind::Plain && GHi != GLo)
          K = S.prepareRead(GHi << GranuleLog, 1);
        if (K == SpeculativeMemory::ReadKind::GaveUp)
          return GaveUpLane;
        if (K == SpeculativeMemory::ReadKind::Plain) {
          gatherLanes<N>(R, WRow, Rd, Ap, W, Mem); // bounds checked above
          return -1;
        }
      }
      // Or every lane within the granule of the first or of the last lane,
      // apart (a wave of a GEMM reading two rows): those two.
      uint32_t GFirst = Ap[0] >> GranuleLog, GLast = Ap[W - 1] >> GranuleLog;
      bool InFirstOrLast = true;
      for (unsigned L = 0; L != W; ++L) {
        uint32_t A = Ap[L], G = A >> GranuleLog;
        InFirstOrLast &= ((G == GFirst) | (G == GLast)) &
                         ((A & (GranuleSize - 1)) + N <= GranuleSize);
      }
      if (InFirstOrLast) {
        SpeculativeMemory::ReadKind K =
            S.prepareRead(uint64_t(GFirst) << GranuleLog, 1);
        if (K == SpeculativeMemory::ReadKind::Plain)
          K = S.prepareRead(uint64_t(GLast) << GranuleLog, 1);
        if (K == SpeculativeMemory::ReadKind::GaveUp)
          return GaveUpLane;
        if (K == SpeculativeMemory::ReadKind::Plain) {
          gatherLanes<N>(R, WRow, Rd, Ap, W, Mem); // bounds checked above
          return -1;
        }
      }
      // Otherwise find the lanes that start a granule (vectorized), so that
      // only those are looked up.
      uint64_t Starts = 1;
      for (unsigned L0 = 0; L0 < W; L0 += 8) {
        uint32_t Chunk = 0;
        for (unsigned K = 0; K != 8; ++K) {
          unsigned L = L0 + K;
          uint32_t A = Ap[L], P = L ? Ap[L - 1] : ~A;
          Chunk |= uint32_t(((A ^ P) >> GranuleLog) != 0 ||
                            (A & (GranuleSize - 1)) + N > GranuleSize)
                   << K;
        }
        Starts |= uint64_t(Chunk) << L0;
      }
      Starts &= Full;
      bool Plain = true;
      for (; Starts; Starts &= Starts - 1) {
        SpeculativeMemory::ReadKind K =
            S.prepareRead(Ap[std::countr_zero(Starts)], N);
        if (K == SpeculativeMemory::ReadKind::GaveUp)
          return GaveUpLane;
        Plain &= K == SpeculativeMemory::ReadKind::Plain;
      }
      if (Plain) {
        gatherLanes<N>(R, WRow, Rd, Ap, W, Mem); // bounds checked above
        return -1;
      }
    }
  }
  // Neighbouring lanes mostly read the same granule: check it once.
  bool Plain = true;
  uint64_t Prev = ~uint64_t(0);
  for (uint64_t Rem = Exec; Rem; Rem &= Rem - 1) {
    unsigned L = unsigned(std::countr_zero(Rem));
    uint64_t Addr = Ap[L];
    if (Addr + N > Size)
      return int(L);
    if ((Addr >> GranuleLog) == Prev &&
        (Addr & (GranuleSize - 1)) + N <= GranuleSize)
      continue;
    Prev = Addr >> GranuleLog;
    SpeculativeMemory::ReadKind K = S.prepareRead(Addr, N);
    if (K == SpeculativeMemory::ReadKind::GaveUp)
      return GaveUpLane;
    Plain &= K == SpeculativeMemory::ReadKind::Plain;
  }
  if (Plain)
    return loadLanes<N>(R, WRow, Rd, Ap, Exec, Full, W, Mem, Size);
  for (uint64_t Rem = Exec; Rem; Rem &= Rem - 1) {
    unsigned L = unsigned(std::countr_zero(Rem));
    uint64_t Addr = Ap[L];
    uint32_t V[(N + 3) / 4] = {};
    if (!S.read(Addr, N, reinterpret_cast<uint8_t *>(V)))
      return GaveUpLane;
    for (unsigned K = 0; K != (N + 3) / 4; ++K)
      R[WRow[(Rd + K) & 255] + L] = V[K];
  }
  return -1;
}

/// storeLanes for device memory seen through \p S.
template <unsigned N>
[[gnu::always_inline]] inline int
speculativeStoreLanes(SpeculativeMemory &S, const uint32_t *R,
                      const uint32_t *RRow, uint8_t Rv, const uint32_t *Ap,
                      uint64_t Exec, uint64_t Size) {
  for (uint64_t Rem = Exec; Rem; Rem &= Rem - 1) {
    unsigned L = unsigned(std::countr_zero(Rem));
    uint64_t Addr = Ap[L];
    if (Addr + N > Size)
      return int(L);
    uint32_t V[(N + 3) / 4];
    for (unsigned K = 0; K != (N + 3) / 4; ++K)
      V[K] = R[RRow[(Rv + K) & 255] + L];
    if (!S.write(Addr, N, reinterpret_cast<const uint8_t *>(V)))
      return GaveUpLane;
  }
  return -1;
}

/// Stamps the granules written by an N-byte store of every lane in \p Exec
/// (the in-bounds ones) with \p Tick.
inline void markLanes(uint32_t *WriteTick, uint32_t Tick, const uint32_t *Ap,
                      uint64_t Exec, unsigned N, uint64_t Size) {
  for (uint64_t Rem = Exec; Rem; Rem &= Rem - 1) {
    uint64_t Addr = Ap[std::countr_zero(Rem)];
    if (Addr + N <= Size) {
      __atomic_store_n(&WriteTick[Addr >> GranuleLog], Tick, __ATOMIC_RELAXED);
      __atomic_store_n(&WriteTick[(Addr + N - 1) >> GranuleLog], Tick,
                       __ATOMIC_RELAXED);
    }
  }
}

} // namespace

//===----------------------------------------------------------------------===//
// Workgroup setup
//===----------------------------------------------------------------------===//

void WorkgroupRunner::initWorkgroup() {
  uint64_t T = uint64_t(WG[0]) * WG[1] * WG[2];
  std::memset(RegFile.data(), 0, RegFile.size() * sizeof(uint32_t));
  std::fill(Local.begin(), Local.end(), 0);
  for (unsigned WI = 0; WI != NumWaves; ++WI) {
    Wave &Wv = Waves[WI];
    Wv.R = RegFile.data() + size_t(WI) * Stride;
    Wv.P[0] = Wv.P[1] = Wv.P[2] = Wv.P[3] = 0;
    Wv.PC = 0;
    Wv.St = WaveStatus::Ready;
    Wv.Depth = Wv.CallDepth = 0;
    Wv.Id = WI;
    Wv.Exited = 0;
    uint64_t M = 0;
    for (unsigned L = 0; L != W; ++L) {
      uint64_t I = uint64_t(WI) * W + L;
      if (I < T)
        M |= laneBit(L);
      Wv.Tid[0][L] = uint32_t(I % WG[0]);
      Wv.Tid[1][L] = uint32_t((I / WG[0]) % WG[1]);
      Wv.Tid[2][L] = uint32_t(I / (uint64_t(WG[0]) * WG[1]));
    }
    Wv.Active = Wv.Live = M;
    for (auto &Tab : Wv.Frag)
      Tab.fill(-1);
    Wv.FragPool.clear();
    for (auto [Reg, Val] : Cfg.SetRegs)
      if (Reg < E.NumRegs)
        std::fill_n(Wv.R + E.WRow[Reg], Stride, Val);
  }
}

//===----------------------------------------------------------------------===//
// The execution loop
//===----------------------------------------------------------------------===//

// Lane-loop helpers. Exec is the set of lanes that execute; when it covers
// the whole wave the loop writes every lane, otherwise it blends. A wave's
// part of a register row is Stride (W rounded up to a multiple of 8) lanes,
// and lane loops run over whole chunks of 8: each chunk is copied into local
// arrays before anything is written, so an instruction whose destination is
// one of its sources (`fma r1, r2, r3, r1`) still vectorizes (a plain loop
// over possibly-aliasing rows would not). Lanes past W are padding:
// computed, never read. ALU covers Lanes lanes from R (one wave, or in a
// lockstep step every wave); CMP loops over the GroupWaves waves from Pick.
#define ALU(EXPR)                                                              \
  do {                                                                         \
    uint32_t *Dp = R + I.D;                                                    \
    const uint32_t *Ap = R + I.A, *Bp = R + I.B, *Cp = R + I.C;                \
    for (unsigned L0 = 0; L0 < Lanes; L0 += 8) {                               \
      uint32_t Ta[8], Tb[8], Tc[8], Td[8];                                     \
      std::memcpy(Ta, Ap + L0, sizeof(Ta));                                    \
      std::memcpy(Tb, Bp + L0, sizeof(Tb));                                    \
      std::memcpy(Tc, Cp + L0, sizeof(Tc));                                    \
      if (Exec == Full) {                                                      \
        for (unsigned K = 0; K != 8; ++K) {                                    \
          uint32_t a = Ta[K], b = Tb[K], c = Tc[K];                            \
          (void)a;                                                             \
          (void)b;                                                             \
          (void)c;                                                             \
          Td[K] = (EXPR);                                                      \
        }                                                                      \
      } else {                                                                 \
        std::memcpy(Td, Dp + L0, sizeof(Td));                                  \
        for (unsigned K = 0; K != 8; ++K) {                                    \
          uint32_t a = Ta[K], b = Tb[K], c = Tc[K];                            \
          (void)a;                                                             \
          (void)b;                                                             \
          (void)c;                                                             \
          uint32_t Res = (EXPR);                                               \
          uint32_t Msk = 0u - uint32_t((Exec >> (L0 + K)) & 1);                \
          Td[K] = (Res & Msk) | (Td[K] & ~Msk);                                \
        }                                                                      \
      }                                                                        \
      std::memcpy(Dp + L0, Td, sizeof(Td));                                    \
    }                                                                          \
  } while (0)
#define FALU(EXPR) ALU(U(EXPR))
#define CMP(EXPR)                                                              \
  do {                                                                         \
    for (unsigned G = 0; G != GroupWaves; ++G) {                               \
      Wave &Wg = Waves[Pick + G];                                              \
      const uint32_t *Ap = Wg.R + I.A, *Bp = Wg.R + I.B;                       \
      uint64_t Bits = 0;                                                       \
      for (unsigned L0 = 0; L0 < Stride; L0 += 8) {                            \
        uint32_t Chunk = 0;                                                    \
        for (unsigned K = 0; K != 8; ++K) {                                    \
          uint32_t a = Ap[L0 + K], b = Bp[L0 + K];                             \
          (void)a;                                                             \
          (void)b;                                                             \
          Chunk |= uint32_t(bool(EXPR)) << K;                                  \
        }                                                                      \
        Bits |= uint64_t(Chunk) << L0;                                         \
      }                                                                        \
      if (I.Rd < 4)                                                            \
        Wg.P[I.Rd] = (Wg.P[I.Rd] & ~Exec) | (Bits & Exec);                     \
    }                                                                          \
  } while (0)
#define FORLANES(MASK)                                                         \
  for (uint64_t Rem_ = (MASK); Rem_; Rem_ &= Rem_ - 1)                         \
    if (unsigned L = unsigned(std::countr_zero(Rem_)); true)

template <bool Tracing, MemMode M, bool Checked>
[[gnu::always_inline]] inline bool WorkgroupRunner::runLoop() {
  const DInst *Prog = Code.data();
  const unsigned NW = NumWaves;
  // A promoted run (checkpoint()) resumes where the speculative loop left.
  uint64_t Steps = Resume.Steps, NextCheck = nextCheck(Steps);
  unsigned Cursor = Resume.Cursor, NumHalted = Resume.NumHalted,
           NumBarrier = Resume.NumBarrier;
  uint8_t *Dev = E.Device.data();
  const uint64_t DevSize = E.Device.size();
  uint8_t *Loc = Local.data();
  const uint64_t LocSize = Local.size();
  uint64_t *Counts = OpCount;
  const unsigned W = this->W;
  const unsigned Stride = this->Stride;
  const uint64_t Full = this->Full;
  uint32_t Tmp[64];

  auto Halt = [&](Wave &Wv) {
    Wv.St = WaveStatus::Halted;
    ++NumHalted;
  };

  for (;;) {
    if (NumHalted == NW)
      return true;
    if (NumBarrier == NW) {
      if constexpr (Checked)
        checkRelease();
      for (unsigned K = 0; K != NW; ++K) {
        Waves[K].St = WaveStatus::Ready;
        ++Waves[K].PC;
      }
      NumBarrier = 0;
      ++Stats.Barriers;
      continue;
    }
    // Lockstep: when every wave is ready at the same instruction with all
    // lanes executing, and the next pick is wave 0, the next NW steps are
    // that instruction for wave 0, 1, ..., NW - 1 (formats/isa.md §4.3): one
    // step does them, either as one loop over the whole register rows (Lanes =
    // RowSize) or as a loop over the waves in the case (GroupWaves = NW). A
    // step never crosses NextCheck, so the limit and the speculative checks see
    // the same step counts as one wave at a time.
    unsigned Lanes = Stride, GroupWaves = 1;
    if constexpr (!Tracing) {
      if (NW > 1 && Cursor == NW - 1 && NumHalted == 0 && NumBarrier == 0 &&
          Steps + NW < NextCheck) {
        const DInst &I0 = Prog[Waves[0].PC];
        GroupKind K = GroupKindOf[I0.Op];
        if (K != GroupKind::None && lockstep(I0)) {
          GroupWaves = NW;
          if (K == GroupKind::Rows)
            Lanes = RowSize;
        }
      }
    }
    unsigned Pick = Cursor;
    bool Found = false;
    for (unsigned K = 0; K != NW; ++K) {
      if (++Pick == NW)
        Pick = 0;
      if (Waves[Pick].St == WaveStatus::Ready) {
        Found = true;
        break;
      }
    }
    if (!Found) {
      if (NumBarrier == 0)
        return true;
      if constexpr (Checked) {
        // synccheck reports the barrier the halted waves never reach and
        // lets the waiting ones go on (Checks.cpp).
        if (E.Chk->has(CheckSync)) {
          checkRelease();
          for (Wave &X : Waves)
            if (X.St == WaveStatus::Barrier) {
              X.St = WaveStatus::Ready;
              ++X.PC;
            }
          NumBarrier = 0;
          ++Stats.Barriers;
          continue;
        }
      }
      return deadlockFault();
    }
    Cursor = Pick;
    Wave &Wv = Waves[Pick];
    const uint32_t ExecIdx = Wv.PC;
    ++Steps;
    if (Wv.Active == 0 && Wv.Depth == 0) {
      Halt(Wv);
    } else {
      const DInst &I = Prog[ExecIdx];
      uint32_t *R = Wv.R;
      const uint64_t PM =
          I.Pred == 0 ? ~uint64_t(0)
                      : ((I.Pred & 4) ? ~Wv.P[I.Pred & 3] : Wv.P[I.Pred & 3]);
      const uint64_t Exec = Wv.Active & PM;
      uint32_t Next = ExecIdx + 1;
      Counts[I.Op] += GroupWaves;
      if constexpr (Tracing)
        traceStep(Wv, ExecIdx);

      switch (I.Op) {
#define ELEMENTWISE_CASE(OP, ...)                                              \
  case uint16_t(Opcode::OP):                                                   \
    ALU(__VA_ARGS__);                                                          \
    break;
        WAVE_EMU_ELEMENTWISE_OPS(ELEMENTWISE_CASE)
#undef ELEMENTWISE_CASE

      // f64 on register pairs (formats/isa.md §4.9).
      case uint16_t(Opcode::Dadd):
      case uint16_t(Opcode::Dsub):
      case uint16_t(Opcode::Dmul):
      case uint16_t(Opcode::Dma):
      case uint16_t(Opcode::Ddiv):
      case uint16_t(Opcode::Dsqrt): {
        const uint32_t *A0 = R + RRow[I.Rs1], *A1 = R + RRow[(I.Rs1 + 1) & 255];
        const uint32_t *B0 = R + RRow[I.Rs2], *B1 = R + RRow[(I.Rs2 + 1) & 255];
        const uint32_t *C0 = R + RRow[I.Rs3], *C1 = R + RRow[(I.Rs3 + 1) & 255];
        uint32_t *D0 = R + WRow[I.Rd], *D1 = R + WRow[(I.Rd + 1) & 255];
        FORLANES(Exec) {
          double X = Dbl(A0[L], A1[L]), Y = Dbl(B0[L], B1[L]), Z;
          switch (I.Op) {
          case uint16_t(Opcode::Dadd):
            Z = X + Y;
            break;
          case uint16_t(Opcode::Dsub):
            Z = X - Y;
            break;
          case uint16_t(Opcode::Dmul):
            Z = X * Y;
            break;
          case uint16_t(Opcode::Dma):
            Z = std::fma(X, Y, Dbl(C0[L], C1[L]));
            break;
          case uint16_t(Opcode::Ddiv):
            Z = X / Y;
            break;
          default:
            Z = std::sqrt(X);
            break;
          }
          uint64_t Bits = std::bit_cast<uint64_t>(Z);
          D0[L] = uint32_t(Bits);
          D1[L] = uint32_t(Bits >> 32);
        }
        break;
      }

      // Bitwise (formats/isa.md §4.6).
      case uint16_t(Opcode::Bfi): {
        const uint32_t *Ep = R + RRow[I.Rs4];
        uint32_t *Dp = R + I.D;
        const uint32_t *Ap = R + I.A, *Bp = R + I.B, *Cp = R + I.C;
        FORLANES(Exec) Dp[L] = sem::bfi(Ap[L], Bp[L], Cp[L], Ep[L]);
        break;
      }

      // Comparisons (formats/isa.md §4.10; D19 default for the extension
      // codes).
      case uint16_t(Opcode::IcmpEq):
        CMP(a == b);
        break;
      case uint16_t(Opcode::IcmpNe):
        CMP(a != b);
        break;
      case uint16_t(Opcode::IcmpLt):
        CMP(int32_t(a) < int32_t(b));
        break;
      case uint16_t(Opcode::IcmpLe):
        CMP(int32_t(a) <= int32_t(b));
        break;
      case uint16_t(Opcode::IcmpGt):
        CMP(int32_t(a) > int32_t(b));
        break;
      case uint16_t(Opcode::IcmpGe):
        CMP(int32_t(a) >= int32_t(b));
        break;
      // Integer "ord"/"unord" (codes 6, 7) are not among D19's extensions,
      // so they keep the reference result of formats/isa.md §4.10: always
      // false.
      case uint16_t(Opcode::IcmpOrd):
      case uint16_t(Opcode::IcmpUnord):
        CMP(false);
        break;
      case uint16_t(Opcode::UcmpEq):
        CMP(a == b);
        break;
      case uint16_t(Opcode::UcmpNe):
        CMP(a != b);
        break;
      case uint16_t(Opcode::UcmpLt):
        CMP(a < b);
        break;
      case uint16_t(Opcode::UcmpLe):
        CMP(a <= b);
        break;
      case uint16_t(Opcode::UcmpGt):
        CMP(a > b);
        break;
      case uint16_t(Opcode::UcmpGe):
        CMP(a >= b);
        break;
      case uint16_t(Opcode::UcmpOrd):
      case uint16_t(Opcode::UcmpUnord):
        CMP(false);
        break;
      case uint16_t(Opcode::FcmpEq):
        CMP(F(a) == F(b));
        break;
      case uint16_t(Opcode::FcmpNe):
        CMP(F(a) != F(b));
        break;
      case uint16_t(Opcode::FcmpLt):
        CMP(F(a) < F(b));
        break;
      case uint16_t(Opcode::FcmpLe):
        CMP(F(a) <= F(b));
        break;
      case uint16_t(Opcode::FcmpGt):
        CMP(F(a) > F(b));
        break;
      case uint16_t(Opcode::FcmpGe):
        CMP(F(a) >= F(b));
        break;
      case uint16_t(Opcode::FcmpOrd):
        CMP(!std::isnan(F(a)) && !std::isnan(F(b)));
        break;
      case uint16_t(Opcode::FcmpUnord):
        CMP(std::isnan(F(a)) || std::isnan(F(b)));
        break;
      case uint16_t(Opcode::Select): {
        uint64_t PS = I.Rs1 < 4 ? Wv.P[I.Rs1] : 0;
        uint32_t *Dp = R + I.D;
        const uint32_t *Bp = R + I.B, *Cp = R + I.C;
        for (unsigned L0 = 0; L0 < Stride; L0 += 8) {
          uint32_t Tb[8], Tc[8], Td[8];
          std::memcpy(Tb, Bp + L0, sizeof(Tb));
          std::memcpy(Tc, Cp + L0, sizeof(Tc));
          std::memcpy(Td, Dp + L0, sizeof(Td));
          for (unsigned K = 0; K != 8; ++K) {
            uint32_t Res = ((PS >> (L0 + K)) & 1) ? Tb[K] : Tc[K];
            uint32_t Msk = 0u - uint32_t((Exec >> (L0 + K)) & 1);
            Td[K] = (Res & Msk) | (Td[K] & ~Msk);
          }
          std::memcpy(Dp + L0, Td, sizeof(Td));
        }
        break;
      }

      // Conversions (formats/isa.md §4.11).
      case uint16_t(Opcode::CvtF32F64): {
        const uint32_t *A0 = R + RRow[I.Rs1], *A1 = R + RRow[(I.Rs1 + 1) & 255];
        uint32_t *Dp = R + I.D;
        FORLANES(Exec) Dp[L] = U(float(Dbl(A0[L], A1[L])));
        break;
      }
      case uint16_t(Opcode::CvtF64F32): {
        const uint32_t *Ap = R + I.A;
        uint32_t *D0 = R + WRow[I.Rd], *D1 = R + WRow[(I.Rd + 1) & 255];
        FORLANES(Exec) {
          uint64_t Bits = std::bit_cast<uint64_t>(double(F(Ap[L])));
          D1[L] = uint32_t(Bits >> 32);
          D0[L] = uint32_t(Bits);
        }
        break;
      }

      // Memory (formats/isa.md §4.12; D25 default: local mod 4 is 16 bytes).
      case uint16_t(Opcode::LocalLoadU8):
      case uint16_t(Opcode::LocalLoadU16):
      case uint16_t(Opcode::LocalLoadU32):
      case uint16_t(Opcode::LocalLoadU64):
      case uint16_t(Opcode::LocalLoadU128):
      case uint16_t(Opcode::DeviceLoadU8):
      case uint16_t(Opcode::DeviceLoadU16):
      case uint16_t(Opcode::DeviceLoadU32):
      case uint16_t(Opcode::DeviceLoadU64):
      case uint16_t(Opcode::DeviceLoadU128): {
        bool IsLocal = getAddressSpace(Opcode(I.Op)) == AddressSpace::Local;
        unsigned N = getAccessBytes(Opcode(I.Op));
        uint8_t *Mem = IsLocal ? Loc : Dev;
        uint64_t Size = IsLocal ? LocSize : DevSize;
        // A lockstep step loads for each wave in turn (GroupWaves).
        unsigned Cnt = unsigned(std::popcount(Exec));
        for (unsigned G = 0; G != GroupWaves; ++G) {
          uint32_t *Rg = Waves[Pick + G].R;
          const uint32_t *Ap = Rg + I.A;
          if (IsLocal) {
            Stats.LocalLoads += Cnt;
            Stats.LocalLoadBytes += uint64_t(Cnt) * N;
          } else {
            Stats.DeviceLoads += Cnt;
            Stats.DeviceLoadBytes += uint64_t(Cnt) * N;
          }
          if constexpr (Checked)
            E.Chk->access({ExecIdx, I.PC, Pick + G}, Ap, Exec, N,
                          AccessKind::Read, IsLocal);
          int Bad;
#define LOAD_WIDTH(NB)                                                         \
  if constexpr (M == MemMode::Speculative)                                     \
    Bad = IsLocal                                                              \
              ? loadLanes<NB>(Rg, WRow, I.Rd, Ap, Exec, Full, W, Mem, Size)    \
              : speculativeLoadLanes<NB>(Spec, Rg, WRow, I.Rd, Ap, Exec, Full, \
                                         W, Mem, Size);                        \
  else                                                                         \
    Bad = loadLanes<NB>(Rg, WRow, I.Rd, Ap, Exec, Full, W, Mem, Size)
          switch (N) {
          case 1:
            LOAD_WIDTH(1);
            break;
          case 2:
            LOAD_WIDTH(2);
            break;
          case 4:
            LOAD_WIDTH(4);
            break;
          case 8:
            LOAD_WIDTH(8);
            break;
          default:
            LOAD_WIDTH(16);
            break;
          }
#undef LOAD_WIDTH
          if (Bad == GaveUpLane)
            return false;
          if (Bad >= 0) {
            Counts[I.Op] -= GroupWaves - 1 - G; // only waves 0 .. G ran
            return memFault(Waves[Pick + G], I, Bad, IsLocal, Ap[Bad], N);
          }
        }
        break;
      }
      case uint16_t(Opcode::LocalStoreU8):
      case uint16_t(Opcode::LocalStoreU16):
      case uint16_t(Opcode::LocalStoreU32):
      case uint16_t(Opcode::LocalStoreU64):
      case uint16_t(Opcode::LocalStoreU128):
      case uint16_t(Opcode::DeviceStoreU8):
      case uint16_t(Opcode::DeviceStoreU16):
      case uint16_t(Opcode::DeviceStoreU32):
      case uint16_t(Opcode::DeviceStoreU64):
      case uint16_t(Opcode::DeviceStoreU128): {
        bool IsLocal = getAddressSpace(Opcode(I.Op)) == AddressSpace::Local;
        unsigned N = getAccessBytes(Opcode(I.Op));
        uint8_t *Mem = IsLocal ? Loc : Dev;
        uint64_t Size = IsLocal ? LocSize : DevSize;
        // A lockstep step stores for each wave in turn (GroupWaves).
        unsigned Cnt = unsigned(std::popcount(Exec));
        for (unsigned G = 0; G != GroupWaves; ++G) {
          const uint32_t *Rg = Waves[Pick + G].R;
          const uint32_t *Ap = Rg + I.A;
          if (IsLocal) {
            Stats.LocalStores += Cnt;
            Stats.LocalStoreBytes += uint64_t(Cnt) * N;
          } else {
            Stats.DeviceStores += Cnt;
            Stats.DeviceStoreBytes += uint64_t(Cnt) * N;
          }
          if constexpr (Checked)
            E.Chk->access({ExecIdx, I.PC, Pick + G}, Ap, Exec, N,
                          AccessKind::Write, IsLocal);
          int Bad;
#define STORE_WIDTH(NB)                                                        \
  if constexpr (M == MemMode::Speculative)                                     \
    Bad = IsLocal ? storeLanes<NB>(Rg, RRow, I.Rs2, Ap, Exec, Mem, Size)       \
                  : speculativeStoreLanes<NB>(Spec, Rg, RRow, I.Rs2, Ap, Exec, \
                                              Size);                           \
  else                                                                         \
    Bad = storeLanes<NB>(Rg, RRow, I.Rs2, Ap, Exec, Mem, Size)
          switch (N) {
          case 1:
            STORE_WIDTH(1);
            break;
          case 2:
            STORE_WIDTH(2);
            break;
          case 4:
            STORE_WIDTH(4);
            break;
          case 8:
            STORE_WIDTH(8);
            break;
          default:
            STORE_WIDTH(16);
            break;
          }
#undef STORE_WIDTH
          if constexpr (M == MemMode::Marked)
            if (!IsLocal)
              markLanes(WriteTick, Tick, Ap, Exec, N, Size);
          if (Bad == GaveUpLane)
            return false;
          if (Bad >= 0) {
            Counts[I.Op] -= GroupWaves - 1 - G; // only waves 0 .. G ran
            return memFault(Waves[Pick + G], I, Bad, IsLocal, Ap[Bad], N);
          }
        }
        break;
      }

      // Atomics (formats/isa.md §4.13; D3 default for CAS).
      case uint16_t(Opcode::LocalAtomicAdd):
      case uint16_t(Opcode::LocalAtomicSub):
      case uint16_t(Opcode::LocalAtomicMin):
      case uint16_t(Opcode::LocalAtomicMax):
      case uint16_t(Opcode::LocalAtomicAnd):
      case uint16_t(Opcode::LocalAtomicOr):
      case uint16_t(Opcode::LocalAtomicXor):
      case uint16_t(Opcode::LocalAtomicXchg):
      case uint16_t(Opcode::LocalAtomicCas):
      case uint16_t(Opcode::AtomicAdd):
      case uint16_t(Opcode::AtomicSub):
      case uint16_t(Opcode::AtomicMin):
      case uint16_t(Opcode::AtomicMax):
      case uint16_t(Opcode::AtomicAnd):
      case uint16_t(Opcode::AtomicOr):
      case uint16_t(Opcode::AtomicXor):
      case uint16_t(Opcode::AtomicXchg):
      case uint16_t(Opcode::AtomicCas): {
        bool IsLocal = getAddressSpace(Opcode(I.Op)) == AddressSpace::Local;
        // The modifier is the operation (formats/isa.md §2.11).
        auto Kind = AtomicKind(getInstDesc(Opcode(I.Op)).Mod);
        uint8_t *Mem = IsLocal ? Loc : Dev;
        uint64_t Size = IsLocal ? LocSize : DevSize;
        const uint32_t *Ap = R + I.A, *Vp = R + I.B, *Cp = R + I.C;
        uint32_t *Dp = R + I.D;
        Stats.AtomicLaneOps += unsigned(std::popcount(Exec));
        if constexpr (Checked)
          E.Chk->access({ExecIdx, I.PC, Pick}, Ap, Exec, 4, AccessKind::Atomic,
                        IsLocal);
        // The lane loop, with the operation a constant (withAtomicKind). It
        // works on copies of the operands: the stores to memory could alias
        // the captured variables themselves, and the loop would reload them
        // through the closure at every lane.
        int Bad = withAtomicKind(Kind, [&](auto KC) -> int {
          constexpr AtomicKind K = decltype(KC)::value;
          const uint32_t *A = Ap, *V = Vp, *Cmp = Cp;
          uint32_t *D = Dp;
          uint8_t *Base = Mem;
          const uint64_t Bound = Size;
          // rd = r0 discards the old value (formats/isa.md §4.13).
          const bool Blind = I.Rd == 0;
          const bool ThroughSpec = M == MemMode::Speculative && !IsLocal;
          // A Marked run stamps the granules of each lane it applies.
          const bool Stamp = M == MemMode::Marked && !IsLocal;
          uint32_t *WT = WriteTick;
          const uint32_t T = Tick;
          SpeculativeMemory &S = Spec;
          if (ThroughSpec && Blind)
            return S.blindAtomicLanes<K>(A, V, Cmp, Exec, Bound);
          FORLANES(Exec) {
            uint64_t Addr = A[L];
            if (Addr + 4 > Bound)
              return int(L);
            uint32_t Old;
            if (ThroughSpec) {
              if (!S.atomic(Addr, K, V[L], Cmp[L], /*Blind=*/false, Old))
                return GaveUpLane;
            } else {
              std::memcpy(&Old, Base + Addr, 4);
              uint32_t New = atomicResult(K, Old, V[L], Cmp[L]);
              std::memcpy(Base + Addr, &New, 4);
              if (Stamp) {
                __atomic_store_n(&WT[Addr >> GranuleLog], T, __ATOMIC_RELAXED);
                __atomic_store_n(&WT[(Addr + 3) >> GranuleLog], T,
                                 __ATOMIC_RELAXED);
              }
            }
            if (!Blind)
              D[L] = Old;
          }
          return -1;
        });
        if (Bad == GaveUpLane)
          return false;
        if (Bad >= 0)
          return memFault(Wv, I, Bad, IsLocal, Ap[Bad], 4);
        break;
      }

      // Wave operations (formats/isa.md §4.14).
      case uint16_t(Opcode::WaveShuffle):
      case uint16_t(Opcode::WaveShuffleUp):
      case uint16_t(Opcode::WaveShuffleDown):
      case uint16_t(Opcode::WaveShuffleXor):
      case uint16_t(Opcode::WaveBroadcast): {
        const uint32_t *Vp = R + I.A, *Sp = R + I.B;
        uint32_t *Dp = R + I.D;
        if (I.Op == uint16_t(Opcode::WaveBroadcast)) {
          if (!Exec)
            break;
          uint32_t S = Sp[std::countr_zero(Exec)];
          uint32_t V = S < W ? Vp[S] : 0;
          FORLANES(Exec) Dp[L] = V;
          break;
        }
        FORLANES(Exec) {
          uint32_t Sel = Sp[L];
          uint64_t Src;
          switch (I.Op) {
          case uint16_t(Opcode::WaveShuffle):
            Src = Sel;
            break;
          case uint16_t(Opcode::WaveShuffleUp):
            Src = L >= Sel ? L - Sel : ~uint64_t(0);
            break;
          case uint16_t(Opcode::WaveShuffleDown):
            Src = uint32_t(L + Sel); // wraps modulo 2^32 (D26)
            break;
          default:
            Src = L ^ Sel;
            break;
          }
          Tmp[L] = Src < W ? Vp[Src] : 0;
        }
        FORLANES(Exec) Dp[L] = Tmp[L];
        break;
      }
      case uint16_t(Opcode::WaveBallot): {
        uint64_t PS = I.Rs1 < 4 ? Wv.P[I.Rs1] : 0;
        uint32_t V = uint32_t(PS & Exec);
        uint32_t *Dp = R + I.D;
        FORLANES(Exec) Dp[L] = V;
        break;
      }
      case uint16_t(Opcode::WaveAny):
      case uint16_t(Opcode::WaveAll): {
        uint64_t PS = I.Rs1 < 4 ? Wv.P[I.Rs1] : 0;
        bool V = I.Op == uint16_t(Opcode::WaveAny) ? (PS & Exec) != 0
                                                   : (PS & Exec) == Exec;
        if (I.Rd < 4)
          Wv.P[I.Rd] = V ? (Wv.P[I.Rd] | Exec) : (Wv.P[I.Rd] & ~Exec);
        break;
      }
      case uint16_t(Opcode::WavePrefixSum): {
        const uint32_t *Ap = R + I.A;
        uint32_t *Dp = R + I.D;
        uint32_t Sum = 0;
        FORLANES(Exec) {
          Tmp[L] = Sum;
          Sum += Ap[L];
        }
        FORLANES(Exec) Dp[L] = Tmp[L];
        break;
      }
      case uint16_t(Opcode::WaveReduceAdd):
      case uint16_t(Opcode::WaveReduceMin):
      case uint16_t(Opcode::WaveReduceMax): {
        const uint32_t *Ap = R + I.A;
        uint32_t *Dp = R + I.D;
        uint32_t Acc = I.Op == uint16_t(Opcode::WaveReduceMin) ? ~0u : 0u;
        FORLANES(Exec) {
          uint32_t V = Ap[L];
          if (I.Op == uint16_t(Opcode::WaveReduceAdd))
            Acc += V;
          else if (I.Op == uint16_t(Opcode::WaveReduceMin))
            Acc = std::min(Acc, V);
          else
            Acc = std::max(Acc, V);
        }
        FORLANES(Exec) Dp[L] = Acc;
        break;
      }

      // Structured control flow (formats/isa.md §4.15 with D5, D6, D9
      // defaults).
      case uint16_t(Opcode::If): {
        if (Wv.Depth == MaxControlDepth)
          return fault(Wv, I, -1, "control stack overflow",
                       "more than 32 nested if/loop frames");
        uint64_t PS = I.Rs1 < 4 ? Wv.P[I.Rs1] : 0;
        uint64_t Pm = Wv.Active & PS & PM;
        if (Wv.Active & ~Pm)
          ++Stats.DivergentBranches;
        Wv.Stack[Wv.Depth++] = {Wv.Active, Wv.Active & ~Pm, 0, false};
        Wv.Active = Pm;
        break;
      }
      case uint16_t(Opcode::Else): {
        if (Wv.Depth == 0 || Wv.Stack[Wv.Depth - 1].IsLoop)
          return fault(Wv, I, -1,
                       "control flow error: else without matching if");
        Wv.Active = Wv.Stack[Wv.Depth - 1].Else & ~Wv.Exited;
        break;
      }
      case uint16_t(Opcode::Endif): {
        if (Wv.Depth == 0 || Wv.Stack[Wv.Depth - 1].IsLoop)
          return fault(Wv, I, -1,
                       "control flow error: endif without matching if");
        Wv.Active = Wv.Stack[--Wv.Depth].Entry & ~Wv.Exited;
        break;
      }
      case uint16_t(Opcode::Loop): {
        if (Wv.Depth == MaxControlDepth)
          return fault(Wv, I, -1, "control stack overflow",
                       "more than 32 nested if/loop frames");
        Wv.Stack[Wv.Depth++] = {Wv.Active, 0, Next, true};
        break;
      }
      case uint16_t(Opcode::Break):
      case uint16_t(Opcode::Continue): {
        bool IsBreak = I.Op == uint16_t(Opcode::Break);
        int LoopIdx = int(Wv.Depth) - 1;
        while (LoopIdx >= 0 && !Wv.Stack[LoopIdx].IsLoop)
          --LoopIdx;
        if (LoopIdx < 0)
          return fault(Wv, I, -1,
                       IsBreak
                           ? "control flow error: break outside of loop"
                           : "control flow error: continue outside of loop");
        uint64_t PS = I.Rs1 < 4 ? Wv.P[I.Rs1] : 0;
        uint64_t Bm = Wv.Active & PS & PM;
        uint64_t OldActive = Wv.Active;
        if (IsBreak)
          Wv.Stack[LoopIdx].Else |= Bm;
        Wv.Active &= ~Bm;
        for (unsigned K = unsigned(LoopIdx) + 1; K < Wv.Depth; ++K) {
          Wv.Stack[K].Entry &= ~Bm;
          Wv.Stack[K].Else &= ~Bm;
        }
        if constexpr (Tracing)
          if (IsBreak)
            traceBreak(OldActive, PS & OldActive, I.Rs1, Wv.Active);
        break;
      }
      case uint16_t(Opcode::Endloop): {
        if (Wv.Depth == 0 || !Wv.Stack[Wv.Depth - 1].IsLoop)
          return fault(Wv, I, -1,
                       "control flow error: endloop without matching loop");
        Frame &Fr = Wv.Stack[Wv.Depth - 1];
        uint64_t OldActive = Wv.Active;
        uint64_t Rm = Fr.Entry & ~Fr.Else & ~Wv.Exited;
        if (Rm) {
          Wv.Active = Rm;
          Next = Fr.Start;
        } else {
          Wv.Active = Fr.Entry & ~Wv.Exited;
          --Wv.Depth;
        }
        if constexpr (Tracing)
          traceEndloop(OldActive, Wv.Active, Rm != 0, Next);
        break;
      }
      case uint16_t(Opcode::Call): {
        if (I.Pred && !(Wv.Active & PM)) {
          --Counts[I.Op]; // D9 default: skipped when no lane qualifies.
          break;
        }
        if (Wv.CallDepth == MaxCallDepth)
          return fault(Wv, I, -1, "call stack overflow",
                       "more than 8 nested calls");
        if (I.Imm == NoTarget)
          return callTargetFault(Wv, I);
        Wv.CallStack[Wv.CallDepth++] = Next;
        Next = I.Imm;
        break;
      }

      // Synchronisation (formats/isa.md §4.17 with the D8 default for halt).
      case uint16_t(Opcode::Halt): {
        if (I.Pred) {
          --Counts[I.Op]; // the lane-removing form is not counted.
          if (!Exec)
            break;
        }
        Wv.Exited |= Exec;
        Wv.Active &= ~Wv.Exited;
        if ((Wv.Live & ~Wv.Exited) == 0) {
          Halt(Wv);
          Next = ExecIdx;
        }
        break;
      }
      case uint16_t(Opcode::Return): {
        if (I.Pred && !Exec) {
          --Counts[I.Op];
          break;
        }
        if (Wv.CallDepth == 0) {
          // Return from the kernel: the wave ends.
          Wv.Exited = Wv.Live;
          Wv.Active = 0;
          Halt(Wv);
          Next = ExecIdx;
          break;
        }
        Next = Wv.CallStack[--Wv.CallDepth];
        break;
      }
      case uint16_t(Opcode::Barrier): {
        if (I.Pred && !Exec) {
          --Counts[I.Op];
          break;
        }
        if constexpr (Checked)
          E.Chk->barrier({ExecIdx, I.PC, Pick}, Exec, Wv.Live & ~Wv.Exited);
        Wv.St = WaveStatus::Barrier;
        ++NumBarrier;
        Next = ExecIdx; // PC += 4 happens at the release.
        break;
      }
      case uint16_t(Opcode::FenceAcquire):
      case uint16_t(Opcode::FenceRelease):
      case uint16_t(Opcode::FenceAcqRel):
      case uint16_t(Opcode::Wait):
      case uint16_t(Opcode::Nop):
        if (I.Pred && !Exec)
          --Counts[I.Op];
        break;

      // MMA (formats/isa.md §4.18): per-lane 4x4 f32 fragments, local memory.
      case uint16_t(Opcode::MmaLoadA):
      case uint16_t(Opcode::MmaLoadB): {
        unsigned Tab = I.Op == uint16_t(Opcode::MmaLoadA) ? 0 : 1;
        int32_t &Slot = Wv.Frag[Tab][I.Rd];
        if (Slot < 0 && Exec) {
          Slot = int32_t(Wv.FragPool.size());
          Wv.FragPool.resize(Wv.FragPool.size() + 16 * W, 0.0f);
        }
        const uint32_t *Ap = R + I.A, *Sp = R + I.B;
        FORLANES(Exec) {
          float *Fr = Wv.FragPool.data() + Slot;
          for (unsigned Row = 0; Row != 4; ++Row)
            for (unsigned Col = 0; Col != 4; ++Col) {
              uint64_t Addr = uint32_t(Ap[L] + Row * Sp[L] + 4 * Col);
              if constexpr (Checked)
                E.Chk->accessLane({ExecIdx, I.PC, Pick}, L, Addr, 4,
                                  AccessKind::Read, true);
              if (Addr + 4 > LocSize)
                return memFault(Wv, I, int(L), true, Addr, 4);
              uint32_t V;
              std::memcpy(&V, Loc + Addr, 4);
              Fr[(Row * 4 + Col) * W + L] = F(V);
            }
        }
        break;
      }
      case uint16_t(Opcode::MmaCompute): {
        if (!Exec)
          break;
        int32_t &CSlot = Wv.Frag[2][I.Rs2];
        if (CSlot < 0) {
          CSlot = int32_t(Wv.FragPool.size());
          Wv.FragPool.resize(Wv.FragPool.size() + 16 * W, 0.0f);
        }
        int32_t ASlot = Wv.Frag[0][I.Rd], BSlot = Wv.Frag[1][I.Rs1];
        float *Pool = Wv.FragPool.data();
        const float *Af = ASlot < 0 ? ZeroFrag.data() : Pool + ASlot;
        const float *Bf = BSlot < 0 ? ZeroFrag.data() : Pool + BSlot;
        float *Cf = Pool + CSlot;
        FORLANES(Exec) {
          for (unsigned Row = 0; Row != 4; ++Row)
            for (unsigned Col = 0; Col != 4; ++Col) {
              float Acc = Cf[(Row * 4 + Col) * W + L];
              for (unsigned K = 0; K != 4; ++K) {
                float Prod =
                    Af[(Row * 4 + K) * W + L] * Bf[(K * 4 + Col) * W + L];
                Acc = Acc + Prod;
              }
              Cf[(Row * 4 + Col) * W + L] = Acc;
            }
        }
        break;
      }
      case uint16_t(Opcode::MmaStoreC): {
        int32_t CSlot = Wv.Frag[2][I.Rs2];
        const float *Cf =
            CSlot < 0 ? ZeroFrag.data() : Wv.FragPool.data() + CSlot;
        const uint32_t *Ap = R + RRow[I.Rd], *Sp = R + I.A;
        FORLANES(Exec) {
          for (unsigned Row = 0; Row != 4; ++Row)
            for (unsigned Col = 0; Col != 4; ++Col) {
              uint64_t Addr = uint32_t(Ap[L] + Row * Sp[L] + 4 * Col);
              if constexpr (Checked)
                E.Chk->accessLane({ExecIdx, I.PC, Pick}, L, Addr, 4,
                                  AccessKind::Write, true);
              if (Addr + 4 > LocSize)
                return memFault(Wv, I, int(L), true, Addr, 4);
              uint32_t V = U(Cf[(Row * 4 + Col) * W + L]);
              std::memcpy(Loc + Addr, &V, 4);
            }
        }
        break;
      }

      case uint16_t(Opcode::MovSr): {
        uint32_t *Dp = R + I.D;
        unsigned Idx = I.Imm;
        uint32_t Uniform = 0;
        const uint32_t *PerLane = nullptr;
        switch (Idx) {
        case 0:
        case 1:
        case 2:
          PerLane = Wv.Tid[Idx].data();
          break;
        case 3:
          Uniform = Wv.Id;
          break;
        case 5:
        case 6:
        case 7:
          Uniform = WgId[Idx - 5];
          break;
        case 8:
        case 9:
        case 10:
          Uniform = WG[Idx - 8];
          break;
        case 11:
        case 12:
        case 13:
          Uniform = Cfg.Grid[Idx - 11];
          break;
        case 14:
          Uniform = W;
          break;
        case 15:
          Uniform = NumWaves;
          break;
        case 16:
          Uniform = 1;
          break;
        case 17:
        case 18:
        case 19:
          Uniform = 4;
          break;
        default:
          break;
        }
        FORLANES(Exec) Dp[L] = Idx == 4 ? L : PerLane ? PerLane[L] : Uniform;
        break;
      }

      case OpInvalid:
        --Counts[I.Op];
        return fault(Wv, I, -1, "invalid instruction",
                     InvalidReason[ExecIdx].c_str());
      case OpEnd:
      default:
        --Counts[I.Op];
        return pastEndFault(Wv, I);
      }
      if (Wv.St != WaveStatus::Halted)
        Wv.PC = Next;
      if (GroupWaves > 1) {
        for (unsigned K = 1; K != NW; ++K)
          Waves[K].PC = Next;
        Steps += NW - 1;
        Cursor = NW - 1;
      }
    }
    if (Steps >= NextCheck) {
      Check C = checkpoint(Steps, Prog[ExecIdx], NextCheck);
      if (C == Check::Stop)
        return false;
      if constexpr (M == MemMode::Speculative) {
        if (C == Check::Promote) {
          Resume = {Steps, Cursor, NumHalted, NumBarrier};
          Promoting = true;
          return true;
        }
      }
    }
  }
}

#undef ALU
#undef FALU
#undef CMP
#undef FORLANES

// The hot loop, compiled for AVX2+FMA and for the baseline; the dynamic
// loader picks one (ifunc). Semantics do not depend on the choice.
#if defined(__clang__) && defined(__x86_64__) && defined(__linux__) &&         \
    !defined(WAVE_EMU_NO_MULTIVERSION)
#define WAVE_EMU_CLONES                                                        \
  __attribute__((target_clones("arch=x86-64-v3", "default")))
#else
#define WAVE_EMU_CLONES
#endif

WAVE_EMU_CLONES static bool runDirect(WorkgroupRunner &R) {
  return R.runLoop<false, MemMode::Direct>();
}
WAVE_EMU_CLONES static bool runMarked(WorkgroupRunner &R) {
  return R.runLoop<false, MemMode::Marked>();
}
WAVE_EMU_CLONES static bool runSpeculative(WorkgroupRunner &R) {
  return R.runLoop<false, MemMode::Speculative>();
}
// wave-run --check: sequential, direct, with the checkers' hooks.
WAVE_EMU_CLONES static bool runChecked(WorkgroupRunner &R) {
  return R.runLoop<false, MemMode::Direct, true>();
}
[[gnu::noinline]] static bool runCheckedTrace(WorkgroupRunner &R) {
  return R.runLoop<true, MemMode::Direct, true>();
}

void WorkgroupRunner::checkRelease() {
  std::vector<uint32_t> WaitIdx(NumWaves);
  for (unsigned K = 0; K != NumWaves; ++K)
    WaitIdx[K] =
        Waves[K].St == WaveStatus::Barrier ? Waves[K].PC : UINT32_MAX;
  E.Chk->release(WaitIdx);
}

void WorkgroupRunner::begin(MemMode M) {
  Fault.reset();
  Stats = EmuStats();
  std::fill(std::begin(OpCount), std::end(OpCount), 0);
  Mode = M;
  Promoted = Promoting = false;
  if (M == MemMode::Speculative)
    Spec.begin(E.Device.data(), E.Device.size());
}

void WorkgroupRunner::promote() {
  // Every older workgroup has committed and the reads so far are valid:
  // publish the stores so far and go on directly.
  Spec.commit(E.Device.data(), WriteTick, Tick);
  Mode = MemMode::Marked;
  Promoted = true;
}

bool WorkgroupRunner::runWorkgroup(std::array<uint32_t, 3> Id) {
  WgId = Id;
  Resume = {0, NumWaves - 1, 0, 0};
  if (Mode == MemMode::Speculative &&
      Committed->load(std::memory_order_acquire) == Group) {
    if (!Spec.valid(WriteTick, StartTick))
      return Spec.abandon();
    promote();
  }
  initWorkgroup();
  Stats.Waves += NumWaves;
  ++Stats.Workgroups;
  if (E.Chk) {
    E.Chk->beginWorkgroup(
        Id, Id[0] + uint64_t(Cfg.Grid[0]) * (Id[1] + uint64_t(Cfg.Grid[1]) * Id[2]));
    return Trace ? runCheckedTrace(*this) : runChecked(*this);
  }
  if (Trace)
    return runLoop<true, MemMode::Direct>();
  switch (Mode) {
  case MemMode::Direct:
    return runDirect(*this);
  case MemMode::Marked:
    return runMarked(*this);
  case MemMode::Speculative:
    break;
  }
  if (!runSpeculative(*this))
    return false;
  if (!Promoting)
    return true;
  Promoting = false;
  promote();
  return runMarked(*this);
}

uint64_t WorkgroupRunner::nextCheck(uint64_t Steps) const {
  uint64_t Limit = Cfg.MaxInstructions;
  uint64_t Next = Limit ? Limit + 1 : UINT64_MAX;
  if (Mode == MemMode::Speculative)
    Next = std::min(Next, Steps + CheckInterval);
  return Next;
}

WorkgroupRunner::Check WorkgroupRunner::checkpoint(uint64_t Steps,
                                                   const DInst &I,
                                                   uint64_t &NextCheck) {
  uint64_t Limit = Cfg.MaxInstructions;
  if (Limit && Steps > Limit) {
    limitFault(Steps, I);
    return Check::Stop;
  }
  if (Mode == MemMode::Speculative) {
    // A run whose result is no longer wanted, or that already read stale
    // memory, stops here rather than running on (it may spin on a flag an
    // older workgroup has set in the meantime). One that has become the
    // oldest, with valid reads, goes on directly.
    if (Cancel->load(std::memory_order_relaxed)) {
      Spec.abandon();
      return Check::Stop;
    }
    bool Oldest = Committed->load(std::memory_order_acquire) == Group;
    if (!Spec.valid(WriteTick, StartTick)) {
      Spec.abandon();
      return Check::Stop;
    }
    if (Oldest)
      return Check::Promote;
  }
  NextCheck = nextCheck(Steps);
  return Check::Continue;
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

Error EmulatorImpl::runParallel(uint64_t NumGroups, unsigned Threads) {
  constexpr uint64_t TargetSteps = 1 << 14, MaxBatch = 4096;
  // Speculation.h: batches of workgroups run Threads at a time and commit
  // in grid order; the commit of batch [G0, G1) has tick G1, the number of
  // workgroups committed after it.
  // calloc: pages of the ticks are touched only as granules are stamped or
  // validated, not all of them before the first workgroup starts.
  std::unique_ptr<uint32_t[], decltype(&std::free)> WriteTick(
      static_cast<uint32_t *>(std::calloc(
          std::max<size_t>(1, (Device.size() + GranuleSize - 1) >> GranuleLog),
          sizeof(uint32_t))),
      &std::free);
  if (!WriteTick)
    throw std::bad_alloc();
  std::atomic<uint64_t> NextClaim{0}, Committed{0};
  std::atomic<bool> Cancel{false};

  /// A finished batch waiting for its turn to commit.
  struct Finished {
    WorkgroupRunner *R;
    uint64_t G0, G1;
    bool Ok;
    /// It ran directly from its start (it was the oldest when claimed).
    bool Oldest;
    /// The thread whose runner R is (an index into Free).
    unsigned Owner;
  };
  std::mutex Mu;
  std::condition_variable Freed;
  // Guarded by Mu: finished batches by first workgroup, whether a thread
  // is committing them, each thread's runners not holding one, and the end.
  std::map<uint64_t, Finished> Waiting;
  bool Committing = false, Stop = false;
  unsigned Committer = 0; ///< the thread committing, while Committing.
  std::vector<std::vector<WorkgroupRunner *>> Free(Threads);
  std::optional<EmuError> Failure;

  // Runs workgroups [G0, G1) on R in mode M; false when one stopped early.
  auto RunBatch = [&](WorkgroupRunner &R, uint64_t G0, uint64_t G1, MemMode M) {
    R.begin(M);
    for (uint64_t G = G0; G != G1; ++G)
      if (!R.runWorkgroup(groupId(G)))
        return false;
    return true;
  };

  // Commits batches in grid order while the next one has finished. One
  // thread at a time does it (Committing), outside the lock: a batch that
  // must run again directly takes a while.
  auto CommitReady = [&](std::unique_lock<std::mutex> &Lock, unsigned Me) {
    if (Committing)
      return;
    Committing = true;
    Committer = Me;
    for (;;) {
      auto It = Waiting.find(Committed.load(std::memory_order_relaxed));
      if (It == Waiting.end() || Stop)
        break;
      Finished F = It->second;
      Waiting.erase(It);
      Lock.unlock();
      WorkgroupRunner &R = *F.R;
      // Every older batch has committed: nothing else commits meanwhile.
      if (!F.Oldest && !R.Promoted) {
        if ((!F.Ok && R.Spec.gaveUp()) ||
            !R.Spec.valid(WriteTick.get(), R.StartTick)) {
          R.StartTick = uint32_t(F.G0);
          F.Ok = RunBatch(R, F.G0, F.G1, MemMode::Marked);
        } else {
          R.Spec.commit(Device.data(), WriteTick.get(), R.Tick);
        }
      }
      absorb(R.Stats, R.OpCount);
      // A failed batch is never published as committed, so that no younger
      // run can become the oldest and write device memory.
      if (F.Ok)
        Committed.store(F.G1, std::memory_order_release);
      else
        Cancel.store(true);
      Lock.lock();
      if (!F.Ok) {
        Failure = std::move(*R.Fault);
        Stop = true;
      }
      Free[F.Owner].push_back(F.R);
      Freed.notify_all();
    }
    Committing = false;
    Freed.notify_all();
  };

  // Threads that got at least one runner; the others leave at once.
  std::atomic<unsigned> Running{0};
  auto Work = [&](unsigned Me) {
    // Each thread allocates its own runners, away from the others' memory,
    // as many as memory allows.
    std::vector<std::unique_ptr<WorkgroupRunner>> Mine;
    for (unsigned K = 0; K != RunnersPerThread; ++K) {
      try {
        Mine.push_back(std::make_unique<WorkgroupRunner>(*this));
      } catch (const std::bad_alloc &) {
        break;
      }
      WorkgroupRunner &R = *Mine.back();
      R.WriteTick = WriteTick.get();
      R.Cancel = &Cancel;
      R.Committed = &Committed;
    }
    if (Mine.empty())
      return;
    ++Running;
    {
      std::lock_guard<std::mutex> Lock(Mu);
      for (auto &R : Mine)
        Free[Me].push_back(R.get());
    }
    // Workgroups are claimed in batches of consecutive ones, sized so that
    // a batch is about TargetSteps steps: small workgroups would otherwise
    // spend more time waiting for their turn than running.
    uint64_t Batch = 1;
    for (;;) {
      WorkgroupRunner *RP;
      {
        std::unique_lock<std::mutex> Lock(Mu);
        Freed.wait(Lock, [&] { return !Free[Me].empty() || Stop; });
        if (Stop)
          break;
        RP = Free[Me].back();
        Free[Me].pop_back();
      }
      WorkgroupRunner &R = *RP;
      uint64_t G0 = NextClaim.fetch_add(Batch);
      if (G0 >= NumGroups || Cancel.load()) {
        std::lock_guard<std::mutex> Lock(Mu);
        Free[Me].push_back(RP);
        break;
      }
      uint64_t G1 = std::min(G0 + Batch, NumGroups);
      // Everything committed so far is visible from here on.
      uint64_t Seen = Committed.load(std::memory_order_acquire);
      R.StartTick = uint32_t(Seen);
      R.Tick = uint32_t(G1);
      R.Group = G0;
      bool Oldest = Seen == G0;
      bool Ok =
          RunBatch(R, G0, G1, Oldest ? MemMode::Marked : MemMode::Speculative);
      // The next batch: about TargetSteps steps, and well within the
      // granules a speculative run may touch.
      uint64_t Steps = 0;
      for (uint64_t N : R.OpCount)
        Steps += N;
      uint32_t Granules = Oldest ? 0 : R.Spec.granules();
      uint64_t Done = G1 - G0;
      uint64_t PerGroup = std::max<uint64_t>(1, Steps / Done);
      Batch = std::clamp<uint64_t>(TargetSteps / PerGroup, 1, MaxBatch);
      // Near the end, smaller batches keep every thread busy.
      Batch = std::min<uint64_t>(
          Batch, std::max<uint64_t>(1, (NumGroups - G1) / (4 * Threads)));
      if (Granules)
        Batch = std::min<uint64_t>(
            Batch, std::max<uint64_t>(1, SpeculativeMemory::MaxGranules / 4 *
                                             Done / Granules));
      std::unique_lock<std::mutex> Lock(Mu);
      Waiting.emplace(G0, Finished{RP, G0, G1, Ok, Oldest, Me});
      CommitReady(Lock, Me);
    }
    // Wait until no batch of this thread's runners is still to commit:
    // whoever commits reads them.
    std::unique_lock<std::mutex> Lock(Mu);
    Freed.wait(Lock, [&] { return Free[Me].size() == Mine.size() || Stop; });
    if (Stop) {
      // A failure stopped the commits: the waiting batches are dropped, but
      // a thread may still be committing one of them.
      Freed.wait(Lock, [&] { return !Committing; });
    }
  };

  // Memory that runs out while a batch runs stops everything, cleanly: the
  // failing thread's batch never commits, so every other one is told to
  // stop, and a commit it was making is given up. The caller's thread then
  // throws std::bad_alloc, as a sequential run would.
  std::atomic<bool> OutOfMemory{false};
  auto Guarded = [&](unsigned Me) {
    try {
      Work(Me);
    } catch (const std::bad_alloc &) {
      std::lock_guard<std::mutex> Lock(Mu);
      OutOfMemory = true;
      Stop = true;
      Cancel.store(true);
      if (Committer == Me)
        Committing = false;
      Freed.notify_all();
    }
  };
  std::vector<std::thread> Pool;
  for (unsigned T = 1; T != Threads; ++T)
    Pool.emplace_back(Guarded, T);
  Guarded(0);
  for (std::thread &T : Pool)
    T.join();
  if (OutOfMemory || !Running)
    throw std::bad_alloc();
  if (Failure)
    return make_error<EmuError>(std::move(*Failure));
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
    E.OwnedDevice.assign(Config.DeviceMemory, 0);
    E.Device = E.OwnedDevice;
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

const std::string &Emulator::kernelName() const { return Impl->Name; }

} // namespace wave::emu
