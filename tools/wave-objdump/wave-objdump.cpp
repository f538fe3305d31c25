//===- wave-objdump.cpp - Inspect .wbin files -----------------------------===//
//
// wave-objdump [options] [FILE...]: prints the header and sections (-h),
// symbols (-t), relocations (-r), kernel metadata (--kernels), parameter
// descriptors (--params), the line table (-l), section contents (-s) and
// disassembly (-d) of .wbin files, as text or --json. With no selection it
// prints -h, -t and --kernels. --kernels ends with each kernel's occupancy
// by registers on every target; --mcpu=gfxNNN adds the VGPR count the AMDGCN
// stage gives the kernel for that processor.
//
//===----------------------------------------------------------------------===//
#include "wave/AMDGCN/Translate.h"
#include "wave/Dump/ObjDumper.h"
#include "wave/Object/Wbin.h"
#include "wave/Tool/Tool.h"

using namespace wave;
using namespace wave::tool;

static constexpr const char *ToolName = "wave-objdump";

int main(int Argc, char **Argv) {
  auto App = makeApp(ToolName, "Display information from .wbin files");
  // -h means section headers here, as in llvm-objdump; help is --help only.
  App->set_help_flag("--help", "Print this help message and exit");
  ObjDumpOptions Opts;
  bool All = false, JSON = false;
  std::string Output = "-";
  std::vector<std::string> Inputs;
  App->add_flag("-h,--section-headers,--headers", Opts.Headers,
                "Display the file header and the section table");
  App->add_flag("-t,--syms", Opts.Symbols, "Display the symbol table");
  App->add_flag("-r,--reloc", Opts.Relocs, "Display the relocations");
  App->add_flag("--params", Opts.Params,
                "Display each kernel's parameter descriptors");
  App->add_flag("-l,--line-numbers", Opts.LineNumbers,
                "Display the line table; with -d, source positions in the "
                "disassembly");
  App->add_flag("--kernels", Opts.Kernels, "Display the kernel metadata table");
  App->add_flag("-s,--full-contents", Opts.Contents,
                "Display the contents of every section in hex");
  App->add_flag("-d,--disassemble", Opts.Disassemble,
                "Disassemble every kernel with offsets and raw words");
  App->add_flag("-x,--all-headers", All, "Same as -h -t -r --kernels --params");
  App->add_flag("--json", JSON, "Print the selected facts as one JSON object");
  App->add_option("--mcpu", Opts.MCPU,
                  "With --kernels, also the occupancy with the VGPRs the "
                  "AMDGCN stage gives each kernel for this AMD processor: " +
                      amdgcn::supportedTargetList())
      ->type_name("CPU");
  App->add_option("-o,--output", Output, "Write to FILE ('-' for stdout)")
      ->type_name("FILE");
  App->add_option("inputs", Inputs, "Input .wbin files ('-' for stdin)")
      ->type_name("FILE");

  const amdgcn::GCNTarget *MCPU = nullptr;
  App->parse_complete_callback([&] {
    if (All)
      Opts.Headers = Opts.Symbols = Opts.Kernels = Opts.Relocs = Opts.Params =
          true;
    if (!Opts.Headers && !Opts.Symbols && !Opts.Kernels && !Opts.Contents &&
        !Opts.Disassemble && !Opts.Relocs && !Opts.Params && !Opts.LineNumbers)
      Opts.Headers = Opts.Symbols = Opts.Kernels = true;
    if (!App->count("--mcpu"))
      return;
    MCPU = amdgcn::lookupTarget(Opts.MCPU);
    if (!MCPU)
      throw CLI::ValidationError(
          "unknown processor '" + Opts.MCPU +
          "' for --mcpu; supported: " + amdgcn::supportedTargetList());
    if (!Opts.Kernels)
      throw CLI::ValidationError("--mcpu needs --kernels (or -x, or no "
                                 "selection)");
  });

  return runMain(*App, Argc, Argv, [&]() -> int {
    if (Inputs.empty())
      Inputs.push_back("-");
    if (JSON && Inputs.size() > 1) {
      printError(ToolName, "--json takes one input file");
      return ExitUsage;
    }
    int RC = ExitSuccess;
    std::string Text;
    llvm::raw_string_ostream OS(Text);
    for (const std::string &In : Inputs) {
      auto Buf = readInput(In, WbinMagic);
      if (!Buf) {
        printFileError(ToolName, In, Buf.takeError());
        RC = ExitUsage;
        continue;
      }
      llvm::ArrayRef<uint8_t> Bytes(
          reinterpret_cast<const uint8_t *>((*Buf)->getBufferStart()),
          (*Buf)->getBufferSize());
      auto File = readWbin(Bytes);
      if (!File) {
        printBinaryError(ToolName, In, File.takeError());
        RC = std::max<int>(RC, ExitInvalidInput);
        continue;
      }
      if (MCPU) {
        amdgcn::TranslateOptions TOpts;
        TOpts.Target = MCPU;
        auto VGPRs =
            File->Relocatable
                ? llvm::Expected<std::vector<unsigned>>(llvm::createStringError(
                      "relocatable object; --mcpu needs an executable "
                      "(link it with wave-link first)"))
                : amdgcn::kernelVGPRCounts(*File, TOpts);
        if (!VGPRs) {
          printFileError(ToolName, In, VGPRs.takeError());
          RC = std::max<int>(RC, ExitInvalidInput);
          continue;
        }
        Opts.MCPUVGPRs = std::move(*VGPRs);
      }
      if (JSON)
        dumpJSON(OS, displayName(In), *File, Bytes, Opts);
      else
        dumpText(OS, displayName(In), *File, Bytes, Opts);
    }
    // Standard output gets the dumps of the inputs that could be read, as
    // llvm-objdump does; an -o FILE is written only when every input was,
    // so a failed run never replaces it.
    if (Text.empty() || (RC != ExitSuccess && Output != "-"))
      return RC;
    WriteStatus S = writeOutput(ToolName, Output, /*Binary=*/false,
                                /*Force=*/false, [&](llvm::raw_ostream &Out) {
                                  Out << Text;
                                  return llvm::Error::success();
                                });
    return S == WriteStatus::Ok ? RC : ExitUsage;
  });
}
