//===- emu_bench.cpp - Throughput of the reference emulator ---------------===//
//
// Google Benchmark programs for wave::emu::Emulator (test/bench/README.md),
// each run with 1 and with 2 threads (EmuConfig::Jobs, wave-run --jobs), and
// as two single-threaded copies at once (copies:2, the machine's baseline):
//
// * BM_Gemm: a register-blocked f32 GEMM built with wave::Inst (each thread
//   computes a 4x4 tile of C with 16 fma per k step), 256x256 and
//   1024x1024; BM_GemmExample: examples/gemm.wave (u128 loads, 64 fma per
//   4 k steps), assembled at start-up.
// * BM_Reduction: a u32 sum (strided loads, wave_reduce_add, one atomic
//   with a discarded result per wave), 1 Mi elements in 64 workgroups and
//   4 Mi in 256.
// * BM_Histogram: examples/histogram.wave, 1 Mi values into 256 bins with
//   device atomics in 64 workgroups, and 4 Mi in 256.
// * BM_Divergent: data-dependent control flow: every thread runs a
//   Collatz-style loop with a data-dependent trip count (break), nested
//   if/else on the value in the body, 64 workgroups of 256 threads.
//
// Every run checks its result against a scalar C++ computation. Counters:
// wave_instr/s (emulator steps per second, wall clock) and lane_ops/s
// (wave instructions x 32 lanes; both copies for copies:2). The program
// ends with a table per benchmark: the 2-thread speedup (wall time of
// --jobs 1 over --jobs 2), the machine's (twice the --jobs 1 time over that
// of the two copies) and the first as a percentage of the second.
//
//===----------------------------------------------------------------------===//
#include "wave/Asm/AsmParser.h"
#include "wave/Emu/Emulator.h"
#include "wave/Emu/ProgramBuilder.h"
#include "wave/Tool/Input.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <thread>
#include <vector>

using namespace wave;
using namespace wave::emu;

