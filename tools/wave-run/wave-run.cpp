//===- wave-run.cpp - Run a .wbin kernel on the reference emulator --------===//
//
// Thin driver over wave::emu (libwave/lib/Emu): parses the reference
// emulator's command line (ISA.md §7.1, plus --kernel and the named-launch
// flags --arg NAME=VALUE, --out and --print), loads the binary,
// calls runProgram() and maps the result to an exit status: 0 success,
// 1 bad input file or kernel fault, 2 usage, 3 instruction limit.
//
//===----------------------------------------------------------------------===//
#include "wave/Emu/RunOptions.h"
#include "wave/Object/Wbin.h"
#include "wave/Tool/Tool.h"

#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace wave;
using namespace wave::emu;

static constexpr const char *ToolName = "wave-run";

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
                              "reference emulator.");
  std::string Input;
  std::string Grid = "1,1,1", Workgroup = "32,1,1", Registers = "32",
              LocalMem = "16384", DeviceMem = "1048576", WaveWidth = "32",
              MaxInstr = "10000000", Kernel;
  std::vector<std::string> Args, SetRegs, FillZero, FillIota, Outs, Prints;
  std::string DumpU32, DumpF32, DumpF16, DumpBf16, DumpMemory;
  RunOptions Opts;

  App->add_option("BINARY", Input, "Input .wbin file ('-' for stdin)")
      ->required()
      ->type_name("");
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
  App->add_option("--wave-width", WaveWidth,
                  "Lanes per wave, 1..64 (default 32)")
      ->type_name("N");
  App->add_option("--max-instructions", MaxInstr,
                  "Step limit per workgroup, 0 = none (default 10000000)")
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
    // Option values (ISA.md §7.1; D42: every number decimal or 0x hex).
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
    if (E)
      return usageError(std::move(E));

    auto Buf = tool::readInput(Input);
    if (!Buf) {
      tool::printFileError(ToolName, Input, Buf.takeError());
      return tool::ExitUsage;
    }
    StringRef B = (*Buf)->getBuffer();
    auto File = readWbin(ArrayRef<uint8_t>(
        reinterpret_cast<const uint8_t *>(B.data()), B.size()));
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

    int RC = tool::ExitSuccess;
    std::vector<OutputFile> Outputs;
    Error RunErr = runProgram(*File, Opts, outs(), errs(), &Outputs);
    handleAllErrors(
        std::move(RunErr),
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
