//===- Lowering.cpp - Checked HIR to SSA MIR ------------------------------===//
//
// One FunctionLowering per function. Control flow: every structured
// statement becomes the blocks LLVM's front ends use (if.then / if.else /
// if.end, while.cond / while.body / while.end, for.cond / for.body /
// for.step / for.end, do.body / do.cond / do.end); conditions branch
// directly (short-circuit && and || and Python comparison chains never
// materialise a bool unless a value is needed). Code after a return,
// break or continue in the same block is unreachable and not lowered.
//
// SSA: Braun, Buchwald, Hack, Leißa, Mallon and Zwinkau, "Simple and
// Efficient Construction of Static Single Assignment Form" (CC 2013). A
// block is sealed once all its predecessors are known; reading a variable
// in an unsealed block makes an operandless phi that sealing completes;
// trivial phis are removed as they appear. Values carry the names of the
// variables they are assigned to ("acc", "acc.1", ...), so -O0 output reads
// like the source.
//
// Source locations: the lowering keeps a current DebugLoc, the position of
// the innermost HIR node being lowered (an expression's operator or callee,
// an assignment's operator, a statement's keyword), and stamps it on every
// instruction it creates; phis take the position of the statement that
// created their block. Positions are looked up once per distinct SMLoc.
//
// Buffer access (`readonly` / `writeonly` parameters): a pass over the HIR
// before lowering records, per function and buffer parameter, whether the
// function reads or writes through it, directly (loads, stores, atomics)
// or through the device functions it passes it to (memoised; Sema rejected
// recursion, so the call graph is acyclic).
//
//===----------------------------------------------------------------------===//
#include "wave/HIR/Lowering.h"

#include "SemaInternal.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/ErrorHandling.h"

#include <bit>
#include <cmath>
#include <deque>

using namespace wave;
using namespace wave::hir;
using llvm::cast;
using llvm::dyn_cast;
using llvm::isa;
using mir::BasicBlock;
using mir::CmpPred;
using mir::Instruction;
using mir::Opcode;
using mir::Value;
using MT = mir::Type;

namespace {

MT mirType(Scalar S) {
  switch (S) {
  case Scalar::Bool:
    return MT::I1;
  case Scalar::I32:
    return MT::I32;
  case Scalar::U32:
    return MT::U32;
  case Scalar::F16:
    return MT::F16;
  case Scalar::F32:
    return MT::F32;
  case Scalar::F64:
    return MT::F64;
  }
  llvm_unreachable("bad scalar");
}

MT mirType(const Type &T) {
  if (T.K == Type::Buffer)
    return MT::PtrDevice;
  if (T.K == Type::Shared)
    return MT::PtrLocal;
  if (T.isVoid())
    return MT::Void;
  // Sema settles literals; an unsettled one (never expected) reads as the
  // default types.
  if (T.K == Type::IntLiteral)
    return MT::I32;
  if (T.K == Type::FloatLiteral)
    return MT::F32;
  return mirType(T.Elem);
}

/// The scalar of an expression's type (literals as their defaults).
Scalar scalarOf(const Type &T) {
  if (T.K == Type::IntLiteral)
    return Scalar::I32;
  if (T.K == Type::FloatLiteral)
    return Scalar::F32;
  return T.Elem;
}

/// The bits of \p V rounded to the float type \p S.
uint64_t floatBits(double V, Scalar S) {
  if (S == Scalar::F64)
    return std::bit_cast<uint64_t>(V);
  llvm::APFloat F(V);
  bool LosesInfo;
  F.convert(S == Scalar::F16 ? llvm::APFloat::IEEEhalf()
                             : llvm::APFloat::IEEEsingle(),
            llvm::APFloat::rmNearestTiesToEven, &LosesInfo);
  return F.bitcastToAPInt().getZExtValue();
}

/// Byte-offset shift of an element of \p S (2, 4 or 8 bytes).
unsigned elementShift(Scalar S) {
  unsigned Bytes = scalarBytes(S);
  return Bytes == 2 ? 1 : Bytes == 8 ? 3 : 2;
}

/// Maps SMLocs to MIR DebugLocs (line, column, 1-based) through the
/// SourceMgr, whose line-offset table makes each lookup logarithmic. (A
/// DenseMap cache keyed by the position's pointer cost 84% of wave-fe's
/// time on 400,000-line inputs: nearby pointers collide in its hash.)
class LocMapper {
public:
  explicit LocMapper(const llvm::SourceMgr *SM) : SM(SM) {}
  Instruction::DebugLoc get(llvm::SMLoc L) {
    if (!SM || !L.isValid())
      return {};
    auto [Line, Col] = SM->getLineAndColumn(L);
    return {Line, Col};
  }

private:
  const llvm::SourceMgr *SM;
};

/// Bits of a buffer parameter's access (BufferAccess).
enum : uint8_t { AccessRead = 1, AccessWrite = 2 };

/// How each function accesses its buffer parameters: one mask per
/// parameter (0 for scalars).
class BufferAccess {
public:
  const llvm::SmallVector<uint8_t, 8> &of(const FunctionDecl &F) {
    auto It = Memo.find(&F);
    if (It != Memo.end())
      return It->second;
    llvm::SmallVector<uint8_t, 8> Mask(F.Params.size(), 0);
    if (F.isDeclaration() || !F.Body) {
      // Another object defines it: a writable buffer may be read and
      // written there.
      for (size_t I = 0; I < F.Params.size(); ++I)
        if (F.Params[I].Ty.K == Type::Buffer)
          Mask[I] = F.Params[I].Ty.ReadOnly ? AccessRead
                                             : AccessRead | AccessWrite;
      return Memo[&F] = std::move(Mask);
    }
    auto Index = [&](const Expr *Base) -> int {
      const auto *N = dyn_cast<NameExpr>(Base);
      if (!N || !N->Parm)
        return -1;
      return int(N->Parm - F.Params.data());
    };
    // Element targets of plain assignments: written, not read.
    llvm::SmallPtrSet<const Expr *, 8> StoreOnly;
    forEachNode(
        *F.Body,
        [&](const Stmt &S) {
          const auto *A = dyn_cast<AssignStmt>(&S);
          if (!A)
            return;
          const auto *X = dyn_cast<IndexExpr>(A->Target.get());
          if (!X)
            return;
          int P = Index(X->Base.get());
          if (P < 0)
            return;
          Mask[P] |= AccessWrite;
          if (!A->Op)
            StoreOnly.insert(X);
        },
        [&](const Expr &E) {
          if (const auto *X = dyn_cast<IndexExpr>(&E)) {
            int P = Index(X->Base.get());
            if (P >= 0 && !StoreOnly.contains(X))
              Mask[P] |= AccessRead;
            return;
          }
          const auto *C = dyn_cast<CallExpr>(&E);
          if (!C)
            return;
          if (C->Intrinsic != IntrinsicId::None) {
            IntrinsicKind K = intrinsicKind(C->Intrinsic);
            if ((K == IntrinsicKind::Atomic ||
                 K == IntrinsicKind::AtomicCas) &&
                !C->Args.empty()) {
              int P = Index(C->Args[0].get());
              if (P >= 0)
                Mask[P] |= AccessRead | AccessWrite;
            }
            return;
          }
          if (!C->Target)
            return;
          // Copy: of() may grow Memo and move the callee's vector.
          llvm::SmallVector<uint8_t, 8> Callee = of(*C->Target);
          for (size_t I = 0; I < C->Args.size() && I < Callee.size(); ++I) {
            int P = Index(C->Args[I].get());
            if (P >= 0)
              Mask[P] |= Callee[I];
          }
        });
    return Memo[&F] = std::move(Mask);
  }

private:
  llvm::DenseMap<const FunctionDecl *, llvm::SmallVector<uint8_t, 8>> Memo;
};

struct LoopTargets {
  BasicBlock *Break;
  BasicBlock *Continue;
};

class FunctionLowering {
public:
  FunctionLowering(
      const FunctionDecl &D, mir::Function &F,
      const llvm::DenseMap<const FunctionDecl *, mir::Function *> &Funcs,
      Language Lang, LocMapper &Locs)
      : D(D), F(F), Funcs(Funcs), Lang(Lang), Locs(Locs) {}

  void run();

private:
  using VarKey = const void *;

  // --- Blocks and instructions -----------------------------------------------
  BasicBlock *newBlock(llvm::StringRef Name) {
    BasicBlock *BB = F.addBlock(uniqueName(BlockNames, Name));
    BlockLoc[BB] = CurLoc;
    return BB;
  }
  /// Makes \p L the position of the instructions created until the
  /// returned guard goes out of scope (an unset \p L keeps the current
  /// one).
  class LocScope {
  public:
    LocScope(FunctionLowering &FL, llvm::SMLoc L)
        : FL(FL), Saved(FL.CurLoc) {
      if (Instruction::DebugLoc DL = FL.Locs.get(L))
        FL.CurLoc = DL;
    }
    ~LocScope() { FL.CurLoc = Saved; }
    LocScope(const LocScope &) = delete;
    LocScope &operator=(const LocScope &) = delete;