namespace {

constexpr unsigned WaveWidth = 32;

/// C[N×N] = A[N×N] · B[N×N], f32, row-major. r0 = A, r1 = B, r2 = C (byte
/// offsets), r3 = N. Workgroup 16×16 threads; thread (tx, ty) of workgroup
/// (gx, gy) computes rows 4(16gy+ty)..+3, columns 4(16gx+tx)..+3.
WbinFile makeGemm() {
  ProgramBuilder P("gemm");
  P.kernel().RegisterCount = 64;
  P.kernel().WorkgroupSize = {16, 16, 1};
  P.movSr(4, 0); // tid x
  P.movSr(5, 1); // tid y
  P.movSr(6, 5); // wg x
  P.movSr(7, 6); // wg y
  P.movImm(8, 16);
  P.movImm(45, 4);
  P.movImm(46, 1);
  P.op(Opcode::Imad, 9, 6, 8, 4);  // r9 = gx*16 + tx
  P.op(Opcode::Imul, 9, 9, 45);    // col0 = 4*(...)
  P.op(Opcode::Imad, 10, 7, 8, 5); // r10 = gy*16 + ty
  P.op(Opcode::Imul, 10, 10, 45);  // row0
  P.op(Opcode::Imul, 11, 3, 45);   // row stride bytes = 4N
  // A row addresses r12..r15 = A + (row0 + i) * 4N.
  P.op(Opcode::Imad, 12, 10, 11, 0);
  for (unsigned I = 1; I != 4; ++I)
    P.op(Opcode::Iadd, 12 + I, 12 + I - 1, 11);
  // B address r16 = B + 4*col0.
  P.op(Opcode::Imad, 16, 9, 45, 1);
  for (unsigned R = 20; R != 36; ++R)
    P.movImm(R, 0);
  P.movImm(44, 0); // k
  P.op(Opcode::Loop);
  for (unsigned I = 0; I != 4; ++I)
    P.op(Opcode::DeviceLoadU32, 36 + I, 12 + I);
  P.op(Opcode::DeviceLoadU128, 40, 16);
  for (unsigned I = 0; I != 4; ++I)
    for (unsigned J = 0; J != 4; ++J)
      P.op(Opcode::Fma, 20 + 4 * I + J, 36 + I, 40 + J, 20 + 4 * I + J);
  for (unsigned I = 0; I != 4; ++I)
    P.op(Opcode::Iadd, 12 + I, 12 + I, 45);
  P.op(Opcode::Iadd, 16, 16, 11);
  P.op(Opcode::Iadd, 44, 44, 46);
  P.op(Opcode::IcmpGe, 1, 44, 3);
  P.op(Opcode::Break, 0, 1);
  P.op(Opcode::Endloop);
  // C address of row i: C + (row0 + i) * 4N + 4*col0.
  P.op(Opcode::Imad, 47, 10, 11, 2);
  P.op(Opcode::Imad, 47, 9, 45, 47);
  for (unsigned I = 0; I != 4; ++I) {
    P.op(Opcode::DeviceStoreU128, 0, 47, 20 + 4 * I);
    P.op(Opcode::Iadd, 47, 47, 11);
  }
  P.halt();
  return P.build();
}

/// Sum of N u32 at r0 into the u32 at r1; r2 = total threads, r3 = N.
/// Each thread adds elements tid, tid + T, ...; then wave_reduce_add and
/// one atomic_add from the first lane of each wave.
WbinFile makeReduction() {
  ProgramBuilder P("reduce");
  P.kernel().RegisterCount = 32;
  P.kernel().WorkgroupSize = {256, 1, 1};
  P.movSr(4, 0); // tid
  P.movSr(5, 5); // wg x
  P.movImm(6, 256);
  P.op(Opcode::Imad, 7, 5, 6, 4); // global id
  P.movImm(8, 4);
  P.op(Opcode::Imad, 9, 7, 8, 0); // address
  P.op(Opcode::Imul, 10, 2, 8);   // stride bytes
  P.movImm(11, 0);                // acc
  P.op(Opcode::Imul, 12, 3, 8);
  P.op(Opcode::Iadd, 12, 12, 0); // end address
  P.op(Opcode::Loop);
  P.op(Opcode::UcmpGe, 1, 9, 12);
  P.op(Opcode::Break, 0, 1);
  P.op(Opcode::DeviceLoadU32, 13, 9);
  P.op(Opcode::Iadd, 11, 11, 13);
  P.op(Opcode::Iadd, 9, 9, 10);
  P.op(Opcode::Endloop);
  P.op(Opcode::WaveReduceAdd, 14, 11);
  P.movSr(15, 4); // lane id
  P.movImm(16, 0);
  P.op(Opcode::IcmpEq, 2, 15, 16);
  P.op(Opcode::If, 0, 2);
  P.op(Opcode::AtomicAdd, 0, 1, 14);
  P.op(Opcode::Endif);
  P.halt();
  return P.build();
}

/// Runs \p File with \p C once per iteration, Jobs from the benchmark's
/// second argument: \p Fill prepares device memory (not timed), \p Check
/// verifies it afterwards (not timed) and returns an error text or "".
/// With a third argument (copies) of 2, each iteration runs two copies of
/// the kernel at once, each on its own thread with its own emulator and
/// device memory: what the machine gives two threads that share nothing,
/// the baseline of the 2-thread speedup.
void runKernel(benchmark::State &State, const WbinFile &File, EmuConfig C,
               const std::function<void(uint8_t *)> &Fill,
               const std::function<std::string(const uint8_t *)> &Check) {
  C.WaveWidth = WaveWidth;
  C.MaxInstructions = 0;
  C.Jobs = unsigned(State.range(1));
  const unsigned Copies = unsigned(State.range(2));
  uint64_t WaveInstr = 0;
  // The emulators of an iteration are destroyed in the next one's untimed
  // part: freeing device memory is not part of the run.
  std::vector<std::unique_ptr<Emulator>> Emus(Copies);
  for (auto _ : State) {
    State.PauseTiming();
    for (std::unique_ptr<Emulator> &Emu : Emus) {
      Emu.reset();
      auto E = Emulator::create(File, C);
      if (!E) {
        State.SkipWithError(llvm::toString(E.takeError()).c_str());
        return;
      }
      Emu = std::move(*E);
      Fill(Emu->deviceMemory().data());
    }
    State.ResumeTiming();
    llvm::Error Err = llvm::Error::success();
    if (Copies == 2) {
      llvm::Error Other = llvm::Error::success();
      std::thread T([&] { Other = Emus[1]->run(); });
      Err = Emus[0]->run();
      T.join();
      Err = llvm::joinErrors(std::move(Err), std::move(Other));
    } else {
      Err = Emus[0]->run();
    }
    State.PauseTiming();
    if (Err) {
      State.SkipWithError(llvm::toString(std::move(Err)).c_str());
      return;
    }
    for (std::unique_ptr<Emulator> &Emu : Emus) {
      WaveInstr += Emu->stats().Instructions;
      std::string Bad = Check(Emu->deviceMemory().data());
      if (!Bad.empty()) {
        State.SkipWithError(Bad.c_str());
        return;
      }
    }
    State.ResumeTiming();
  }
  State.counters["wave_instr/s"] =
      benchmark::Counter(double(WaveInstr), benchmark::Counter::kIsRate);
  State.counters["lane_ops/s"] = benchmark::Counter(
      double(WaveInstr) * WaveWidth, benchmark::Counter::kIsRate);
  State.counters["jobs"] = double(C.Jobs);
}

/// Assembles examples/NAME.wave, found next to this source file.
llvm::Expected<WbinFile> assembleExample(const char *Name) {
  llvm::SmallString<256> Path(__FILE__);
  llvm::sys::path::remove_filename(Path); // test/bench
  llvm::sys::path::remove_filename(Path); // test
  llvm::sys::path::remove_filename(Path); // source root
  llvm::sys::path::append(Path, "examples", std::string(Name) + ".wave");
  auto Buf = llvm::MemoryBuffer::getFile(Path);
  if (!Buf)
    return llvm::createStringError("cannot read " + Path.str());
  return tool::assembleExecutable((*Buf)->getBuffer(), Path);
}

float *floats(uint8_t *M) { return reinterpret_cast<float *>(M); }
const float *floats(const uint8_t *M) {
  return reinterpret_cast<const float *>(M);
}
uint32_t *words(uint8_t *M) { return reinterpret_cast<uint32_t *>(M); }
const uint32_t *words(const uint8_t *M) {
  return reinterpret_cast<const uint32_t *>(M);
}

/// GEMM input: A and B (N x N each, from byte 0) hold (i mod 7) / 4.
void fillGemm(uint8_t *M, uint32_t N) {
  for (uint64_t I = 0; I != 2 * uint64_t(N) * N; ++I)
    floats(M)[I] = float(I % 7) * 0.25f;
}

/// Checks C[0][0] and C[N-1][N-1] (C at byte 8 N^2) against scalar
/// products accumulated in the kernels' order (one fma per k).
std::string checkGemm(const uint8_t *M, uint32_t N) {
  const float *A = floats(M), *B = A + uint64_t(N) * N, *Cm = B + uint64_t(N) * N;
  for (uint32_t Row : {0u, N - 1}) {
    float Ref = 0;
    for (uint32_t K = 0; K != N; ++K)
      Ref = std::fma(A[uint64_t(Row) * N + K], B[uint64_t(K) * N + Row], Ref);
    if (Cm[uint64_t(Row) * N + Row] != Ref)
      return "GEMM result mismatch";
  }
  return "";
}

void BM_Gemm(benchmark::State &State) {
  const uint32_t N = uint32_t(State.range(0));
  static const WbinFile File = makeGemm();
  uint64_t Bytes = uint64_t(N) * N * 4;
  EmuConfig C;
  C.Grid = {N / 64, N / 64, 1};
  C.DeviceMemory = 3 * Bytes;
  C.SetRegs = {{0, 0}, {1, uint32_t(Bytes)}, {2, uint32_t(2 * Bytes)}, {3, N}};
  runKernel(
      State, File, C, [&](uint8_t *M) { fillGemm(M, N); },
      [&](const uint8_t *M) { return checkGemm(M, N); });
}

void BM_GemmExample(benchmark::State &State) {
  const uint32_t N = uint32_t(State.range(0));
  auto File = assembleExample("gemm");
  if (!File) {
    State.SkipWithError(llvm::toString(File.takeError()).c_str());
    return;
  }
  uint64_t Bytes = uint64_t(N) * N * 4;
  EmuConfig C;
  C.Grid = {N / 64, N / 64, 1};
  C.DeviceMemory = 3 * Bytes;
  C.SetRegs = {
      {0, 0}, {1, uint32_t(Bytes)}, {2, uint32_t(2 * Bytes)}, {3, N}, {4, N},
      {5, N}};
  runKernel(
      State, *File, C, [&](uint8_t *M) { fillGemm(M, N); },
      [&](const uint8_t *M) { return checkGemm(M, N); });
}

void BM_Reduction(benchmark::State &State) {
  const uint32_t N = uint32_t(State.range(0));
  // 64 workgroups per Mi elements: 64 elements per thread.
  const uint32_t Groups = N >> 14, Threads = Groups * 256;
  static const WbinFile File = makeReduction();
  EmuConfig C;
  C.Grid = {Groups, 1, 1};
  C.DeviceMemory = uint64_t(N) * 4 + 4;
  C.SetRegs = {{0, 0}, {1, N * 4}, {2, Threads}, {3, N}};
  runKernel(
      State, File, C,
      [&](uint8_t *M) {
        for (uint32_t I = 0; I != N; ++I)
          words(M)[I] = I;
      },
      [&](const uint8_t *M) -> std::string {
        uint32_t Expect = uint32_t(uint64_t(N) * (N - 1) / 2);
        return words(M)[N] == Expect ? "" : "reduction result mismatch";
      });
}

/// Input value I of the histogram and divergence kernels (a fixed LCG).
uint32_t inputValue(uint32_t I) { return (I * 2654435761u) >> 4; }

void BM_Histogram(benchmark::State &State) {
  // 64 workgroups per Mi values: 256 values per thread.
  const uint32_t N = uint32_t(State.range(0)), Bins = 256, Groups = N >> 14;
  auto File = assembleExample("histogram");
  if (!File) {
    State.SkipWithError(llvm::toString(File.takeError()).c_str());
    return;
  }
  EmuConfig C;
  C.Grid = {Groups, 1, 1};
  C.DeviceMemory = uint64_t(N) * 4 + Bins * 4;
  C.SetRegs = {{0, 0}, {1, N * 4}, {2, N}, {3, Bins}};
  runKernel(
      State, *File, C,
      [&](uint8_t *M) {
        for (uint32_t I = 0; I != N; ++I)
          words(M)[I] = inputValue(I);
      },
      [&](const uint8_t *M) -> std::string {
        std::vector<uint32_t> Ref(Bins);
        for (uint32_t I = 0; I != N; ++I)
          ++Ref[inputValue(I) % Bins];
        return std::memcmp(Ref.data(), words(M) + N, Bins * 4) == 0
                   ? ""
                   : "histogram mismatch";
      });
}

/// Divergence-heavy kernel: thread t (global id) takes x = IN[t] and runs
///   for (n = 0; x != 1 && n != 300; ++n) {
///     if (x odd) { x = 3x + 1; if (x & 4) acc += x; else acc ^= x; }
///     else       { x >>= 1;   if (x > 1000) acc += 1; }
///   }
///   OUT[t] = acc + n
/// r0 = IN, r1 = OUT (byte offsets). Workgroup 256 threads.
const char *DivergentSource = R"(
.kernel divergent
.registers 24
.workgroup_size 256, 1, 1
    mov     r2, sr_thread_id_x
    mov     r3, sr_workgroup_id_x
    mov_imm r4, 256
    imad    r5, r3, r4, r2
    mov_imm r6, 2
    shl     r5, r5, r6
    iadd    r7, r0, r5
    device_load_u32 r8, r7
    mov_imm r9, 0
    mov_imm r10, 0
    mov_imm r11, 1
    mov_imm r12, 300
    mov_imm r13, 3
    mov_imm r14, 4
    mov_imm r15, 1000
    loop
        ucmp_eq p1, r8, r11
        break   p1
        ucmp_ge p1, r10, r12
        break   p1
        and     r16, r8, r11
        ucmp_eq p2, r16, r11
        if p2
            imad    r8, r8, r13, r11
            and     r17, r8, r14
            ucmp_eq p3, r17, r14
            if p3
                iadd    r9, r9, r8
            else
                xor     r9, r9, r8
            endif
        else
            shr     r8, r8, r11
            ucmp_gt p3, r8, r15
            if p3
                iadd    r9, r9, r11
            endif
        endif
        iadd    r10, r10, r11
    endloop
    iadd    r9, r9, r10
    iadd    r18, r1, r5
    device_store_u32 r18, r9
    halt
.end
)";

