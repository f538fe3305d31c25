//===- Verifier.cpp - MIR well-formedness checks --------------------------===//
//
// One walk over each function: structure first (terminators, phi placement,
// branch targets), then per-instruction type rules by Shape (the same rules
// the parser applies while reading), then SSA dominance over the CFG.
//
//===----------------------------------------------------------------------===//
#include "wave/IR/Verifier.h"
#include "wave/IR/Dominators.h"
#include "wave/IR/MIRPrinter.h"
#include "wave/Support/SourceDiagnostic.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/Twine.h"

#include <optional>

using namespace llvm;

namespace wave::mir {

namespace {

class FunctionVerifier {
public:
  explicit FunctionVerifier(const Function &F) : F(F) {}

  Error run();

private:
  void fail(const BasicBlock *BB, const Instruction *I, const Twine &Msg);
  void checkStructure(const BasicBlock &BB);
  void checkTypes(const Instruction &I);
  void checkPhi(const Instruction &I, const CFG &G);
  void checkOperands(const Instruction &I, const DominatorTree &DT);
  void checkSignature();

  const Function &F;
  /// Value and block names for messages, built on the first error only:
  /// a well-formed function never pays for them.
  std::optional<SlotNames> Names;
  const SlotNames &names() {
    if (!Names)
      Names.emplace(F);
    return *Names;
  }
  /// The blocks of F, for O(1) branch-target checks (a blockIndex() search
  /// per branch made the check O(blocks^2)).
  SmallPtrSet<const BasicBlock *, 32> OwnBlocks;
  /// Position of every instruction in its block, so that a same-block
  /// dominance check is O(1) instead of a walk from the block's start
  /// (which made long straight-line blocks quadratic).
  DenseMap<const Instruction *, unsigned> Position;
  Error Errs = Error::success();
  unsigned Count = 0;
};

void FunctionVerifier::fail(const BasicBlock *BB, const Instruction *I,
                            const Twine &Msg) {
  if (++Count > 20)
    return;
  std::string Where = ("function '@" + F.name() + "'").str();
  if (BB)
    Where += ", block '" + names().block(BB) + "'";
  SMLoc Loc = F.loc();
  if (I) {
    std::string Text;
    raw_string_ostream OS(Text);
    printInstruction(*I, names(), OS);
    Where += ", instruction '" + Text + "'";
    Loc = I->loc();
  } else if (BB && BB->loc().isValid()) {
    Loc = BB->loc();
  }
  Errs = joinErrors(std::move(Errs),
                    make_error<SourceDiagError>(Loc, Where + ": " + Msg.str()));
}

void FunctionVerifier::checkSignature() {
  // Parameter attributes (formats/mir.md "Parameter attributes") describe
  // a device buffer: they make the kernel's `.param` descriptors.
  for (unsigned I = 0; I < F.numArgs(); ++I) {
    const Argument &A = *F.arg(I);
    auto Param = [&]() {
      return "parameter " + std::to_string(I) + " ('" + names().value(&A) +
             "')";
    };
    if ((A.ReadOnly || A.WriteOnly || A.ElemType) &&
        A.type() != Type::PtrDevice)
      fail(nullptr, nullptr,
           Param() + " has type '" + typeName(A.type()) +
               "'; readonly, writeonly and elem(T) apply to ptr<device> "
               "parameters only");
    if (A.ReadOnly && A.WriteOnly)
      fail(nullptr, nullptr,
           Param() + " is both readonly and writeonly; omit both for a "
                     "buffer that is read and written");
    if (A.ElemType && !(*A.ElemType == Type::I32 || *A.ElemType == Type::U32 ||
                        *A.ElemType == Type::F32 || *A.ElemType == Type::F16 ||
                        *A.ElemType == Type::BF16 || *A.ElemType == Type::F64))
      fail(nullptr, nullptr,
           Param() + " has element type '" + typeName(*A.ElemType) +
               "'; elem(T) takes i32, u32, f32, f16, bf16 or f64");
  }
  if (F.isKernel() && F.linkage() != Function::Linkage::Internal)
    fail(nullptr, nullptr,
         "'export' and 'declare' apply to device functions only");
  if (!F.isKernel()) {
    if (F.WorkgroupSize || F.LocalMemory)
      fail(nullptr, nullptr,
           "workgroup_size and local_memory are kernel attributes");
    return;
  }
  if (F.returnType() != Type::Void)
    fail(nullptr, nullptr, "a kernel cannot return a value");
  if (F.numArgs() > MaxKernelParams)
    fail(nullptr, nullptr,
         "a kernel takes at most " + Twine(MaxKernelParams) +
             " parameters (r0..r31), found " + Twine(F.numArgs()));
  for (unsigned I = 0; I < F.numArgs(); ++I) {
    Type T = F.arg(I)->type();
    if (!(T == Type::I32 || T == Type::U32 || T == Type::F32 ||
          T == Type::PtrDevice))
      fail(nullptr, nullptr,
           "kernel parameter " + Twine(I) + " ('" + names().value(F.arg(I)) +
               "') has type '" + typeName(T) +
               "'; kernel parameters are i32, u32, f32 or ptr<device> "
               "(one 32-bit register each)");
  }
  if (F.WorkgroupSize)
    for (uint32_t D : *F.WorkgroupSize)
      if (D == 0)
        fail(nullptr, nullptr, "workgroup_size dimensions must be at least 1");
}

void FunctionVerifier::checkStructure(const BasicBlock &BB) {
  if (BB.empty()) {
    fail(&BB, nullptr, "block has no terminator");
    return;
  }
  bool SeenNonPhi = false;
  for (const Instruction &I : BB.insts()) {
    if (I.parent() != &BB)
      fail(&BB, &I, "instruction's parent link is wrong");
    if (I.isPhi() && SeenNonPhi)
      fail(&BB, &I, "phi nodes must come first in their block");
    if (!I.isPhi())
      SeenNonPhi = true;
    if (I.isTerminator() && &I != &BB.insts().back())
      fail(&BB, &I, "terminator in the middle of the block");
    for (BasicBlock *S :
         I.isTerminator() ? I.blocks() : ArrayRef<BasicBlock *>())
      if (!S || S->parent() != &F || !OwnBlocks.count(S))
        fail(&BB, &I, "branch to a block outside the function");
  }
  if (!BB.terminator())
    fail(&BB, &BB.insts().back(), "block does not end with a terminator");
}

void FunctionVerifier::checkTypes(const Instruction &I) {
  const OpDesc &D = I.desc();
  const BasicBlock *BB = I.parent();
  auto Bad = [&](const Twine &Msg) { fail(BB, &I, Msg); };
  auto TypeOk = [&](Type T) {
    if (!(D.Types & typeBit(T))) {
      Bad("'" + Twine(D.Name) + "' does not take type '" + typeName(T) + "'");
      return false;
    }
    return true;
  };
  // Expected operand types, result type and counts by shape.
  SmallVector<Type, 4> Want;
  Type Result = Type::Void;
  unsigned Imms = 0, Blocks = 0;
  Type T = I.type();
  switch (D.Shp) {
  case Shape::Un:
  case Shape::Bin:
  case Shape::Tern:
  case Shape::Quat: {
    unsigned N = elementwiseArity(D.Shp);
    TypeOk(T);
    Want.assign(N, T);
    Result = T;
    break;
  }
  case Shape::PtrOff:
  case Shape::Shuffle:
    TypeOk(T);
    Want = {T, Type::U32};
    Result = T;
    break;
  case Shape::Cmp:
    TypeOk(I.auxType());
    Want = {I.auxType(), I.auxType()};
    Result = Type::I1;
    Imms = 1;
    if (I.imms().size() == 1 &&
        (I.imms()[0] > unsigned(CmpPred::Unord) ||
         (I.opcode() == Opcode::ICmp && I.imms()[0] >= unsigned(CmpPred::Ord))))
      Bad("invalid comparison predicate");
    break;
  case Shape::Select:
    TypeOk(T);
    Want = {Type::I1, T, T};
    Result = T;
    break;
  case Shape::Cvt:
    Want = {I.auxType()};
    Result = T;
    if (I.opcode() == Opcode::Cvt ? !isValidCvt(I.auxType(), T)
                                  : !isValidBitcast(I.auxType(), T))
      Bad("cannot " + Twine(D.Name) + " '" + typeName(I.auxType()) + "' to '" +
          typeName(T) + "'");
    break;
  case Shape::Load:
    TypeOk(T);
    Want = {I.auxType()};
    Result = T;
    if (!isPtrType(I.auxType()))
      Bad("the address must be a pointer");
    break;
  case Shape::Store:
    if (I.numOperands() == 2)
      TypeOk(I.operand(0)->type());
    Want = {I.numOperands() ? I.operand(0)->type() : Type::Void, I.auxType()};
    if (!isPtrType(I.auxType()))
      Bad("the address must be a pointer");
    break;
  case Shape::Alloca: // uses are checked by verifyPrivateSlots
    TypeOk(I.auxType());
    Result = Type::PtrPrivate;
    break;
  case Shape::Atomic:
  case Shape::AtomicCas:
    TypeOk(T);
    Want = {I.auxType(), T};
    if (D.Shp == Shape::AtomicCas)
      Want.push_back(T);
    Result = T;
    Imms = 1;
    if (!isPtrType(I.auxType()))
      Bad("the address must be a pointer");
    else if (I.imms().size() == 1 && I.auxType() == Type::PtrLocal &&
             I.imms()[0] > unsigned(Scope::Workgroup))
      Bad("an atomic on local memory has scope wave or workgroup");
    break;
  case Shape::Ballot:
    Want = {Type::I1};
    Result = Type::U32;
    break;
  case Shape::PredUn:
    Want = {Type::I1};
    Result = Type::I1;
    break;
  case Shape::Nullary:
    break;
  case Shape::Fence:
    Imms = 1;
    break;
  case Shape::SReg:
    Imms = 1;
    Result = Type::U32;
    if (I.imms().size() == 1 && specialRegName(I.imms()[0]).empty())
      Bad("unknown special register index " + Twine(I.imms()[0]));
    break;
  case Shape::MmaLoad:
  case Shape::MmaStore:
    Want = {Type::PtrLocal, Type::U32};
    Imms = 1;
    break;
  case Shape::MmaCompute:
    Imms = 3;
    break;
  case Shape::Call: {
    TypeOk(T);
    Result = T;
    const Function *C = I.callee();
    if (!C) {
      Bad("call without a callee");
      return;
    }
    if (C->parent() != F.parent())
      Bad("callee '@" + C->name() + "' is not in this module");
    if (C->isKernel())
      Bad("'@" + C->name() + "' is a kernel; kernels cannot be called");
    if (C->returnType() != T)
      Bad("call result type '" + typeName(T) + "' does not match '@" +
          C->name() + "' returning '" + typeName(C->returnType()) + "'");
    for (unsigned K = 0; K < C->numArgs(); ++K)
      Want.push_back(C->arg(K)->type());
    break;
  }
  case Shape::Phi:
    TypeOk(T);
    Want.assign(I.numOperands(), T);
    Blocks = I.numOperands();
    Result = T;
    break;
  case Shape::Br:
    Blocks = 1;
    break;
  case Shape::CondBr:
    Want = {Type::I1};
    Blocks = 2;
    break;
  case Shape::Ret:
    if (F.returnType() != Type::Void)
      Want = {F.returnType()};
    break;
  }
  if (I.type() != Result)
    Bad("result has type '" + typeName(I.type()) + "', expected '" +
        typeName(Result) + "'");
  if (I.numOperands() != Want.size()) {
    if (D.Shp == Shape::Ret)
      Bad(F.returnType() == Type::Void
              ? Twine("'@") + F.name() + "' returns void; 'ret' takes no value"
              : Twine("'@") + F.name() + "' returns '" +
                    typeName(F.returnType()) + "'; 'ret' needs a value");
    else
      Bad("expected " + Twine(Want.size()) + " operands, found " +
          Twine(I.numOperands()));
    return;
  }
  for (unsigned K = 0; K < Want.size(); ++K)
    if (I.operand(K)->type() != Want[K])
      Bad("operand " + Twine(K + 1) + " ('" + names().value(I.operand(K)) +
          "') has type '" + typeName(I.operand(K)->type()) + "', expected '" +
          typeName(Want[K]) + "'");
  if (I.imms().size() != Imms)
    Bad("expected " + Twine(Imms) + " immediates, found " +
        Twine(I.imms().size()));
  else if ((D.Shp == Shape::Fence || D.Shp == Shape::Atomic ||
            D.Shp == Shape::AtomicCas) &&
           I.imms()[0] > unsigned(Scope::System))
    Bad("invalid scope");
  else if (D.Shp == Shape::MmaLoad || D.Shp == Shape::MmaStore ||
           D.Shp == Shape::MmaCompute)
    for (uint32_t Frag : I.imms())
      if (Frag > 255)
        Bad("MMA fragment id " + Twine(Frag) + " is not in 0..255");
  if (I.blocks().size() != Blocks)
    Bad("expected " + Twine(Blocks) + " block operands, found " +
        Twine(I.blocks().size()));
}

void FunctionVerifier::checkPhi(const Instruction &I, const CFG &G) {
  const BasicBlock *BB = I.parent();
  ArrayRef<BasicBlock *> Preds = G.predecessors(BB);
  SmallPtrSet<const BasicBlock *, 8> Seen;
  for (unsigned K = 0; K < I.blocks().size(); ++K) {
    const BasicBlock *In = I.block(K);
    if (!is_contained(Preds, In))
      fail(BB, &I,
           "'" + names().block(In) + "' is not a predecessor of '" +
               names().block(BB) + "'");
    else if (!Seen.insert(In).second)
      fail(BB, &I,
           "more than one incoming value for '" + names().block(In) + "'");
  }
  for (const BasicBlock *P : Preds)
    if (!Seen.count(P))
      fail(BB, &I,
           "no incoming value for predecessor '" + names().block(P) + "'");
}

void FunctionVerifier::checkOperands(const Instruction &I,
                                     const DominatorTree &DT) {
  const BasicBlock *BB = I.parent();
  const CFG &G = DT.cfg();
  for (unsigned K = 0; K < I.numOperands(); ++K) {
    const Value *V = I.operand(K);
    switch (V->kind()) {
    case Value::Kind::Placeholder:
      fail(BB, &I, "operand " + Twine(K + 1) + " is an unresolved reference");
      continue;
    case Value::Kind::Constant:
      continue;
    case Value::Kind::Argument:
      if (cast<Argument>(V)->parent() != &F)
        fail(BB, &I,
             "operand " + Twine(K + 1) + " is an argument of another function");
      continue;
    case Value::Kind::Instruction:
      break;
    }
    const auto *Def = cast<Instruction>(V);
    if (!Def->parent() || Def->function() != &F) {
      fail(BB, &I,
           "operand " + Twine(K + 1) +
               " is not an instruction of this function");
      continue;
    }
    // Uses in unreachable code are not checked for dominance: nothing
    // dominates them and they never run.
    const BasicBlock *UseBB = I.isPhi() ? I.block(K) : BB;
    if (!G.isReachable(UseBB))
      continue;
    if (!G.isReachable(Def->parent())) {
      fail(BB, &I,
           "'" + names().value(Def) + "' is defined in unreachable block '" +
               names().block(Def->parent()) + "'");
      continue;
    }
    if (Def == &I && !I.isPhi()) {
      fail(BB, &I,
           "'" + names().value(Def) + "' is used by its own definition");
      continue;
    }
    bool Dominates = !I.isPhi() && Def->parent() == BB
                         ? Position.lookup(Def) < Position.lookup(&I)
                         : DT.dominatesUse(Def, &I, K);
    if (!Dominates)
      fail(BB, &I,
           "'" + names().value(Def) + "' does not dominate this use" +
               (I.isPhi()
                    ? " (incoming from '" + names().block(I.block(K)) + "')"
                    : std::string()));
  }
}

Error FunctionVerifier::run() {
  checkSignature();
  if (F.isDeclaration()) {
    // Defined in another object (formats/mir.md "Linkage").
    if (F.numBlocks() != 0)
      fail(nullptr, nullptr, "a declaration has no body");
    return std::move(Errs);
  }
  if (F.numBlocks() == 0) {
    fail(nullptr, nullptr, "function has no blocks");
    return std::move(Errs);
  }
  unsigned Before = Count;
  for (const auto &BB : F.blocks())
    OwnBlocks.insert(BB.get());
  for (const auto &BB : F.blocks())
    checkStructure(*BB);
  // Dominance and phi checks need a sound CFG; stop after structural errors.
  if (Count != Before)
    return std::move(Errs);
  CFG G(F);
  if (!G.predecessors(F.entry()).empty())
    fail(F.entry(), nullptr, "the entry block cannot be a branch target");
  DominatorTree DT(G);
  for (const auto &BB : F.blocks()) {
    unsigned N = 0;
    for (const Instruction &I : BB->insts())
      Position[&I] = N++;
  }
  for (const auto &BB : F.blocks())
    for (const Instruction &I : BB->insts()) {
      checkTypes(I);
      if (I.isPhi())
        checkPhi(I, G);
      checkOperands(I, DT);
    }
  return std::move(Errs);
}

} // namespace

Error verifyFunction(const Function &F) {
  return joinErrors(FunctionVerifier(F).run(), verifyPrivateSlots(F));
}

Error verifyModule(const Module &M) {
  Error All = Error::success();
  for (const auto &F : M.functions())
    All = joinErrors(std::move(All), verifyFunction(*F));
  return All;
}

} // namespace wave::mir
