//===- host_bench.cpp - Launch overhead of the host runtime API ----------===//
//
// Google Benchmark programs for wave::host (wave/Host/Runtime.h,
// test/bench/README.md): the cost of one launch of a kernel that does
// almost nothing (one thread stores one u32), on the emulator, one thread
// per launch (DeviceOptions::Jobs 1):
//
// * BM_HostLaunch: Kernel::launch() with named arguments over a buffer that
//   stays on the device; the whole cost of a synchronous launch through the
//   API (argument checks, the queue, the emulator's set-up and run).
// * BM_HostEnqueue: Kernel::enqueue() of the same launch, the Event waited
//   for only every 64 launches: the cost when the program does not wait.
// * BM_WaveRunProcess: the same launch as one `wave-run` process (named
//   arguments, --print of the element): what a script pays per launch
//   without the API. wave-run is looked for next to this program.
//
// Every benchmark checks the stored value. One iteration is one launch, so
// the reported time is the time per launch; test/bench/README.md gives the
// ratio of wave-run's to the API's.
//
//===----------------------------------------------------------------------===//
#include "wave/Host/Runtime.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <benchmark/benchmark.h>

#include <cstdio>
#include <optional>
#include <string>

using namespace wave;
using namespace wave::host;

namespace {

/// out[0] = v, by one thread.
constexpr const char *StoreKernel = R"(@kernel
def store(out: u32[:], v: u32):
    if thread_id() == 0:
        out[0] = v
)";

struct Fixture {
  Device Dev;
  Kernel K;
  Buffer Out;
};

/// The device, the compiled kernel and its output buffer; aborts the
/// benchmark with the error's message when any of them fails.
std::optional<Fixture> setUp(benchmark::State &State) {
  DeviceOptions Opts;
  Opts.Jobs = 1;
  auto Dev = Device::open("emu", Opts);
  if (!Dev) {
    State.SkipWithError(llvm::toString(Dev.takeError()).c_str());
    return std::nullopt;
  }
  driver::CompilerOptions CO;
  CO.Lang = hir::Language::Python;
  auto M = Dev->compile(StoreKernel, "store.py", CO);
  if (!M) {
    State.SkipWithError(llvm::toString(M.takeError()).c_str());
    return std::nullopt;
  }
  auto K = M->kernel("store");
  auto Out = Dev->allocate(4, WbinType::U32);
  if (!K || !Out) {
    State.SkipWithError(
        llvm::toString(llvm::joinErrors(K.takeError(), Out.takeError()))
            .c_str());
    return std::nullopt;
  }
  return Fixture{*Dev, *K, *Out};
}

bool checkStored(benchmark::State &State, Buffer &Out, uint32_t Expected) {
  auto V = Out.read<uint32_t>();
  if (!V || (*V)[0] != Expected) {
    State.SkipWithError(V ? "wrong value stored"
                          : llvm::toString(V.takeError()).c_str());
    return false;
  }
  return true;
}

void BM_HostLaunch(benchmark::State &State) {
  std::optional<Fixture> F = setUp(State);
  if (!F)
    return;
  LaunchDims Dims;
  Dims.Workgroup = {32, 1, 1};
  uint32_t V = 0;
  for (auto _ : State) {
    ++V;
    if (llvm::Error E = F->K.launch(
            Dims, {Arg("out", F->Out), Arg("v", int64_t(V))})) {
      State.SkipWithError(llvm::toString(std::move(E)).c_str());
      return;
    }
  }
  checkStored(State, F->Out, V);
}
BENCHMARK(BM_HostLaunch)->UseRealTime()->Unit(benchmark::kMicrosecond);

void BM_HostEnqueue(benchmark::State &State) {
  std::optional<Fixture> F = setUp(State);
  if (!F)
    return;
  auto S = F->Dev.createStream();
  if (!S) {
    State.SkipWithError(llvm::toString(S.takeError()).c_str());
    return;
  }
  LaunchDims Dims;
  Dims.Workgroup = {32, 1, 1};
  uint32_t V = 0;
  for (auto _ : State) {
    ++V;
    auto Ev = F->K.enqueue(*S, Dims, {Arg("out", F->Out), Arg("v", int64_t(V))});
    if (!Ev) {
      State.SkipWithError(llvm::toString(Ev.takeError()).c_str());
      return;
    }
    if (V % 64 == 0)
      if (llvm::Error E = Ev->wait()) {
        State.SkipWithError(llvm::toString(std::move(E)).c_str());
        return;
      }
  }
  if (llvm::Error E = S->synchronize()) {
    State.SkipWithError(llvm::toString(std::move(E)).c_str());
    return;
  }
  checkStored(State, F->Out, V);
}
BENCHMARK(BM_HostEnqueue)->UseRealTime()->Unit(benchmark::kMicrosecond);

/// wave-run next to this program (build/bin).
std::string waveRunPath() {
  std::string Self = llvm::sys::fs::getMainExecutable(
      nullptr, reinterpret_cast<void *>(&waveRunPath));
  llvm::SmallString<256> P(llvm::sys::path::parent_path(Self));
  llvm::sys::path::append(P, "wave-run");
  return std::string(P);
}

void BM_WaveRunProcess(benchmark::State &State) {
  std::string WaveRun = waveRunPath();
  std::string Compiler = WaveRun.substr(0, WaveRun.size() - 3) + "compiler";
  llvm::SmallString<128> Dir;
  if (llvm::sys::fs::createUniqueDirectory("host-bench", Dir)) {
    State.SkipWithError("cannot create a temporary directory");
    return;
  }
  std::string Src = (Dir + "/store.py").str(), Bin = (Dir + "/store.wbin").str(),
              Out = (Dir + "/out.txt").str();
  {
    std::error_code EC;
    llvm::raw_fd_ostream OS(Src, EC);
    OS << StoreKernel;
  }
  if (llvm::sys::ExecuteAndWait(Compiler, {Compiler, Src, "-o", Bin}) != 0) {
    State.SkipWithError("wave-compiler failed");
    return;
  }
  uint32_t V = 0;
  for (auto _ : State) {
    ++V;
    std::string Arg = "v=" + std::to_string(V);
    std::optional<llvm::StringRef> Redirects[] = {std::nullopt,
                                                  llvm::StringRef(Out),
                                                  std::nullopt};
    if (llvm::sys::ExecuteAndWait(WaveRun,
                                  {WaveRun, Bin, "-j1", "--workgroup", "32",
                                   "--arg", "out=zeros:1", "--arg", Arg,
                                   "--print", "out[0]"},
                                  std::nullopt, Redirects) != 0) {
      State.SkipWithError("wave-run failed");
      return;
    }
  }
  auto Text = llvm::MemoryBuffer::getFile(Out);
  if (!Text || llvm::StringRef((*Text)->getBuffer()).trim() !=
                   std::to_string(V)) {
    State.SkipWithError("wave-run printed the wrong value");
    return;
  }
  llvm::sys::fs::remove_directories(Dir);
}
BENCHMARK(BM_WaveRunProcess)->UseRealTime()->Unit(benchmark::kMicrosecond);

} // namespace

BENCHMARK_MAIN();
