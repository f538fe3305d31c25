//===- ExternalTool.cpp - Finding and running an external program ---------===//
//
// The tools run inside a private directory made by createUniqueDirectory.
// Their standard output and error go to files in that directory, so a
// failure can be reported with what the tool said; the directory is
// removed on every path by a guard object, also when an exception
// (std::bad_alloc) unwinds through here. SIGINT and SIGTERM (LLVM's
// interrupt signals) stop the running tool and remove the directory too:
// its files are registered with RemoveFileOnSignal, and an interrupt
// function kills the child and removes the then empty directory, using
// only async-signal-safe calls.
//
//===----------------------------------------------------------------------===//
#include "wave/Support/ExternalTool.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/Signals.h"
#include "llvm/Support/raw_ostream.h"

#include <cstring>
#include <optional>

#include <csignal>
#include <sys/types.h>
#include <unistd.h>

using namespace llvm;

namespace wave {

namespace {

/// Whether \p Path names an executable regular file (or a link to one).
bool isExecutableFile(StringRef Path) {
  return sys::fs::can_execute(Path) && !sys::fs::is_directory(Path);
}

Error notFound(const ToolSpec &T, const Twine &What) {
  return createStringError("cannot find " + T.Name + ": " + What +
                           "; install " + T.Package + " or pass " + T.Option +
                           "=PATH");
}

/// Resolves an explicit choice (from the option or the environment): a
/// value containing '/' is a path used as is (relative to the working
/// directory when relative); a bare name is looked up on PATH. An explicit
/// choice that does not resolve is an error: we never fall back to another
/// tool than the one the user named.
Expected<std::string> resolveExplicit(const ToolSpec &T, StringRef Value,
                                      const Twine &Origin) {
  if (Value.contains('/')) {
    if (isExecutableFile(Value))
      return Value.str();
    return notFound(T, Origin + " names '" + Value +
                           "', which is not an executable file");
  }
  if (ErrorOr<std::string> P = sys::findProgramByName(Value))
    return *P;
  return notFound(T, Origin + " names '" + Value + "', which is not on PATH");
}

/// What an interrupt must clean up: the one temporary directory and the
/// one tool running at a time (a tool's whole run is one buildCodeObject),
/// as plain data an async-signal-safe handler can read.
char InterruptDir[4096];
volatile sig_atomic_t InterruptChild = 0;

/// Called by LLVM's SIGINT/SIGTERM handler after it has removed the files
/// registered with RemoveFileOnSignal: stops the tool, removes the empty
/// directory, and ends the process as the signal would (exit status 130,
/// the shell's value for SIGINT).
void onInterrupt() {
  if (InterruptChild > 0)
    ::kill(pid_t(InterruptChild), SIGTERM);
  if (InterruptDir[0])
    ::rmdir(InterruptDir);
  ::_exit(130);
}

/// The whole content of \p Path, trimmed, with every "DIR/" removed so
/// that messages name "kernel.s" rather than a directory that is gone by
/// the time the user reads them; empty if it cannot be read.
std::string readToolOutput(StringRef Path, StringRef Dir) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buf =
      MemoryBuffer::getFile(Path, /*IsText=*/true);
  if (!Buf)
    return "";
  std::string Text = (*Buf)->getBuffer().trim().str();
  std::string Prefix = (Dir + sys::path::get_separator()).str();
  for (size_t Pos; (Pos = Text.find(Prefix)) != std::string::npos;)
    Text.erase(Pos, Prefix.size());
  return Text;
}

} // namespace

Expected<std::string> findTool(const ToolSpec &T, StringRef FromOption) {
  if (!FromOption.empty())
    return resolveExplicit(T, FromOption, T.Option);
  if (std::optional<std::string> Env = sys::Process::GetEnv(T.EnvVar);
      Env && !Env->empty())
    return resolveExplicit(T, *Env, "$" + T.EnvVar);
  for (StringRef Name : T.PathNames)
    if (ErrorOr<std::string> P = sys::findProgramByName(Name))
      return *P;
  // "tried --clang, $WAVE_CLANG, clang-22 and clang on PATH"
  SmallVector<std::string, 4> Tried = {T.Option.str(), "$" + T.EnvVar.str()};
  for (StringRef Name : T.PathNames)
    Tried.push_back(Name.str());
  std::string Last = Tried.pop_back_val();
  return notFound(T,
                  "tried " + join(Tried, ", ") + " and " + Last + " on PATH");
}

