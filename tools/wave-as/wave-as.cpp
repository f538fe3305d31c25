//===- wave-as.cpp - WAVE assembler driver --------------------------------===//
//
// wave-as [options] [INPUT]: assembles WAVE assembly (formats/wave-asm.md,
// formats/wave-asm.md) into a `.wbin` (formats/wbin.md). With
// --target=amdgcn-amd-amdhsa --mcpu=CPU it goes on through the AMDGCN stage
// (libwave/README.md "The AMDGCN stage") to an HSA code object, or AMDGCN
// assembly with -S; the input may then also be an executable `.wbin`. The work
// is done by wave::assemble() and amdgcn::runAMDGCNStage(); this file maps
// options to them and results to exit codes.
//
//===----------------------------------------------------------------------===//
#include "wave/AMDGCN/Driver.h"
#include "wave/Asm/AsmParser.h"
#include "wave/Asm/Disassembler.h"
#include "wave/NVPTX/Ptxas.h"
#include "wave/NVPTX/Translate.h"
#include "wave/Object/Wbin.h"
#include "wave/Tool/Input.h"
#include "wave/Tool/Tool.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/Path.h"

#include <optional>

using namespace llvm;
using namespace wave;

static constexpr const char *ToolName = "wave-as";
static constexpr const char *NVPTXTriple = "nvptx64-nvidia-cuda";

/// The reference assembler's --dump-hex listing (formats/wave-asm.md "Reference
/// assembler command line").
static void dumpHex(ArrayRef<uint8_t> Bytes, raw_ostream &OS) {
  for (size_t I = 0; I < Bytes.size(); I += 16) {
    OS << format("%08x: ", unsigned(I));
    for (size_t J = I; J < std::min(I + 16, Bytes.size()); ++J)
      OS << format("%02x ", Bytes[J]);
    OS << '\n';
  }
}

/// Usage checks CLI11 cannot express: which options go with which target.
/// Throws CLI::ValidationError, which runMain() reports as a usage error.
static void checkTargetOptions(const CLI::App &App, const std::string &Target,
                               const std::string &MCPU) {
  auto Fail = [](const Twine &Msg) { throw CLI::ValidationError(Msg.str()); };
  std::string Triple = amdgcn::AMDGCNTriple;
  if (Target != "wave" && Target != Triple && Target != NVPTXTriple)
    Fail("unknown target '" + Target + "'; supported: wave, " + Triple +
         ", " + NVPTXTriple);
  if (Target == NVPTXTriple) {
    for (const char *Opt : {"-c", "--no-symbols", "--dump-hex",
                            "--show-encoding", "-S", "--clang", "--ld-lld"})
      if (App.count(Opt))
        Fail(Twine(Opt) + " cannot be used with --target=" + NVPTXTriple);
    if (App.count("--mcpu"))
      if (Expected<unsigned> SM = nvptx::parseMCPU(MCPU); !SM)
        Fail(toString(SM.takeError()));
    return;
  }
  if (App.count("--emit") || App.count("--ptxas"))
    Fail(Twine(App.count("--emit") ? "--emit" : "--ptxas") +
         " needs --target=" + NVPTXTriple);
  if (Target != Triple) {
    for (const char *Opt : {"--mcpu", "-S", "--clang", "--ld-lld"})
      if (App.count(Opt))
        Fail(Twine(Opt) + " needs --target=" + Triple + " or " + NVPTXTriple);
    return;
  }
  for (const char *Opt : {"-c", "--no-symbols", "--dump-hex", "--show-encoding"})
    if (App.count(Opt))
      Fail(Twine(Opt) + " cannot be used with --target=" + Triple);
  if (!App.count("--mcpu"))
    Fail("--target=" + Triple + " needs --mcpu=CPU; supported: " +
         amdgcn::supportedTargetList());
  if (!amdgcn::lookupTarget(MCPU))
    Fail("unknown processor '" + MCPU +
         "'; supported: " + amdgcn::supportedTargetList());
}

