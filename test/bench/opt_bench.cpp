//===- opt_bench.cpp - In-process compile time of the MIR pipeline --------===//
//
// Google Benchmark programs for libwave's MIR stack (test/bench/README.md,
// "opt_scaling.py"): BM_ParseVerifyPrint times parseMIR + verifyModule +
// printModule, BM_O2 the -O2 pipeline (optLevelPasses(2)) on a freshly
// parsed module (parsing is excluded from the timing). The kernel is built
// here, in the spirit of gen_mir.py but simpler and without Python: repeated
// units of straight-line u32 arithmetic with loads and stores, a two-level
// loop nest with induction and accumulator phis and loop-invariant work, an
// if/else diamond on a constant condition, and divisions by constants.
// items_per_second counts input instructions, so a flat rate across the
// sizes means linear compile time.
//
//===----------------------------------------------------------------------===//
#include "wave/IR/MIRParser.h"
#include "wave/IR/MIRPrinter.h"
#include "wave/IR/Verifier.h"
#include "wave/Transforms/Pass.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <benchmark/benchmark.h>

#include <cstdlib>
#include <string>

using namespace wave::mir;

namespace {

/// A kernel of about \p Target instructions; \p Count receives the exact
/// number.
std::string makeKernel(unsigned Target, unsigned &Count) {
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  unsigned V = 0, B = 0;
  Count = 0;
  auto Val = [&] { return "%v" + std::to_string(++V); };
  auto Emit = [&](const std::string &Line) {
    OS << "  " << Line << "\n";
    ++Count;
  };
  OS << "kernel @bench(ptr<device> %in, ptr<device> %out, u32 %n) "
        "workgroup_size(64, 1, 1) {\n^entry:\n";
  std::string Acc = Val();
  Emit(Acc + " = sreg thread_id_x");
  std::string Cur = "^entry";
  while (Count + 64 < Target) {
    // Straight line: loads, arithmetic with repeats (cse), constant chains
    // (sccp), divisions by constants (strength-reduce), unused values (dce).
    for (unsigned K = 0; K < 4; ++K) {
      std::string Off = Val(), P = Val(), X = Val(), A = Val(), A2 = Val(),
                  C = Val(), D = Val(), Dead = Val(), Q = Val();
      Emit(Off + " = and u32 " + Acc + ", 4092");
      Emit(P + " = ptradd ptr<device> %in, " + Off);
      Emit(X + " = load u32, ptr<device> " + P);
      Emit(A + " = add u32 " + X + ", " + Acc);
      Emit(A2 + " = add u32 " + Acc + ", " + X);
      Emit(C + " = mul u32 3, 7");
      Emit(D + " = div u32 " + A2 + ", " + std::to_string(3 + K * 4));
      Emit(Dead + " = mul u32 " + A + ", " + C);
      Emit(Q + " = ptradd ptr<device> %out, " + Off);
      Emit("store u32 " + D + ", ptr<device> " + Q);
      Acc = D;
    }
    // Two-level loop nest with invariant work in both bodies.
    std::string H1 = "^l" + std::to_string(++B),
                H2 = "^l" + std::to_string(++B),
                X2 = "^x" + std::to_string(++B),
                X1 = "^x" + std::to_string(++B);
    std::string I1 = Val(), S1 = Val(), I1n = Val(), S1n = Val();
    std::string I2 = Val(), S2 = Val(), I2n = Val(), S2n = Val();
    Emit("br " + H1);
    OS << "\n" << H1 << ":\n";
    Emit(I1 + " = phi u32 [0, " + Cur + "], [" + I1n + ", " + X2 + "]");
    Emit(S1 + " = phi u32 [" + Acc + ", " + Cur + "], [" + S1n + ", " + X2 +
         "]");
    std::string Inv1 = Val();
    Emit(Inv1 + " = mul u32 %n, 12");
    Emit("br " + H2);
    OS << "\n" << H2 << ":\n";
    Emit(I2 + " = phi u32 [0, " + H1 + "], [" + I2n + ", " + H2 + "]");
    Emit(S2 + " = phi u32 [" + S1 + ", " + H1 + "], [" + S2n + ", " + H2 + "]");
    std::string Inv2 = Val(), T = Val(), M2 = Val();
    Emit(Inv2 + " = add u32 " + Inv1 + ", " + Acc);
    Emit(T + " = xor u32 " + S2 + ", " + Inv2);
    Emit(S2n + " = add u32 " + T + ", " + I2);
    Emit(I2n + " = add u32 " + I2 + ", 1");
    Emit(M2 + " = icmp lt u32 " + I2n + ", %n");
    Emit("condbr " + M2 + ", " + H2 + ", " + X2);
    OS << "\n" << X2 << ":\n";
    std::string M1 = Val();
    Emit(S1n + " = add u32 " + S2n + ", " + I1);
    Emit(I1n + " = add u32 " + I1 + ", 1");
    Emit(M1 + " = icmp lt u32 " + I1n + ", %n");
    Emit("condbr " + M1 + ", " + H1 + ", " + X1);
    OS << "\n" << X1 << ":\n";
    // A diamond on a constant condition.
    std::string T1 = "^t" + std::to_string(++B),
                E1 = "^e" + std::to_string(++B),
                J1 = "^j" + std::to_string(++B);
    std::string C0 = Val(), Cc = Val(), Ra = Val(), Rb = Val(), Ph = Val();
    Emit(C0 + " = add u32 2, 3");
    Emit(Cc + " = icmp lt u32 " + C0 + ", 4");
    Emit("condbr " + Cc + ", " + T1 + ", " + E1);
    OS << "\n" << T1 << ":\n";
    Emit(Ra + " = shl u32 " + S1n + ", 2");
    Emit("br " + J1);
    OS << "\n" << E1 << ":\n";
    Emit(Rb + " = lshr u32 " + S1n + ", 3");
    Emit("br " + J1);
    OS << "\n" << J1 << ":\n";
    Emit(Ph + " = phi u32 [" + Ra + ", " + T1 + "], [" + Rb + ", " + E1 + "]");
    Acc = Ph;
    Cur = J1;
  }
  std::string P = Val();
  Emit(P + " = ptradd ptr<device> %out, 0");
  Emit("store u32 " + Acc + ", ptr<device> " + P);
  Emit("ret");
  OS << "}\n";
  return Text;
}

std::unique_ptr<Module> parseOrDie(const std::string &Text,
                                   llvm::SourceMgr &SM) {
  auto M = parseMIRString(Text, SM, "bench.wir");
  if (!M) {
    llvm::errs() << llvm::toString(M.takeError()) << "\n";
    std::abort();
  }
  return std::move(*M);
}

void BM_ParseVerifyPrint(benchmark::State &St) {
  unsigned Count;
  std::string Text = makeKernel(St.range(0), Count);
  for (auto _ : St) {
    llvm::SourceMgr SM;
    auto M = parseOrDie(Text, SM);
    if (llvm::Error E = verifyModule(*M)) {
      llvm::errs() << llvm::toString(std::move(E)) << "\n";
      std::abort();
    }
    std::string Out;
    llvm::raw_string_ostream OS(Out);
    printModule(*M, OS);
    benchmark::DoNotOptimize(Out.data());
  }
  St.SetItemsProcessed(int64_t(St.iterations()) * Count);
}

void BM_O2(benchmark::State &St) {
  unsigned Count;
  std::string Text = makeKernel(St.range(0), Count);
  auto P = parsePipeline(llvm::join(optLevelPasses(2), ","));
  if (!P)
    std::abort();
  for (auto _ : St) {
    St.PauseTiming();
    llvm::SourceMgr SM;
    auto M = parseOrDie(Text, SM);
    St.ResumeTiming();
    PassStats Stats;
    if (llvm::Error E = runPipeline(*M, *P, PipelineOptions(), Stats)) {
      llvm::errs() << llvm::toString(std::move(E)) << "\n";
      std::abort();
    }
    St.PauseTiming();
    M.reset(); // destruction is not part of the pipeline
    St.ResumeTiming();
  }
  St.SetItemsProcessed(int64_t(St.iterations()) * Count);
}

} // namespace

BENCHMARK(BM_ParseVerifyPrint)
    ->Arg(10000)
    ->Arg(100000)
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_O2)->Arg(10000)->Arg(100000)->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
