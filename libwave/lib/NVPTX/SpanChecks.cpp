//===- SpanChecks.cpp - The range checks of speculative chunks ------------===//
//
// A speculative chunk (formats/nvptx-abi.md "Speculative chunks") checks
// its memory accesses in its head with one call to __wave_span_check,
// whose operands are (start, length, memory size) triples. The call stays
// opaque through LLVM's optimisation pipeline, which folds the registers
// that hold constants into the starts; then lowerSpanChecks() takes each
// start apart into terms plus a constant offset again and checks the
// triples with the same terms as one range, so that a tiled loop's dozens
// of accesses at one base cost one comparison.
//
//===----------------------------------------------------------------------===//

#include "Lift.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"

using namespace llvm;

namespace wave::nvptx::detail {

namespace {

/// The most terms an address is taken apart into.
constexpr unsigned MaxTerms = 16;

/// Accesses with the same terms and memory: [Lo, Hi) bytes from the terms'
/// sum, wrapping at 2^32.
struct Range {
  Value *Size;
  SmallVector<Value *, 4> Terms, Key;
  int64_t Lo, Hi;
};

} // namespace

uint32_t splitAddress(Value *Addr, SmallVectorImpl<Value *> &Terms) {
  uint32_t Off = 0;
  SmallVector<Value *, 4> Work{Addr};
  while (!Work.empty()) {
    Value *V = Work.pop_back_val();
    if (auto *K = dyn_cast<ConstantInt>(V)) {
      Off += uint32_t(K->getZExtValue());
      continue;
    }
    auto *Op = dyn_cast<BinaryOperator>(V);
    bool Sum = Op && (Op->getOpcode() == Instruction::Add ||
                      (Op->getOpcode() == Instruction::Or &&
                       cast<PossiblyDisjointInst>(Op)->isDisjoint()));
    if (Sum && Terms.size() + Work.size() + 2 <= MaxTerms) {
      Work.push_back(Op->getOperand(1));
      Work.push_back(Op->getOperand(0));
      continue;
    }
    if (Op && Op->getOpcode() == Instruction::Sub &&
        isa<ConstantInt>(Op->getOperand(1))) {
      Off -= uint32_t(cast<ConstantInt>(Op->getOperand(1))->getZExtValue());
      Work.push_back(Op->getOperand(0));
      continue;
    }
    Terms.push_back(V);
  }
  return Off;
}

Value *emitSpanCheck(IRBuilderBase &B, ArrayRef<SpanCheck> Spans) {
  Module *M = B.GetInsertBlock()->getModule();
  LLVMContext &C = M->getContext();
  auto *FT = FunctionType::get(Type::getInt1Ty(C), {}, /*isVarArg=*/true);
  FunctionCallee Check = M->getOrInsertFunction(SpanCheckName, FT);
  auto *F = cast<Function>(Check.getCallee());
  F->setDoesNotThrow();
  F->setWillReturn();
  F->setDoesNotAccessMemory();
  SmallVector<Value *, 12> Args;
  for (const SpanCheck &S : Spans)
    Args.append({S.Start, B.getInt64(S.Length), S.Size});
  return B.CreateCall(Check, Args, "spans.ok");
}

bool lowerSpanChecks(Module &M) {
  Function *F = M.getFunction(SpanCheckName);
  if (!F)
    return false;
  for (User *U : make_early_inc_range(F->users())) {
    auto *Call = cast<CallInst>(U);
    SmallVector<Range, 4> Ranges;
    for (unsigned A = 0; A + 2 < Call->arg_size(); A += 3) {
      Value *Start = Call->getArgOperand(A);
      int64_t Len =
          cast<ConstantInt>(Call->getArgOperand(A + 1))->getSExtValue();
      Value *Size = Call->getArgOperand(A + 2);
      Range R{Size, {}, {}, 0, 0};
      R.Lo = int32_t(splitAddress(Start, R.Terms));
      R.Hi = R.Lo + Len;
      R.Key = R.Terms;
      llvm::sort(R.Key);
      auto Same = find_if(Ranges, [&](const Range &G) {
        return G.Size == Size && G.Key == R.Key &&
               std::max(G.Hi, R.Hi) - std::min(G.Lo, R.Lo) <= MaxSpanBytes;
      });
      if (Same == Ranges.end()) {
        Ranges.push_back(std::move(R));
        continue;
      }
      Same->Lo = std::min(Same->Lo, R.Lo);
      Same->Hi = std::max(Same->Hi, R.Hi);
    }
    // Each access lies in [A, A + (Hi - Lo)) with A = sum + Lo (mod 2^32):
    // in bounds iff that range is, without wrapping. A range that covers
    // several accesses also covers the bytes between them, which can only
    // make the check stricter, never let a bad access through.
    IRBuilder<> B(Call);
    Value *Ok = B.getTrue();
    for (const Range &R : Ranges) {
      Value *Sum = nullptr;
      for (Value *T : R.Terms)
        Sum = Sum ? B.CreateAdd(Sum, T) : T;
      Value *A = B.getInt32(uint32_t(R.Lo));
      if (Sum)
        A = B.CreateAdd(Sum, A);
      Value *End =
          B.CreateAdd(B.CreateZExt(A, B.getInt64Ty()), B.getInt64(R.Hi - R.Lo));
      Ok = B.CreateAnd(Ok, B.CreateICmpULE(End, R.Size));
    }
    Call->replaceAllUsesWith(Ok);
    Call->eraseFromParent();
  }
  F->eraseFromParent();
  return true;
}

} // namespace wave::nvptx::detail
