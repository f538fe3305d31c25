//===- StrengthReduce.cpp - Cheaper integer arithmetic --------------------===//
//
// Strength reduction: multiplication by a power of two becomes a
// left shift, unsigned division and remainder by a power of two a logical
// shift and a mask, signed division and remainder by a power of two (either
// sign) a shift sequence that rounds toward zero (Warren, "Hacker's
// Delight", 2nd ed., §10-1), and division by any other constant a
// multiply-high and shifts (Granlund and Montgomery, "Division by Invariant
// Integers using Multiplication", PLDI 1994; Hacker's Delight §10-3..§10-10;
// magic numbers from LLVM's UnsignedDivisionByConstantInfo and
// SignedDivisionByConstantInfo). A remainder by such a constant is
// x - (x / c) * c on top of the quotient. Division by -1 becomes `neg`
// (INT_MIN / -1 wraps to INT_MIN, as WAVE's idiv does), by INT_MIN a
// compare. Multiplying by 0 or 1 and dividing by 1 fold away. Only the
// i32/u32 operations of MIROps.def are touched; WAVE's `idiv` and `imod`
// are long sequences on every target, and there is no unsigned hardware
// division at all (formats/isa.md §2.3), so even the remainder's extra multiply
// and subtract are far cheaper.
//
// Signed multiply-high. MIR has `mulhi i32`, but WAVE has only the
// unsigned high product (`imul_hi`, formats/isa.md §4.5, D34), so a signed one
// would have to be expanded again by the backend. The signed sequences here
// therefore use `mulhi u32` (through bitcasts) with the sign corrections of
// Hacker's Delight §8-3 folded into the division's own corrections: one
// `mulhi`, an `ashr`/`and` pair and one or two `sub`s.
//
//   before                               after
//   %a = mul u32 %x, 8                   %a = shl u32 %x, 3
//   %b = rem u32 %x, 16                  %b = and u32 %x, 15
//   %c = div u32 %x, 10                  %0 = mulhi u32 %x, 3435973837
//                                        %c = lshr u32 %0, 3
//   %d = div i32 %s, 7                   %1 = bitcast i32 %s to u32
//                                        %2 = mulhi u32 %1, 2454267027
//                                        %3 = bitcast u32 %2 to i32
//                                        %4 = ashr i32 %s, 31
//                                        %5 = and i32 %4, -1840700269
//                                        %6 = sub i32 %3, %5
//                                        %7 = ashr i32 %6, 2
//                                        %8 = lshr i32 %7, 31
//                                        %d = add i32 %7, %8
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
    N->setDebugLoc(Pos.debugLoc()); // the replacement keeps the position
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
        Value *Q = unsignedDivide(F, I, X, *C);
        return IsDiv ? Q : remainder(I, X, Q, K(*C));
      }
      return signedDivRem(F, I, X, int32_t(*C), IsDiv);
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

  /// x - q * d, the remainder that goes with quotient \p Q (of \p I's
  /// type): two cheap operations instead of a software division.
  static Value *remainder(Instruction &I, Value *X, Value *Q, Value *D) {
    return emit(I, Opcode::Sub, X, emit(I, Opcode::Mul, Q, D));
  }

  /// Emits `Op S A` (one operand, result type \p S) before \p Pos.
  static Instruction *emit1(Instruction &Pos, Opcode Op, Type S, Value *A,
                            Type From = Type::Void) {
    auto N = Instruction::create(Op, S);
    N->setDebugLoc(Pos.debugLoc());
    N->addOperand(A);
    if (From != Type::Void)
      N->setAuxType(From);
    return Pos.parent()->insert(Pos.getIterator(), std::move(N));
  }

  /// i32 x / d or x % d for a constant d other than 0 and 1, with WAVE's
  /// semantics (truncating division; INT_MIN / -1 = INT_MIN, the remainder
  /// 0; formats/mir.md "Semantics the optimizer relies on").
  static Value *signedDivRem(Function &F, Instruction &I, Value *X, int32_t D,
                             bool IsDiv) {
    auto K = [&](int64_t V) { return F.constant(Type::I32, uint32_t(V)); };
    if (D == -1) // wraps exactly like WAVE: -INT_MIN = INT_MIN
      return IsDiv ? static_cast<Value *>(emit1(I, Opcode::Neg, Type::I32, X))
                   : K(0);
    if (D == INT32_MIN) {
      // |x| < 2^31 except for INT_MIN itself: q = (x == INT_MIN), and the
      // remainder is x unless x is INT_MIN.
      auto Cmp = Instruction::create(Opcode::ICmp, Type::I1);
      Cmp->addOperand(X);
      Cmp->addOperand(K(INT32_MIN));
      Cmp->addImm(unsigned(CmpPred::Eq));
      Cmp->setAuxType(Type::I32);
      Cmp->setDebugLoc(I.debugLoc());
      Instruction *IsMin = I.parent()->insert(I.getIterator(), std::move(Cmp));
      if (IsDiv)
        return emit1(I, Opcode::Cvt, Type::I32, IsMin, Type::I1);
      auto Sel = Instruction::create(Opcode::Select, Type::I32);
      Sel->addOperand(IsMin);
      Sel->addOperand(K(0));
      Sel->addOperand(X);
      Sel->setDebugLoc(I.debugLoc());
      return I.parent()->insert(I.getIterator(), std::move(Sel));
    }
    uint32_t AbsD = D < 0 ? 0u - uint32_t(D) : uint32_t(D);
    if (isPowerOf2_32(AbsD)) {
      // q = (x + ((x >>a 31) >>l (32 - k))) >>a k rounds toward zero
      // (Hacker's Delight §10-1); x % -2^k = x % 2^k (the sign is x's).
      unsigned Sh = Log2_32(AbsD);
      Instruction *Sign = emit(I, Opcode::AShr, X, K(31));
      Instruction *Bias = emit(I, Opcode::LShr, Sign, K(32 - Sh));
      Instruction *Sum = emit(I, Opcode::Add, X, Bias);
      Instruction *Q = emit(I, Opcode::AShr, Sum, K(Sh));
      if (!IsDiv)
        return emit(I, Opcode::Sub, X, emit(I, Opcode::Shl, Q, K(Sh)));
      return D < 0 ? emit1(I, Opcode::Neg, Type::I32, Q) : Q;
    }
    // Granlund and Montgomery 1994 §5 / Hacker's Delight §10-3 and §10-5:
    //   q = mulhs(x, M) [+ x if d > 0 and M < 0] [- x if d < 0 and M > 0]
    //   q = (q >>a s) + (q >>l 31)
    // WAVE has only the unsigned high product (imul_hi, formats/isa.md §4.5 and
    // D34), so mulhs is written with it (Hacker's Delight §8-3):
    //   mulhs(x, M) = mulhu(x, M) - (x < 0 ? M : 0) - (M < 0 ? x : 0).
    // The "M < 0" term cancels the "+ x" correction for d > 0 and adds to
    // the "- x" one for d < 0, so in all four sign cases
    //   q0 = mulhu(x, M) - ((x >>a 31) & M) - (d < 0 ? x : 0).
    auto Magic = SignedDivisionByConstantInfo::get(APInt(32, uint32_t(D)));
    uint32_t M = uint32_t(Magic.Magic.getZExtValue());
    Instruction *XU = emit1(I, Opcode::Bitcast, Type::U32, X, Type::I32);
    auto Hi = Instruction::create(Opcode::MulHi, Type::U32);
    Hi->addOperand(XU);
    Hi->addOperand(F.constant(Type::U32, M));
    Hi->setDebugLoc(I.debugLoc());
    Instruction *H = I.parent()->insert(I.getIterator(), std::move(Hi));
    Instruction *HS = emit1(I, Opcode::Bitcast, Type::I32, H, Type::U32);
    Instruction *Sign = emit(I, Opcode::AShr, X, K(31));
    Instruction *Corr = emit(I, Opcode::And, Sign, K(int32_t(M)));
    Instruction *Q = emit(I, Opcode::Sub, HS, Corr);
    if (D < 0)
      Q = emit(I, Opcode::Sub, Q, X);
    if (Magic.ShiftAmount)
      Q = emit(I, Opcode::AShr, Q, K(Magic.ShiftAmount));
    Instruction *Up = emit(I, Opcode::LShr, Q, K(31));
    Q = emit(I, Opcode::Add, Q, Up);
    return IsDiv ? Q : remainder(I, X, Q, K(D));
  }
};

} // namespace

std::unique_ptr<Pass> createStrengthReducePass() {
  return std::make_unique<StrengthReducePass>();
}

} // namespace wave::mir