  private:
    FunctionLowering &FL;
    Instruction::DebugLoc Saved;
  };
  /// Makes \p BB the insertion point, or none if it is sealed and nothing
  /// branches to it (it is then unreachable and erased at the end).
  void setCur(BasicBlock *BB) {
    Cur = (Preds[BB].empty() && BB != F.entry() && Sealed.contains(BB))
              ? nullptr
              : BB;
  }
  Instruction *emit(Opcode Op, MT Ty, llvm::ArrayRef<Value *> Ops) {
    auto I = Instruction::create(Op, Ty);
    for (Value *V : Ops)
      I->addOperand(V);
    I->setDebugLoc(CurLoc);
    return Cur->append(std::move(I));
  }
  Value *constant(MT Ty, uint64_t Bits) { return F.constant(Ty, Bits); }
  Value *zero(MT Ty) { return F.constant(Ty, 0); }
  void br(BasicBlock *T) {
    Instruction *I = emit(Opcode::Br, MT::Void, {});
    I->addBlock(T);
    Preds[T].push_back(Cur);
    Cur = nullptr;
  }
  void condBr(Value *C, BasicBlock *T, BasicBlock *E) {
    assert(T != E && "a condbr needs two different successors");
    Instruction *I = emit(Opcode::CondBr, MT::Void, {C});
    I->addBlock(T);
    I->addBlock(E);
    Preds[T].push_back(Cur);
    Preds[E].push_back(Cur);
    Cur = nullptr;
  }

  // --- SSA construction (Braun et al. 2013) ------------------------------------
  void writeVar(VarKey K, BasicBlock *BB, Value *V) {
    CurrentDef[BB][K] = V;
  }
  /// Records that \p V is a value of variable \p K; finish() names it
  /// after the variable if it survives and has no name yet.
  void nameAfter(VarKey K, Value *V) {
    if (auto *I = dyn_cast<Instruction>(V))
      VarOf.try_emplace(I, K);
  }
  void assign(VarKey K, Value *V) {
    nameAfter(K, V);
    writeVar(K, Cur, V);
  }
  Value *resolve(Value *V) const {
    for (auto It = Replaced.find(V); It != Replaced.end();
         It = Replaced.find(V))
      V = It->second;
    return V;
  }
  Value *readVar(VarKey K, BasicBlock *BB) {
    auto &Defs = CurrentDef[BB];
    auto It = Defs.find(K);
    if (It != Defs.end())
      return resolve(It->second);
    return readVarRecursive(K, BB);
  }
  Instruction *newPhi(VarKey K, BasicBlock *BB) {
    Instruction *P =
        BB->insert(BB->begin(), Instruction::create(Opcode::Phi, Vars[K].Ty));
    P->setDebugLoc(BlockLoc.lookup(BB));
    VarOf[P] = K;
    return P;
  }
  Value *readVarRecursive(VarKey K, BasicBlock *BB) {
    Value *V;
    auto &P = Preds[BB];
    if (!Sealed.contains(BB)) {
      Instruction *Phi = newPhi(K, BB);
      Incomplete[BB].push_back({K, Phi});
      V = Phi;
    } else if (P.size() == 1) {
      V = readVar(K, P[0]);
    } else if (P.empty()) {
      // The entry block, or a variable read before any assignment: 0, as
      // MIR's private slots read (formats/mir.md, "Private variables").
      V = zero(Vars[K].Ty);
    } else {
      Instruction *Phi = newPhi(K, BB);
      writeVar(K, BB, Phi); // Breaks cycles through loops.
      V = addPhiOperands(K, Phi);
    }
    writeVar(K, BB, V);
    return V;
  }
  Value *addPhiOperands(VarKey K, Instruction *Phi) {
    BasicBlock *BB = Phi->parent();
    for (BasicBlock *P : Preds[BB])
      Phi->addIncoming(readVar(K, P), P);
    return tryRemoveTrivialPhi(Phi);
  }
  Value *tryRemoveTrivialPhi(Instruction *Phi) {
    Value *Same = nullptr;
    for (Value *Op : Phi->operands()) {
      if (Op == Same || Op == Phi)
        continue;
      if (Same)
        return Phi; // Merges at least two values: not trivial.
      Same = Op;
    }
    if (!Same)
      Same = zero(Phi->type()); // Unreachable, or read before written.
    llvm::SmallVector<Instruction *, 4> PhiUsers;
    for (const mir::Use &U : Phi->uses())
      if (U.User != Phi && U.User->isPhi() && U.User->parent() &&
          Sealed.contains(U.User->parent()))
        PhiUsers.push_back(U.User);
    Phi->replaceAllUsesWith(Same);
    Phi->dropAllOperands();
    Replaced[Phi] = Same;
    VarOf.erase(Phi);
    Graveyard.push_back(Phi->parent()->remove(Phi));
    for (Instruction *U : PhiUsers)
      if (U->parent()) // Not removed meanwhile.
        tryRemoveTrivialPhi(U);
    return resolve(Same);
  }
  void seal(BasicBlock *BB) {
    if (!Sealed.insert(BB).second)
      return;
    auto Pending = std::move(Incomplete[BB]);
    for (auto &[K, Phi] : Pending)
      addPhiOperands(K, Phi);
  }

  // --- Names -----------------------------------------------------------------------
  static std::string uniqueName(llvm::StringMap<unsigned> &Used,
                                llvm::StringRef Base) {
    unsigned &N = Used[Base];
    std::string Name = N == 0 ? Base.str() : (Base + "." + llvm::Twine(N)).str();
    ++N;
    // "x.1" could be a source name in no kernel language, so no clash.
    return Name;
  }
  void declareVar(VarKey K, const Type &T, llvm::StringRef Name) {
    Vars[K] = {mirType(T), Name.str()};
  }

  // --- Structs (scalarised: one variable per leaf) ---------------------------
  using Values = llvm::SmallVector<Value *, 4>;
  using Keys = llvm::SmallVector<VarKey, 4>;
  /// The variable of leaf \p Leaf of the struct variable or parameter
  /// \p Owner (a key of its own, made on first use).
  VarKey leafKey(const void *Owner, unsigned Leaf) {
    VarKey &K = LeafKeys[{Owner, Leaf}];
    if (!K)
      K = &KeyStore.emplace_back();
    return K;
  }
  /// Declares the leaf variables of \p Owner, a value of struct \p S
  /// named \p Name ("v.x", "v.y", ...), and returns their keys.
  Keys declareStruct(const void *Owner, const StructDecl &S,
                     llvm::StringRef Name) {
    std::vector<std::pair<Scalar, std::string>> Leaves;
    S.leaves(Leaves);
    Keys K;
    for (unsigned I = 0; I < Leaves.size(); ++I) {
      K.push_back(leafKey(Owner, I));
      declareVar(K.back(), Type::scalar(Leaves[I].first),
                 (Name + "." + Leaves[I].second).str());
    }
    return K;
  }
  /// The variables of a place (a variable or parameter, or a field of one,
  /// scalar or struct) in \p Out; false when \p E is no place.
  bool placeKeys(const Expr &E, Keys &Out);
  /// The leaf values of a struct-typed expression.
  Values emitStruct(const Expr &E);
  /// Inlines the call \p C of a function that FunctionDecl::isInlined():
  /// its result's leaves (one value for a scalar, none for void).
  Values inlineCall(const CallExpr &C);
  /// A function being inlined: where its returns go and what its
  /// by-reference parameters (and struct parameters) refer to.
  struct InlineFrame {
    const FunctionDecl *Fn;
    BasicBlock *Exit;
    Keys Ret;
    llvm::DenseMap<const Param *, Keys> Alias;
  };
  std::vector<InlineFrame> Frames;
  /// What the by-reference parameter \p P of a function being inlined
  /// refers to, or null when it is a variable of its own.
  const Keys *aliasOf(const Param *P) const {
    for (auto It = Frames.rbegin(); It != Frames.rend(); ++It)
      if (auto A = It->Alias.find(P); A != It->Alias.end())
        return &A->second;
    return nullptr;
  }
  /// The variable a scalar name reads and assigns: its own, or the
  /// caller's one a by-reference parameter refers to.
  VarKey nameKey(const NameExpr &N) const {
    if (N.Parm)
      if (const Keys *A = aliasOf(N.Parm); A && A->size() == 1)
        return A->front();
    return N.Var ? static_cast<VarKey>(N.Var) : N.Parm;
  }
  llvm::DenseMap<std::pair<const void *, unsigned>, VarKey> LeafKeys;
  std::deque<char> KeyStore;

  // --- Conversions ---------------------------------------------------------------
  Value *convert(Value *V, Scalar From, Scalar To);
  Value *cvt(Value *V, MT From, MT To) {
    Instruction *I = emit(Opcode::Cvt, To, {V});
    I->setAuxType(From);
    return I;
  }
  Value *widenF16(Value *V) { return cvt(V, MT::F16, MT::F32); }

