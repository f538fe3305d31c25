//===- SCCP.cpp - Sparse conditional constant propagation -----------------===//
//
// Wegman and Zadeck, "Constant Propagation with Conditional Branches"
// (TOPLAS 1991): every SSA value gets a lattice value (unknown, a constant,
// or overdefined) and every CFG edge an executable flag; two worklists (CFG
// edges, SSA uses) are drained until nothing changes. A phi meets only the
// values of its executable incoming edges, so constants flow through
// branches that the constants themselves decide. Afterwards constant values
// are replaced by literals and branches on constants become `br` (the
// dropped edge's phi entries go); the blocks that became unreachable are
// left for simplifycfg.
//
// Folding follows WAVE's semantics exactly (formats/isa.md §4.5, §4.6, §4.10)
// through wave/ISA/Semantics.h, the functions the emulator executes:
// wrapping arithmetic, division and remainder by zero give 0, INT_MIN / -1
// is INT_MIN, shift amounts are taken modulo 32, bitfind(0) is 0xFFFFFFFF.
// clamp with lo > hi is undefined in MIR (formats/mir.md; the reference
// emulator aborts, formats/isa.md D11) and is not folded. Floating-point operations are not folded (NaN results are
// target-specific, formats/isa.md §4.7). `sreg workgroup_size_*` folds to the
// kernel's workgroup_size attribute, which the kernel metadata carries and the
// dispatch uses (formats/isa.md §4.2).
//
//   before                               after
//   ^entry:                              ^entry:
//     %a = add u32 2, 3                    condbr false, ^big, ^small
//     %c = icmp gt u32 %a, 10            becomes
//     condbr %c, ^big, ^small            ^entry:
//   ...                                    br ^small
//   ^small:                              ^small:
//     %r = mul u32 %a, 4                   store u32 20, ptr<device> %p
//     store u32 %r, ptr<device> %p
//
//===----------------------------------------------------------------------===//
#include "wave/IR/CFG.h"
#include "wave/ISA/Semantics.h"
#include "wave/Transforms/Pass.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Casting.h"
#include "llvm/Support/MathExtras.h"

#include <optional>

using namespace llvm;

namespace wave::mir {

namespace {

/// The SCCP lattice: Unknown (top) < Const < Over (bottom).
struct Lattice {
  enum Kind : uint8_t { Unknown, Const, Over } K = Unknown;
  uint64_t Bits = 0;
  bool operator==(const Lattice &O) const {
    return K == O.K && (K != Const || Bits == O.Bits);
  }
};

/// Folds \p I over constant operand bits, or std::nullopt if it cannot (or
/// must not) be folded. Only integer, boolean and pointer operations.
std::optional<uint64_t> fold(const Instruction &I, ArrayRef<uint64_t> V) {
  Type T = I.type();
  bool Signed = T == Type::I32;
  auto U = [&](unsigned K) { return uint32_t(V[K]); };
  auto S = [&](unsigned K) { return int32_t(uint32_t(V[K])); };
  auto R = [&](uint64_t X) -> std::optional<uint64_t> {
    return T == Type::I1 ? (X & 1) : uint64_t(uint32_t(X));
  };
  switch (I.opcode()) {
  case Opcode::Add:
  case Opcode::PtrAdd:
    return R(U(0) + U(1));
  case Opcode::Sub:
    return R(U(0) - U(1));
  case Opcode::Mul:
    return R(U(0) * U(1));
  case Opcode::MulHi: // the signed form has no WAVE instruction
    return Signed ? R(uint64_t(int64_t(S(0)) * int64_t(S(1))) >> 32)
                  : R(sem::imulHi(U(0), U(1)));
  case Opcode::Mad:
    return R(U(0) * U(1) + U(2));
  case Opcode::Div:
    if (Signed)
      return R(sem::idiv(U(0), U(1)));
    return R(U(1) == 0 ? 0 : U(0) / U(1));
  case Opcode::Rem:
    if (Signed)
      return R(sem::imod(U(0), U(1)));
    return R(U(1) == 0 ? 0 : U(0) % U(1));
  case Opcode::Neg:
    return R(sem::ineg(U(0)));
  case Opcode::Abs:
    return Signed ? R(sem::iabs(U(0))) : R(U(0));
  case Opcode::Min:
    return Signed ? R(sem::imin(U(0), U(1))) : R(std::min(U(0), U(1)));
  case Opcode::Max:
    return Signed ? R(sem::imax(U(0), U(1))) : R(std::max(U(0), U(1)));
  case Opcode::Clamp:
    // lo > hi is undefined in MIR (formats/mir.md): left to the target.
    if (Signed)
      return S(1) > S(2) ? std::nullopt : R(sem::iclamp(U(0), U(1), U(2)));
    if (U(1) > U(2))
      return std::nullopt;
    return R(std::clamp(U(0), U(1), U(2)));
  case Opcode::And:
    return R(V[0] & V[1]);
  case Opcode::Or:
    return R(V[0] | V[1]);
  case Opcode::Xor:
    return R(V[0] ^ V[1]);
  case Opcode::Not:
    return R(~V[0]);
  case Opcode::Shl:
    return R(sem::shl(U(0), U(1)));
  case Opcode::LShr:
    return R(sem::shr(U(0), U(1)));
  case Opcode::AShr:
    return R(sem::sar(U(0), U(1)));
  case Opcode::PopCount:
    return R(sem::bitcount(U(0)));
  case Opcode::BitFind:
    return R(sem::bitfind(U(0)));
  case Opcode::BitRev:
    return R(sem::bitrev(U(0)));
  case Opcode::Bfe:
    return R(sem::bfe(U(0), U(1), U(2)));
  case Opcode::Bfi:
    return R(sem::bfi(U(0), U(1), U(2), U(3)));
  case Opcode::ICmp: {
    bool SignedCmp = I.auxType() == Type::I32;
    int64_t A = SignedCmp ? S(0) : int64_t(U(0));
    int64_t B = SignedCmp ? S(1) : int64_t(U(1));
    switch (I.cmpPred()) {
    case CmpPred::Eq:
      return A == B;
    case CmpPred::Ne:
      return A != B;
    case CmpPred::Lt:
      return A < B;
    case CmpPred::Le:
      return A <= B;
    case CmpPred::Gt:
      return A > B;
    case CmpPred::Ge:
      return A >= B;
    default:
      return std::nullopt;
    }
  }
  case Opcode::Cvt:
    if (I.auxType() == Type::I1)
      return R(V[0] & 1);
    return std::nullopt; // float conversions are not folded
  case Opcode::Bitcast:
    return V[0]; // same size, same bits
  default:
    return std::nullopt;
  }
}

class SCCPSolver {
public:
  explicit SCCPSolver(Function &F) : F(F), G(F) {}

