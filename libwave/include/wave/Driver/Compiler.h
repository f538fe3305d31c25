//===- Compiler.h - The whole compiler pipeline in one process --*- C++ -*-===//
//
// What `wave-compiler` does: the four single tools of libwave/README.md "The
// pipeline" (`wave-fe | wave-opt -ON | wave-ra | wave-as`) run one after the
// other in one process, through the same library calls those tools make.
// The stages still hand each other text, MIR and WAVE assembly, exactly as
// the pipe does, so the output is byte-identical to the equivalent pipe of
// single tools (test/lit/compiler/same-as-pipe.test), and equivalentPipe()
// spells that pipe out (`wave-compiler -v`). Unlike the pipe, a failing
// stage ends the whole compilation before anything is written.
//
//===----------------------------------------------------------------------===//
#ifndef WAVE_DRIVER_COMPILER_H
#define WAVE_DRIVER_COMPILER_H

#include "wave/HIR/HIR.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>

namespace wave::driver {

/// Where compileSource() stops, and so what it writes (`--emit`).
enum class EmitKind {
  AST,    ///< HIR as parsed, before checking (`wave-fe --emit=ast`).
  HIR,    ///< checked HIR (`wave-fe --emit=hir`).
  MIR,    ///< MIR after the -O pipeline (`wave-fe | wave-opt -ON`).
  LIR,    ///< structured LIR, virtual registers (`wave-ra --emit=lir`).
  Asm,    ///< allocated WAVE assembly (`wave-ra`; `-S`).
  Object, ///< what the target's assembler writes (`wave-as`; the default).
};

/// The `--emit` spelling of \p K: "ast", "hir", "mir", "lir", "asm", "wbin".
llvm::StringRef emitKindName(EmitKind K);
/// The EmitKind spelled \p S (emitKindName()), or std::nullopt.
std::optional<EmitKind> parseEmitKind(llvm::StringRef S);

/// The target triple of the `.wbin` stage (wave-as's default target).
inline constexpr const char *WaveTriple = "wave";

/// Options of compileSource(). Each is the option of the single tool that
/// runs that stage, with the same default and the same range.
struct CompilerOptions {
  hir::Language Lang = hir::Language::Python; ///< wave-fe --lang.
  /// wave-fe --kernel: only this kernel and what it calls; empty: all.
  std::string Kernel;
  /// wave-fe --workgroup-size, for kernels whose source gives none;
  /// std::nullopt: the frontend's default (256, 1, 1).
  std::optional<std::array<uint32_t, 3>> WorkgroupSize;
  unsigned OptLevel = 2;      ///< wave-opt -O0 .. -O3.
  unsigned MaxRegisters = 32; ///< wave-ra --max-registers, 1..256.
  EmitKind Emit = EmitKind::Object;
  /// wave-as -c: a relocatable object for wave-link (EmitKind::Object and
  /// the wave target only).
  bool Relocatable = false;
  /// wave-as --target: WaveTriple, "amdgcn-amd-amdhsa" (an HSA code object)
  /// or "nvptx64-nvidia-cuda" (a PTX module). Only with EmitKind::Object.
  std::string Target = WaveTriple;
  /// wave-as --mcpu: required for amdgcn-amd-amdhsa (gfxNNN), optional for
  /// nvptx64-nvidia-cuda (sm_NN, default sm_80), empty for the wave target.
  std::string MCPU;
};

/// Checks the combinations of \p Opts that no single option can express:
/// an unknown target, --mcpu for the wave target or an unknown processor,
/// amdgcn-amd-amdhsa without --mcpu, -c or an --emit other than "wbin" with
/// another target, -c with an --emit other than "wbin". Returns the usage
/// message (e.g. "-c cannot be used with --target=amdgcn-amd-amdhsa"), or
/// an empty string when they are consistent.
std::string checkOptions(const CompilerOptions &Opts);

/// Parses a workgroup size "X", "X,Y" or "X,Y,Z" (each 1..1024; missing
/// dimensions are 1), as wave-fe and wave-compiler --workgroup-size take
/// it (formats/kernel-languages.md §1). std::nullopt for anything else.
std::optional<std::array<uint32_t, 3>> parseWorkgroupSize(llvm::StringRef S);

/// Whether compileSource()'s output for \p Opts is binary (a `.wbin` or an
/// HSA code object), so that writing it to a terminal needs --force.
bool isBinaryOutput(const CompilerOptions &Opts);

/// The file a compilation of \p Input writes when no -o is given: the
/// input with its extension replaced by `.wbin` (also for -c), `.hsaco`
/// or `.ptx` for EmitKind::Object, as wave-as names its output; "-"
/// (stdout) for the text kinds and for standard input ("-").
std::string defaultOutputPath(llvm::StringRef Input,
                              const CompilerOptions &Opts);

/// The pipe of single tools that compileSource(\p Opts) on \p Input
/// equals, writing \p Output ("-" for stdout), e.g. `wave-fe k.py |
/// wave-opt -O2 | wave-ra | wave-as -o k.wbin`. It names only what differs
/// from each tool's defaults (`--lang` only when the file extension does
/// not give it); words with shell metacharacters are single-quoted.
std::string equivalentPipe(llvm::StringRef Input, llvm::StringRef Output,
                           const CompilerOptions &Opts);

/// Compiles \p Source, the kernel source read from \p Input (a path, or "-"
/// for stdin; it names the source in diagnostics and becomes the MIR's
/// `source_filename` as wave-fe records it), through every stage up to
/// Opts.Emit, and stores the output bytes in \p Out. \p Opts must pass
/// checkOptions().
///
/// Returns tool::ExitSuccess, or tool::ExitInvalidInput after printing
/// every diagnostic to stderr as the failing stage's single tool would,
/// under \p ToolName: the frontend's located errors with the source line
/// and a caret; "no kernels in input" for a source of only white space
/// (docs/conventions.md §7) and for an executable without a kernel; "no
/// kernel named 'K'"; later stages' errors (too few registers, a link or
/// translation error) located in the intermediate text, whose buffers are
/// named after the stage that wrote them ("<wave-fe output>", ...). \p Out
/// is meaningful only on success. Nothing is written anywhere else (the
/// AMDGCN stage's private temporary directory aside).
int compileSource(llvm::StringRef ToolName, llvm::StringRef Source,
                  llvm::StringRef Input, const CompilerOptions &Opts,
                  std::string &Out);
/// compileSource() printing every diagnostic to \p Diags instead of
/// stderr, the same text without colours (with llvm::errs() it is the
/// function above, byte for byte). The host runtime (wave/Host/Runtime.h)
/// returns what it collects as its compile error.
int compileSource(llvm::StringRef ToolName, llvm::StringRef Source,
                  llvm::StringRef Input, const CompilerOptions &Opts,
                  std::string &Out, llvm::raw_ostream &Diags);

/// compileSource() from MIR text (`wave-opt -ON | wave-ra | wave-as`):
/// \p MIR, read from \p Input (its name in diagnostics), goes through
/// the stages after the frontend, up to Opts.Emit, which must not be AST
/// or HIR; Opts.Lang, Kernel and WorkgroupSize are not used. Diagnostics
/// go to \p Diags; the result is tool::ExitSuccess or
/// tool::ExitInvalidInput, as compileSource().
int compileMIR(llvm::StringRef ToolName, llvm::StringRef MIR,
               llvm::StringRef Input, const CompilerOptions &Opts,
               std::string &Out, llvm::raw_ostream &Diags);

} // namespace wave::driver

#endif // WAVE_DRIVER_COMPILER_H
