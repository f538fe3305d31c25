//===- Toolchain.cpp - Driving ROCm's clang and ld.lld --------------------===//
//
// Finds clang and ld.lld (option, then environment, then PATH) and runs
//
//   clang -x assembler --target=amdgcn-amd-amdhsa -mcpu=CPU -c in.s -o in.o
//   ld.lld -shared in.o -o out.hsaco
//
// inside a private directory made by createUniqueDirectory under the system
// temporary directory ($TMPDIR, else /tmp). The tools' standard output and
// error go to files in that directory, so a failure can be reported with
// what the tool said; the directory is removed on every path by a guard
// object, also when an exception (std::bad_alloc) unwinds through here.
// SIGINT and SIGTERM (LLVM's interrupt signals) stop the running tool and
// remove the directory too: its files are registered with
// RemoveFileOnSignal, and an interrupt function kills the child and removes
// the then empty directory, using only async-signal-safe calls.
//
//===----------------------------------------------------------------------===//
#include "wave/AMDGCN/Toolchain.h"

#include "llvm/ADT/SmallString.h"
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

namespace wave::amdgcn {

namespace {

/// One external tool: how it is named in messages, its option and
/// environment variable, and the names tried on PATH, best first.
struct ToolSpec {
  StringRef Name;   ///< "clang" or "ld.lld"
  StringRef Option; ///< "--clang" or "--ld-lld"
  StringRef EnvVar; ///< "WAVE_CLANG" or "WAVE_LD_LLD"
  StringRef Package;
  StringRef PathNames[2];
};

const ToolSpec ClangSpec = {"clang", "--clang", "WAVE_CLANG", "clang-22",
                            {"clang-22", "clang"}};
const ToolSpec LdLldSpec = {"ld.lld", "--ld-lld", "WAVE_LD_LLD", "lld-22",
                            {"ld.lld-22", "ld.lld"}};

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
  return notFound(T, Origin + " names '" + Value +
                         "', which is not on PATH");
}

Expected<std::string> findTool(const ToolSpec &T, StringRef FromOption) {
  if (!FromOption.empty())
    return resolveExplicit(T, FromOption, T.Option);
  if (std::optional<std::string> Env = sys::Process::GetEnv(T.EnvVar);
      Env && !Env->empty())
    return resolveExplicit(T, *Env, "$" + T.EnvVar);
  for (StringRef Name : T.PathNames)
    if (ErrorOr<std::string> P = sys::findProgramByName(Name))
      return *P;
  return notFound(T, "tried " + T.Option + ", $" + T.EnvVar + ", " +
                         T.PathNames[0] + " and " + T.PathNames[1] +
                         " on PATH");
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

/// A private temporary directory, removed with everything in it when the
/// object dies.
class TempDir {
public:
  static Expected<TempDir> create() {
    TempDir D;
    if (std::error_code EC =
            sys::fs::createUniqueDirectory("wave-amdgcn", D.Path))
      return createStringError(EC, "cannot create a temporary directory: " +
                                       EC.message());
    D.Owned = true;
    if (D.Path.size() < sizeof(InterruptDir)) {
      std::memcpy(InterruptDir, D.Path.c_str(), D.Path.size() + 1);
      sys::SetInterruptFunction(onInterrupt);
    }
    return D;
  }
  TempDir(TempDir &&O)
      : Path(std::move(O.Path)), Files(std::move(O.Files)), Owned(O.Owned) {
    O.Owned = false;
  }
  TempDir &operator=(TempDir &&) = delete;
  ~TempDir() {
    if (!Owned)
      return;
    sys::SetInterruptFunction(nullptr);
    InterruptDir[0] = 0;
    for (const std::string &F : Files)
      sys::DontRemoveFileOnSignal(F);
    (void)sys::fs::remove_directories(Path, /*IgnoreErrors=*/true);
  }
  StringRef path() const { return Path; }
  /// The path of file \p Name in the directory, removed on SIGINT/SIGTERM.
  std::string file(StringRef Name) {
    SmallString<256> P(Path);
    sys::path::append(P, Name);
    Files.push_back(std::string(P));
    sys::RemoveFileOnSignal(Files.back());
    return Files.back();
  }

private:
  TempDir() = default;
  SmallString<256> Path;
  std::vector<std::string> Files;
  bool Owned = false;
};

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

/// Runs \p Args (Args[0] is the program) with stdin from /dev/null and
/// stdout/stderr to files in \p Dir. Fails with "NAME failed (exit N):",
/// "NAME failed (signal: ...):" or "cannot run NAME 'PATH': ..." followed
/// by the tool's stderr (or, when that is empty, its stdout).
Error runTool(StringRef Name, ArrayRef<StringRef> Args, TempDir &Dir) {
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
    Head = ("cannot run " + Name + " '" + Args[0] + "': " +
            (ErrMsg.empty() ? "execution failed" : ErrMsg))
               .str();
  else if (RC == -2)
    Head = (Name + " failed (signal: " +
            (ErrMsg.empty() ? "unknown" : ErrMsg) + ")")
               .str();
  else
    Head = (Name + " failed (exit " + Twine(RC) + ")").str();
  if (Said.empty())
    return createStringError(Head + " with no output");
  return createStringError(Head + ":\n" + Said);
}

} // namespace

Expected<Toolchain> findToolchain(const ToolchainRequest &Req) {
  Toolchain TC;
  Expected<std::string> Clang = findTool(ClangSpec, Req.Clang);
  if (!Clang)
    return Clang.takeError();
  TC.Clang = std::move(*Clang);
  Expected<std::string> LdLld = findTool(LdLldSpec, Req.LdLld);
  if (!LdLld)
    return LdLld.takeError();
  TC.LdLld = std::move(*LdLld);
  return TC;
}

Expected<std::vector<uint8_t>> buildCodeObject(const Toolchain &TC,
                                               StringRef AsmText,
                                               StringRef MCPU) {
  Expected<TempDir> Dir = TempDir::create();
  if (!Dir)
    return Dir.takeError();
  std::string AsmPath = Dir->file("kernel.s");
  std::string ObjPath = Dir->file("kernel.o");
  std::string CodePath = Dir->file("kernel.hsaco");

  {
    std::error_code EC;
    raw_fd_ostream OS(AsmPath, EC, sys::fs::OF_None);
    if (EC)
      return createStringError(EC, "cannot write '" + AsmPath +
                                       "': " + EC.message());
    OS << AsmText;
    OS.close();
    if (OS.has_error()) {
      std::error_code WEC = OS.error();
      OS.clear_error();
      return createStringError(WEC, "cannot write '" + AsmPath +
                                        "': " + WEC.message());
    }
  }

  std::string CPUArg = ("-mcpu=" + MCPU).str();
  StringRef ClangArgs[] = {TC.Clang,
                           "-x",
                           "assembler",
                           "--target=amdgcn-amd-amdhsa",
                           CPUArg,
                           "-c",
                           AsmPath,
                           "-o",
                           ObjPath};
  if (Error E = runTool("clang", ClangArgs, *Dir))
    return E;

  StringRef LdArgs[] = {TC.LdLld, "-shared", ObjPath, "-o", CodePath};
  if (Error E = runTool("ld.lld", LdArgs, *Dir))
    return E;

  ErrorOr<std::unique_ptr<MemoryBuffer>> Buf =
      MemoryBuffer::getFile(CodePath, /*IsText=*/false,
                            /*RequiresNullTerminator=*/false);
  if (!Buf)
    return createStringError(Buf.getError(),
                             "cannot read the code object ld.lld wrote: " +
                                 Buf.getError().message());
  StringRef Bytes = (*Buf)->getBuffer();
  return std::vector<uint8_t>(Bytes.begin(), Bytes.end());
}

} // namespace wave::amdgcn