  void solve();
  bool rewrite(PassStats &Stats, StringRef PassName);

private:
  Lattice get(const Value *V) {
    if (const auto *C = dyn_cast<Constant>(V))
      return {Lattice::Const, C->bits()};
    if (isa<Argument>(V))
      return {Lattice::Over, 0};
    return State.lookup(V);
  }
  void set(const Instruction *I, Lattice L) {
    Lattice &Old = State[I];
    if (Old == L)
      return;
    // Lattice values only go down: Unknown -> Const -> Over.
    Old = L;
    for (const Use &U : I->uses())
      SSAWork.push_back(U.User);
  }
  void markEdge(BasicBlock *From, BasicBlock *To) {
    if (!Edges.insert({From, To}).second)
      return;
    if (Executable.insert(To).second) {
      for (Instruction &I : To->insts())
        SSAWork.push_back(&I);
    } else {
      // A new edge into a visited block only changes its phis.
      for (Instruction &I : To->insts()) {
        if (!I.isPhi())
          break;
        SSAWork.push_back(&I);
      }
    }
  }
  void visit(Instruction &I);

  Function &F;
  CFG G;
  DenseMap<const Value *, Lattice> State;
  DenseSet<const BasicBlock *> Executable;
  DenseSet<std::pair<const BasicBlock *, const BasicBlock *>> Edges;
  SmallVector<Instruction *, 64> SSAWork;
};

void SCCPSolver::visit(Instruction &I) {
  BasicBlock *BB = I.parent();
  if (!Executable.count(BB))
    return;
  if (I.isPhi()) {
    Lattice L;
    for (unsigned K = 0; K < I.numOperands(); ++K) {
      if (!Edges.count({I.block(K), BB}))
        continue;
      Lattice In = get(I.operand(K));
      if (In.K == Lattice::Unknown)
        continue;
      if (In.K == Lattice::Over ||
          (L.K == Lattice::Const && L.Bits != In.Bits)) {
        L = {Lattice::Over, 0};
        break;
      }
      L = In;
    }
    set(&I, L);
    return;
  }
  if (I.opcode() == Opcode::Br) {
    markEdge(BB, I.block(0));
    return;
  }
  if (I.opcode() == Opcode::CondBr) {
    Lattice C = get(I.operand(0));
    if (C.K == Lattice::Const)
      markEdge(BB, I.block(C.Bits ? 0 : 1));
    else if (C.K == Lattice::Over) {
      markEdge(BB, I.block(0));
      markEdge(BB, I.block(1));
    }
    return;
  }
  if (I.type() == Type::Void)
    return;
  if (I.opcode() == Opcode::SReg && F.WorkgroupSize) {
    static const char *const Dims[] = {"workgroup_size_x", "workgroup_size_y",
                                       "workgroup_size_z"};
    StringRef R = specialRegName(I.imms()[0]);
    for (unsigned D = 0; D < 3; ++D)
      if (R == Dims[D]) {
        set(&I, {Lattice::Const, (*F.WorkgroupSize)[D]});
        return;
      }
  }
  if (I.opcode() == Opcode::Select) {
    Lattice C = get(I.operand(0));
    if (C.K == Lattice::Unknown)
      return;
    if (C.K == Lattice::Const) {
      set(&I, get(I.operand(C.Bits ? 1 : 2)));
      return;
    }
    Lattice A = get(I.operand(1)), B = get(I.operand(2));
    if (A.K == Lattice::Const && A == B)
      set(&I, A);
    else if (A.K != Lattice::Unknown && B.K != Lattice::Unknown)
      set(&I, {Lattice::Over, 0});
    return;
  }
  if (I.hasSideEffects() || I.mayReadMemory() || I.isConvergent() ||
      I.opcode() == Opcode::SReg) {
    set(&I, {Lattice::Over, 0});
    return;
  }
  SmallVector<uint64_t, 4> Vals;
  for (Value *Op : I.operands()) {
    Lattice L = get(Op);
    if (L.K == Lattice::Unknown)
      return; // wait for more information
    if (L.K == Lattice::Over) {
      set(&I, {Lattice::Over, 0});
      return;
    }
    Vals.push_back(L.Bits);
  }
  if (auto R = fold(I, Vals))
    set(&I, {Lattice::Const, *R});
  else
    set(&I, {Lattice::Over, 0});
}

void SCCPSolver::solve() {
  Executable.insert(F.entry());
  for (Instruction &I : F.entry()->insts())
    SSAWork.push_back(&I);
  while (!SSAWork.empty())
    visit(*SSAWork.pop_back_val());
}

bool SCCPSolver::rewrite(PassStats &Stats, StringRef PassName) {
  bool Changed = false;
  for (const auto &BB : F.blocks()) {
    if (!Executable.count(BB.get()))
      continue;
    for (auto It = BB->begin(); It != BB->end();) {
      Instruction &I = *It++;
      if (I.type() == Type::Void || I.hasSideEffects())
        continue;
      Lattice L = State.lookup(&I);
      if (L.K != Lattice::Const)
        continue;
      I.replaceAllUsesWith(F.constant(I.type(), L.Bits));
      I.eraseFromParent();
      Stats.add(PassName, "instructions folded");
      Changed = true;
    }
    Instruction *T = BB->terminator();
    if (!T || T->opcode() != Opcode::CondBr || !isa<Constant>(T->operand(0)))
      continue;
    bool Cond = cast<Constant>(T->operand(0))->bits() & 1;
    BasicBlock *Taken = T->block(Cond ? 0 : 1);
    BasicBlock *Dropped = T->block(Cond ? 1 : 0);
    if (Dropped != Taken)
      for (Instruction &Phi : Dropped->insts()) {
        if (!Phi.isPhi())
          break;
        for (unsigned K = Phi.numOperands(); K-- > 0;)
          if (Phi.block(K) == BB.get())
            Phi.removeOperand(K);
      }
    Instruction::DebugLoc TLoc = T->debugLoc();
    T->eraseFromParent();
    auto Br = Instruction::create(Opcode::Br, Type::Void);
    Br->setDebugLoc(TLoc);
    Br->addBlock(Taken);
    BB->append(std::move(Br));
    Stats.add(PassName, "branches folded");
    Changed = true;
  }
  return Changed;
}

class SCCPPass : public Pass {
public:
  StringRef name() const override { return "sccp"; }
  bool runOnFunction(Function &F, PassStats &Stats) override {
    if (!F.entry())
      return false;
    SCCPSolver S(F);
    S.solve();
    return S.rewrite(Stats, name());
  }
};

} // namespace

std::unique_ptr<Pass> createSCCPPass() { return std::make_unique<SCCPPass>(); }

} // namespace wave::mir