int main(int Argc, char **Argv) {
  auto App = tool::makeApp(ToolName,
                           "Assemble WAVE assembly into a .wbin object file, "
                           "or translate it into an AMD HSA code object.");
  std::string Input = "-", Output, Warn = "all", Target = "wave", MCPU;
  bool Force = false, NoSymbols = false, DumpHex = false, ShowEncoding = false,
       Verbose = false, Relocatable = false;
  amdgcn::StageOptions Stage;
  App->add_option("INPUT", Input,
                  "Assembly source file (for amdgcn also an executable .wbin); "
                  "'-' (the default) reads stdin");
  App->add_option("-o,--output", Output,
                  "Output file; '-' is stdout. Default: INPUT with its "
                  "extension replaced by .wbin (.hsaco, or .s with -S, for "
                  "amdgcn), or stdout for stdin")
      ->type_name("FILE");
  App->add_flag("-f,--force", Force, "Write binary output even to a terminal");
  App->add_flag("-c,--relocatable", Relocatable,
                "Write a relocatable object for wave-link (keeps .func, "
                ".global and .extern symbols and call relocations) instead "
                "of an executable");
  App->add_flag("--no-symbols", NoSymbols,
                "Omit the symbol table (kernel names)");
  App->add_flag("--dump-hex", DumpHex,
                "Print the object file as hex on stdout instead of writing "
                "it");
  App->add_flag("--show-encoding", ShowEncoding,
                "Print every instruction with its encoding on stdout instead "
                "of writing an object file");
  App->add_flag("-v,--verbose", Verbose,
                "Print 'Assembled N bytes to PATH' on stderr");
  App->add_option("-W,--warn", Warn,
                  "Warnings: 'all' (default), 'none', or 'error' (treat "
                  "warnings as errors)")
      ->type_name("LEVEL")
      ->check(CLI::IsMember({"all", "none", "error"}));
  App->add_option("--target", Target,
                  "'wave' (the default): write a .wbin; 'amdgcn-amd-amdhsa': "
                  "translate to an AMD HSA code object (.hsaco); "
                  "'nvptx64-nvidia-cuda': translate to a PTX module (.ptx); "
                  "INPUT may then also be an executable .wbin")
      ->type_name("TRIPLE");
  App->add_option("--mcpu", MCPU,
                  "AMD processor for amdgcn-amd-amdhsa (required): " +
                      amdgcn::supportedTargetList() +
                      "; NVIDIA architecture for nvptx64-nvidia-cuda: sm_70 "
                      "and newer (default sm_80)")
      ->type_name("CPU");
  std::string Emit = "ptx", Ptxas;
  App->add_option("--emit", Emit,
                  "nvptx64-nvidia-cuda: 'ptx' (the default), 'cubin' (runs "
                  "ptxas) or 'llvm' (the lifted LLVM IR, optimised)")
      ->check(CLI::IsMember({"ptx", "cubin", "llvm"}))
      ->type_name("KIND");
  App->add_option("--ptxas", Ptxas,
                  "nvptx64-nvidia-cuda --emit=cubin: the ptxas to run "
                  "(default: $WAVE_PTXAS, else ptxas on PATH)")
      ->type_name("PATH");
  App->add_flag("-S", Stage.AssemblyOnly,
                "amdgcn: write AMDGCN assembly text instead of a code object");
  App->add_option("--clang", Stage.Tools.Clang,
                  "amdgcn: the clang to assemble with (default: $WAVE_CLANG, "
                  "else clang-22 or clang on PATH)")
      ->type_name("PATH");
  App->add_option("--ld-lld", Stage.Tools.LdLld,
                  "amdgcn: the ld.lld to link with (default: $WAVE_LD_LLD, "
                  "else ld.lld-22 or ld.lld on PATH)")
      ->type_name("PATH");
  App->parse_complete_callback(
      [&] { checkTargetOptions(*App, Target, MCPU); });

  return tool::runMain(*App, Argc, Argv, [&]() -> int {
    auto BufOrErr = tool::readInput(Input);
    if (!BufOrErr) {
      tool::printFileError(ToolName, Input, BufOrErr.takeError());
      return tool::ExitUsage;
    }
    if (tool::rejectEmptyInput(ToolName, Input, (*BufOrErr)->getBuffer()))
      return tool::ExitInvalidInput;
    bool AMDGCN = Target == amdgcn::AMDGCNTriple;
    bool NVPTX = Target == NVPTXTriple;
    AsmOptions Opts;
    Opts.Relocatable = Relocatable;
    Opts.Warnings = Warn == "none"    ? WarningMode::None
                    : Warn == "error" ? WarningMode::Error
                                      : WarningMode::All;
    std::optional<WbinFile> File =
        tool::loadProgram(ToolName, std::move(*BufOrErr), Input,
                          AMDGCN || NVPTX, Opts);
    if (!File)
      return tool::ExitInvalidInput;

    if (ShowEncoding) {
      DisasmOptions DOpts;
      DOpts.ShowEncoding = true;
      if (Error E = disassemble(*File, outs(), DOpts)) {
        tool::printBinaryError(ToolName, Input, std::move(E), WbinHeaderSize);
        return tool::ExitInvalidInput;
      }
      return tool::ExitSuccess;
    }

    std::vector<uint8_t> Bytes;
    if (AMDGCN) {
      Stage.Target = amdgcn::lookupTarget(MCPU);
      Stage.SourceName = tool::displayName(Input).str();
      Expected<std::vector<uint8_t>> Out = amdgcn::runAMDGCNStage(*File, Stage);
      if (!Out) {
        handleAllErrors(Out.takeError(), [](const ErrorInfoBase &EI) {
          tool::printError(ToolName, EI.message());
        });
        return tool::ExitInvalidInput;
      }
      Bytes = std::move(*Out);
    } else if (NVPTX) {
      nvptx::TranslateOptions TOpts;
      if (!MCPU.empty())
        TOpts.SM = cantFail(nvptx::parseMCPU(MCPU));
      std::optional<std::string> PtxasPath;
      if (Emit == "cubin") { // a missing ptxas before any translation work
        Expected<std::string> P = nvptx::findPtxas(Ptxas);
        if (!P) {
          tool::printError(ToolName, toString(P.takeError()));
          return tool::ExitInvalidInput;
        }
        PtxasPath = *P;
      }
      Expected<std::string> Text = Emit == "llvm"
                                       ? nvptx::translateToLLVMIR(*File, TOpts)
                                       : [&]() -> Expected<std::string> {
        auto M = nvptx::translateToPTX(*File, TOpts);
        if (!M)
          return M.takeError();
        return std::move(M->PTX);
      }();
      if (Text && PtxasPath) {
        auto Cubin = nvptx::buildCubin(*PtxasPath, *Text, TOpts.SM);
        if (!Cubin)
          Text = Cubin.takeError();
        else
          Bytes = std::move(*Cubin);
      } else if (Text) {
        Bytes.assign(Text->begin(), Text->end());
      }
      if (!Text) {
        handleAllErrors(Text.takeError(), [](const ErrorInfoBase &EI) {
          tool::printError(ToolName, EI.message());
        });
        return tool::ExitInvalidInput;
      }
    } else {
      WbinWriteOptions WOpts;
      WOpts.NoSymbols = NoSymbols;
      Bytes = writeWbin(*File, WOpts);
    }
    if (DumpHex) {
      dumpHex(Bytes, outs());
      return tool::ExitSuccess;
    }

    std::string OutPath = Output;
    if (OutPath.empty()) {
      if (Input == "-") {
        OutPath = "-";
      } else {
        SmallString<256> P(Input);
        sys::path::replace_extension(
            P, NVPTX    ? (Emit == "cubin" ? "cubin"
                           : Emit == "llvm" ? "ll"
                                            : "ptx")
               : !AMDGCN ? "wbin"
               : Stage.AssemblyOnly ? "s"
                                    : "hsaco");
        OutPath = std::string(P);
        if (OutPath == Input) { // e.g. -S on a WAVE source named k.s
          tool::printError(ToolName, "'" + Input + "': the output would "
                                     "replace the input; name it with -o");
          return tool::ExitUsage;
        }
      }
    }
    bool Binary = NVPTX ? Emit == "cubin" : !(AMDGCN && Stage.AssemblyOnly);
    tool::WriteStatus S = tool::writeOutput(
        ToolName, OutPath, Binary, Force, [&](raw_ostream &OS) {
          OS.write(reinterpret_cast<const char *>(Bytes.data()), Bytes.size());
          return Error::success();
        });
    if (S == tool::WriteStatus::Ok && Verbose)
      errs() << "Assembled " << Bytes.size() << " bytes to "
             << (OutPath == "-" ? "<stdout>" : OutPath) << "\n";
    return tool::exitCodeFor(S);
  });
}
