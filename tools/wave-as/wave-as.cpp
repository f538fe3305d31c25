//===- wave-as.cpp - WAVE assembler driver --------------------------------===//
//
// wave-as [options] [INPUT]: assembles WAVE assembly (ISA.md §6,
// formats/wave-asm.md) into a `.wbin` (ISA.md §5). The work is done by
// wave::assemble(); this file maps options to it and results to exit codes.
//
//===----------------------------------------------------------------------===//
#include "wave/Asm/AsmParser.h"
#include "wave/Asm/Disassembler.h"
#include "wave/Object/Wbin.h"
#include "wave/Tool/Tool.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"

using namespace llvm;
using namespace wave;

static constexpr const char *ToolName = "wave-as";

/// The reference assembler's --dump-hex listing (ISA.md §6.7).
static void dumpHex(ArrayRef<uint8_t> Bytes, raw_ostream &OS) {
  for (size_t I = 0; I < Bytes.size(); I += 16) {
    OS << format("%08x: ", unsigned(I));
    for (size_t J = I; J < std::min(I + 16, Bytes.size()); ++J)
      OS << format("%02x ", Bytes[J]);
    OS << '\n';
  }
}

int main(int Argc, char **Argv) {
  auto App = tool::makeApp(ToolName, "Assemble WAVE assembly into a .wbin "
                                     "object file.");
  std::string Input = "-", Output, Warn = "all";
  bool Force = false, NoSymbols = false, DumpHex = false, ShowEncoding = false,
       Verbose = false, Relocatable = false;
  App->add_option("INPUT", Input,
                  "Assembly source file; '-' (the default) reads stdin");
  App->add_option("-o,--output", Output,
                  "Output file; '-' is stdout. Default: INPUT with its "
                  "extension replaced by .wbin, or stdout for stdin")
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

  return tool::runMain(*App, Argc, Argv, [&]() -> int {
    auto BufOrErr = tool::readInput(Input);
    if (!BufOrErr) {
      tool::printFileError(ToolName, Input, BufOrErr.takeError());
      return tool::ExitUsage;
    }
    SourceMgr SM;
    SM.AddNewSourceBuffer(std::move(*BufOrErr), SMLoc());
    AsmOptions Opts;
    Opts.Relocatable = Relocatable;
    Opts.Warnings = Warn == "none"    ? WarningMode::None
                    : Warn == "error" ? WarningMode::Error
                                      : WarningMode::All;
    Expected<WbinFile> File = assemble(SM, Opts);
    if (!File) {
      // Every diagnostic has been printed already.
      consumeError(File.takeError());
      return tool::ExitInvalidInput;
    }

    if (ShowEncoding) {
      DisasmOptions DOpts;
      DOpts.ShowEncoding = true;
      if (Error E = disassemble(*File, outs(), DOpts)) {
        tool::printBinaryError(ToolName, Input, std::move(E), WbinHeaderSize);
        return tool::ExitInvalidInput;
      }
      return tool::ExitSuccess;
    }

    WbinWriteOptions WOpts;
    WOpts.NoSymbols = NoSymbols;
    std::vector<uint8_t> Bytes = writeWbin(*File, WOpts);
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
        sys::path::replace_extension(P, "wbin");
        OutPath = std::string(P);
      }
    }
    tool::WriteStatus S = tool::writeOutput(
        ToolName, OutPath, /*Binary=*/true, Force, [&](raw_ostream &OS) {
          OS.write(reinterpret_cast<const char *>(Bytes.data()), Bytes.size());
          return Error::success();
        });
    if (S == tool::WriteStatus::Ok && Verbose)
      errs() << "Assembled " << Bytes.size() << " bytes to "
             << (OutPath == "-" ? "<stdout>" : OutPath) << "\n";
    return tool::exitCodeFor(S);
  });
}
