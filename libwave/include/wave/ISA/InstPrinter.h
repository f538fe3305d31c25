//===- InstPrinter.h - One WAVE instruction as assembly text ----*- C++ -*-===//
//
// Prints a decoded instruction in the syntax of formats/wave-asm.md §7 with
// this project's defaults (D13, D14, D16): text that wave-as re-assembles to
// the same bytes. Driven by the operand forms of Forms.def; used by wave-dis,
// wave-as --show-encoding and wave-objdump -d.
//
//===----------------------------------------------------------------------===//
#ifndef WAVE_ISA_INSTPRINTER_H
#define WAVE_ISA_INSTPRINTER_H

#include "wave/ISA/ISA.h"

#include "llvm/Support/raw_ostream.h"

#include <string>

namespace wave {

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
/// as they are. Never fails.
void printInst(const Inst &I, llvm::raw_ostream &OS);

/// printInst() into a string.
std::string formatInst(const Inst &I);

/// The label name printInst() uses for a `call` target at kernel offset
/// \p Offset (bytes): `loc_%04X`.
std::string getLocLabel(uint32_t Offset);

} // namespace wave

#endif // WAVE_ISA_INSTPRINTER_H
