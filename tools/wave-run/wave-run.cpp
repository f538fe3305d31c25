//===- wave-run.cpp - Run a .wbin kernel on the emulator or a GPU ---------===//
//
// Thin driver over wave::emu (libwave/lib/Emu) and wave::launch
// (libwave/lib/Launch): parses the reference emulator's command line
// (formats/isa.md §7.1, plus --kernel and the named-launch flags --arg
// NAME=VALUE, --out and --print, plus the GPU options), loads the binary,
// opens the device (--device=hsa: a GPU agent of the ROCm HSA runtime;
// --device=cuda: an NVIDIA GPU through the CUDA driver) and calls
// runProgram() with it -- or on the emulator -- and maps the result to an
// exit status: 0 success, 1 bad input file, kernel fault or failed GPU
// call, 2 usage or no GPU, 3 instruction limit or --timeout. --stats ends
// with the kernel's occupancy by registers on every target (Dump's
// Occupancy.h, as wave-objdump --kernels prints it).
//
//===----------------------------------------------------------------------===//
#include "wave/Dump/Occupancy.h"
#include "wave/Emu/Checks.h"
#include "wave/Emu/RunOptions.h"
#include "wave/Launch/Device.h"
#include "wave/NVPTX/Translate.h"
#include "wave/Object/Wbin.h"
#include "wave/Tool/Tool.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

using namespace llvm;
using namespace wave;
using namespace wave::emu;
using namespace wave::launch;

static constexpr const char *ToolName = "wave-run";
/// Upper bound of --jobs: more threads than this only cost memory.
static constexpr uint64_t MaxJobs = 1024;

/// A bad option value: "wave-run: MESSAGE" plus the --help hint, exit 2.
static int usageError(Error E) {
  outs().flush();
  handleAllErrors(std::move(E), [](const ErrorInfoBase &EI) {
    errs() << ToolName << ": " << EI.message() << "\n";
  });
  errs() << "Try '" << ToolName << " --help' for more information.\n";
  return tool::ExitUsage;
}