  // --- Expressions -------------------------------------------------------------------
  Value *emitExpr(const Expr &E);
  Value *emitLiteral(const Expr &E, Scalar S);
  Value *emitBinary(BinaryOp Op, Scalar S, Value *L, Value *R);
  Value *emitCompare(BinaryOp Op, Scalar S, Value *L, Value *R);
  /// An f32 `fcmp` of \p L and \p R.
  Value *fcmp32(CmpPred P, Value *L, Value *R);
  /// `L P R` on f64, which WAVE has no comparison for (formats/isa.md
  /// §2.8): built from dsub, dmul, cvt_f32_f64 and fcmp.
  Value *emitCompareF64(CmpPred P, Value *L, Value *R);
  /// min or max of two f64 values with the NaN rule of fmin and fmax.
  Value *emitMinMaxF64(bool IsMin, Value *A, Value *B);
  Value *emitUnary(const UnaryExpr &U);
  Value *emitCall(const CallExpr &C);
  Value *emitIntrinsic(const CallExpr &C);
  Value *emitFloatUnary(Opcode Op, Scalar S, Value *X);
  /// Evaluates a bool expression into a branch to \p T or \p E.
  void emitCond(const Expr &Cond, BasicBlock *T, BasicBlock *E);
  /// The value of `Cond ? Then() : Else()` of type \p Ty: branches on
  /// \p Cond through emitCond to blocks PREFIX.true / PREFIX.false, each
  /// computing its arm, merged by a phi in PREFIX.end.
  Value *emitBranchValue(const Expr &Cond, MT Ty, llvm::StringRef Prefix,
                         llvm::function_ref<Value *()> Then,
                         llvm::function_ref<Value *()> Else);
  /// A bool value of a short-circuit expression (through emitCond).
  Value *emitBoolValue(const Expr &E);
  /// The address of element \p Index of the buffer or shared array
  /// \p Base, and the element type.
  std::pair<Value *, Scalar> emitAddress(const NameExpr &Base,
                                         const Expr &Index);
  std::pair<Value *, Scalar> emitAddress(const IndexExpr &X) {
    return emitAddress(cast<NameExpr>(*X.Base), *X.Index);
  }
  Value *load(Value *Ptr, Scalar S);
  void store(Value *V, Value *Ptr, Scalar S);

  // --- Statements ----------------------------------------------------------------------
  void lowerStmt(const Stmt &S);
  void lowerBlock(const BlockStmt &B) {
    for (const StmtPtr &S : B.Body) {
      if (!Cur)
        return; // The rest of the block is unreachable.
      lowerStmt(*S);
    }
  }
  void lowerAssign(const AssignStmt &A);
  void lowerIf(const IfStmt &I);
  void lowerLoop(const Stmt &S);
  void lowerForRange(const ForRangeStmt &F);
  void finish();

  const FunctionDecl &D;
  mir::Function &F;
  const llvm::DenseMap<const FunctionDecl *, mir::Function *> &Funcs;
  Language Lang;
  LocMapper &Locs;
  BasicBlock *Cur = nullptr;
  /// The position stamped on new instructions (LocScope).
  Instruction::DebugLoc CurLoc;
  /// The position current when each block was made (for its phis).
  llvm::DenseMap<BasicBlock *, Instruction::DebugLoc> BlockLoc;