uint32_t divergentRef(uint32_t X) {
  uint32_t Acc = 0, N = 0;
  for (; X != 1 && N != 300; ++N) {
    if (X & 1) {
      X = 3 * X + 1;
      if (X & 4)
        Acc += X;
      else
        Acc ^= X;
    } else {
      X >>= 1;
      if (X > 1000)
        Acc += 1;
    }
  }
  return Acc + N;
}

void BM_Divergent(benchmark::State &State) {
  const uint32_t Groups = 64, N = Groups * 256;
  auto File = tool::assembleExecutable(DivergentSource, "divergent.wave");
  if (!File) {
    State.SkipWithError(llvm::toString(File.takeError()).c_str());
    return;
  }
  EmuConfig C;
  C.Grid = {Groups, 1, 1};
  C.DeviceMemory = uint64_t(N) * 8;
  C.SetRegs = {{0, 0}, {1, N * 4}};
  runKernel(
      State, *File, C,
      [&](uint8_t *M) {
        for (uint32_t I = 0; I != N; ++I)
          words(M)[I] = inputValue(I) % 100000 + 1;
      },
      [&](const uint8_t *M) -> std::string {
        for (uint32_t I = 0; I != N; ++I)
          if (words(M)[N + I] != divergentRef(inputValue(I) % 100000 + 1))
            return "divergent kernel mismatch at thread " + std::to_string(I);
        return "";
      });
}

