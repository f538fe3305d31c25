//===- StrengthReduce.cpp - Cheaper integer arithmetic --------------------===//
//
// Seed 003's strength reduction: multiplication by a power of two becomes a
// left shift, unsigned division and remainder by a power of two a logical
// shift and a mask, signed division and remainder by a positive power of two
// a shift sequence that rounds toward zero (Warren, "Hacker's Delight", 2nd
// ed., §10-1), and unsigned division by any other constant a multiply-high
// and shifts (Granlund and Montgomery, "Division by Invariant Integers using
// Multiplication", PLDI 1994; magic numbers from LLVM's
// UnsignedDivisionByConstantInfo). Multiplying by 0 or 1 and dividing by 1
// fold away. Only the i32/u32 operations of MIROps.def are touched; WAVE's
// `idiv` and `imod` are long sequences on every target, and there is no
// unsigned hardware division at all (ISA.md §2.3).
//
//   before                               after
//   %a = mul u32 %x, 8                   %a = shl u32 %x, 3
//   %b = rem u32 %x, 16                  %b = and u32 %x, 15
//   %c = div u32 %x, 10                  %0 = mulhi u32 %x, 3435973837
//                                        %c = lshr u32 %0, 3
//
//===----------------------------------------------------------------------===//
#include "wave/Transforms/Pass.h"

#include "llvm/ADT/APInt.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Casting.h"
#include "llvm/Support/DivisionByConstantInfo.h"
#include "llvm/Support/MathExtras.h"

using namespace llvm;

namespace wave::mir {

namespace {

class StrengthReducePass : public Pass {
public:
  StringRef name() const override { return "strength-reduce"; }

  bool runOnFunction(Function &F, PassStats &Stats) override {
    bool Changed = false;
    for (const auto &BB : F.blocks())
      for (auto It = BB->begin(); It != BB->end();) {
        Instruction &I = *It++;
        if (!isIntType(I.type()))
          continue;
        if (Value *New = reduce(F, I)) {
          // The last instruction of a new sequence inherits the name.
          auto *NI = dyn_cast<Instruction>(New);
          bool Fresh = NI && !is_contained(I.operands(), New);
          std::string Name = I.name().str();
          I.replaceAllUsesWith(New);
          I.eraseFromParent();
          if (Fresh)
            NI->setName(Name);
          Stats.add(name(), "operations reduced");
          Changed = true;
        }
      }
    return Changed;
  }

private:
  /// Emits `Op T A, B` before \p Pos and returns it.
  static Instruction *emit(Instruction &Pos, Opcode Op, Value *A, Value *B) {
    auto N = Instruction::create(Op, Pos.type());
    N->addOperand(A);
    N->addOperand(B);
    return Pos.parent()->insert(Pos.getIterator(), std::move(N));
  }

  /// The cheaper replacement of \p I, or null.
  static Value *reduce(Function &F, Instruction &I) {
    Type T = I.type();
    auto K = [&](uint64_t V) { return F.constant(T, uint32_t(V)); };
    auto ConstOf = [](Value *V) -> std::optional<uint32_t> {
      if (auto *C = dyn_cast<Constant>(V))
        return uint32_t(C->bits());
      return std::nullopt;
    };
    switch (I.opcode()) {
    case Opcode::Mul: {
      Value *X = I.operand(0);
      auto C = ConstOf(I.operand(1));
      if (!C) {
        C = ConstOf(I.operand(0));
        X = I.operand(1);
      }
      if (!C)
        return nullptr;
      if (*C == 0)
        return K(0);
      if (*C == 1)
        return X;
      if (isPowerOf2_32(*C))
        return emit(I, Opcode::Shl, X, K(Log2_32(*C)));
      return nullptr;
    }
    case Opcode::Div:
    case Opcode::Rem: {
      bool IsDiv = I.opcode() == Opcode::Div;
      Value *X = I.operand(0);
      auto C = ConstOf(I.operand(1));
      if (!C || *C == 0) // x / 0 = 0 is SCCP's business if x is known
        return nullptr;
      if (*C == 1)
        return IsDiv ? X : K(0);
      if (T == Type::U32) {
        if (isPowerOf2_32(*C))
          return IsDiv ? emit(I, Opcode::LShr, X, K(Log2_32(*C)))
                       : emit(I, Opcode::And, X, K(*C - 1));
        if (!IsDiv)
          return nullptr; // x - (x / c) * c: not cheaper on WAVE
        return unsignedDivide(F, I, X, *C);
      }
      // i32: positive powers of two only (2 .. 2^30).
      if (!isPowerOf2_32(*C) || *C > (1u << 30))
        return nullptr;
      unsigned Sh = Log2_32(*C);
      // q = (x + ((x >>a 31) >>l (32 - k))) >>a k rounds toward zero.
      Instruction *Sign = emit(I, Opcode::AShr, X, K(31));
      Instruction *Bias = emit(I, Opcode::LShr, Sign, K(32 - Sh));
      Instruction *Sum = emit(I, Opcode::Add, X, Bias);
      Instruction *Q = emit(I, Opcode::AShr, Sum, K(Sh));
      if (IsDiv)
        return Q;
      Instruction *Back = emit(I, Opcode::Shl, Q, K(Sh));
      return emit(I, Opcode::Sub, X, Back);
    }
    default:
      return nullptr;
    }
  }

  /// x / d for u32 d that is not 0, 1 or a power of two.
  static Value *unsignedDivide(Function &F, Instruction &I, Value *X,
                               uint32_t D) {
    auto M = UnsignedDivisionByConstantInfo::get(APInt(32, D));
    auto K = [&](uint64_t V) { return F.constant(Type::U32, uint32_t(V)); };
    Value *Q = X;
    if (M.PreShift)
      Q = emit(I, Opcode::LShr, Q, K(M.PreShift));
    Q = emit(I, Opcode::MulHi, Q, K(M.Magic.getZExtValue()));
    if (M.IsAdd) {
      Instruction *NPQ = emit(I, Opcode::Sub, X, Q);
      NPQ = emit(I, Opcode::LShr, NPQ, K(1));
      Q = emit(I, Opcode::Add, NPQ, Q);
    }
    if (M.PostShift)
      Q = emit(I, Opcode::LShr, Q, K(M.PostShift));
    return Q;
  }
};

} // namespace

std::unique_ptr<Pass> createStrengthReducePass() {
  return std::make_unique<StrengthReducePass>();
}

} // namespace wave::mir
