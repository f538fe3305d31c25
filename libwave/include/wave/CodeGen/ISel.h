//===- ISel.h - MIR to LIR instruction selection and out-of-SSA -*- C++ -*-===//
//
// Instruction selection for one MIR function (formats/mir.md): every MIR
// operation becomes WAVE instructions (formats/isa.md §2) over virtual
// registers, block by block, and phis leave SSA.
//
// Out of SSA (Sreedhar et al., "Translating Out of Static Single Assignment
// Form", SAS 1999, method I): critical edges into blocks with phis are split
// first (the MIR function is edited); then each phi `x = phi [a1, B1] ...`
// gets its own virtual register x', a copy `x' = copy ai` at the end of
// every predecessor Bi, and a copy `x = copy x'` at the top of its block.
// The x' copies of one edge write distinct registers and are read only at
// the top of the successor, so the lost-copy and swap problems cannot
// arise; register coalescing (RegAlloc.h) removes the copies that do not
// interfere.
//
// Value representation:
//   * 32-bit types, pointers and packed pairs: one general register;
//     f16/bf16 in bits 15:0 (formats/isa.md §4.8); f64: a register pair.
//   * i1: a predicate register when it is made by a compare (or wave_any /
//     wave_all) and only used in its own block by a branch, select,
//     wave_ballot, wave_any or wave_all; otherwise a general register
//     holding 0 or 1 (phis, values used in other blocks, and/or/xor/not,
//     cvt to i32/u32), turned into a predicate where one is needed.
//   * constants: `mov_imm` into a fresh register, once per block.
//
// Operations WAVE lacks are expanded (u32 div/rem/min/max/clamp, signed
// mulhi, unsigned compare gt/ge by swapping operands, packed fsub by a
// sign-flip and add, signed wave_reduce_min/max by biasing). A call of a
// `declare func` becomes a WAVE `call` with its arguments and result in
// call-slot registers (VRegInfo::CallSlot; formats/wave-asm.md §9).
// Unsupported operations (recursive calls, i32 atomic min/max: formats/isa.md
// D32) are errors located at the MIR instruction.
//
// Private variables (`alloca`, formats/mir.md) live in local memory after
// the kernel's own (formats/wave-asm.md §9): each alloca gets a region of
// one slot per workgroup thread, LFunction::LocalMemory grows by the
// private area (the register allocator's spill area follows it), and the
// entry block starts by computing every slot's address for this thread and
// storing 0 there. A ptr<private> is that 32-bit local address; loads and
// stores through it are local_load_* / local_store_*. A kernel with allocas
// needs a workgroup_size attribute (an error located at the first alloca
// otherwise).
//
//===----------------------------------------------------------------------===//
#ifndef WAVE_CODEGEN_ISEL_H
#define WAVE_CODEGEN_ISEL_H

#include "wave/CodeGen/LIR.h"
#include "wave/CodeGen/Structurizer.h"

#include "llvm/Support/Error.h"

#include <vector>

namespace wave::mir {
class Function;
} // namespace wave::mir

namespace wave::codegen {

/// The instructions selected for one MIR block.
struct SelectedBlock {
  /// The block's instructions in order: the copies out of its phis first,
  /// its operations, then the phi copies for its (single) successor.
  std::vector<LInst> Body;
  /// For a block ending in condbr: the predicate virtual register that
  /// holds the branch condition at the end of Body; ~0u otherwise.
  unsigned CondVReg = ~0u;
  /// Source position of the block's terminator (MIR `!loc`; Line 0 when
  /// unknown): the structured control instructions made of the branch
  /// take it.
  uint32_t TermLine = 0, TermCol = 0;
};

/// A function after instruction selection: the LFunction (virtual
/// registers, parameters precoloured, attributes; Insts still empty), one
/// SelectedBlock per node of the CFG G, in the MIR function's block order
/// after critical-edge splitting (node 0 = entry).
struct SelectedFunction {
  LFunction F;
  std::vector<SelectedBlock> Blocks;
  SCFG G;
};

/// The CFG of \p F for the structurizer: one node per block in block order
/// (node 0 = entry), successors in terminator order, and names as the MIR
/// printer writes the labels ("^loop", "^3" for the fourth unnamed block).
SCFG buildSCFG(const mir::Function &F);

/// Selects instructions for \p F, splitting its critical edges first.
/// Errors are SourceDiagError (wave/Support/SourceDiagnostic.h) located at the
/// MIR instruction that has no lowering, naming the function.
llvm::Expected<SelectedFunction> selectInstructions(mir::Function &F);

} // namespace wave::codegen

#endif // WAVE_CODEGEN_ISEL_H