/// A launch so small that starting threads would cost more than its work
/// (the host runtime's many small launches, wave/Host/Runtime.h): SIZE
/// workgroups of 32 threads, each storing its global index. r0 = OUT.
const char *SmallSource = R"(
.kernel small
.registers 8
.workgroup_size 32, 1, 1
    mov     r1, sr_thread_id_x
    mov     r2, sr_workgroup_id_x
    mov_imm r3, 32
    imad    r4, r2, r3, r1
    mov_imm r5, 2
    shl     r6, r4, r5
    iadd    r6, r0, r6
    device_store_u32 r6, r4
    halt
.end
)";

void BM_SmallLaunch(benchmark::State &State) {
  const uint32_t Groups = uint32_t(State.range(0)), N = Groups * 32;
  auto File = tool::assembleExecutable(SmallSource, "small.wave");
  if (!File) {
    State.SkipWithError(llvm::toString(File.takeError()).c_str());
    return;
  }
  EmuConfig C;
  C.Grid = {Groups, 1, 1};
  C.DeviceMemory = uint64_t(N) * 4;
  C.SetRegs = {{0, 0}};
  runKernel(
      State, *File, C, [](uint8_t *) {},
      [&](const uint8_t *M) -> std::string {
        for (uint32_t I = 0; I != N; ++I)
          if (words(M)[I] != I)
            return "small kernel mismatch at thread " + std::to_string(I);
        return "";
      });
}

