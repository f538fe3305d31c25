//===- MIRPrinter.h - MIR text printer --------------------------*- C++ -*-===//
//
// Prints MIR in the canonical text form of formats/mir.md. The output is a
// function of the IR alone: named values and blocks keep their names (made
// unique with a ".N" suffix if passes duplicated one), unnamed ones are
// numbered from 0 in print order, separately for values (%N) and blocks
// (^N); constants print in the shortest decimal form that reads back to the
// same bits, otherwise as 0x-prefixed bits. print(parse(x)) == x for any x
// this printer produced.
//
//===----------------------------------------------------------------------===//
#ifndef WAVE_IR_MIRPRINTER_H
#define WAVE_IR_MIRPRINTER_H

#include "wave/IR/MIR.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

namespace wave::mir {

/// Prints the whole module: functions in order, separated by blank lines.
void printModule(const Module &M, llvm::raw_ostream &OS);
/// Prints one function.
void printFunction(const Function &F, llvm::raw_ostream &OS);

/// The printed names of one function's values and blocks. Build one per
/// function and reuse it for many instructions (construction is O(size of
/// the function)).
class SlotNames {
public:
  explicit SlotNames(const Function &F);
  /// "%name" / "%N" for an argument or instruction, the literal for a
  /// constant, "%<unknown>" for anything else.
  std::string value(const Value *V) const;
  /// "^name" / "^N".
  std::string block(const BasicBlock *BB) const;

private:
  llvm::DenseMap<const Value *, std::string> Values;
  llvm::DenseMap<const BasicBlock *, std::string> Blocks;
};

/// Prints one instruction on one line, without indentation or newline.
void printInstruction(const Instruction &I, const SlotNames &Names,
                      llvm::raw_ostream &OS);
/// Convenience: the text of \p I as printInstruction writes it (builds a
/// SlotNames for its function; O(function size)).
std::string instructionText(const Instruction &I);
/// The literal for constant \p C ("7", "-1", "true", "1.5", "0x7FC00000").
std::string constantText(const Constant &C);

} // namespace wave::mir

#endif // WAVE_IR_MIRPRINTER_H
