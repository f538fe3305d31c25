//===- Cloning.h - Copy MIR blocks with value remapping ---------*- C++ -*-===//
//
// Block cloning shared by the passes that duplicate code: loop unrolling
// (LoopUnroll.cpp) copies a loop body once per iteration, inlining
// (Inline.cpp) copies a callee into its caller. The copy is made in two
// steps, as LLVM's CloneFunctionInto does: first every instruction is copied
// with its original operands, then operands and block references are
// rewritten through the maps, so forward references (phis naming values of
// later blocks) need no special care.
//
//===----------------------------------------------------------------------===//
#ifndef WAVE_TRANSFORMS_CLONING_H
#define WAVE_TRANSFORMS_CLONING_H

#include "wave/IR/MIR.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

namespace wave::mir {

/// Old value -> new value, and old block -> new block.
using ValueMap = llvm::DenseMap<const Value *, Value *>;
using BlockMap = llvm::DenseMap<const BasicBlock *, BasicBlock *>;

/// Copies \p Src (blocks of any function) into \p Dst, placing the copies
/// in order right after \p After (a block of \p Dst). Every copied value
/// and block is added to \p VM and \p BM. Operands found in \p VM (which may
/// be pre-seeded, e.g. callee arguments -> call operands) are replaced;
/// constants become \p Dst's uniqued constants; other operands (values
/// defined outside \p Src) are kept. Branch targets and phi incoming blocks
/// found in \p BM are replaced, others kept. Copies are unnamed and have no
/// source location. Returns the new blocks in order. O(size of Src).
llvm::SmallVector<BasicBlock *, 8> cloneBlocks(Function &Dst,
                                               llvm::ArrayRef<BasicBlock *> Src,
                                               BasicBlock *After, ValueMap &VM,
                                               BlockMap &BM);

/// The value \p V stands for under \p VM: the mapped value, \p Dst's copy
/// of a constant, or \p V itself.
Value *mapValue(Function &Dst, Value *V, const ValueMap &VM);

} // namespace wave::mir

#endif // WAVE_TRANSFORMS_CLONING_H
