//===- Cloning.cpp - Copy MIR blocks with value remapping -----------------===//
//
// Two-phase block copy (Cloning.h): copy instructions with their original
// operands, then remap operands and block references through the maps.
//
//===----------------------------------------------------------------------===//
#include "wave/Transforms/Cloning.h"

#include "llvm/Support/Casting.h"

using namespace llvm;

namespace wave::mir {

Value *mapValue(Function &Dst, Value *V, const ValueMap &VM) {
  if (Value *M = VM.lookup(V))
    return M;
  if (auto *C = dyn_cast<Constant>(V))
    return Dst.constant(C->type(), C->bits());
  return V;
}

SmallVector<BasicBlock *, 8> cloneBlocks(Function &Dst,
                                         ArrayRef<BasicBlock *> Src,
                                         BasicBlock *After, ValueMap &VM,
                                         BlockMap &BM) {
  SmallVector<BasicBlock *, 8> New;
  SmallVector<Instruction *, 32> Copies;
  for (BasicBlock *BB : Src) {
    After = Dst.addBlockAfter(After);
    BM[BB] = After;
    New.push_back(After);
    for (Instruction &I : BB->insts()) {
      auto C = Instruction::create(I.opcode(), I.type());
      C->setAuxType(I.auxType());
      C->setCallee(I.callee());
      C->setDebugLoc(I.debugLoc());
      for (uint32_t Imm : I.imms())
        C->addImm(Imm);
      for (Value *Op : I.operands())
        C->addOperand(Op);
      for (BasicBlock *B : I.blocks())
        C->addBlock(B);
      Instruction *Raw = After->append(std::move(C));
      VM[&I] = Raw;
      Copies.push_back(Raw);
    }
  }
  for (Instruction *C : Copies) {
    for (unsigned K = 0; K < C->numOperands(); ++K) {
      Value *M = mapValue(Dst, C->operand(K), VM);
      if (M != C->operand(K))
        C->setOperand(K, M);
    }
    for (unsigned K = 0; K < C->blocks().size(); ++K)
      if (BasicBlock *M = BM.lookup(C->block(K)))
        C->setBlock(K, M);
  }
  return New;
}

} // namespace wave::mir
