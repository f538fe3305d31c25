//===- Tool.h - Shared plumbing of the wave-* executables -------*- C++ -*-===//
//
// Everything a tool's main() needs besides its own options: reading input
// from a file or stdin, atomic output files, the binary-to-terminal guard,
// CLI11 error handling mapped to our exit codes, and error printing in the
// formats of docs/conventions.md and docs/conventions.md §5, §7.
//
//===----------------------------------------------------------------------===//
#ifndef WAVE_TOOL_TOOL_H
#define WAVE_TOOL_TOOL_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <CLI/CLI.hpp>

#include <memory>
#include <string>

namespace wave::tool {

/// Process exit codes (docs/conventions.md §9).
enum ExitCode : int {
  ExitSuccess = 0,
  ExitInvalidInput = 1, ///< diagnostics about the input were printed.
  ExitUsage = 2,        ///< bad flags, I/O error, binary refused to a tty.
  ExitLimit = 3,        ///< wave-run: instruction limit or timeout.
};

/// Version line printed by --version.
std::string versionString(llvm::StringRef ToolName);

/// Creates a CLI::App with our conventions: `-h/--help`, `--version`, help
/// and version on stdout with exit 0.
std::unique_ptr<CLI::App> makeApp(llvm::StringRef ToolName,
                                  llvm::StringRef Description);

/// Parses \p Argv with \p App, then runs \p Body. Returns the exit code:
/// 0 for --help/--version; ExitUsage with "TOOL: MESSAGE" and a "Try 'TOOL
/// --help'" line on stderr for a parse error; ExitUsage for std::bad_alloc;
/// otherwise Body's result. Flushes stdout before returning; a failed write
/// to it (closed pipe, full disk) prints "TOOL: error: cannot write to
/// standard output: REASON" and makes a successful result ExitUsage.
int runMain(CLI::App &App, int Argc, char **Argv,
            llvm::function_ref<int()> Body);

/// Prints "TOOL: error: MESSAGE" to stderr (after flushing stdout).
void printError(llvm::StringRef ToolName, const llvm::Twine &Message);
/// Prints "TOOL: warning: MESSAGE" to stderr.
void printWarning(llvm::StringRef ToolName, const llvm::Twine &Message);
/// Prints "TOOL: error: 'FILE': MESSAGE" for every error in \p E, consuming
/// it.
void printFileError(llvm::StringRef ToolName, llvm::StringRef File,
                    llvm::Error E);

/// Prints errors about a binary input: WbinError and DecodeError as
/// "FILE:0xOFFSET: error: MESSAGE" (docs/conventions.md §5, "binary inputs get
/// byte offsets"); \p BaseOffset is added to DecodeError offsets (e.g. the file
/// offset of the code being decoded). Other errors print as printFileError.
void printBinaryError(llvm::StringRef ToolName, llvm::StringRef File,
                      llvm::Error E, uint64_t BaseOffset = 0);

/// Reads \p Path, or stdin when it is "-", whole and at most MaxInputBytes
/// (readFileBounded(), wave/Support/ReadFile.h): an input that does not end
/// fails with "larger than N bytes". With \p RequiredPrefix (a `.wbin`'s
/// magic, for tools that read nothing else), a stream that starts otherwise
/// is read no further. Fails with the OS error message otherwise.
llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>>
readInput(llvm::StringRef Path, llvm::StringRef RequiredPrefix = "");

/// Name to use for \p Path in diagnostics ("<stdin>" for "-").
llvm::StringRef displayName(llvm::StringRef Path);

/// Refuses a whole input \p Text, read from \p Input, that is empty or only
/// white space: what a failed stage upstream in a pipe leaves behind. The
/// tools that need a module (wave-fe, wave-opt, wave-ra, wave-as and
/// wave-compiler) call it first (docs/conventions.md §7 "Empty input").
/// Returns true, after printing "TOOL: error: 'FILE': no kernels in input
/// (the input is empty)", when \p Text is blank (the caller exits with
/// ExitInvalidInput); false otherwise. A non-blank input without kernels
/// (comments only, declarations only) is not refused here.
bool rejectEmptyInput(llvm::StringRef ToolName, llvm::StringRef Input,
                      llvm::StringRef Text);

/// Result of writeOutput().
enum class WriteStatus {
  Ok,
  RefusedTerminal, ///< binary output to a terminal without --force.
  Failed,          ///< Write callback or file system failed (error printed).
};

/// Writes output (docs/conventions.md §8): "-" is stdout, and a failed
/// write to it is an error. A regular file, or a path that does not exist
/// yet, is written atomically: a temporary file in the same directory
/// (removed on error and on SIGINT/SIGTERM), flushed to the disk with fsync
/// and renamed over \p Path only if \p Write succeeds, so a failure leaves
/// the previous file untouched. A symbolic link is followed (its target is
/// replaced, the link stays); a device, FIFO or socket is written in place.
/// When \p Binary is set and the output is a terminal, refuses unless
/// \p Force (prints the refusal). Errors (from \p Write or the file system)
/// are printed as "TOOL: error: 'PATH': ...".
WriteStatus writeOutput(llvm::StringRef ToolName, llvm::StringRef Path,
                        bool Binary, bool Force,
                        llvm::function_ref<llvm::Error(llvm::raw_ostream &)>
                            Write);

/// Maps a WriteStatus to an exit code (Ok -> 0, otherwise ExitUsage).
inline int exitCodeFor(WriteStatus S) {
  return S == WriteStatus::Ok ? ExitSuccess : ExitUsage;
}

} // namespace wave::tool

#endif // WAVE_TOOL_TOOL_H