// Every benchmark runs with Jobs = 1 and 2, and as two copies of the
// Jobs = 1 run at once; wall time, so that the 2-thread runs are not
// credited with their second thread's CPU time.
#define WAVE_EMU_BENCH(FN, SIZE)                                               \
  BENCHMARK(FN)                                                                \
      ->ArgNames({"size", "jobs", "copies"})                                   \
      ->Args({SIZE, 1, 1})                                                     \
      ->Args({SIZE, 2, 1})                                                     \
      ->Args({SIZE, 1, 2})                                                     \
      ->UseRealTime()                                                          \
      ->Unit(benchmark::kMillisecond)
WAVE_EMU_BENCH(BM_Gemm, 256);
WAVE_EMU_BENCH(BM_Gemm, 1024)->Iterations(2);
WAVE_EMU_BENCH(BM_GemmExample, 256);
WAVE_EMU_BENCH(BM_Reduction, 1 << 20);
WAVE_EMU_BENCH(BM_Reduction, 1 << 22);
WAVE_EMU_BENCH(BM_Histogram, 1 << 20);
WAVE_EMU_BENCH(BM_Histogram, 1 << 22);
WAVE_EMU_BENCH(BM_Divergent, 16384);
WAVE_EMU_BENCH(BM_SmallLaunch, 8)->Unit(benchmark::kMicrosecond);