Expected<ToolTempDir> ToolTempDir::create(StringRef Prefix) {
  ToolTempDir D;
  if (std::error_code EC = sys::fs::createUniqueDirectory(Prefix, D.Path))
    return createStringError(EC, "cannot create a temporary directory: " +
                                     EC.message());
  D.Owned = true;
  if (D.Path.size() < sizeof(InterruptDir)) {
    std::memcpy(InterruptDir, D.Path.c_str(), D.Path.size() + 1);
    sys::SetInterruptFunction(onInterrupt);
  }
  return D;
}

ToolTempDir::ToolTempDir(ToolTempDir &&O)
    : Path(std::move(O.Path)), Files(std::move(O.Files)), Owned(O.Owned) {
  O.Owned = false;
}

ToolTempDir::~ToolTempDir() {
  if (!Owned)
    return;
  sys::SetInterruptFunction(nullptr);
  InterruptDir[0] = 0;
  for (const std::string &F : Files)
    sys::DontRemoveFileOnSignal(F);
  (void)sys::fs::remove_directories(Path, /*IgnoreErrors=*/true);
}

std::string ToolTempDir::file(StringRef Name) {
  SmallString<256> P(Path);
  sys::path::append(P, Name);
  Files.push_back(std::string(P));
  sys::RemoveFileOnSignal(Files.back());
  return Files.back();
}

Expected<std::string> ToolTempDir::writeFile(StringRef Name, StringRef Text) {
  std::string P = file(Name);
  std::error_code EC;
  raw_fd_ostream OS(P, EC, sys::fs::OF_None);
  if (EC)
    return createStringError(EC, "cannot write '" + P + "': " + EC.message());
  OS << Text;
  OS.close();
  if (OS.has_error()) {
    std::error_code WEC = OS.error();
    OS.clear_error();
    return createStringError(WEC, "cannot write '" + P + "': " + WEC.message());
  }
  return P;
}

Expected<std::vector<uint8_t>> ToolTempDir::readOutput(StringRef P,
                                                       StringRef Tool) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buf =
      MemoryBuffer::getFile(P, /*IsText=*/false,
                            /*RequiresNullTerminator=*/false);
  if (!Buf)
    return createStringError(Buf.getError(),
                             "cannot read the output " + Tool +
                                 " wrote: " + Buf.getError().message());
  StringRef Bytes = (*Buf)->getBuffer();
  return std::vector<uint8_t>(Bytes.begin(), Bytes.end());
}

Error runTool(StringRef Name, ArrayRef<StringRef> Args, ToolTempDir &Dir) {
  std::string Out = Dir.file(Name.str() + ".stdout");
  std::string Err = Dir.file(Name.str() + ".stderr");
  std::optional<StringRef> Redirects[] = {StringRef(""), StringRef(Out),
                                          StringRef(Err)};
  std::string ErrMsg;
  bool ExecFailed = false;
  // ExecuteAndWait's parts, so that an interrupt knows whom to stop.
  sys::ProcessInfo PI =
      sys::ExecuteNoWait(Args[0], Args, /*Env=*/std::nullopt, Redirects,
                         /*MemoryLimit=*/0, &ErrMsg, &ExecFailed);
  int RC = -1;
  if (PI.Pid) {
    InterruptChild = PI.Pid;
    PI = sys::Wait(PI, /*SecondsToWait=*/std::nullopt, &ErrMsg);
    InterruptChild = 0;
    RC = PI.ReturnCode;
  }
  if (RC == 0)
    return Error::success();

  std::string Said = readToolOutput(Err, Dir.path());
  if (Said.empty())
    Said = readToolOutput(Out, Dir.path());
  std::string Head;
  if (ExecFailed || RC == -1)
    // Could not start it, or exit 126/127 (the shell's "cannot execute",
    // "not found"), which ExecuteAndWait reports as -1.
    Head = ("cannot run " + Name + " '" + Args[0] +
            "': " + (ErrMsg.empty() ? "execution failed" : ErrMsg))
               .str();
  else if (RC == -2)
    Head = (Name + " failed (signal: " + (ErrMsg.empty() ? "unknown" : ErrMsg) +
            ")")
               .str();
  else
    Head = (Name + " failed (exit " + Twine(RC) + ")").str();
  if (Said.empty())
    return createStringError(Head + " with no output");
  return createStringError(Head + ":\n" + Said);
}

} // namespace wave
