//===- wave-link.cpp - WAVE object linker ---------------------------------===//
//
// wave-link [options] OBJECT...: links relocatable `.wbin` objects
// (`wave-as -c`) into an executable `.wbin`, or with -r into one relocatable
// object (formats/wbin.md "Linking"). The work is done by wave::link().
//
//===----------------------------------------------------------------------===//
#include "wave/Link/Linker.h"
#include "wave/Object/Wbin.h"
#include "wave/Tool/Tool.h"

#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace wave;

static constexpr const char *ToolName = "wave-link";

int main(int Argc, char **Argv) {
  auto App = tool::makeApp(
      ToolName, "Link relocatable .wbin objects into an executable .wbin.");
  std::vector<std::string> Inputs, Entries;
  std::string Output = "a.wbin";
  bool Force = false, PrintGC = false;
  LinkOptions Opts;
  App->add_option("OBJECT", Inputs,
                  "Relocatable objects made by 'wave-as -c' (or 'wave-link "
                  "-r'); '-' reads one from stdin")
      ->required();
  App->add_option("-o,--output", Output,
                  "Output file; '-' is stdout (default: a.wbin)")
      ->type_name("FILE");
  App->add_flag("-r,--relocatable", Opts.Relocatable,
                "Write one relocatable object instead of an executable");
  App->add_option("-e,--entry", Entries,
                  "Keep only this kernel (repeatable); default: every kernel")
      ->type_name("KERNEL")
      ->allow_extra_args(false);
  App->add_flag("--gc-sections", Opts.GCSections,
                "Discard device functions no kept kernel reaches, before "
                "resolving symbols");
  App->add_flag("--print-gc-sections", PrintGC,
                "List the functions --gc-sections discards on stderr");
  App->add_flag("-S,--strip-debug", Opts.StripDebug,
                "Omit the line table");
  App->add_flag("-s,--strip", Opts.Strip,
                "Omit every extension section: a reference-format file "
                "(no parameter descriptors, no line table)");
  App->add_flag("-f,--force", Force, "Write binary output even to a terminal");

  return tool::runMain(*App, Argc, Argv, [&]() -> int {
    Opts.Entries = Entries;
    if (PrintGC)
      Opts.OnDiscard = [](StringRef What) {
        errs() << ToolName << ": removing unused function '" << What << "'\n";
      };
    if (Opts.Strip && Opts.Relocatable) {
      tool::printError(ToolName, "--strip cannot make a relocatable object "
                                 "(its symbols are needed to link it)");
      return tool::ExitUsage;
    }
    std::vector<LinkInput> In;
    int RC = tool::ExitSuccess;
    for (const std::string &Path : Inputs) {
      auto Buf = tool::readInput(Path, WbinMagic);
      if (!Buf) {
        tool::printFileError(ToolName, Path, Buf.takeError());
        return tool::ExitUsage;
      }
      ArrayRef<uint8_t> Bytes(
          reinterpret_cast<const uint8_t *>((*Buf)->getBufferStart()),
          (*Buf)->getBufferSize());
      Expected<WbinFile> F = readWbin(Bytes);
      if (!F) {
        tool::printBinaryError(ToolName, Path, F.takeError());
        RC = tool::ExitInvalidInput;
        continue;
      }
      In.push_back({tool::displayName(Path).str(), std::move(*F)});
    }
    if (RC != tool::ExitSuccess)
      return RC;
    Expected<WbinFile> Out = link(In, Opts);
    if (!Out) {
      tool::printError(ToolName, toString(Out.takeError()));
      return tool::ExitInvalidInput;
    }
    std::vector<uint8_t> Bytes = writeWbin(*Out);
    return tool::exitCodeFor(tool::writeOutput(
        ToolName, Output, /*Binary=*/true, Force, [&](raw_ostream &OS) {
          OS.write(reinterpret_cast<const char *>(Bytes.data()), Bytes.size());
          return Error::success();
        }));
  });
}