  struct VarInfo {
    MT Ty;
    std::string Name;
  };
  llvm::DenseMap<VarKey, VarInfo> Vars;
  llvm::DenseMap<BasicBlock *, llvm::DenseMap<VarKey, Value *>> CurrentDef;
  llvm::DenseMap<BasicBlock *,
                 llvm::SmallVector<std::pair<VarKey, Instruction *>, 4>>
      Incomplete;
  llvm::DenseSet<BasicBlock *> Sealed;
  llvm::DenseMap<BasicBlock *, llvm::SmallVector<BasicBlock *, 2>> Preds;
  llvm::DenseMap<Value *, Value *> Replaced;
  /// The variable each instruction computes a value of (for its name).
  llvm::DenseMap<Instruction *, VarKey> VarOf;
  std::vector<std::unique_ptr<Instruction>> Graveyard;
  std::vector<LoopTargets> Loops;
  llvm::StringMap<unsigned> ValueNames, BlockNames;
};

//===----------------------------------------------------------------------===//
// Conversions (formats/isa.md §2.9: cvt pairs go through f32)
//===----------------------------------------------------------------------===//

Value *FunctionLowering::convert(Value *V, Scalar From, Scalar To) {
  if (From == To)
    return V;
  if (To == Scalar::Bool) {
    if (isIntegerScalar(From)) {
      Instruction *I = emit(Opcode::ICmp, MT::I1, {V, zero(mirType(From))});
      I->addImm(unsigned(CmpPred::Ne));
      I->setAuxType(mirType(From));
      return I;
    }
    Value *X = convert(V, From, Scalar::F32);
    Instruction *I = emit(Opcode::FCmp, MT::I1, {X, zero(MT::F32)});
    I->addImm(unsigned(CmpPred::Ne));
    I->setAuxType(MT::F32);
    return I;
  }
  if (From == Scalar::Bool) {
    if (isIntegerScalar(To))
      return cvt(V, MT::I1, mirType(To));
    return convert(cvt(V, MT::I1, MT::U32), Scalar::U32, To);
  }
  if (isIntegerScalar(From) && isIntegerScalar(To)) {
    Instruction *I = emit(Opcode::Bitcast, mirType(To), {V});
    I->setAuxType(mirType(From));
    return I;
  }
  if (isIntegerScalar(From)) // int -> float, through f32.
    return convert(cvt(V, mirType(From), MT::F32), Scalar::F32, To);
  if (From != Scalar::F32) // f16/f64 -> anything, through f32.
    return convert(cvt(V, mirType(From), MT::F32), Scalar::F32, To);
  return cvt(V, MT::F32, mirType(To)); // f32 -> int, f16 or f64.
}

//===----------------------------------------------------------------------===//
// Expressions
//===----------------------------------------------------------------------===//

Value *FunctionLowering::emitLiteral(const Expr &E, Scalar S) {
  bool Neg = false;
  const Expr *L = &E;
  while (const auto *U = dyn_cast<UnaryExpr>(L)) {
    Neg ^= U->Op == UnaryOp::Neg;
    L = U->Operand.get();
  }
  MT Ty = mirType(S);
  if (const auto *I = dyn_cast<IntLitExpr>(L)) {
    if (isFloatScalar(S))
      return constant(Ty, floatBits(Neg ? -double(I->Value) : double(I->Value),
                                    S));
    uint32_t Bits = uint32_t(I->Value);
    return constant(Ty, Neg ? uint32_t(0u - Bits) : Bits);
  }
  const auto *Fl = cast<FloatLitExpr>(L);
  return constant(Ty, floatBits(Neg ? -Fl->Value : Fl->Value, S));
}

/// Whether \p E is a (possibly negated) number literal.
static bool isLiteralTree(const Expr &E) {
  if (const auto *U = dyn_cast<UnaryExpr>(&E))
    return (U->Op == UnaryOp::Neg || U->Op == UnaryOp::Plus) &&
           isLiteralTree(*U->Operand);
  return isa<IntLitExpr>(E) || isa<FloatLitExpr>(E);
}

Value *FunctionLowering::emitFloatUnary(Opcode Op, Scalar S, Value *X) {
  if (S == Scalar::F16)
    return cvt(emit(Op, MT::F32, {widenF16(X)}), MT::F32, MT::F16);
  return emit(Op, mirType(S), {X});
}

Value *FunctionLowering::emitBinary(BinaryOp Op, Scalar S, Value *L,
                                    Value *R) {
  MT Ty = mirType(S);
  if (S == Scalar::Bool) {
    Opcode O = Op == BinaryOp::BitAnd   ? Opcode::And
               : Op == BinaryOp::BitOr ? Opcode::Or
                                       : Opcode::Xor;
    return emit(O, MT::I1, {L, R});
  }
  if (isIntegerScalar(S)) {
    bool Signed = S == Scalar::I32;
    Opcode O;
    switch (Op) {
    case BinaryOp::Add:
      O = Opcode::Add;
      break;
    case BinaryOp::Sub:
      O = Opcode::Sub;
      break;
    case BinaryOp::Mul:
      O = Opcode::Mul;
      break;
    case BinaryOp::Div:
    case BinaryOp::FloorDiv:
      O = Opcode::Div;
      break;
    case BinaryOp::Rem:
      O = Opcode::Rem;
      break;
    case BinaryOp::Shl:
      O = Opcode::Shl;
      break;
    case BinaryOp::Shr:
      O = Signed ? Opcode::AShr : Opcode::LShr;
      break;
    case BinaryOp::LShr:
      O = Opcode::LShr;
      break;
    case BinaryOp::BitAnd:
      O = Opcode::And;
      break;
    case BinaryOp::BitOr:
      O = Opcode::Or;
      break;
    case BinaryOp::BitXor:
      O = Opcode::Xor;
      break;
    default:
      llvm_unreachable("not an arithmetic operator");
    }
    return emit(O, Ty, {L, R});
  }
  // Floats. f16 has add, sub, mul and fma natively (formats/isa.md §2.5); the
  // rest is done in f32 and rounded back.
  bool Native = Op == BinaryOp::Add || Op == BinaryOp::Sub ||
                Op == BinaryOp::Mul || S != Scalar::F16;
  if (!Native) {
    Value *W = emitBinary(Op, Scalar::F32, widenF16(L), widenF16(R));
    return cvt(W, MT::F32, MT::F16);
  }
  switch (Op) {
  case BinaryOp::Add:
    return emit(Opcode::FAdd, Ty, {L, R});
  case BinaryOp::Sub:
    return emit(Opcode::FSub, Ty, {L, R});
  case BinaryOp::Mul:
    return emit(Opcode::FMul, Ty, {L, R});
  case BinaryOp::Div:
    return emit(Opcode::FDiv, Ty, {L, R});
  case BinaryOp::FloorDiv:
    return emit(Opcode::FFloor, Ty, {emit(Opcode::FDiv, Ty, {L, R})});
  case BinaryOp::Rem: {
    // L - R * trunc(L / R) (C, Rust, JavaScript); Python floors instead.
    Opcode Round = Lang == Language::Python ? Opcode::FFloor : Opcode::FTrunc;
    Value *Q = emit(Round, Ty, {emit(Opcode::FDiv, Ty, {L, R})});
    return emit(Opcode::FSub, Ty, {L, emit(Opcode::FMul, Ty, {R, Q})});
  }
  default:
    llvm_unreachable("not a float operator");
  }
}

Value *FunctionLowering::fcmp32(CmpPred P, Value *L, Value *R) {
  Instruction *I = emit(Opcode::FCmp, MT::I1, {L, R});
  I->addImm(unsigned(P));
  I->setAuxType(MT::F32);
  return I;
}

Value *FunctionLowering::emitCompareF64(CmpPred P, Value *L, Value *R) {
  // d = L - R is zero exactly when L == R, and has the sign of L - R
  // (IEEE subtraction with subnormals), for finite operands. Scaled by
  // 2^1000, even the smallest nonzero d (2^-1074) stays nonzero in f32, and
  // a large one becomes an infinity of the same sign, so comparing
  // f32(d * 2^1000) with 0 gives the f64 answer; a NaN operand gives a NaN,
  // which compares unordered as it should.
  Value *D = emit(Opcode::FSub, MT::F64, {L, R});
  Value *Scaled = emit(Opcode::FMul, MT::F64,
                       {D, constant(MT::F64, 0x7E70000000000000ULL)});
  Value *S = cvt(Scaled, MT::F64, MT::F32);
  Value *Res = fcmp32(P, S, constant(MT::F32, 0));
  if (P == CmpPred::Lt || P == CmpPred::Gt)
    return Res;
  // Equal infinities subtract to NaN: d is unordered while both operands
  // are ordered (a NaN stays a NaN through cvt).
  Value *Inf = emit(Opcode::And, MT::I1,
                    {fcmp32(CmpPred::Unord, S, S),
                     fcmp32(CmpPred::Ord, cvt(L, MT::F64, MT::F32),
                            cvt(R, MT::F64, MT::F32))});
  if (P == CmpPred::Ne)
    return emit(Opcode::And, MT::I1, {Res, emit(Opcode::Not, MT::I1, {Inf})});
  return emit(Opcode::Or, MT::I1, {Res, Inf});
}

Value *FunctionLowering::emitMinMaxF64(bool IsMin, Value *A, Value *B) {
  // fmin's and fmax's rule (formats/isa.md §4.7) on f64: B when A is a
  // NaN, or when B is strictly below (above) A; otherwise A.
  Value *A32 = cvt(A, MT::F64, MT::F32);
  Value *NaN = fcmp32(CmpPred::Unord, A32, A32);
  Value *Beyond = emitCompareF64(IsMin ? CmpPred::Lt : CmpPred::Gt, B, A);
  Value *TakeB = emit(Opcode::Or, MT::I1, {NaN, Beyond});
  return emit(Opcode::Select, MT::F64, {TakeB, B, A});
}

Value *FunctionLowering::emitCompare(BinaryOp Op, Scalar S, Value *L,
                                     Value *R) {
  CmpPred P;
  switch (Op) {
  case BinaryOp::Eq:
    P = CmpPred::Eq;
    break;
  case BinaryOp::Ne:
    P = CmpPred::Ne;
    break;
  case BinaryOp::Lt:
    P = CmpPred::Lt;
    break;
  case BinaryOp::Le:
    P = CmpPred::Le;
    break;
  case BinaryOp::Gt:
    P = CmpPred::Gt;
    break;
  case BinaryOp::Ge:
    P = CmpPred::Ge;
    break;
  default:
    llvm_unreachable("not a comparison");
  }
  if (S == Scalar::Bool) {
    Value *X = emit(Opcode::Xor, MT::I1, {L, R});
    return P == CmpPred::Ne ? X : emit(Opcode::Not, MT::I1, {X});
  }
  if (S == Scalar::F16) {
    L = widenF16(L);
    R = widenF16(R);
    S = Scalar::F32;
  }
  if (S == Scalar::F64)
    return emitCompareF64(P, L, R);
  bool Int = isIntegerScalar(S);
  Instruction *I =
      emit(Int ? Opcode::ICmp : Opcode::FCmp, MT::I1, {L, R});
  I->addImm(unsigned(P));
  I->setAuxType(mirType(S));
  return I;
}

Value *FunctionLowering::emitUnary(const UnaryExpr &U) {
  Scalar S = scalarOf(U.Operand->Ty);
  UnaryOp Op = U.Op;
  if (Op == UnaryOp::RustNot)
    Op = S == Scalar::Bool ? UnaryOp::LogicalNot : UnaryOp::BitNot;
  if (Op == UnaryOp::LogicalNot)
    return emitBoolValue(U);
  Value *X = emitExpr(*U.Operand);
  switch (Op) {
  case UnaryOp::Plus:
    return X;
  case UnaryOp::BitNot:
    return emit(Opcode::Not, mirType(S), {X});
  case UnaryOp::Neg:
    if (isIntegerScalar(S))
      return emit(Opcode::Neg, mirType(S), {X});
    if (S == Scalar::F64) // WAVE has no f64 negate; -1 * x is exact.
      return emit(Opcode::FMul, MT::F64,
                  {X, constant(MT::F64, floatBits(-1.0, Scalar::F64))});
    return emitFloatUnary(Opcode::FNeg, S, X);
  default:
    llvm_unreachable("handled above");
  }
}

std::pair<Value *, Scalar>
FunctionLowering::emitAddress(const NameExpr &Base, const Expr &Index) {
  Scalar Elem = Base.Ty.Elem;
  Value *Ptr;
  MT PtrTy;
  if (Base.Shared) {
    PtrTy = MT::PtrLocal;
    Ptr = constant(PtrTy, Base.Shared->Offset);
  } else {
    PtrTy = MT::PtrDevice;
    Ptr = readVar(Base.Parm, Cur);
  }
  Value *Idx = emitExpr(Index);
  Idx = convert(Idx, scalarOf(Index.Ty), Scalar::U32);
  Value *Off = emit(Opcode::Shl, MT::U32,
                    {Idx, constant(MT::U32, elementShift(Elem))});
  return {emit(Opcode::PtrAdd, PtrTy, {Ptr, Off}), Elem};
}

Value *FunctionLowering::load(Value *Ptr, Scalar S) {
  Instruction *I = emit(S == Scalar::F16 ? Opcode::LoadU16 : Opcode::Load,
                        mirType(S), {Ptr});
  I->setAuxType(Ptr->type());
  return I;
}

void FunctionLowering::store(Value *V, Value *Ptr, Scalar S) {
  Instruction *I = emit(S == Scalar::F16 ? Opcode::StoreU16 : Opcode::Store,
                        MT::Void, {V, Ptr});
  I->setAuxType(Ptr->type());
}

Value *FunctionLowering::emitBranchValue(
    const Expr &Cond, MT Ty, llvm::StringRef Prefix,
    llvm::function_ref<Value *()> Then, llvm::function_ref<Value *()> Else) {
  BasicBlock *T = newBlock((Prefix + ".true").str()),
             *Fa = newBlock((Prefix + ".false").str()),
             *End = newBlock((Prefix + ".end").str());
  emitCond(Cond, T, Fa);
  seal(T);
  seal(Fa);
  llvm::SmallVector<std::pair<Value *, BasicBlock *>, 2> In;
  for (auto [BB, Arm] : {std::pair{T, Then}, {Fa, Else}}) {
    setCur(BB);
    if (!Cur)
      continue; // A constant condition never takes this arm.
    Value *V = Arm();
    In.push_back({V, Cur});
    br(End);
  }
  seal(End);
  setCur(End);
  auto Phi = Instruction::create(Opcode::Phi, Ty);
  Phi->setDebugLoc(CurLoc);
  for (auto [V, BB] : In)
    Phi->addIncoming(V, BB);
  return End->insert(End->begin(), std::move(Phi));
}

Value *FunctionLowering::emitBoolValue(const Expr &E) {
  return emitBranchValue(
      E, MT::I1, "bool", [&] { return constant(MT::I1, 1); },
      [&] { return constant(MT::I1, 0); });
}

void FunctionLowering::emitCond(const Expr &Cond, BasicBlock *T,
                                BasicBlock *E) {
  // A constant left operand of && or || can make the right one
  // unreachable: nothing to evaluate there.
  if (!Cur)
    return;
  if (const auto *B = dyn_cast<BinaryExpr>(&Cond)) {
    if (B->Op == BinaryOp::LogicalAnd || B->Op == BinaryOp::LogicalOr) {
      bool And = B->Op == BinaryOp::LogicalAnd;
      BasicBlock *Mid = newBlock(And ? "and.rhs" : "or.rhs");
      emitCond(*B->LHS, And ? Mid : T, And ? E : Mid);
      seal(Mid);
      setCur(Mid);
      emitCond(*B->RHS, T, E);
      return;
    }
  }
  if (const auto *U = dyn_cast<UnaryExpr>(&Cond)) {
    if (U->Op == UnaryOp::LogicalNot ||
        (U->Op == UnaryOp::RustNot && U->Operand->Ty.isBool())) {
      emitCond(*U->Operand, E, T);
      return;
    }
  }
  if (const auto *B = dyn_cast<BoolLitExpr>(&Cond)) {
    br(B->Value ? T : E);
    return;
  }
  if (const auto *C = dyn_cast<CompareChainExpr>(&Cond)) {
    Value *L = emitExpr(*C->Operands[0]);
    for (size_t I = 0; I < C->Ops.size(); ++I) {
      Scalar S = C->OperandTys[I].Elem;
      Value *R = emitExpr(*C->Operands[I + 1]);
      Value *Cmp = emitCompare(
          C->Ops[I], S, convert(L, scalarOf(C->Operands[I]->Ty), S),
          convert(R, scalarOf(C->Operands[I + 1]->Ty), S));
      if (I + 1 == C->Ops.size()) {
        condBr(Cmp, T, E);
        return;
      }
      BasicBlock *Next = newBlock("chain.next");
      condBr(Cmp, Next, E);
      seal(Next);
      setCur(Next);
      L = R;
    }
    return;
  }
  condBr(emitExpr(Cond), T, E);
}

Value *FunctionLowering::emitExpr(const Expr &E) {
  LocScope L(*this, E.loc());
  switch (E.kind()) {
  case Expr::Kind::IntLit:
  case Expr::Kind::FloatLit:
    return emitLiteral(E, scalarOf(E.Ty));
  case Expr::Kind::BoolLit:
    return constant(MT::I1, cast<BoolLitExpr>(E).Value);
  case Expr::Kind::Name: {
    const auto &N = cast<NameExpr>(E);
    if (N.Shared)
      return constant(MT::PtrLocal, N.Shared->Offset);
    return readVar(nameKey(N), Cur);
  }
  case Expr::Kind::Unary:
    if (isLiteralTree(E))
      return emitLiteral(E, scalarOf(E.Ty));
    return emitUnary(cast<UnaryExpr>(E));
  case Expr::Kind::Binary: {
    const auto &B = cast<BinaryExpr>(E);
    if (B.Op == BinaryOp::LogicalAnd || B.Op == BinaryOp::LogicalOr)
      return emitBoolValue(E);
    Scalar S = scalarOf(B.OperandTy);
    Value *L = emitExpr(*B.LHS);
    Value *R = emitExpr(*B.RHS);
    if (isComparison(B.Op))
      return emitCompare(B.Op, S, L, R);
    return emitBinary(B.Op, S, L, R);
  }
  case Expr::Kind::CompareChain:
    return emitBoolValue(E);
  case Expr::Kind::Conditional: {
    const auto &C = cast<ConditionalExpr>(E);
    return emitBranchValue(
        *C.Cond, mirType(E.Ty), "cond", [&] { return emitExpr(*C.Then); },
        [&] { return emitExpr(*C.Else); });
  }
  case Expr::Kind::Call:
    return emitCall(cast<CallExpr>(E));
  case Expr::Kind::Index: {
    auto [Ptr, S] = emitAddress(cast<IndexExpr>(E));
    return load(Ptr, S);
  }
  case Expr::Kind::Cast: {
    const auto &C = cast<CastExpr>(E);
    // An integer literal keeps its bits from i32 to u32 and back; every
    // other conversion of a constant is left to SCCP, which rounds exactly
    // as the cvt would (a literal typed f32 is already rounded to f32).
    if (isLiteralTree(*C.Operand) &&
        isIntegerScalar(scalarOf(C.Operand->Ty)) && isIntegerScalar(C.To))
      return emitLiteral(*C.Operand, C.To);
    Value *V = emitExpr(*C.Operand);
    return convert(V, scalarOf(C.Operand->Ty), C.To);
  }
  case Expr::Kind::StructLit:
    llvm_unreachable("a struct is no scalar (emitStruct)");
  case Expr::Kind::Member: {
    // A scalar field: its variable, or its leaf of a struct value.
    const auto &Mem = cast<MemberExpr>(E);
    Keys K;
    if (placeKeys(Mem, K))
      return readVar(K[0], Cur);
    const StructDecl &S = *Mem.Base->Ty.Decl;
    return emitStruct(*Mem.Base)[S.leafOffset(Mem.Field)];
  }
  }
  llvm_unreachable("bad expression kind");
}

Value *FunctionLowering::emitCall(const CallExpr &C) {
  if (C.Intrinsic != IntrinsicId::None)
    return emitIntrinsic(C);
  if (C.Target->isInlined()) {
    Values V = inlineCall(C);
    return V.empty() ? nullptr : V[0];
  }
  mir::Function *Callee = Funcs.lookup(C.Target);
  auto I = Instruction::create(Opcode::Call, mirType(C.Target->ReturnTy));
  for (const ExprPtr &A : C.Args)
    I->addOperand(emitExpr(*A));
  I->setCallee(Callee);
  I->setDebugLoc(CurLoc);
  return Cur->append(std::move(I));
}

/// The names of Intrinsics.def's MirOp column: the MIR opcodes, and None.
namespace intrinsic_ops {
using enum mir::Opcode;
inline constexpr std::optional<mir::Opcode> None = std::nullopt;
} // namespace intrinsic_ops

Value *FunctionLowering::emitIntrinsic(const CallExpr &C) {
  static const std::optional<Opcode> MirOps[] = {
      std::nullopt, // IntrinsicId::None
#define WAVE_INTRINSIC(Id, Name, Kind, WavePrefix, MirOp) intrinsic_ops::MirOp,
#include "wave/HIR/Intrinsics.def"
  };
  // Meaningful for the kinds whose row names an opcode.
  Opcode Op = MirOps[unsigned(C.Intrinsic)].value_or(Opcode::Br);
  Scalar S = scalarOf(C.Ty);
  MT Ty = mirType(C.Ty);
  auto Arg = [&](unsigned I) { return emitExpr(*C.Args[I]); };
  auto SReg = [&](llvm::StringRef Base) -> Value * {
    int64_t Dim = 0;
    if (!C.Args.empty())
      if (auto V = Sema::evalConstInt(*C.Args[0]))
        Dim = *V;
    std::string Name = (Base + "_" + llvm::Twine(char('x' + Dim))).str();
    Instruction *I = emit(Opcode::SReg, MT::U32, {});
    I->addImm(*mir::parseSpecialReg(Name));
    return I;
  };
  auto Named = [&](llvm::StringRef Name) -> Value * {
    Instruction *I = emit(Opcode::SReg, MT::U32, {});
    I->addImm(*mir::parseSpecialReg(Name));
    return I;
  };

  switch (C.Intrinsic) {
  case IntrinsicId::ThreadId:
    return SReg("thread_id");
  case IntrinsicId::WorkgroupId:
    return SReg("workgroup_id");
  case IntrinsicId::WorkgroupSize:
    return SReg("workgroup_size");
  case IntrinsicId::GridSize:
    return SReg("grid_size");
  case IntrinsicId::GlobalId: {
    Value *Wg = SReg("workgroup_id"), *Size = SReg("workgroup_size");
    Value *Base = emit(Opcode::Mul, MT::U32, {Wg, Size});
    return emit(Opcode::Add, MT::U32, {Base, SReg("thread_id")});
  }
  case IntrinsicId::LaneId:
    return Named("lane_id");
  case IntrinsicId::WaveWidth:
    return Named("wave_width");
  case IntrinsicId::Barrier:
    emit(Opcode::Barrier, MT::Void, {});
    return nullptr;
  case IntrinsicId::Fence:
    emit(Opcode::FenceAcqRel, MT::Void, {})->addImm(
        unsigned(mir::Scope::Device));
    return nullptr;
  default:
    break;
  }

  switch (intrinsicKind(C.Intrinsic)) {
  case IntrinsicKind::Atomic:
  case IntrinsicKind::AtomicCas: {
    const auto &Base = cast<NameExpr>(*C.Args[0]);
    auto [Ptr, Elem] = emitAddress(Base, *C.Args[1]);
    llvm::SmallVector<Value *, 3> Ops{Ptr, Arg(2)};
    if (C.Args.size() == 4)
      Ops.push_back(Arg(3));
    Instruction *I = emit(Op, mirType(Elem), Ops);
    I->addImm(unsigned(Base.Shared ? mir::Scope::Workgroup
                                   : mir::Scope::Device));
    I->setAuxType(Ptr->type());
    return I;
  }
  case IntrinsicKind::WaveInt:
    return emit(Op, Ty, {Arg(0)});
  case IntrinsicKind::Shuffle:
    return emit(Op, Ty, {Arg(0), Arg(1)});
  case IntrinsicKind::Ballot:
    return emit(Op, MT::U32, {Arg(0)});
  case IntrinsicKind::WaveBool:
    return emit(Op, MT::I1, {Arg(0)});
  case IntrinsicKind::MathUnary: {
    Value *X = Arg(0);
    if (S == Scalar::F64) // Sema allows only sqrt on f64.
      return emit(Opcode::FSqrt, MT::F64, {X});
    if (C.Intrinsic == IntrinsicId::Exp || C.Intrinsic == IntrinsicId::Log) {
      // exp(x) = exp2(x * log2(e)); log(x) = log2(x) * ln(2).
      bool Exp = C.Intrinsic == IntrinsicId::Exp;
      Value *W = S == Scalar::F16 ? widenF16(X) : X;
      Value *K = constant(MT::F32, floatBits(Exp ? M_LOG2E : M_LN2,
                                             Scalar::F32));
      Value *R = Exp ? emit(Opcode::FExp2, MT::F32,
                            {emit(Opcode::FMul, MT::F32, {W, K})})
                     : emit(Opcode::FMul, MT::F32,
                            {emit(Opcode::FLog2, MT::F32, {W}), K});
      return S == Scalar::F16 ? cvt(R, MT::F32, MT::F16) : R;
    }
    return emitFloatUnary(Op, S, X);
  }
  case IntrinsicKind::Abs:
    if (isIntegerScalar(S))
      return emit(Opcode::Abs, Ty, {Arg(0)});
    return emitFloatUnary(Opcode::FAbs, S, Arg(0));
  case IntrinsicKind::MinMax:
  case IntrinsicKind::Clamp: {
    bool IsMin = C.Intrinsic == IntrinsicId::Min;
    bool IsClamp = C.Intrinsic == IntrinsicId::Clamp;
    llvm::SmallVector<Value *, 3> Ops;
    for (unsigned I = 0; I < C.Args.size(); ++I)
      Ops.push_back(Arg(I));
    if (isIntegerScalar(S))
      return emit(IsClamp ? Opcode::Clamp : IsMin ? Opcode::Min : Opcode::Max,
                  Ty, Ops);
    if (S == Scalar::F64) // Sema allows min and max on f64, not clamp.
      return emitMinMaxF64(IsMin, Ops[0], Ops[1]);
    Opcode O = IsClamp ? Opcode::FClamp : IsMin ? Opcode::FMin : Opcode::FMax;
    if (S != Scalar::F16)
      return emit(O, Ty, Ops);
    for (Value *&V : Ops)
      V = widenF16(V);
    return cvt(emit(O, MT::F32, Ops), MT::F32, MT::F16);
  }
  case IntrinsicKind::Fma:
    return emit(Opcode::FMa, Ty, {Arg(0), Arg(1), Arg(2)});
  case IntrinsicKind::MmaLoad:
  case IntrinsicKind::MmaStore: {
    // The tile's element address, and the row stride in bytes (f32
    // elements: formats/isa.md §4.18).
    bool IsLoad = intrinsicKind(C.Intrinsic) == IntrinsicKind::MmaLoad;
    unsigned TileArg = IsLoad ? 1 : 0, FragArg = IsLoad ? 0 : 3;
    auto [Ptr, Elem] =
        emitAddress(cast<NameExpr>(*C.Args[TileArg]), *C.Args[TileArg + 1]);
    Value *Stride = convert(Arg(TileArg + 2), scalarOf(C.Args[TileArg + 2]->Ty),
                            Scalar::U32);
    Value *Bytes = emit(Opcode::Shl, MT::U32,
                        {Stride, constant(MT::U32, elementShift(Elem))});
    emit(Op, MT::Void, {Ptr, Bytes})
        ->addImm(uint64_t(*Sema::evalConstInt(*C.Args[FragArg])));
    return nullptr;
  }
  case IntrinsicKind::MmaCompute: {
    Instruction *I = emit(Op, MT::Void, {});
    for (unsigned K = 0; K < 3; ++K)
      I->addImm(uint64_t(*Sema::evalConstInt(*C.Args[K])));
    return nullptr;
  }
  default:
    llvm_unreachable("handled above");
  }
}

//===----------------------------------------------------------------------===//
// Structs
//===----------------------------------------------------------------------===//

bool FunctionLowering::placeKeys(const Expr &E, Keys &Out) {
  if (const auto *N = dyn_cast<NameExpr>(&E)) {
    if (N->Shared || (!N->Var && !N->Parm))
      return false;
    const Type &T = N->Var ? N->Var->Ty : N->Parm->Ty;
    VarKey Owner = N->Var ? static_cast<VarKey>(N->Var) : N->Parm;
    if (const Keys *A = N->Parm ? aliasOf(N->Parm) : nullptr) {
      Out.append(A->begin(), A->end());
      return true;
    }
    if (!T.isStruct()) {
      Out.push_back(Owner);
      return true;
    }
    for (unsigned I = 0, E = T.Decl->numLeaves(); I < E; ++I)
      Out.push_back(leafKey(Owner, I));
    return true;
  }
  const auto *Mem = dyn_cast<MemberExpr>(&E);
  if (!Mem)
    return false;
  Keys Base;
  if (!placeKeys(*Mem->Base, Base))
    return false;
  const StructDecl &S = *Mem->Base->Ty.Decl;
  const Type &FT = S.Fields[Mem->Field].Ty;
  unsigned First = S.leafOffset(Mem->Field);
  unsigned N = FT.isStruct() ? FT.Decl->numLeaves() : 1;
  Out.append(Base.begin() + First, Base.begin() + First + N);
  return true;
}

FunctionLowering::Values FunctionLowering::emitStruct(const Expr &E) {
  LocScope L(*this, E.loc());
  Values Out;
  Keys K;
  if (placeKeys(E, K)) {
    for (VarKey Key : K)
      Out.push_back(readVar(Key, Cur));
    return Out;
  }
  switch (E.kind()) {
  case Expr::Kind::StructLit: {
    // Evaluated in source order, laid out in field order.
    const auto &Lit = cast<StructLitExpr>(E);
    std::vector<Values> Fields(Lit.Struct->Fields.size());
    for (const StructLitExpr::Init &I : Lit.Inits) {
      if (I.Value->Ty.isStruct())
        Fields[I.Field] = emitStruct(*I.Value);
      else
        Fields[I.Field] = {emitExpr(*I.Value)};
    }
    for (const Values &F : Fields)
      Out.append(F.begin(), F.end());
    return Out;
  }
  case Expr::Kind::Member: {
    const auto &Mem = cast<MemberExpr>(E);
    Values Base = emitStruct(*Mem.Base);
    const StructDecl &S = *Mem.Base->Ty.Decl;
    unsigned First = S.leafOffset(Mem.Field);
    unsigned N = E.Ty.Decl->numLeaves();
    Out.append(Base.begin() + First, Base.begin() + First + N);
    return Out;
  }
  case Expr::Kind::Call:
    return inlineCall(cast<CallExpr>(E));
  case Expr::Kind::Conditional: {
    // Each arm assigns the leaves of a hidden variable; SSA construction
    // merges them in cond.end.
    const auto &C = cast<ConditionalExpr>(E);
    Keys K = declareStruct(&C, *E.Ty.Decl, "cond");
    BasicBlock *T = newBlock("cond.true"), *Fa = newBlock("cond.false"),
               *End = newBlock("cond.end");
    emitCond(*C.Cond, T, Fa);
    seal(T);
    seal(Fa);
    for (auto [BB, Arm] : {std::pair{T, C.Then.get()}, {Fa, C.Else.get()}}) {
      setCur(BB);
      if (!Cur)
        continue; // A constant condition never takes this arm.
      Values V = emitStruct(*Arm);
      for (unsigned I = 0; I < K.size(); ++I)
        assign(K[I], V[I]);
      br(End);
    }
    seal(End);
    Cur = End; // Unreachable when neither arm is: finish() drops it.
    for (VarKey Key : K)
      Out.push_back(readVar(Key, Cur));
    return Out;
  }
  default:
    llvm_unreachable("Sema admits no other struct-valued expression");
  }
}

FunctionLowering::Values FunctionLowering::inlineCall(const CallExpr &C) {
  const FunctionDecl &Fn = *C.Target;
  InlineFrame Fr;
  Fr.Fn = &Fn;
  Fr.Exit = nullptr;
  // Every argument is evaluated before any parameter is bound: an argument
  // may inline another call of Fn, whose parameters are the same variables.
  std::vector<Values> Args(Fn.Params.size());
  for (size_t I = 0; I < Fn.Params.size(); ++I) {
    const Param &P = Fn.Params[I];
    const Expr &A = *C.Args[I];
    Keys K;
    if (P.ByRef && placeKeys(A, K)) {
      // `&self` / `&mut self`, C++ `float& v`, of a place: no copy.
      Fr.Alias[&P] = K;
      continue;
    }
    if (P.Ty.isStruct())
      Args[I] = emitStruct(A);
    else
      Args[I] = {emitExpr(A)};
  }
  for (size_t I = 0; I < Fn.Params.size(); ++I) {
    const Param &P = Fn.Params[I];
    if (Fr.Alias.count(&P))
      continue;
    if (P.Ty.isStruct()) {
      Keys K = declareStruct(&P, *P.Ty.Decl, P.Name);
      for (unsigned J = 0; J < K.size(); ++J)
        assign(K[J], Args[I][J]);
      Fr.Alias[&P] = K;
    } else {
      declareVar(&P, P.Ty, P.Name);
      assign(&P, Args[I][0]);
    }
  }
  llvm::StringRef Name = llvm::StringRef(Fn.Name).rsplit("::").second;
  if (Name.empty())
    Name = Fn.Name;
  if (Fn.ReturnTy.isStruct()) {
    Fr.Ret = declareStruct(&Fn, *Fn.ReturnTy.Decl, Name);
  } else if (!Fn.ReturnTy.isVoid()) {
    Fr.Ret.push_back(leafKey(&Fn, 0));
    declareVar(Fr.Ret[0], Fn.ReturnTy, Name);
  }
  // A body whose only return is its last statement (or that has none)
  // needs no exit block: its end is the call's end.
  unsigned Returns = 0;
  forEachNode(
      *Fn.Body, [&](const Stmt &S) { Returns += isa<ReturnStmt>(S); },
      [](const Expr &) {});
  bool Straight = Returns == 0 || (Returns == 1 && !Fn.Body->Body.empty() &&
                                   isa<ReturnStmt>(*Fn.Body->Body.back()));
  if (!Straight)
    Fr.Exit = newBlock((Name + ".end").str());
  Frames.push_back(std::move(Fr));
  {
    LocScope L(*this, Fn.Loc);
    lowerBlock(*Fn.Body);
    if (Cur && !Straight)
      br(Frames.back().Exit);
  }
  InlineFrame Done = std::move(Frames.back());
  Frames.pop_back();
  if (!Straight) {
    seal(Done.Exit);
    // An exit no return reaches (the callee loops forever) is unreachable;
    // lowering goes on there and finish() drops it.
    Cur = Done.Exit;
  } else if (!Cur) {
    // The body ends in a loop without exit: the rest is unreachable.
    Cur = newBlock((Name + ".end").str());
    seal(Cur);
  }
  Values Out;
  for (VarKey K : Done.Ret)
    Out.push_back(readVar(K, Cur));
  return Out;
}

//===----------------------------------------------------------------------===//
// Statements
//===----------------------------------------------------------------------===//

void FunctionLowering::lowerAssign(const AssignStmt &A) {
  if (isa<MemberExpr>(*A.Target) || A.Target->Ty.isStruct()) {
    if (A.Declares && A.Declares->Ty.isStruct()) // Python `v = V2(...)`.
      declareStruct(A.Declares, *A.Declares->Ty.Decl, A.Declares->Name);
    Keys K;
    placeKeys(*A.Target, K);
    if (A.Target->Ty.isStruct()) {
      Values V = emitStruct(*A.Value);
      for (unsigned I = 0; I < K.size(); ++I)
        assign(K[I], V[I]);
      return;
    }
    Value *V;
    if (!A.Op) {
      V = emitExpr(*A.Value);
    } else {
      Scalar T = scalarOf(A.Target->Ty), OpS = scalarOf(A.OpTy);
      Value *Old = convert(readVar(K[0], Cur), T, OpS);
      Value *R = emitExpr(*A.Value);
      V = convert(emitBinary(*A.Op, OpS, Old, R), OpS, T);
    }
    assign(K[0], V);
    return;
  }
  if (const auto *N = dyn_cast<NameExpr>(A.Target.get())) {
    VarKey K = nameKey(*N);
    if (A.Declares)
      declareVar(A.Declares, A.Declares->Ty, A.Declares->Name);
    Value *V;
    if (!A.Op) {
      V = emitExpr(*A.Value);
    } else {
      Scalar T = scalarOf(N->Ty), OpS = scalarOf(A.OpTy);
      Value *Old = convert(readVar(K, Cur), T, OpS);
      Value *R = emitExpr(*A.Value);
      V = convert(emitBinary(*A.Op, OpS, Old, R), OpS, T);
    }
    assign(K, V);
    return;
  }
  const auto &X = cast<IndexExpr>(*A.Target);
  auto [Ptr, Elem] = emitAddress(X);
  Value *V;
  if (!A.Op) {
    V = emitExpr(*A.Value);
  } else {
    Scalar OpS = scalarOf(A.OpTy);
    Value *Old = convert(load(Ptr, Elem), Elem, OpS);
    V = convert(emitBinary(*A.Op, OpS, Old, emitExpr(*A.Value)), OpS, Elem);
  }
  store(V, Ptr, Elem);
}

void FunctionLowering::lowerIf(const IfStmt &I) {
  BasicBlock *Then = newBlock("if.then");
  BasicBlock *Else = I.Else ? newBlock("if.else") : nullptr;
  BasicBlock *End = newBlock("if.end");
  emitCond(*I.Cond, Then, Else ? Else : End);
  seal(Then);
  if (Else)
    seal(Else);
  setCur(Then);
  if (Cur)
    lowerBlock(*I.Then);
  if (Cur)
    br(End);
  if (Else) {
    setCur(Else);
    if (Cur)
      lowerStmt(*I.Else);
    if (Cur)
      br(End);
  }
  seal(End);
  setCur(End);
}

void FunctionLowering::lowerLoop(const Stmt &S) {
  // while:    br cond; cond: c ? body : end; body: ...; br cond
  // for:      init; br cond; cond: c ? body : end; body: ...; br step;
  //           step: ...; br cond
  // do-while: br body; body: ...; br cond; cond: c ? body : end
  const auto *W = dyn_cast<WhileStmt>(&S);
  const auto *For = dyn_cast<ForStmt>(&S);
  if (For && For->Init)
    lowerStmt(*For->Init);
  if (!Cur)
    return;
  bool Do = W && W->DoWhile;
  llvm::StringRef Prefix = For ? "for" : Do ? "do" : "while";
  BasicBlock *Body, *Cond, *Step = nullptr, *End;
  if (Do) {
    Body = newBlock("do.body");
    Cond = newBlock("do.cond");
  } else {
    Cond = newBlock((Prefix + ".cond").str());
    Body = newBlock((Prefix + ".body").str());
    if (For)
      Step = newBlock("for.step");
  }
  End = newBlock((Prefix + ".end").str());
  const Expr *C = W ? W->Cond.get() : For->Cond.get();
  const BlockStmt &B = W ? *W->Body : *For->Body;

  if (!Do) {
    br(Cond);
    Cur = Cond; // Unsealed until the back edges are known.
    if (C)
      emitCond(*C, Body, End);
    else
      br(Body);
    seal(Body);
    setCur(Body);
  } else {
    br(Body);
    Cur = Body;
  }
  Loops.push_back({End, Step ? Step : Cond});
  if (Cur)
    lowerBlock(B);
  Loops.pop_back();
  if (Cur)
    br(Step ? Step : Cond);
  if (Step) {
    seal(Step);
    setCur(Step);
    if (Cur && For->Step)
      lowerStmt(*For->Step);
    if (Cur)
      br(Cond);
  }
  if (Do) {
    seal(Cond);
    setCur(Cond);
    if (Cur)
      emitCond(*C, Body, End);
    seal(Body);
  } else {
    seal(Cond);
  }
  seal(End);
  setCur(End);
}

void FunctionLowering::lowerForRange(const ForRangeStmt &R) {
  Scalar S = R.Var->Ty.Elem;
  MT Ty = mirType(S);
  // The hidden counter carries the loop variable's name, so that the phi
  // reads "%i" as it does for a C-style loop.
  VarKey IV = &R;
  declareVar(IV, R.Var->Ty, R.Var->Name);
  declareVar(R.Var.get(), R.Var->Ty, R.Var->Name);
  Value *Start = R.Start ? emitExpr(*R.Start) : zero(Ty);
  Value *End = emitExpr(*R.End);
  Value *Step = R.Step ? emitExpr(*R.Step) : constant(Ty, 1);
  writeVar(IV, Cur, Start);
  std::optional<int64_t> StepConst =
      R.Step ? Sema::evalConstInt(*R.Step) : std::optional<int64_t>(1);

  BasicBlock *Cond = newBlock("for.cond"), *Body = newBlock("for.body"),
             *StepBB = newBlock("for.step"), *Exit = newBlock("for.end");
  br(Cond);
  Cur = Cond;
  Value *I = readVar(IV, Cond);
  BinaryOp Up = R.Inclusive ? BinaryOp::Le : BinaryOp::Lt;
  BinaryOp Down = R.Inclusive ? BinaryOp::Ge : BinaryOp::Gt;
  Value *C;
  if (S == Scalar::U32 || (StepConst && *StepConst > 0)) {
    C = emitCompare(Up, S, I, End);
  } else if (StepConst) {
    C = emitCompare(Down, S, I, End);
  } else {
    // A step of unknown sign (Python's range): count up or down by it.
    Value *Positive = emitCompare(BinaryOp::Gt, S, Step, zero(Ty));
    Value *A = emitCompare(Up, S, I, End), *B = emitCompare(Down, S, I, End);
    C = emit(Opcode::Select, MT::I1, {Positive, A, B});
  }
  condBr(C, Body, Exit);
  seal(Body);
  setCur(Body);
  writeVar(R.Var.get(), Cur, readVar(IV, Cur));
  Loops.push_back({Exit, StepBB});
  lowerBlock(*R.Body);
  Loops.pop_back();
  if (Cur)
    br(StepBB);
  seal(StepBB);
  setCur(StepBB);
  if (Cur) {
    assign(IV, emit(Opcode::Add, Ty, {readVar(IV, Cur), Step}));
    br(Cond);
  }
  seal(Cond);
  seal(Exit);
  setCur(Exit);
}

void FunctionLowering::lowerStmt(const Stmt &S) {
  LocScope L(*this, S.loc());
  switch (S.kind()) {
  case Stmt::Kind::Block:
    lowerBlock(cast<BlockStmt>(S));
    return;
  case Stmt::Kind::VarDecl: {
    const auto &V = cast<VarDecl>(S);
    if (V.Ty.isStruct()) {
      Values Init;
      if (V.Init)
        Init = emitStruct(*V.Init);
      Keys K = declareStruct(&V, *V.Ty.Decl, V.Name);
      for (unsigned I = 0; I < K.size(); ++I)
        assign(K[I], V.Init ? Init[I] : zero(Vars[K[I]].Ty));
      return;
    }
    declareVar(&V, V.Ty, V.Name);
    assign(&V, V.Init ? emitExpr(*V.Init) : zero(mirType(V.Ty)));
    return;
  }
  case Stmt::Kind::SharedDecl:
    return; // Laid out by Sema; indexing uses its offset.
  case Stmt::Kind::Assign:
    lowerAssign(cast<AssignStmt>(S));
    return;
  case Stmt::Kind::ExprStmt:
    emitExpr(*cast<ExprStmt>(S).E);
    return;
  case Stmt::Kind::If:
    lowerIf(cast<IfStmt>(S));
    return;
  case Stmt::Kind::While:
  case Stmt::Kind::For:
    lowerLoop(S);
    return;
  case Stmt::Kind::ForRange:
    lowerForRange(cast<ForRangeStmt>(S));
    return;
  case Stmt::Kind::Break:
    br(Loops.back().Break);
    return;
  case Stmt::Kind::Continue:
    br(Loops.back().Continue);
    return;
  case Stmt::Kind::Return: {
    const auto &R = cast<ReturnStmt>(S);
    if (!Frames.empty()) {
      // A return of an inlined function: its result, then its exit.
      if (R.Value) {
        Values V = R.Value->Ty.isStruct() ? emitStruct(*R.Value)
                                          : Values{emitExpr(*R.Value)};
        for (unsigned I = 0; I < V.size(); ++I)
          assign(Frames.back().Ret[I], V[I]);
      }
      if (Frames.back().Exit)
        br(Frames.back().Exit);
      return;
    }
    if (R.Value)
      emit(Opcode::Ret, MT::Void, {emitExpr(*R.Value)});
    else
      emit(Opcode::Ret, MT::Void, {});
    Cur = nullptr;
    return;
  }
  }
}

void FunctionLowering::finish() {
  if (Cur) {
    LocScope L(*this, D.EndLoc);
    if (F.returnType() == MT::Void)
      emit(Opcode::Ret, MT::Void, {});
    else // Sema proved this unreachable at run time; MIR still needs it.
      emit(Opcode::Ret, MT::Void, {zero(F.returnType())});
    Cur = nullptr;
  }
  // Reverse post-order from the entry; blocks it misses are unreachable
  // (and empty: nothing is lowered where no edge leads).
  std::vector<BasicBlock *> Post;
  llvm::SmallPtrSet<BasicBlock *, 32> Seen;
  std::vector<std::pair<BasicBlock *, unsigned>> Stack{{F.entry(), 0}};
  Seen.insert(F.entry());
  while (!Stack.empty()) {
    auto &[BB, Next] = Stack.back();
    auto Succs = BB->successors();
    if (Next < Succs.size()) {
      BasicBlock *S = Succs[Next++];
      if (Seen.insert(S).second)
        Stack.push_back({S, 0});
      continue;
    }
    Post.push_back(BB);
    Stack.pop_back();
  }
  std::vector<BasicBlock *> Dead;
  for (const auto &BB : F.blocks())
    if (!Seen.contains(BB.get()))
      Dead.push_back(BB.get());
  F.eraseBlocks(Dead);
  std::reverse(Post.begin(), Post.end());
  F.reorderBlocks(Post);
  // Names in program order: "acc", "acc.1", ... (phis before the values
  // computed in their block, as they print).
  for (BasicBlock *BB : Post)
    for (Instruction &I : *BB) {
      auto It = VarOf.find(&I);
      if (It != VarOf.end() && I.name().empty() && I.type() != MT::Void)
        I.setName(uniqueName(ValueNames, Vars[It->second].Name));
    }
}

void FunctionLowering::run() {
  BasicBlock *Entry = F.addBlock(uniqueName(BlockNames, "entry"));
  Sealed.insert(Entry);
  Cur = Entry;
  for (unsigned I = 0; I < D.Params.size(); ++I) {
    const Param &P = D.Params[I];
    ValueNames[P.Name] = 1; // Later values of this name get suffixes.
    declareVar(&P, P.Ty, P.Name);
    Value *V = F.arg(I);
    // A kernel's bool arrives as a u32 (true when not zero), its f16 as
    // the f32 value (formats/kernel-abi.md, "Buffers and scalars").
    if (V->type() == MT::U32 && P.Ty.isScalar(Scalar::Bool)) {
      Instruction *C = emit(Opcode::ICmp, MT::I1, {V, zero(MT::U32)});
      C->addImm(unsigned(CmpPred::Ne));
      C->setAuxType(MT::U32);
      V = C;
    } else if (V->type() == MT::F32 && P.Ty.isScalar(Scalar::F16)) {
      V = cvt(V, MT::F32, MT::F16);
    }
    writeVar(&P, Entry, V);
  }
  if (D.Body)
    lowerBlock(*D.Body);
  finish();
}

} // namespace

