//===- Structurizer.h - Reducible CFG to WAVE structured control -*- C++ -*-===//
//
// Maps a reducible control-flow graph onto WAVE's structured control flow
// (formats/isa.md §2.13, §4.15): if/else/endif, loop/break/continue/endloop and
// a per-lane halt, using flag predicates where WAVE has no direct construct
// (merges that are not the end of an if, exits through several loops).
//
// The structurizer works on an abstract graph (SCFG) and returns a list of
// statements (SStmt); wave-ra's code generator (CodeGen.cpp) turns each
// `Block N` statement into the instructions selected for node N and each
// condition into a predicate register. It never duplicates a node: every
// node appears in exactly one Block statement (unreachable nodes in none).
//
// Execution model the output is correct for (per thread, which is exact for
// SIMT masks under the formats/isa.md §8 defaults D5, D6, D8 that our emulator
// and the AMDGCN stage implement):
//   If c / Else / EndIf   the thread runs the then-part when c holds, else
//                         the else-part.
//   Loop ... EndLoop      the body repeats until the thread executes a
//                         Break whose condition holds (from any depth of
//                         If inside the innermost Loop); it then resumes
//                         after the EndLoop.
//   Continue c            when c holds the thread skips the rest of the
//                         innermost loop body and starts its next iteration.
//   Halt                  the thread ends (a `ret` of the kernel).
//   SetFlag F, v          flag F := v for the thread.
// A condition is True, the branch condition of node N (possibly negated) or
// a flag (possibly negated). NodeCond(N) appears only after `Block N` and
// before the next Block statement, so its predicate is short-lived.
//
// Barriers and wave operations keep their position relative to divergence:
// a node's instructions run with exactly the lanes whose path reaches it.
//
//===----------------------------------------------------------------------===//
#ifndef WAVE_CODEGEN_STRUCTURIZER_H
#define WAVE_CODEGEN_STRUCTURIZER_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace wave::codegen {

/// An abstract CFG. Node 0 is the entry. Succs[N] has 0 entries (a return),
/// 1 (unconditional branch) or 2 (conditional branch: Succs[N][0] when the
/// node's condition holds, Succs[N][1] otherwise; the two may be equal).
struct SCFG {
  std::vector<llvm::SmallVector<unsigned, 2>> Succs;
  /// Node names for diagnostics ("^loop"); may be empty strings.
  std::vector<std::string> Names;
  unsigned size() const { return Succs.size(); }
};

/// A condition of If / Break / Continue.
struct SCond {
  enum class Kind : uint8_t { True, NodeCond, Flag };
  Kind K = Kind::True;
  /// Node (NodeCond) or flag (Flag) number.
  unsigned Id = 0;
  bool Negated = false;

  static SCond always() { return {}; }
  static SCond node(unsigned N, bool Neg = false) {
    return {Kind::NodeCond, N, Neg};
  }
  static SCond flag(unsigned F, bool Neg = false) {
    return {Kind::Flag, F, Neg};
  }
};

/// One statement of structured code.
struct SStmt {
  enum class Kind : uint8_t {
    Block,    ///< run node Id's instructions
    If,       ///< Cond
    Else,
    EndIf,
    Loop,
    EndLoop,
    Break,    ///< Cond
    Continue, ///< Cond
    Halt,     ///< the thread returns
    SetFlag,  ///< flag Id := Value
  };
  Kind K;
  unsigned Id = 0;
  bool Value = false;
  SCond Cond;
};

/// Structured code for one function.
struct StructuredCode {
  std::vector<SStmt> Stmts;
  /// Flags used (numbered 0..NumFlags-1); each is a predicate register.
  unsigned NumFlags = 0;
};

/// Structurizes \p G. Fails, naming \p FuncName and the blocks involved
/// (from G.Names), when \p G is irreducible (a cycle with more than one
/// entry). Unreachable nodes are left out. Deterministic.
llvm::Expected<StructuredCode> structurize(const SCFG &G,
                                           llvm::StringRef FuncName);

/// Only the reducibility check of structurize (DFS, dominators, retreating
/// edges; near-linear), with the same error. wave-ra runs it on the CFG as
/// written, before edge splitting adds blocks the user never named.
llvm::Error checkReducible(const SCFG &G, llvm::StringRef FuncName);

/// Prints statements one per line, indented (for tests and debugging).
void printStructuredCode(const StructuredCode &C, const SCFG &G,
                         llvm::raw_ostream &OS);

} // namespace wave::codegen

#endif // WAVE_CODEGEN_STRUCTURIZER_H
