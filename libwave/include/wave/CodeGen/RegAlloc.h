//===- RegAlloc.h - Chaitin-Briggs register allocation for LIR --*- C++ -*-===//
//
// Graph-colouring register allocation of an LFunction (LIR.h), as the
// WAVE compiler's published design describes and as the iterated form of George
// and Appel ("Iterated Register Coalescing", TOPLAS 1996) organises it: build
// the interference graph from liveness, coalesce copies conservatively (Briggs
// and George tests), simplify, pick spill candidates by cost (uses and
// definitions weighted by 10^loop depth, divided by degree), colour
// optimistically, and when a node cannot be coloured spill it and start again.
//
// Two classes are allocated separately: general registers (K = the
// --max-registers limit) and predicates (K = 4). f64 values occupy an
// aligned-free pair (rN, rN+1). Kernel parameters are precoloured to
// r0..r(n-1). A returning atomic's destination never gets r0 (formats/isa.md
// §2.11).
//
// Spilling: general registers go to per-thread slots in local memory laid
// out after the kernel's own local memory: slot s of linear thread t is at
// base + (s * T + t) * 4, T = threads per workgroup (so consecutive lanes
// touch consecutive words and threads never collide); the kernel's
// `.local_memory` grows by 4 * T * slots. Values defined only by `mov_imm`
// are rematerialised instead of stored. Predicates spill into general
// registers (select 1/0 after the definition, icmp_ne before each use),
// which may in turn spill to memory.
//
//===----------------------------------------------------------------------===//
#ifndef WAVE_CODEGEN_REGALLOC_H
#define WAVE_CODEGEN_REGALLOC_H

#include "wave/CodeGen/LIR.h"

#include "llvm/Support/Error.h"

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace wave::codegen {

struct RegAllocOptions {
  /// General registers available: r0..r(MaxRegisters-1); 1..256.
  unsigned MaxRegisters = 32;
  /// When set, the interference graph of the final round is printed here
  /// (one line per virtual register: `%rN: %rA %rB ...`, sorted).
  llvm::raw_ostream *InterferenceOut = nullptr;
};

/// What allocation did to one function (wave-ra --stats).
struct RegAllocStats {
  unsigned RegistersUsed = 0;    ///< the `.registers` count
  unsigned PredicatesUsed = 0;   ///< distinct p registers assigned
  unsigned SpilledVRegs = 0;     ///< values sent to memory
  unsigned SpilledPreds = 0;     ///< predicates sent to general registers
  unsigned Rematerialized = 0;   ///< constants recomputed instead of spilled
  unsigned SpillStores = 0;      ///< local_store instructions inserted
  unsigned SpillReloads = 0;     ///< local_load instructions inserted
  unsigned SpillSlots = 0;       ///< 4-byte per-thread slots
  unsigned CoalescedCopies = 0;  ///< copies removed by coalescing
  unsigned Rounds = 0;           ///< build-colour-spill iterations
  /// Edges of the largest interference graph built (any round).
  uint64_t InterferenceEdges = 0;
};

/// Allocates registers for \p F in place: fills F.Assignment and
/// F.RegistersUsed, inserts spill and reload code, deletes coalesced
/// copies, and grows F.LocalMemory by the spill area. Fails (with a message
/// naming the function) when the parameters alone exceed MaxRegisters, when
/// one instruction needs more registers at once than MaxRegisters allows,
/// or when a kernel must spill but has no workgroup_size attribute (the
/// spill area size depends on it).
llvm::Expected<RegAllocStats> allocateRegisters(LFunction &F,
                                                const RegAllocOptions &Opts);

} // namespace wave::codegen

#endif // WAVE_CODEGEN_REGALLOC_H
