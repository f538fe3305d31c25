//===- wave-run.cpp - Run a .wbin kernel on the emulator or a GPU ---------===//
//
// Thin driver over wave::emu (libwave/lib/Emu), wave::hsa
// (libwave/lib/Runtime/HSA) and wave::cuda (libwave/lib/Runtime/CUDA):
// parses the reference emulator's command line (formats/isa.md §7.1, plus
// --kernel and the named-launch flags --arg NAME=VALUE, --out and --print),
// loads the binary, calls runProgram() -- on the emulator, with --device=hsa
// on a GPU agent of the ROCm HSA runtime, or with --device=cuda on an NVIDIA
// GPU through the CUDA driver, after translating the kernels to PTX
// (libwave/lib/NVPTX) -- and maps the result to an exit status: 0 success,
// 1 bad input file, kernel fault or failed GPU call, 2 usage or no GPU, 3
// instruction limit or --timeout.
//
//===----------------------------------------------------------------------===//
#include "wave/Emu/RunOptions.h"
#include "wave/ISA/ISA.h"
#include "wave/NVPTX/Translate.h"
#include "wave/Object/Wbin.h"
#include "wave/Runtime/CUDA/Runtime.h"
#include "wave/Runtime/HSA/CodeObjectCache.h"
#include "wave/Runtime/HSA/Runtime.h"
#include "wave/Tool/Tool.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"

#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

using namespace llvm;
using namespace wave;
using namespace wave::emu;

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

/// Prints an HSA runner error and returns its exit status (NoDevice: 2,
/// Timeout: 3, otherwise 1).
static int reportHsaError(const hsa::HsaError &HE) {
  tool::printError(ToolName, HE.message());
  switch (HE.getKind()) {
  case hsa::HsaErrorKind::NoDevice:
    return tool::ExitUsage;
  case hsa::HsaErrorKind::Timeout:
    return tool::ExitLimit;
  case hsa::HsaErrorKind::Failure:
    break;
  }
  return tool::ExitInvalidInput;
}

/// Prints a CUDA runner error and returns its exit status (NoDevice: 2,
/// Timeout: 3, otherwise 1).
static int reportCudaError(const cuda::CudaError &CE) {
  tool::printError(ToolName, CE.message());
  switch (CE.getKind()) {
  case cuda::CudaErrorKind::NoDevice:
    return tool::ExitUsage;
  case cuda::CudaErrorKind::Timeout:
    return tool::ExitLimit;
  case cuda::CudaErrorKind::Failure:
    break;
  }
  return tool::ExitInvalidInput;
}

/// Prints \p E (an HsaError, a CudaError or another failure of a GPU
/// runner) and returns the exit status.
static int gpuFailure(Error E) {
  int RC = tool::ExitInvalidInput;
  handleAllErrors(
      std::move(E), [&](const hsa::HsaError &HE) { RC = reportHsaError(HE); },
      [&](const cuda::CudaError &CE) { RC = reportCudaError(CE); },
      [&](const ErrorInfoBase &EI) {
        tool::printError(ToolName, EI.message());
      });
  return RC;
}

/// --list-devices: the HSA runtime's agents, then the CUDA driver's
/// devices. A runtime that is missing or fails to open is one line on
/// stdout, its error's message, as long as the other one opens; when
/// neither does, both messages are errors, and the exit status is 2 if
/// both are simply absent (NoDevice), else 1.
static int listDevices() {
  auto HSA = hsa::Runtime::open();
  auto CUDA = cuda::Runtime::open();
  if (!HSA && !CUDA) {
    int HsaRC = gpuFailure(HSA.takeError());
    int CudaRC = gpuFailure(CUDA.takeError());
    return HsaRC == tool::ExitUsage && CudaRC == tool::ExitUsage
               ? tool::ExitUsage
               : tool::ExitInvalidInput;
  }
  if (HSA)
    hsa::printAgents((*HSA)->agents(), outs());
  else
    outs() << toString(HSA.takeError()) << "\n";
  if (CUDA)
    (*CUDA)->printDevices(outs());
  else
    outs() << toString(CUDA.takeError()) << "\n";
  return tool::ExitSuccess;
}

/// Prints the --timing lines of a GPU dispatch: each launch's time in
/// microseconds.
static void printTimes(ArrayRef<double> Seconds) {
  for (size_t I = 0; I < Seconds.size(); ++I)
    errs() << ToolName << ": dispatch " << I + 1 << ": "
           << format("%.3f", Seconds[I] * 1e6) << " us\n";
}