/// Console output plus, at the end, a table per benchmark: the wall time
/// of Jobs = 1, of Jobs = 2 and of two Jobs = 1 copies at once; the
/// 2-thread speedup; the machine's (twice the Jobs = 1 time over that of
/// the two copies: what two threads that share nothing get); and the
/// speedup as a fraction of the machine's.
class SpeedupReporter : public benchmark::ConsoleReporter {
public:
  void ReportRuns(const std::vector<Run> &Runs) override {
    ConsoleReporter::ReportRuns(Runs);
    for (const Run &R : Runs) {
      // One repetition's time, or the median of the repetitions, which
      // wins (--benchmark_repetitions).
      bool Median =
          R.run_type == Run::RT_Aggregate && R.aggregate_name == "median";
      if (R.error_occurred || (R.run_type != Run::RT_Iteration && !Median))
        continue;
      std::string Name = R.run_name.str();
      size_t At = Name.find("/jobs:"), CopiesAt = Name.find("/copies:");
      if (At == std::string::npos || CopiesAt == std::string::npos)
        continue;
      std::string Key = Name.substr(0, At);
      int Jobs = std::atoi(Name.c_str() + At + 6);
      int Copies = std::atoi(Name.c_str() + CopiesAt + 8);
      int Slot = Copies == 2 ? 0 : Jobs;
      if (Median || !FromMedian[Key].count(Slot))
        Times[Key][Slot] = R.GetAdjustedRealTime();
      if (Median)
        FromMedian[Key].insert(Slot);
    }
  }
  void Finalize() override {
    ConsoleReporter::Finalize();
    std::printf("\n%-28s %9s %9s %9s %8s %8s %6s\n", "2-thread speedup (ms)",
                "jobs:1", "jobs:2", "2 copies", "speedup", "machine", "of it");
    for (auto &[Key, T] : Times) {
      if (!T.count(1) || !T.count(2))
        continue;
      double Speedup = T[1] / T[2];
      std::printf("%-28s %9.3f %9.3f", Key.c_str(), T[1], T[2]);
      if (T.count(0)) {
        double Machine = 2 * T[1] / T[0];
        std::printf(" %9.3f %7.2fx %7.2fx %5.0f%%\n", T[0], Speedup, Machine,
                    100 * Speedup / Machine);
      } else {
        std::printf(" %9s %7.2fx\n", "-", Speedup);
      }
    }
  }

private:
  /// Per benchmark: wall time by Jobs, and of the two copies under 0.
  std::map<std::string, std::map<int, double>> Times;
  std::map<std::string, std::set<int>> FromMedian;
};

} // namespace

int main(int Argc, char **Argv) {
  benchmark::Initialize(&Argc, Argv);
  if (benchmark::ReportUnrecognizedArguments(Argc, Argv))
    return 1;
  SpeedupReporter Reporter;
  benchmark::RunSpecifiedBenchmarks(&Reporter);
  benchmark::Shutdown();
  return 0;
}