std::unique_ptr<mir::Module> wave::hir::lowerModule(const Module &M,
                                                    const LoweringOptions &Opts) {
  // With --kernel, only that kernel and what it calls, in source order.
  llvm::SmallPtrSet<const FunctionDecl *, 16> Keep;
  if (!Opts.OnlyKernel.empty()) {
    std::vector<const FunctionDecl *> Work{M.function(Opts.OnlyKernel)};
    while (!Work.empty()) {
      const FunctionDecl *F = Work.back();
      Work.pop_back();
      if (!F || !Keep.insert(F).second || !F->Body)
        continue;
      forEachNode(*F->Body, [](const Stmt &) {},
                  [&](const Expr &E) {
                    if (const auto *C = dyn_cast<CallExpr>(&E))
                      if (C->Target)
                        Work.push_back(C->Target);
                  });
    }
  }
  auto MM = std::make_unique<mir::Module>();
  MM->SourceFile = Opts.SourceFile;
  LocMapper Locs(Opts.SM);
  BufferAccess Access;
  llvm::DenseMap<const FunctionDecl *, mir::Function *> Funcs;
  for (const auto &D : M.Functions) {
    if (!Opts.OnlyKernel.empty() && !Keep.contains(D.get()))
      continue;
    if (D->isInlined())
      continue; // Inlined at every call (FunctionLowering::inlineCall).
    mir::Function *F = MM->addFunction(D->Name, D->IsKernel,
                                       mirType(D->ReturnTy));
    const llvm::SmallVector<uint8_t, 8> &Mask = Access.of(*D);
    for (size_t I = 0; I < D->Params.size(); ++I) {
      const Param &P = D->Params[I];
      MT Ty = mirType(P.Ty);
      // A kernel parameter is one 32-bit register (formats/kernel-abi.md):
      // bool as u32, f16 as its f32 value; FunctionLowering::run converts.
      if (D->IsKernel && P.Ty.isScalar(Scalar::Bool))
        Ty = MT::U32;
      else if (D->IsKernel && P.Ty.isScalar(Scalar::F16))
        Ty = MT::F32;
      mir::Argument *A = F->addArgument(Ty, P.Name);
      if (P.Ty.K != Type::Buffer)
        continue;
      A->ElemType = mirType(P.Ty.Elem);
      A->ReadOnly = P.Ty.ReadOnly || !(Mask[I] & AccessWrite);
      A->WriteOnly = !A->ReadOnly && !(Mask[I] & AccessRead);
    }
    if (D->Link == Linkage::Export)
      F->setLinkage(mir::Function::Linkage::Export);
    else if (D->isDeclaration())
      F->setLinkage(mir::Function::Linkage::Declaration);
    if (D->IsKernel) {
      F->WorkgroupSize = D->WorkgroupSize ? *D->WorkgroupSize
                                          : Opts.DefaultWorkgroupSize;
      if (D->SharedBytes)
        F->LocalMemory = D->SharedBytes;
    }
    Funcs[D.get()] = F;
  }
  for (const auto &D : M.Functions)
    if (mir::Function *F = Funcs.lookup(D.get()))
      if (!D->isDeclaration())
        FunctionLowering(*D, *F, Funcs, M.Lang, Locs).run();
  return MM;
}
