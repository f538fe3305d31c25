//===- AsmParser.h - WAVE assembly to .wbin ---------------------*- C++ -*-===//
//
// The assembler: parses WAVE assembly (formats/wave-asm.md) and
// produces the in-memory `.wbin` (wave/Object/Wbin.h), with this project's
// default behaviours for the reference's defects (formats/isa.md §8 "default"
// column: D2, D3, D7, D9, D12, D13, D14, D17, D20, D21, D23, D30).
//
//===----------------------------------------------------------------------===//
#ifndef WAVE_ASM_ASMPARSER_H
#define WAVE_ASM_ASMPARSER_H

#include "wave/ISA/ISA.h"
#include "wave/Object/Wbin.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/SourceMgr.h"

#include <vector>

namespace wave {

/// How warnings are treated (`wave-as -W`).
enum class WarningMode {
  All,   ///< report warnings; they do not fail assembly.
  None,  ///< suppress warnings.
  Error, ///< report warnings as errors; assembly fails.
};

/// Options of assemble().
struct AsmOptions {
  WarningMode Warnings = WarningMode::All;
  /// The object is for wave-link (`wave-as -c`): kernel and label names
  /// become symbols and must be valid UTF-8. Otherwise only function names
  /// must, since the caller links the object on its own into an executable
  /// (linkExecutable(), wave/Link/Linker.h) that keeps no label symbols.
  bool Relocatable = false;
};

/// Counts of the diagnostics assemble() reported.
struct AsmStats {
  unsigned Errors = 0;
  unsigned Warnings = 0;
};

/// Assembles the main buffer of \p SM (formats/wave-asm.md) into a relocatable
/// object (formats/wbin.md): kernels, functions, symbols, `call`
/// relocations and `.extern`s, for wave-link or for linkExecutable(), which
/// turns a source with kernels only into exactly the reference assembler's
/// output (formats/wbin.md "Writer algorithm") plus any `.param`/`.loc`
/// extension sections. Every error and warning of the whole buffer is reported,
/// in source order, through \p SM.PrintMessage (as `file:line:col: error: msg`,
/// the source line and a caret; install a handler with
/// SourceMgr::setDiagHandler to capture them; without one they go to
/// llvm::errs()). Parsing recovers at the end of the offending line.
///
/// Label values are byte offsets from the first byte of the kernel that
/// defines the label, computed with the true instruction lengths of
/// formats/isa.md §1.5 (D2). An empty buffer, or one with only comments, yields
/// a file with no kernels.
///
/// Fails (with an error whose message gives the error count) if any error
/// was reported, or any warning under WarningMode::Error. Never prints to
/// stdout, never aborts on any input. \p Stats, if given, receives the
/// diagnostic counts. Time is linear in the input size.
llvm::Expected<WbinFile> assemble(llvm::SourceMgr &SM,
                                  const AsmOptions &Opts = {},
                                  AsmStats *Stats = nullptr);

/// Convenience wrapper: assembles \p Source (named \p BufferName in
/// diagnostics) with a private SourceMgr whose diagnostics are appended, as
/// printed, to \p Diags if non-null (and discarded otherwise).
llvm::Expected<WbinFile> assembleString(llvm::StringRef Source,
                                        llvm::StringRef BufferName,
                                        std::string *Diags = nullptr,
                                        const AsmOptions &Opts = {});

} // namespace wave

#endif // WAVE_ASM_ASMPARSER_H
