//===- emu_bench.cpp - Throughput of the reference emulator ---------------===//
//
// Google Benchmark programs for wave::emu::Emulator (test/bench/README.md):
// a register-blocked f32 GEMM (each thread computes a 4x4 tile of C with 16
// fma per k step) at 256x256 and 1024x1024, and a u32 sum reduction (strided
// loads, wave_reduce_add, one atomic per wave). These kernels are built
// directly with wave::Inst. BM_GemmExample also runs examples/gemm.wave
// (u128 loads, 64 fma per 4 k steps), assembled at start-up.
// Counters: wave_instr/s (steps per second) and lane_ops/s (wave
// instructions times active lanes, here every lane is active).
//
//===----------------------------------------------------------------------===//
#include "wave/Asm/AsmParser.h"
#include "wave/Emu/Emulator.h"
#include "wave/Emu/ProgramBuilder.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <benchmark/benchmark.h>

#include <cmath>
#include <cstring>

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

void setCounters(benchmark::State &State, uint64_t WaveInstr,
                 uint64_t LaneOps) {
  State.counters["wave_instr/s"] =
      benchmark::Counter(double(WaveInstr), benchmark::Counter::kIsRate);
  State.counters["lane_ops/s"] =
      benchmark::Counter(double(LaneOps), benchmark::Counter::kIsRate);
}

void BM_Gemm(benchmark::State &State) {
  const uint32_t N = uint32_t(State.range(0));
  WbinFile File = makeGemm();
  EmuConfig C;
  C.WaveWidth = WaveWidth;
  C.Grid = {N / 64, N / 64, 1};
  uint64_t Bytes = uint64_t(N) * N * 4;
  C.DeviceMemory = 3 * Bytes;
  C.MaxInstructions = 0;
  C.SetRegs = {{0, 0}, {1, uint32_t(Bytes)}, {2, uint32_t(2 * Bytes)}, {3, N}};
  uint64_t WaveInstr = 0;
  for (auto _ : State) {
    State.PauseTiming();
    auto E = Emulator::create(File, C);
    if (!E) {
      State.SkipWithError(llvm::toString(E.takeError()).c_str());
      return;
    }
    float *M = reinterpret_cast<float *>((*E)->deviceMemory().data());
    for (uint64_t I = 0; I != 2 * uint64_t(N) * N; ++I)
      M[I] = float(I % 7) * 0.25f;
    State.ResumeTiming();
    if (llvm::Error Err = (*E)->run()) {
      State.SkipWithError(llvm::toString(std::move(Err)).c_str());
      return;
    }
    WaveInstr += (*E)->stats().Instructions;
    // Spot check one element against a scalar product.
    State.PauseTiming();
    float Ref = 0;
    for (uint32_t K = 0; K != N; ++K)
      Ref = std::fma(M[K], M[N * N + K * N], Ref);
    if (M[2 * N * N] != Ref)
      State.SkipWithError("GEMM result mismatch");
    State.ResumeTiming();
  }
  setCounters(State, WaveInstr, WaveInstr * WaveWidth);
}
/// examples/gemm.wave, found next to this source file.
void BM_GemmExample(benchmark::State &State) {
  const uint32_t N = uint32_t(State.range(0));
  llvm::SmallString<256> Path(__FILE__);
  llvm::sys::path::remove_filename(Path); // test/bench
  llvm::sys::path::remove_filename(Path); // test
  llvm::sys::path::remove_filename(Path); // source root
  llvm::sys::path::append(Path, "examples", "gemm.wave");
  auto Buf = llvm::MemoryBuffer::getFile(Path);
  if (!Buf) {
    State.SkipWithError(("cannot read " + Path.str()).str().c_str());
    return;
  }
  auto File = assembleString((*Buf)->getBuffer(), Path);
  if (!File) {
    State.SkipWithError(llvm::toString(File.takeError()).c_str());
    return;
  }
  EmuConfig C;
  C.WaveWidth = WaveWidth;
  C.Grid = {N / 64, N / 64, 1};
  uint64_t Bytes = uint64_t(N) * N * 4;
  C.DeviceMemory = 3 * Bytes;
  C.MaxInstructions = 0;
  C.SetRegs = {
      {0, 0}, {1, uint32_t(Bytes)}, {2, uint32_t(2 * Bytes)}, {3, N}, {4, N},
      {5, N}};
  uint64_t WaveInstr = 0;
  for (auto _ : State) {
    State.PauseTiming();
    auto E = Emulator::create(*File, C);
    if (!E) {
      State.SkipWithError(llvm::toString(E.takeError()).c_str());
      return;
    }
    float *M = reinterpret_cast<float *>((*E)->deviceMemory().data());
    for (uint64_t I = 0; I != 2 * uint64_t(N) * N; ++I)
      M[I] = float(I % 7) * 0.25f;
    State.ResumeTiming();
    if (llvm::Error Err = (*E)->run()) {
      State.SkipWithError(llvm::toString(std::move(Err)).c_str());
      return;
    }
    WaveInstr += (*E)->stats().Instructions;
    State.PauseTiming();
    float Ref = 0;
    for (uint32_t K = 0; K != N; ++K)
      Ref = std::fma(M[K], M[N * N + K * N], Ref);
    if (M[2 * N * N] != Ref)
      State.SkipWithError("GEMM result mismatch");
    State.ResumeTiming();
  }
  setCounters(State, WaveInstr, WaveInstr * WaveWidth);
}
BENCHMARK(BM_GemmExample)->Arg(256)->Unit(benchmark::kMillisecond);

BENCHMARK(BM_Gemm)->Arg(256)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Gemm)->Arg(1024)->Unit(benchmark::kMillisecond)->Iterations(1);

void BM_Reduction(benchmark::State &State) {
  const uint32_t N = uint32_t(State.range(0));
  const uint32_t Groups = 16, Threads = Groups * 256;
  WbinFile File = makeReduction();
  EmuConfig C;
  C.WaveWidth = WaveWidth;
  C.Grid = {Groups, 1, 1};
  C.DeviceMemory = uint64_t(N) * 4 + 4;
  C.MaxInstructions = 0;
  C.SetRegs = {{0, 0}, {1, N * 4}, {2, Threads}, {3, N}};
  uint64_t WaveInstr = 0;
  for (auto _ : State) {
    State.PauseTiming();
    auto E = Emulator::create(File, C);
    if (!E) {
      State.SkipWithError(llvm::toString(E.takeError()).c_str());
      return;
    }
    uint32_t *M = reinterpret_cast<uint32_t *>((*E)->deviceMemory().data());
    for (uint32_t I = 0; I != N; ++I)
      M[I] = I;
    State.ResumeTiming();
    if (llvm::Error Err = (*E)->run()) {
      State.SkipWithError(llvm::toString(std::move(Err)).c_str());
      return;
    }
    WaveInstr += (*E)->stats().Instructions;
    uint32_t Expect = uint32_t(uint64_t(N) * (N - 1) / 2);
    if (M[N] != Expect)
      State.SkipWithError("reduction result mismatch");
  }
  setCounters(State, WaveInstr, WaveInstr * WaveWidth);
}
BENCHMARK(BM_Reduction)->Arg(1 << 20)->Unit(benchmark::kMillisecond);

} // namespace

BENCHMARK_MAIN();
