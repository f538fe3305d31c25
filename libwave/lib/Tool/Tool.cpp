//===- Tool.cpp - Shared plumbing of the wave-* executables ---------------===//
#include "wave/Tool/Tool.h"

#include "wave/ISA/ISA.h"
#include "wave/Object/Wbin.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/WithColor.h"

#include <new>

using namespace llvm;

namespace wave::tool {

std::string versionString(StringRef ToolName) {
  return (ToolName + " (wavetools) " WAVE_VERSION_STRING
                     "\nWAVE ISA v0.4, .wbin version 1")
      .str();
}

std::unique_ptr<CLI::App> makeApp(StringRef ToolName, StringRef Description) {
  auto App = std::make_unique<CLI::App>(Description.str(), ToolName.str());
  App->set_help_flag("-h,--help", "Print this help message and exit");
  App->set_version_flag("--version", versionString(ToolName),
                        "Print version information and exit");
  App->option_defaults()->always_capture_default(false);
  return App;
}

int runMain(CLI::App &App, int Argc, char **Argv, function_ref<int()> Body) {
  int RC;
  try {
    try {
      App.parse(Argc, Argv);
    } catch (const CLI::CallForHelp &) {
      outs() << App.help();
      outs().flush();
      return ExitSuccess;
    } catch (const CLI::CallForAllHelp &) {
      outs() << App.help("", CLI::AppFormatMode::All);
      outs().flush();
      return ExitSuccess;
    } catch (const CLI::CallForVersion &) {
      outs() << App.version() << "\n";
      outs().flush();
      return ExitSuccess;
    } catch (const CLI::ParseError &E) {
      outs().flush();
      errs() << App.get_name() << ": " << E.what() << "\n"
             << "Try '" << App.get_name()
             << " --help' for more information.\n";
      return ExitUsage;
    }
    RC = Body();
  } catch (const std::bad_alloc &) {
    outs().flush();
    errs() << App.get_name() << ": error: out of memory\n";
    return ExitUsage;
  }
  outs().flush();
  return RC;
}

void printError(StringRef ToolName, const Twine &Message) {
  outs().flush();
  errs() << ToolName << ": ";
  WithColor::error(errs(), "") << Message << "\n";
}

void printWarning(StringRef ToolName, const Twine &Message) {
  outs().flush();
  errs() << ToolName << ": ";
  WithColor::warning(errs(), "") << Message << "\n";
}

void printFileError(StringRef ToolName, StringRef File, Error E) {
  handleAllErrors(std::move(E), [&](const ErrorInfoBase &EI) {
    printError(ToolName, "'" + displayName(File) + "': " + EI.message());
  });
}

void printBinaryError(StringRef ToolName, StringRef File, Error E,
                      uint64_t BaseOffset) {
  auto AtOffset = [&](uint64_t Off, const Twine &Msg) {
    outs().flush();
    errs() << displayName(File) << ":" << format("0x%llx", (unsigned long long)Off)
           << ": ";
    WithColor::error(errs(), "") << Msg << "\n";
  };
  handleAllErrors(
      std::move(E),
      [&](const WbinError &W) { AtOffset(W.getOffset(), W.getMessage()); },
      [&](const DecodeError &D) {
        AtOffset(BaseOffset + D.getOffset(), D.reason());
      },
      [&](const ErrorInfoBase &EI) {
        printError(ToolName, "'" + displayName(File) + "': " + EI.message());
      });
}

StringRef displayName(StringRef Path) { return Path == "-" ? "<stdin>" : Path; }

Expected<std::unique_ptr<MemoryBuffer>> readInput(StringRef Path) {
  auto BufOrErr = MemoryBuffer::getFileOrSTDIN(Path, /*IsText=*/false,
                                               /*RequiresNullTerminator=*/true);
  if (!BufOrErr)
    return errorCodeToError(BufOrErr.getError());
  return std::move(*BufOrErr);
}

WriteStatus writeOutput(StringRef ToolName, StringRef Path, bool Binary,
                        bool Force,
                        function_ref<Error(raw_ostream &)> Write) {
  if (Binary && !Force && Path == "-" && outs().is_displayed()) {
    printError(ToolName, "refusing to write binary output to a terminal; "
                         "use -o FILE or -f to force");
    return WriteStatus::RefusedTerminal;
  }
  if (Error E = writeToOutput(Path, Write)) {
    printFileError(ToolName, Path, std::move(E));
    return WriteStatus::Failed;
  }
  return WriteStatus::Ok;
}

} // namespace wave::tool
