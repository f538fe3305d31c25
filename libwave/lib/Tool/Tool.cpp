//===- Tool.cpp - Shared plumbing of the wave-* executables ---------------===//
#include "wave/Tool/Tool.h"

#include "wave/ISA/ISA.h"
#include "wave/Object/Wbin.h"
#include "wave/Support/ReadFile.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/WithColor.h"

#include <new>

#include <unistd.h>

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

/// Flushes \p OS and returns its write error, if any, cleared from the
/// stream (whose destructor would otherwise end the process with LLVM's
/// fatal "IO failure on output stream").
static std::error_code flushAndTakeError(raw_fd_ostream &OS) {
  OS.flush();
  if (!OS.has_error())
    return {};
  std::error_code EC = OS.error();
  OS.clear_error();
  return EC;
}

/// Flushes stdout; a failed write (a closed pipe, a full disk, /dev/full)
/// becomes "TOOL: error: ..." and exit status 2.
static int finishStdout(StringRef ToolName, int RC) {
  std::error_code EC = flushAndTakeError(outs());
  if (!EC)
    return RC;
  errs() << ToolName << ": ";
  WithColor::error(errs(), "") << "cannot write to standard output: "
                               << EC.message() << "\n";
  return RC == ExitSuccess ? ExitUsage : RC;
}

int runMain(CLI::App &App, int Argc, char **Argv, function_ref<int()> Body) {
  StringRef Name = App.get_name();
  int RC;
  try {
    try {
      // CLI11 reads `--opt=` (an empty value) as `--opt` followed by the
      // next argument; an empty value it is, as in LLVM's tools. CLI11
      // wants the arguments last first.
      int EndOfOptions = Argc; // a `--` ends the options
      for (int I = 1; I < Argc && EndOfOptions == Argc; ++I)
        if (StringRef(Argv[I]) == "--")
          EndOfOptions = I;
      std::vector<std::string> Args;
      for (int I = Argc - 1; I >= 1; --I) {
        StringRef A(Argv[I]);
        if (I < EndOfOptions && A.size() > 3 && A.starts_with("--") &&
            A.ends_with("=")) {
          Args.emplace_back();
          Args.push_back(A.drop_back().str());
        } else {
          Args.push_back(A.str());
        }
      }
      App.parse(Args);
    } catch (const CLI::CallForHelp &) {
      outs() << App.help();
      return finishStdout(Name, ExitSuccess);
    } catch (const CLI::CallForAllHelp &) {
      outs() << App.help("", CLI::AppFormatMode::All);
      return finishStdout(Name, ExitSuccess);
    } catch (const CLI::CallForVersion &) {
      outs() << App.version() << "\n";
      return finishStdout(Name, ExitSuccess);
    } catch (const CLI::ParseError &E) {
      outs().flush();
      errs() << Name << ": " << E.what() << "\n"
             << "Try '" << Name << " --help' for more information.\n";
      return ExitUsage;
    }
    RC = Body();
  } catch (const std::bad_alloc &) {
    outs().flush();
    errs() << Name << ": error: out of memory\n";
    return finishStdout(Name, ExitUsage);
  }
  return finishStdout(Name, RC);
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

bool rejectEmptyInput(StringRef ToolName, StringRef Input, StringRef Text) {
  if (!Text.trim().empty())
    return false;
  printError(ToolName, "'" + displayName(Input) +
                           "': no kernels in input (the input is empty)");
  return true;
}

Expected<std::unique_ptr<MemoryBuffer>> readInput(StringRef Path,
                                                  StringRef RequiredPrefix) {
  return readFileBounded(Path, MaxInputBytes, RequiredPrefix);
}

/// Writes \p Path in place: for what is not a regular file (a device such
/// as /dev/full or /dev/stdout, a FIFO, a socket), which a rename would
/// replace.
static Error writeInPlace(StringRef Path,
                          function_ref<Error(raw_ostream &)> Write) {
  std::error_code EC;
  raw_fd_ostream OS(Path, EC, sys::fs::OF_None);
  if (EC)
    return errorCodeToError(EC);
  if (Error E = Write(OS))
    return E;
  return errorCodeToError(flushAndTakeError(OS));
}

/// Writes \p Path atomically: a temporary file in the same directory
/// (removed on error and on SIGINT/SIGTERM), written, flushed to the disk
/// with fsync, then renamed over \p Path.
static Error writeAtomically(StringRef Path,
                             function_ref<Error(raw_ostream &)> Write) {
  Expected<sys::fs::TempFile> Temp =
      sys::fs::TempFile::create(Path + ".tmp%%%%%%",
                                sys::fs::all_read | sys::fs::all_write);
  if (!Temp)
    return Temp.takeError();
  Error E = [&]() -> Error {
    raw_fd_ostream OS(Temp->FD, /*shouldClose=*/false);
    if (Error E = Write(OS))
      return E;
    if (std::error_code EC = flushAndTakeError(OS))
      return errorCodeToError(EC);
    if (::fsync(Temp->FD) != 0)
      return errorCodeToError(std::error_code(errno, std::generic_category()));
    return Error::success();
  }();
  if (E)
    return joinErrors(std::move(E), Temp->discard());
  return Temp->keep(Path);
}

/// Writes \p Path ("-": stdout) by the rules of writeOutput().
static Error writeTo(StringRef Path, function_ref<Error(raw_ostream &)> Write) {
  if (Path == "-") {
    Error E = Write(outs());
    std::error_code EC = flushAndTakeError(outs());
    if (!E && EC)
      E = createStringError(EC,
                            "cannot write to standard output: " + EC.message());
    return E;
  }
  // A symbolic link is followed, as `cc -o` does: its target is replaced and
  // the link stays. What is not a regular file is written in place.
  sys::fs::file_status St;
  if (sys::fs::status(Path, St, /*Follow=*/true))
    return writeAtomically(Path, Write); // Path does not exist yet.
  if (St.type() != sys::fs::file_type::regular_file &&
      St.type() != sys::fs::file_type::directory_file)
    return writeInPlace(Path, Write);
  SmallString<256> Target;
  if (sys::fs::real_path(Path, Target))
    Target = Path;
  return writeAtomically(Target, Write);
}

WriteStatus writeOutput(StringRef ToolName, StringRef Path, bool Binary,
                        bool Force,
                        function_ref<Error(raw_ostream &)> Write) {
  if (Binary && !Force && Path == "-" && outs().is_displayed()) {
    printError(ToolName, "refusing to write binary output to a terminal; "
                         "use -o FILE or -f to force");
    return WriteStatus::RefusedTerminal;
  }
  if (Error E = writeTo(Path, Write)) {
    if (Path == "-") // Write's own error, or the stream's, says it all.
      printError(ToolName, toString(std::move(E)));
    else
      printFileError(ToolName, Path, std::move(E));
    return WriteStatus::Failed;
  }
  return WriteStatus::Ok;
}

} // namespace wave::tool
