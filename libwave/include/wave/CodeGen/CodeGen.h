//===- CodeGen.h - MIR to WAVE assembly (the wave-ra pipeline) --*- C++ -*-===//
//
// The whole of wave-ra (libwave/README.md "The pipeline"), one kernel at a
// time:
//   1. instruction selection and out-of-SSA (ISel.h),
//   2. structurization of the CFG (Structurizer.h), laid out as LIR with
//      if/else/endif, loop/break/continue/endloop and halt; each condition
//      becomes a predicate register (a negated compare is recomputed with
//      the inverse compare where one exists),
//   3. register allocation (RegAlloc.h),
//   4. emission of WAVE assembly (formats/wave-asm.md) with `.kernel`,
//      `.registers`, `.workgroup_size` and `.local_memory` directives.
// Calls to device functions are inlined first (mir::inlineAllCalls, no
// size limit): WAVE's call/return act on whole waves and its call stack
// holds 8 frames (formats/isa.md §4.16), while a MIR call returns per lane. A
// call to a recursive function cannot be inlined and is an error. Only calls of
// `declare func`s (defined in another object) stay calls: each becomes a WAVE
// `call` with the ABI of formats/wave-asm.md §9 (`.extern NAME` at the top,
// `.call_base B` in the caller, arguments in r(B...)). Export funcs are emitted
// as `.global`/`.func`; other device functions are not emitted.
//
//===----------------------------------------------------------------------===//
#ifndef WAVE_CODEGEN_CODEGEN_H
#define WAVE_CODEGEN_CODEGEN_H

#include "wave/CodeGen/RegAlloc.h"

#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace wave::mir {
class Module;
} // namespace wave::mir

namespace wave::codegen {

/// What compileModule writes.
enum class EmitKind {
  Asm, ///< WAVE assembly after register allocation.
  LIR, ///< structured LIR with virtual registers, before allocation.
};

struct CodeGenOptions {
  /// General registers per kernel, 1..256 (wave-ra --max-registers).
  unsigned MaxRegisters = 32;
  EmitKind Emit = EmitKind::Asm;
  /// Where to print each kernel's interference graph, or null.
  llvm::raw_ostream *InterferenceOut = nullptr;
};

/// Per-kernel result of register allocation (wave-ra --stats).
struct KernelReport {
  std::string Name;
  RegAllocStats Stats;
  unsigned Instructions = 0; ///< WAVE instructions emitted
};

/// Compiles every kernel of \p M (verified MIR) and writes the result to
/// \p OS. \p M is modified (critical edges are split). Errors are
/// SourceDiagError diagnostics located at MIR instructions where possible
/// (unsupported operations), or plain messages naming the kernel
/// (irreducible control flow, too few registers, a kernel name WAVE
/// assembly cannot spell). Nothing is written for a failing module.
llvm::Error compileModule(mir::Module &M, const CodeGenOptions &Opts,
                          llvm::raw_ostream &OS,
                          std::vector<KernelReport> *Reports = nullptr);

} // namespace wave::codegen

#endif // WAVE_CODEGEN_CODEGEN_H
