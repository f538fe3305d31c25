//===- InstPrinter.h - One WAVE instruction as assembly text ----*- C++ -*-===//
//
// Prints a decoded instruction in the syntax of formats/wave-asm.md §7 with
// this project's defaults (D13, D14, D16): text that wave-as re-assembles to
// the same bytes; or as the reference emulator's trace prints it. Driven by
// the operand forms of Forms.def; used by wave-dis, wave-as
// --show-encoding, wave-objdump -d and wave-run's messages and --trace.
//
//===----------------------------------------------------------------------===//
#ifndef WAVE_ISA_INSTPRINTER_H
#define WAVE_ISA_INSTPRINTER_H

#include "wave/ISA/ISA.h"

#include "llvm/Support/raw_ostream.h"

#include <string>

namespace wave {

/// The text an instruction is printed as.
enum class InstSyntax {
  /// WAVE assembly (formats/wave-asm.md §7) that wave-as re-assembles to the
  /// same bytes: wave-dis, wave-objdump -d, fault messages.
  Assembly,
  /// The instruction column of the reference emulator's `--trace` lines
  /// (formats/isa.md §7.4), which wave-run --trace reproduces byte for byte:
  /// special registers as `sr_<index>`, immediates and call targets as
  /// `0x%08x`, no scopes, and three quirks of the reference's own printer
  /// (bit-field ops as the bare mnemonic; `dsqrt rD, rA, r0`; the f16,
  /// bf16 and f64 arithmetic ops as `rD, rA, rB` plus `rC` only when it is
  /// not r0).
  ReferenceTrace,
};

/// Prints \p I without indentation or newline, e.g. `@!p0 iadd r0, r1, r2`.
///  - predicate prefix `@pN ` / `@!pN ` whenever the instruction is
///    predicated (formats/isa.md §1.3), including `@!p0` (D14);
///  - operands in the order of the instruction's form, separated by `, `:
///    registers and fragments `rN`, predicates `pN`, special registers by
/// name or `sr_N` for indices >= 20 (formats/isa.md §3), scopes as a trailing
///    `.wave`/`.workgroup`/`.device`/`.system` operand (D13);
///  - non-returning atomics (rd == 0) without the destination (formats/isa.md
///    §2.11);
///  - `mov_sr` as `mov rD, sr_NAME` (formats/isa.md §2.16);
///  - the `mov_imm` immediate in decimal if <= 9, else `0x%X`;
///  - the `call` target as `loc_%04X` (uppercase hex kernel offset).
/// Field values that the assembler cannot write (r255, p4..p255) are printed
/// as they are. With InstSyntax::ReferenceTrace, the differences that
/// InstSyntax lists. Never fails.
void printInst(const Inst &I, llvm::raw_ostream &OS,
               InstSyntax Syntax = InstSyntax::Assembly);

/// printInst() into a string.
std::string formatInst(const Inst &I);

/// The label name printInst() uses for a `call` target at kernel offset
/// \p Offset (bytes): `loc_%04X`.
std::string getLocLabel(uint32_t Offset);

} // namespace wave

#endif // WAVE_ISA_INSTPRINTER_H
