//===- ExternalTool.h - Finding and running an external program -*- C++ -*-===//
//
// The stages that hand their output to a vendor tool (ROCm's clang and
// ld.lld for AMDGCN code objects, NVIDIA's ptxas for cubins) find it the
// same way -- the tool's option, then its environment variable, then PATH
// -- and run it the same way: in a private temporary directory that is
// removed on every path, SIGINT and SIGTERM included, with the tool's own
// messages kept for the error.
//
//===----------------------------------------------------------------------===//
#ifndef WAVE_SUPPORT_EXTERNALTOOL_H
#define WAVE_SUPPORT_EXTERNALTOOL_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>
#include <vector>

namespace wave {

/// One external tool: how messages name it, its option and environment
/// variable, the package that installs it, and the names tried on PATH,
/// best first.
struct ToolSpec {
  llvm::StringRef Name;                      ///< "clang", "ptxas"
  llvm::StringRef Option;                    ///< "--clang", "--ptxas"
  llvm::StringRef EnvVar;                    ///< "WAVE_CLANG", "WAVE_PTXAS"
  llvm::StringRef Package;                   ///< "clang-22"
  llvm::ArrayRef<llvm::StringRef> PathNames; ///< {"clang-22", "clang"}
};

/// The tool to run: \p FromOption when not empty, else $EnvVar when set
/// and not empty, else the first of PathNames on PATH. A value containing
/// '/' is a path used as is; a bare name is looked up on PATH. An explicit
/// choice that does not resolve is an error (never another tool than the
/// one named). Fails with one message naming everything it looked at, e.g.
/// "cannot find clang: tried --clang, $WAVE_CLANG, clang-22 and clang on
/// PATH; install clang-22 or pass --clang=PATH".
llvm::Expected<std::string> findTool(const ToolSpec &T,
                                     llvm::StringRef FromOption);

/// A private temporary directory under the system's ($TMPDIR, else /tmp),
/// removed with everything in it when the object dies, and on SIGINT or
/// SIGTERM (then the running tool is stopped too and the process ends
/// with exit status 130). One at a time per process.
class ToolTempDir {
public:
  /// Creates the directory, named "PREFIX-XXXXXX".
  static llvm::Expected<ToolTempDir> create(llvm::StringRef Prefix);
  ToolTempDir(ToolTempDir &&O);
  ToolTempDir &operator=(ToolTempDir &&) = delete;
  ~ToolTempDir();
  llvm::StringRef path() const { return Path; }
  /// The path of file \p Name in the directory, removed on SIGINT/SIGTERM.
  std::string file(llvm::StringRef Name);
  /// Writes \p Text to file \p Name of the directory; returns its path.
  llvm::Expected<std::string> writeFile(llvm::StringRef Name,
                                        llvm::StringRef Text);
  /// The bytes of file \p Path, which \p Tool wrote.
  llvm::Expected<std::vector<uint8_t>> readOutput(llvm::StringRef Path,
                                                  llvm::StringRef Tool);

private:
  ToolTempDir() = default;
  llvm::SmallString<256> Path;
  std::vector<std::string> Files;
  bool Owned = false;
};

/// Runs \p Args (Args[0] is the program) with stdin from /dev/null and
/// stdout/stderr to files in \p Dir. Fails with "NAME failed (exit N):",
/// "NAME failed (signal: ...):" or "cannot run NAME 'PATH': ..." followed
/// by the tool's stderr (or, when that is empty, its stdout), with the
/// directory's name taken out of it.
llvm::Error runTool(llvm::StringRef Name, llvm::ArrayRef<llvm::StringRef> Args,
                    ToolTempDir &Dir);

} // namespace wave

#endif // WAVE_SUPPORT_EXTERNALTOOL_H
