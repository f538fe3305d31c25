//===- wave-compiler.cpp - Kernel source to a .wbin in one process --------===//
//
// wave-compiler [-O0..-O3] [--lang L] [--kernel NAME] [--workgroup-size X,Y,Z]
//               [-c | -S | --emit=ast|hir|mir|lir|asm|wbin]
//               [--target=TRIPLE [--mcpu=CPU]] [--max-registers N] [-v]
//               [-o FILE] [FILE|-]
// compiles a kernel source file (formats/kernel-languages.md) as `wave-fe |
// wave-opt -ON | wave-ra | wave-as` would, in process (wave/Driver/
// Compiler.h), and accepts the reference toolchain's `wave-compiler SRC -o
// OUT --lang L`. A failing stage leaves no output file. Exit codes: 0 ok,
// 1 bad input (every error of the failing stage is reported), 2 usage or
// I/O error.
//
//===----------------------------------------------------------------------===//
#include "wave/Driver/Compiler.h"
#include "wave/Tool/Tool.h"

#include "llvm/Support/raw_ostream.h"

using namespace wave;
using namespace wave::driver;
using namespace wave::tool;

static constexpr const char *ToolName = "wave-compiler";

int main(int Argc, char **Argv) {
  auto App = makeApp(ToolName, "Compile a Python, C++, Rust or TypeScript "
                               "kernel to a .wbin in one process (wave-fe | "
                               "wave-opt | wave-ra | wave-as)");
  CompilerOptions Opts;
  std::string Lang, Emit = "wbin", WGSize, Output, Input = "-";
  bool AsmOnly = false, Force = false, Verbose = false;
  int OptLevel = 2;
  App->add_option("-O", OptLevel,
                  "Optimization level 0-3 (default 2), as wave-opt -O")
      ->check(CLI::Range(0, 3).description(""))
      ->type_name("N");
  App->add_option("--lang,-x", Lang,
                  "Source language (default: from the file extension)")
      ->check(CLI::IsMember({"python", "py", "cpp", "c++", "rust", "rs",
                             "typescript", "ts"})
                  .description(""))
      ->type_name("python|cpp|rust|typescript");
  App->add_option("--kernel", Opts.Kernel,
                  "Compile only kernel NAME and the device functions it "
                  "calls")
      ->type_name("NAME");
  App->add_option("--workgroup-size", WGSize,
                  "Workgroup size of kernels that do not give one "
                  "(default 256,1,1)")
      ->type_name("X[,Y[,Z]]");
  App->add_option("--emit", Emit,
                  "Stop after a stage: ast, hir (wave-fe), mir (wave-opt), "
                  "lir, asm (wave-ra) or wbin (wave-as, the default)")
      ->check(CLI::IsMember({"ast", "hir", "mir", "lir", "asm", "wbin"})
                  .description(""))
      ->type_name("ast|hir|mir|lir|asm|wbin");
  App->add_flag("-S", AsmOnly, "Write WAVE assembly text (--emit=asm)");
  App->add_flag("-c,--relocatable", Opts.Relocatable,
                "Write a relocatable object for wave-link instead of an "
                "executable");
  App->add_option("--target", Opts.Target,
                  "'wave' (the default): a .wbin; 'amdgcn-amd-amdhsa': an "
                  "AMD HSA code object (.hsaco); 'nvptx64-nvidia-cuda': a "
                  "PTX module (.ptx)")
      ->type_name("TRIPLE");
  App->add_option("--mcpu", Opts.MCPU,
                  "AMD processor (gfxNNN, required for amdgcn-amd-amdhsa) or "
                  "NVIDIA architecture (sm_NN, default sm_80)")
      ->type_name("CPU");
  App->add_option("--max-registers", Opts.MaxRegisters,
                  "General registers per kernel, 1-256 (default 32), as "
                  "wave-ra --max-registers")
      ->check(CLI::Range(1, 256).description(""))
      ->type_name("N");
  App->add_flag("-v,--verbose", Verbose,
                "Print the equivalent pipe of single tools to stderr");
  App->add_flag("-f,--force", Force, "Write binary output even to a terminal");
  App->add_option("-o,--output", Output,
                  "Write to FILE ('-' for stdout). Default: INPUT with its "
                  "extension replaced by .wbin (.hsaco, .ptx) for an object, "
                  "stdout for text and for stdin")
      ->type_name("FILE");
  App->add_option("input", Input, "Kernel source file ('-' for stdin)")
      ->type_name("FILE");
  App->parse_complete_callback([&] {
    if (AsmOnly && App->count("--emit") && Emit != "asm")
      throw CLI::ValidationError("-S cannot be used with --emit=" + Emit);
    Opts.Emit = *parseEmitKind(AsmOnly ? "asm" : Emit);
    Opts.OptLevel = unsigned(OptLevel);
    if (std::string Msg = checkOptions(Opts); !Msg.empty())
      throw CLI::ValidationError(Msg);
    if (!WGSize.empty() && !(Opts.WorkgroupSize = parseWorkgroupSize(WGSize)))
      throw CLI::ValidationError("--workgroup-size: expected X[,Y[,Z]] with "
                                 "each dimension 1-1024, got '" +
                                 WGSize + "'");
  });

  return runMain(*App, Argc, Argv, [&]() -> int {
    std::optional<hir::Language> L = Lang.empty()
                                         ? hir::languageForPath(Input)
                                         : hir::parseLanguageName(Lang);
    if (!L) {
      printError(ToolName, "cannot tell the language of '" +
                               displayName(Input) +
                               "'; use --lang python|cpp|rust|typescript");
      return ExitUsage;
    }
    Opts.Lang = *L;
    if (Output.empty())
      Output = defaultOutputPath(Input, Opts);
    if (Output != "-" && Output == Input) {
      printError(ToolName, "'" + Input +
                               "': the output would replace the "
                               "input; name it with -o");
      return ExitUsage;
    }
    if (Verbose) {
      llvm::outs().flush();
      llvm::errs() << equivalentPipe(Input, Output, Opts) << "\n";
    }
    auto Buf = readInput(Input);
    if (!Buf) {
      printFileError(ToolName, Input, Buf.takeError());
      return ExitUsage;
    }
    std::string Out;
    if (int RC = compileSource(ToolName, (*Buf)->getBuffer(), Input, Opts, Out))
      return RC;
    return exitCodeFor(writeOutput(ToolName, Output, isBinaryOutput(Opts),
                                   Force, [&](llvm::raw_ostream &OS) {
                                     OS << Out;
                                     return llvm::Error::success();
                                   }));
  });
}