int main(int Argc, char **Argv) {
  auto App =
      tool::makeApp(ToolName, "Run a kernel of a .wbin binary on the WAVE "
                              "reference emulator or a GPU.");
  std::string Input;
  std::string Grid = "1,1,1", Workgroup = "32,1,1", Registers = "32",
              LocalMem = "16384", DeviceMem = "1048576", WaveWidth = "32",
              MaxInstr = "10000000", Kernel, Jobs = "0";
  RunOptionText Text;
  RunOptions Opts;

  App->add_option("BINARY", Input, "Input .wbin file ('-' for stdin)")
      ->type_name("");
  std::string Device = "emu", Agent = "0", Timeout = "60", RepeatCount = "1";
  bool ListDevices = false, NoCache = false;
  DeviceOptions DO;
  App->add_option("--device", Device,
                  "Where to run: emu (the reference emulator, default), hsa "
                  "(an AMD GPU through the ROCm HSA runtime, "
                  "$WAVE_HSA_RUNTIME else libhsa-runtime64.so.1) or cuda (an "
                  "NVIDIA GPU through the CUDA driver, $WAVE_CUDA_DRIVER "
                  "else libcuda.so.1)")
      ->check(CLI::IsMember({"emu", "hsa", "cuda"}))
      ->type_name("emu|hsa|cuda");
  App->add_flag("--list-devices", ListDevices,
                "List the HSA runtime's GPU agents and the CUDA driver's "
                "devices and exit");
  App->add_option("--agent", Agent,
                  "GPU to run on, by --list-devices index: an HSA agent, or "
                  "a CUDA device with --device=cuda (default 0)")
      ->type_name("N");
  App->add_option("--timeout", Timeout,
                  "Seconds to wait for each GPU dispatch, 0 = forever "
                  "(default 60; exit 3)")
      ->type_name("SECONDS");
  App->add_option("--repeat", RepeatCount,
                  "Dispatch the kernel N times on the GPU (default 1)")
      ->type_name("N");
  App->add_flag("--timing", DO.Timing,
                "Print each GPU dispatch's time (stderr)");
  App->add_flag("--no-cache", NoCache,
                "Translate the .wbin for the GPU even if a cached code "
                "object exists, and do not store one (--device=hsa, "
                "--device=cuda)");
  App->add_option("--clang", DO.Clang,
                  "clang for the HSA translation (default: $WAVE_CLANG, "
                  "then clang-22 or clang on PATH)")
      ->type_name("PATH");
  App->add_option("--ld-lld", DO.LdLld,
                  "ld.lld for the HSA translation (default: $WAVE_LD_LLD, "
                  "then ld.lld-22 or ld.lld on PATH)")
      ->type_name("PATH");
  App->add_option("--grid", Grid, "Grid size in workgroups (default 1,1,1)")
      ->type_name("X,Y,Z");
  App->add_option("--workgroup", Workgroup,
                  "Workgroup size in threads (default 32,1,1; kernel "
                  "metadata wins)")
      ->type_name("X,Y,Z");
  App->add_option("--registers", Registers,
                  "Registers per lane (default 32; metadata wins)")
      ->type_name("N");
  App->add_option("--local-memory", LocalMem,
                  "Local memory bytes per workgroup (default 16384; "
                  "metadata wins)")
      ->type_name("BYTES");
  CLI::Option *DeviceMemOpt =
      App->add_option("--device-memory", DeviceMem,
                      "Device memory bytes (default 1048576; named "
                      "launches grow it to fit)")
          ->type_name("BYTES");
  CLI::Option *WaveWidthOpt =
      App->add_option("--wave-width", WaveWidth,
                      "Lanes per wave, 1..64 (default 32; --device=cuda "
                      "runs 32)")
          ->type_name("N");
  App->add_option("--max-instructions", MaxInstr,
                  "Step limit per workgroup, 0 = none (default 10000000)")
      ->type_name("N");
  CLI::Option *JobsOpt =
      App->add_option("-j,--jobs", Jobs,
                      "Workgroups run at once, 0 = one per hardware thread "
                      "(default $WAVE_RUN_JOBS, else 0); results do not "
                      "depend on it")
          ->type_name("N");
  App->add_option("--kernel", Kernel,
                  "Kernel to run, by name or index (default 0)")
      ->type_name("NAME|INDEX");
  // Repeatable options take exactly one value per occurrence, so that
  // `--set-reg 0:0 k.wbin` leaves k.wbin to the positional.
  auto Repeat = [&](const char *Name, std::vector<std::string> &V,
                    const char *Type, const char *Help) {
    App->add_option(Name, V, Help)
        ->type_name(Type)
        ->expected(1)
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  };
  Repeat("--arg", Text.Args, "OFFSET:FILE|NAME=VALUE",
         "Copy FILE into device memory, or give kernel parameter NAME a "
         "value (repeatable)");
  Repeat("--out", Text.Outs, "NAME=FILE",
         "Write buffer parameter NAME's final bytes to FILE (repeatable)");
  Repeat("--print", Text.Prints, "NAME[START:END]",
         "Print elements of buffer parameter NAME (repeatable)");
  Repeat("--set-reg", Text.SetRegs, "REG:VALUE",
         "Initial register value in every lane (repeatable)");
  Repeat("--fill-zero", Text.FillZero, "OFFSET:TYPE:COUNT",
         "Write 4*COUNT zero bytes (repeatable)");
  Repeat("--fill-iota", Text.FillIota, "OFFSET:TYPE:COUNT[:SCALE]",
         "Write COUNT f32 values i*SCALE (repeatable)");
  App->add_option("--dump-u32", Text.DumpU32, "Print u32 values")
      ->type_name("OFFSET:COUNT");
  App->add_option("--dump-f32", Text.DumpF32, "Print f32 values")
      ->type_name("OFFSET:COUNT");
  App->add_option("--dump-f16", Text.DumpF16, "Print f16 values")
      ->type_name("OFFSET:COUNT");
  App->add_option("--dump-bf16", Text.DumpBf16, "Print bf16 values")
      ->type_name("OFFSET:COUNT");
  App->add_option("--dump-memory", Text.DumpMemory, "Hex dump of device memory")
      ->type_name("START:END");
  App->add_flag("--dump-regs", Opts.DumpRegs, "Register dump note (stderr)");
  App->add_flag("--stats", Opts.Stats, "Print execution statistics");
  App->add_flag("--profile-jobs", Opts.ProfileJobs,
                "Print how each --jobs thread spent its time, to stderr");
  App->add_flag("--trace", Opts.Trace, "Trace every executed step to stderr");
  // A flag with an optional value: `--check` alone is `--check=all`, and
  // it never takes the BINARY that follows it.
  std::string CheckText, CheckLimit;
  CLI::Option *CheckOpt =
      App->add_flag("--check{all}", CheckText,
                    "Check the kernel while it runs (memcheck, racecheck, "
                    "initcheck, synccheck; alone: all); reports go to "
                    "stderr, and any finding exits 1")
          ->type_name("LIST");
  App->add_option("--check-limit", CheckLimit,
                  "Reports printed per checker, 0 = all (default 10)")
      ->type_name("N");

  return tool::runMain(*App, Argc, Argv, [&]() -> int {
    // Option values (formats/isa.md §7.1; D42: every number decimal or 0x hex).
    EmuConfig &C = Opts.Config;
    auto Num = [&](StringRef Text, StringRef What, uint64_t Max,
                   auto &Dest) -> Error {
      auto V = parseNumber(Text, What, Max);
      if (!V)
        return V.takeError();
      Dest = decltype(+Dest)(*V);
      return Error::success();
    };
    Error E = Error::success();
    auto Try = [&](Error Next) {
      if (!E)
        E = std::move(Next);
      else
        consumeError(std::move(Next));
    };
    if (auto D = parseDims(Grid, "--grid"))
      C.Grid = *D;
    else
      Try(D.takeError());
    if (auto D = parseDims(Workgroup, "--workgroup"))
      C.Workgroup = *D;
    else
      Try(D.takeError());
    Try(Num(Registers, "--registers", UINT32_MAX, C.Registers));
    Try(Num(LocalMem, "--local-memory", UINT32_MAX, C.LocalMemory));
    Try(Num(DeviceMem, "--device-memory", UINT64_MAX, C.DeviceMemory));
    Try(Num(WaveWidth, "--wave-width", UINT32_MAX, C.WaveWidth));
    Try(Num(MaxInstr, "--max-instructions", UINT64_MAX, C.MaxInstructions));
    if (JobsOpt->count())
      Try(Num(Jobs, "--jobs", MaxJobs, C.Jobs));
    else if (const char *Env = std::getenv("WAVE_RUN_JOBS"); Env && *Env)
      Try(Num(std::string(Env), "WAVE_RUN_JOBS", MaxJobs, C.Jobs));
    else
      C.Jobs = 0;
    if (!E && (C.WaveWidth < 1 || C.WaveWidth > 64))
      Try(createStringError("invalid --wave-width '%s': must be 1..64",
                            WaveWidth.c_str()));
    Try(parseRunOptionText(Text, Opts));
    if (CheckOpt->count()) {
      if (auto K = parseCheckKinds(CheckText))
        Opts.Check.Kinds = *K;
      else
        Try(K.takeError());
    }
    if (!CheckLimit.empty())
      Try(Num(CheckLimit, "--check-limit", UINT64_MAX, Opts.Check.Limit));
    Opts.Check.Prefix = ToolName;
    Opts.DeviceMemoryExplicit = DeviceMemOpt->count() > 0;
    Opts.Kernel = Kernel;
    bool OnCUDA = Device == "cuda";
    bool OnGPU = Device == "hsa" || OnCUDA;
    Try(Num(Agent, "--agent", UINT32_MAX, DO.Agent));
    Try(Num(RepeatCount, "--repeat", UINT32_MAX, DO.Repeat));
    if (!E && !to_float(Timeout, DO.TimeoutSeconds))
      Try(createStringError("invalid --timeout '%s': expected seconds",
                            Timeout.c_str()));
    if (!E && DO.Repeat == 0)
      Try(createStringError("invalid --repeat '0': must be at least 1"));
    if (!E && !OnGPU && !ListDevices &&
        (DO.Timing || DO.Repeat != 1 || App->get_option("--agent")->count() ||
         App->get_option("--timeout")->count()))
      Try(createStringError("--agent, --timeout, --repeat and --timing need "
                            "--device=hsa or --device=cuda"));
    // The CUDA stage translates in process (no clang or ld.lld) for one
    // wave per warp; both GPUs cache what they translate.
    if (!E && !ListDevices && !OnGPU && NoCache)
      Try(createStringError("--no-cache needs --device=hsa or --device=cuda"));
    if (!E && !ListDevices && Device != "hsa" &&
        (App->get_option("--clang")->count() ||
         App->get_option("--ld-lld")->count()))
      Try(createStringError("--clang and --ld-lld need --device=hsa"));
    if (!E && OnCUDA && WaveWidthOpt->count() &&
        C.WaveWidth != nvptx::WaveWidth)
      Try(createStringError("invalid --wave-width '%s' with --device=cuda: "
                            "a wave is a warp of %u lanes",
                            WaveWidth.c_str(), nvptx::WaveWidth));
    if (!E && !ListDevices && Input.empty())
      Try(createStringError("BINARY is required"));
    if (E)
      return usageError(std::move(E));

    if (ListDevices)
      return listDevices(ToolName, outs());

    auto Buf = tool::readInput(Input);
    if (!Buf) {
      tool::printFileError(ToolName, Input, Buf.takeError());
      return tool::ExitUsage;
    }
    StringRef B = (*Buf)->getBuffer();
    ArrayRef<uint8_t> Bytes(reinterpret_cast<const uint8_t *>(B.data()),
                            B.size());
    // An HSA code object (ELF) runs only on the GPU, by kernel name, with
    // positional arguments: it has no WAVE parameter descriptors.
    bool IsCodeObject = B.starts_with("\x7f"
                                      "ELF");
    if (IsCodeObject) {
      StringRef Why;
      if (Device != "hsa" && App->get_option("--device")->count())
        Why = "runs only with --device=hsa";
      else if (Kernel.empty() || isDigit(Kernel[0]))
        Why = "needs --kernel NAME (the kernel's symbol without '.kd')";
      else if (!Opts.NamedArgs.empty() || !Opts.Outs.empty() ||
               !Opts.Prints.empty())
        Why = "has no parameter descriptors: use --arg OFFSET:FILE and "
              "--set-reg instead of named arguments, --out and --print";
      if (!Why.empty())
        return usageError(createStringError(
            "'%s' is an HSA code object; it %s",
            tool::displayName(Input).str().c_str(), Why.str().c_str()));
      OnGPU = true;
    }
    Expected<WbinFile> File =
        IsCodeObject ? Expected<WbinFile>(codeObjectStandIn(Kernel))
                     : readWbin(Bytes);
    if (!File) {
      tool::printBinaryError(ToolName, Input, File.takeError());
      return tool::ExitInvalidInput;
    }
    if (File->Relocatable) {
      tool::printError(ToolName, "'" + tool::displayName(Input) +
                                     "' is a relocatable object; link it "
                                     "with wave-link");
      return tool::ExitInvalidInput;
    }
    // Code without kernel entries runs from offset 0 (formats/isa.md §4.2,
    // the reference emulator's rule); a file with neither has nothing to
    // run, and the phantom kernel_0 it would start is refused instead
    // (docs/conventions.md §7 "Empty input").
    if (!IsCodeObject && File->Kernels.empty() && File->Code.empty()) {
      tool::printError(ToolName, "'" + tool::displayName(Input) +
                                     "': no kernels (the file has no kernel "
                                     "entries and no code)");
      return tool::ExitInvalidInput;
    }

    DO.Kind = OnCUDA  ? DeviceKind::Cuda
              : OnGPU ? DeviceKind::Hsa
                      : DeviceKind::Emu;
    DO.UseCache = !NoCache;
    auto Dev = openDevice(DO, *File, Bytes, IsCodeObject);
    if (!Dev)
      return reportDeviceError(ToolName, Dev.takeError());
    std::vector<OutputFile> Outputs;
    KernelExecutor Executor = nullptr;
    if (*Dev)
      Executor = **Dev;
    CheckCounts Checks;
    int RC = reportRunError(
        ToolName, Input,
        runProgram(*File, Opts, outs(), errs(), &Outputs, Executor, &Checks));
    // --stats ends with the kernel's occupancy by registers on every target
    // (wave-objdump --kernels' table; the emulator itself has no target).
    if (RC == tool::ExitSuccess && Opts.Stats) {
      Expected<unsigned> K = resolveKernel(*File, Opts.Kernel);
      if (K && *K < File->Kernels.size()) {
        outs() << "\n  Occupancy by registers (" << occupancyEquation()
               << ", at most the cap):\n";
        printOccupancyLines(
            outs(), kernelOccupancy(File->Kernels[*K].RegisterCount), "    ");
      } else if (!K) {
        consumeError(K.takeError()); // runProgram() accepted it
      }
    }
    for (const OutputFile &O : Outputs) // --out, only after a clean run
      if (RC == tool::ExitSuccess)
        RC = tool::exitCodeFor(tool::writeOutput(
            ToolName, O.Path, /*Binary=*/true, /*Force=*/false,
            [&](raw_ostream &OS) {
              OS.write(reinterpret_cast<const char *>(O.Bytes.data()),
                       O.Bytes.size());
              return Error::success();
            }));
    // --check: a finding is an error of the kernel (exit 1), after the
    // results, which are those of an unchecked run.
    if (RC == tool::ExitSuccess && Checks.total())
      RC = tool::ExitInvalidInput;
    return RC;
  });
}