/// The stand-in .wbin for a code object input: one kernel named \p Name
/// whose code (a `halt`) never runs -- runProgram() only needs it to hold
/// device memory, and the GPU runs the real kernel.
static WbinFile codeObjectStandIn(StringRef Name) {
  WbinFile F;
  Inst Halt;
  Halt.Op = Opcode::Halt;
  encodeInst(Halt, F.Code);
  KernelInfo K;
  K.Name = Name.str();
  K.CodeSize = uint32_t(F.Code.size());
  F.Kernels.push_back(std::move(K));
  return F;
}

int main(int Argc, char **Argv) {
  auto App =
      tool::makeApp(ToolName, "Run a kernel of a .wbin binary on the WAVE "
                              "reference emulator or a GPU.");
  std::string Input;
  std::string Grid = "1,1,1", Workgroup = "32,1,1", Registers = "32",
              LocalMem = "16384", DeviceMem = "1048576", WaveWidth = "32",
              MaxInstr = "10000000", Kernel, Jobs = "0";
  std::vector<std::string> Args, SetRegs, FillZero, FillIota, Outs, Prints;
  std::string DumpU32, DumpF32, DumpF16, DumpBf16, DumpMemory;
  RunOptions Opts;

  App->add_option("BINARY", Input, "Input .wbin file ('-' for stdin)")
      ->type_name("");
  std::string Device = "emu", Agent = "0", Timeout = "60", RepeatCount = "1";
  bool ListDevices = false, Timing = false, NoCache = false;
  std::string ClangPath, LdLldPath;
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
  App->add_flag("--timing", Timing,
                "Print each GPU dispatch's time (stderr)");
  App->add_flag("--no-cache", NoCache,
                "Translate the .wbin for the GPU even if a cached code "
                "object exists, and do not store one (--device=hsa)");
  App->add_option("--clang", ClangPath,
                  "clang for the HSA translation (default: $WAVE_CLANG, "
                  "then clang-22 or clang on PATH)")
      ->type_name("PATH");
  App->add_option("--ld-lld", LdLldPath,
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
  Repeat("--arg", Args, "OFFSET:FILE|NAME=VALUE",
         "Copy FILE into device memory, or give kernel parameter NAME a "
         "value (repeatable)");
  Repeat("--out", Outs, "NAME=FILE",
         "Write buffer parameter NAME's final bytes to FILE (repeatable)");
  Repeat("--print", Prints, "NAME[START:END]",
         "Print elements of buffer parameter NAME (repeatable)");
  Repeat("--set-reg", SetRegs, "REG:VALUE",
         "Initial register value in every lane (repeatable)");
  Repeat("--fill-zero", FillZero, "OFFSET:TYPE:COUNT",
         "Write 4*COUNT zero bytes (repeatable)");
  Repeat("--fill-iota", FillIota, "OFFSET:TYPE:COUNT[:SCALE]",
         "Write COUNT f32 values i*SCALE (repeatable)");
  App->add_option("--dump-u32", DumpU32, "Print u32 values")
      ->type_name("OFFSET:COUNT");
  App->add_option("--dump-f32", DumpF32, "Print f32 values")
      ->type_name("OFFSET:COUNT");
  App->add_option("--dump-f16", DumpF16, "Print f16 values")
      ->type_name("OFFSET:COUNT");
  App->add_option("--dump-bf16", DumpBf16, "Print bf16 values")
      ->type_name("OFFSET:COUNT");
  App->add_option("--dump-memory", DumpMemory, "Hex dump of device memory")
      ->type_name("START:END");
  App->add_flag("--dump-regs", Opts.DumpRegs, "Register dump note (stderr)");
  App->add_flag("--stats", Opts.Stats, "Print execution statistics");
  App->add_flag("--trace", Opts.Trace, "Trace every executed step to stderr");

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
    for (const std::string &S : SetRegs)
      if (auto R = parseSetReg(S))
        C.SetRegs.push_back(*R);
      else
        Try(R.takeError());
    for (const std::string &S : FillZero)
      if (auto F = parseFill(S, false))
        Opts.FillZero.push_back(*F);
      else
        Try(F.takeError());
    for (const std::string &S : FillIota)
      if (auto F = parseFill(S, true))
        Opts.FillIota.push_back(*F);
      else
        Try(F.takeError());
    for (const std::string &S : Args)
      if (isNamedArg(S)) {
        if (auto A = parseNamedArg(S))
          Opts.NamedArgs.push_back(*A);
        else
          Try(A.takeError());
      } else if (auto A = parseArg(S))
        Opts.Args.push_back(*A);
      else
        Try(A.takeError());
    for (const std::string &S : Outs)
      if (auto O = parseNamedOut(S))
        Opts.Outs.push_back(*O);
      else
        Try(O.takeError());
    for (const std::string &S : Prints)
      if (auto P = parseNamedPrint(S))
        Opts.Prints.push_back(*P);
      else
        Try(P.takeError());
    Opts.DeviceMemoryExplicit = DeviceMemOpt->count() > 0;
    auto Dump = [&](const std::string &S, const char *What, auto &Dest) {
      if (S.empty())
        return;
      if (auto P = parsePair(S, What))
        Dest = *P;
      else
        Try(P.takeError());
    };
    Dump(DumpU32, "--dump-u32", Opts.DumpU32);
    Dump(DumpF32, "--dump-f32", Opts.DumpF32);
    Dump(DumpF16, "--dump-f16", Opts.DumpF16);
    Dump(DumpBf16, "--dump-bf16", Opts.DumpBf16);
    Dump(DumpMemory, "--dump-memory", Opts.DumpMemory);
    Opts.Kernel = Kernel;
    bool OnCUDA = Device == "cuda";
    bool OnGPU = Device == "hsa" || OnCUDA;
    unsigned AgentIndex = 0, Repeats = 1;
    double TimeoutSeconds = 60;
    Try(Num(Agent, "--agent", UINT32_MAX, AgentIndex));
    Try(Num(RepeatCount, "--repeat", UINT32_MAX, Repeats));
    if (!E && !to_float(Timeout, TimeoutSeconds))
      Try(createStringError("invalid --timeout '%s': expected seconds",
                            Timeout.c_str()));
    if (!E && Repeats == 0)
      Try(createStringError("invalid --repeat '0': must be at least 1"));
    if (!E && !OnGPU && !ListDevices &&
        (Timing || Repeats != 1 || App->get_option("--agent")->count() ||
         App->get_option("--timeout")->count()))
      Try(createStringError("--agent, --timeout, --repeat and --timing need "
                            "--device=hsa or --device=cuda"));
    // The CUDA stage translates in process (no code-object cache, clang or
    // ld.lld) for one wave per warp.
    if (!E && !ListDevices && Device != "hsa" &&
        (NoCache || (OnCUDA && (App->get_option("--clang")->count() ||
                                App->get_option("--ld-lld")->count()))))
      Try(createStringError("--no-cache, --clang and --ld-lld need "
                            "--device=hsa"));
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
      return listDevices();

    auto Buf = tool::readInput(Input);
    if (!Buf) {
      tool::printFileError(ToolName, Input, Buf.takeError());
      return tool::ExitUsage;
    }
    StringRef B = (*Buf)->getBuffer();
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
                     : readWbin(ArrayRef<uint8_t>(
                           reinterpret_cast<const uint8_t *>(B.data()),
                           B.size()));
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

    // --device=hsa: the code object for the agent, then runProgram() with
    // a dispatch in place of the emulator's run.
    std::unique_ptr<hsa::Runtime> RT;
    std::vector<uint8_t> CodeObject;
    if (OnGPU && !OnCUDA) {
      auto Opened = hsa::Runtime::open();
      if (!Opened)
        return gpuFailure(Opened.takeError());
      RT = std::move(*Opened);
      if (Error E = RT->checkAgent(AgentIndex))
        return gpuFailure(std::move(E));
      ArrayRef<uint8_t> Bytes(reinterpret_cast<const uint8_t *>(B.data()),
                              B.size());
      if (IsCodeObject) {
        CodeObject.assign(Bytes.begin(), Bytes.end());
      } else {
        hsa::CodeObjectRequest Req;
        Req.WbinBytes = Bytes;
        Req.MCPU = RT->agents()[AgentIndex].processor();
        Req.UseCache = !NoCache;
        Req.Clang = ClangPath;
        Req.LdLld = LdLldPath;
        auto Obj = hsa::codeObjectFor(*File, Req);
        if (!Obj) {
          tool::printError(ToolName, toString(Obj.takeError()));
          return tool::ExitInvalidInput;
        }
        CodeObject = std::move(*Obj);
      }
    }
    auto Dispatch = [&](const WbinFile &F, unsigned K, const EmuConfig &Cfg,
                        MutableArrayRef<uint8_t> Memory) -> Error {
      const KernelInfo &KI = F.Kernels[K];
      hsa::DispatchRequest R;
      R.CodeObject = CodeObject;
      R.KernelSymbol = KI.Name + ".kd";
      R.Memory = Memory;
      for (const auto &[Reg, Value] : Cfg.SetRegs) { // later ones win
        if (Reg >= R.Registers.size())
          R.Registers.resize(Reg + 1, 0);
        R.Registers[Reg] = Value;
      }
      R.Workgroups = Cfg.Grid;
      for (unsigned D = 0; D < 3; ++D) {
        uint32_t Size = KI.WorkgroupSize[0] > 0 ? KI.WorkgroupSize[D]
                                                : Cfg.Workgroup[D];
        if (Size > UINT16_MAX)
          return createStringError(inconvertibleErrorCode(),
                                   "workgroup dimension %c of %u work-items "
                                   "does not fit an AQL packet",
                                   "xyz"[D], Size);
        R.GroupSize[D] = uint16_t(Size);
      }
      R.TimeoutSeconds = TimeoutSeconds;
      R.Repeat = Repeats;
      R.Profile = Timing;
      auto Res = RT->dispatch(AgentIndex, R);
      if (!Res)
        return Res.takeError();
      printTimes(Res->Seconds);
      return Error::success();
    };

    // --device=cuda: every kernel to PTX for the device, in process; the
    // launch follows the translation's KernelABI.
    std::unique_ptr<cuda::Runtime> CudaRT;
    nvptx::PTXModule PTX;
    if (OnCUDA) {
      auto Opened = cuda::Runtime::open();
      if (!Opened)
        return gpuFailure(Opened.takeError());
      CudaRT = std::move(*Opened);
      if (Error E = CudaRT->checkDevice(AgentIndex))
        return gpuFailure(std::move(E));
      auto SM = cuda::targetSM(CudaRT->devices()[AgentIndex]);
      if (!SM)
        return gpuFailure(SM.takeError());
      nvptx::TranslateOptions TO;
      TO.SM = *SM;
      auto Translated = nvptx::translateToPTX(*File, TO);
      if (!Translated) {
        tool::printError(ToolName, toString(Translated.takeError()));
        return tool::ExitInvalidInput;
      }
      PTX = std::move(*Translated);
    }
    auto CudaDispatch = [&](const WbinFile &F, unsigned K, const EmuConfig &Cfg,
                            MutableArrayRef<uint8_t> Memory) -> Error {
      const KernelInfo &KI = F.Kernels[K];
      if (K >= PTX.Kernels.size())
        return createStringError("kernel '%s' has no PTX entry",
                                 KI.Name.c_str());
      const nvptx::KernelABI &ABI = PTX.Kernels[K];
      cuda::DispatchRequest R;
      R.PTX = PTX.PTX;
      R.Symbol = ABI.Symbol;
      R.KernelName = KI.Name;
      R.Memory = Memory;
      // A named launch's parameters, then --set-reg (later ones win); the
      // kernel reads no other register's initial value.
      R.Registers.assign(ABI.NumRegParams, 0);
      for (const auto &[Reg, Value] : Cfg.SetRegs)
        if (Reg < R.Registers.size())
          R.Registers[Reg] = Value;
      R.LocalMemory = KI.LocalMemorySize ? KI.LocalMemorySize : Cfg.LocalMemory;
      for (unsigned D = 0; D < 3; ++D)
        R.GroupSize[D] = KI.WorkgroupSize[0] > 0
                             ? std::max(KI.WorkgroupSize[D], 1u)
                             : Cfg.Workgroup[D];
      R.Workgroups = Cfg.Grid;
      R.TimeoutSeconds = TimeoutSeconds;
      R.Repeat = Repeats;
      R.Profile = Timing;
      auto Res = CudaRT->dispatch(AgentIndex, R);
      if (!Res)
        return Res.takeError();
      printTimes(Res->Seconds);
      return Error::success();
    };

    int RC = tool::ExitSuccess;
    std::vector<OutputFile> Outputs;
    KernelExecutor Executor = nullptr;
    if (OnCUDA)
      Executor = CudaDispatch;
    else if (OnGPU)
      Executor = Dispatch;
    Error RunErr = runProgram(*File, Opts, outs(), errs(), &Outputs, Executor);
    handleAllErrors(
        std::move(RunErr),
        [&](const hsa::HsaError &HE) { RC = reportHsaError(HE); },
        [&](const cuda::CudaError &CE) { RC = reportCudaError(CE); },
        [&](const WbinError &WE) {
          // A limit the file's own metadata breaks: located, bad input.
          tool::printBinaryError(ToolName, Input, make_error<WbinError>(WE));
          RC = tool::ExitInvalidInput;
        },
        [&](const EmuError &EE) {
          tool::printError(ToolName, EE.getMessage());
          RC = EE.getKind() == EmuErrorKind::Limit ? tool::ExitLimit
                                                   : tool::ExitInvalidInput;
        },
        [&](const ErrorInfoBase &EI) {
          tool::printError(ToolName, EI.message());
          RC = tool::ExitUsage;
        });
    for (const OutputFile &O : Outputs) // --out, only after a clean run
      if (RC == tool::ExitSuccess)
        RC = tool::exitCodeFor(tool::writeOutput(
            ToolName, O.Path, /*Binary=*/true, /*Force=*/false,
            [&](raw_ostream &OS) {
              OS.write(reinterpret_cast<const char *>(O.Bytes.data()),
                       O.Bytes.size());
              return Error::success();
            }));
    return RC;
  });
}
