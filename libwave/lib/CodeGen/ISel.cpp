//===- ISel.cpp - MIR to LIR instruction selection and out-of-SSA ---------===//
//
// Implements selectInstructions (ISel.h) in three steps:
//   1. critical-edge splitting on the MIR function, so that every edge that
//      carries phi copies leaves a block with a single successor;
//   2. a scan that gives every MIR value its virtual register and decides
//      which i1 values live in predicate registers;
//   3. block-by-block selection (ISelBlock below), with phi elimination by
//      Sreedhar's method I.
//
// Private variables (`alloca`, formats/mir.md) live in local memory; see
// PrivateSlots below.
//
// Every MIROps.def opcode either lowers or returns a located SourceDiagError.
//
//===----------------------------------------------------------------------===//
#include "wave/CodeGen/ISel.h"

#include "wave/IR/MIR.h"
#include "wave/Support/SourceDiagnostic.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Casting.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <array>
#include <cassert>
#include <unordered_map>

using namespace llvm;

namespace wave::codegen {

using mir::BasicBlock;
using mir::CmpPred;
using mir::Type;

/// General registers a value of type \p T occupies: a pair for f64
/// (formats/isa.md §2.6), one otherwise.
static unsigned regCount(Type T) { return T == Type::F64 ? 2 : 1; }

namespace {

/// The printed label of every block without its sigil: its name, or its
/// positional number among the unnamed blocks (formats/mir.md).
DenseMap<const BasicBlock *, std::string> blockLabels(const mir::Function &F) {
  DenseMap<const BasicBlock *, std::string> Labels;
  unsigned N = 0;
  for (const auto &B : F.blocks())
    Labels[B.get()] =
        B->name().empty() ? std::to_string(N++) : B->name().str();
  return Labels;
}

/// Distinct successors of \p BB, in terminator order.
SmallVector<BasicBlock *, 2> distinctSuccs(const BasicBlock *BB) {
  SmallVector<BasicBlock *, 2> Out;
  for (BasicBlock *S : BB->successors())
    if (!is_contained(Out, S))
      Out.push_back(S);
  return Out;
}

/// Splits every edge P->S on which phi copies could not be placed at the end
/// of P: P has two distinct successors and S has several predecessors
/// (a critical edge) or phis. The new block `^P.S.split` holds `br ^S`.
void splitEdges(mir::Function &F) {
  DenseMap<BasicBlock *, unsigned> NumPreds;
  StringSet<> Names;
  for (const auto &BB : F.blocks()) {
    Names.insert(BB->name());
    for (BasicBlock *S : distinctSuccs(BB.get()))
      ++NumPreds[S];
  }
  // Collect first: splitting changes the block list.
  SmallVector<std::pair<BasicBlock *, BasicBlock *>, 8> Edges;
  for (const auto &BB : F.blocks()) {
    SmallVector<BasicBlock *, 2> Succs = distinctSuccs(BB.get());
    if (Succs.size() < 2)
      continue;
    for (BasicBlock *S : Succs)
      if (NumPreds[S] >= 2 || (!S->empty() && S->front().isPhi()))
        Edges.push_back({BB.get(), S});
  }
  // Split blocks are named, so the positional numbers of the unnamed blocks
  // do not change.
  DenseMap<const BasicBlock *, std::string> Labels = blockLabels(F);
  // The split blocks of one predecessor follow it in successor order.
  DenseMap<BasicBlock *, BasicBlock *> InsertAfter;
  for (auto [P, S] : Edges) {
    std::string Base = Labels[P] + "." + Labels[S] + ".split";
    std::string Name = Base;
    for (unsigned K = 1; Names.contains(Name); ++K)
      Name = Base + "." + std::to_string(K);
    Names.insert(Name);
    BasicBlock *&After = InsertAfter[P];
    BasicBlock *New = F.addBlockAfter(After ? After : P, Name);
    After = New;
    auto Br = mir::Instruction::create(mir::Opcode::Br, Type::Void);
    Br->addBlock(S);
    New->append(std::move(Br));
    mir::Instruction *T = P->terminator();
    for (unsigned K = 0; K != T->blocks().size(); ++K)
      if (T->block(K) == S)
        T->setBlock(K, New);
    for (mir::Instruction &I : *S) {
      if (!I.isPhi())
        break;
      for (unsigned K = 0; K != I.blocks().size(); ++K)
        if (I.block(K) == P)
          I.setBlock(K, New);
    }
  }
}

/// Whether the i1 result of \p I can stay in a predicate register: made by
/// a compare or wave_any/wave_all and used only in its own block, as the
/// condition of a branch or select or by a wave vote.
bool livesInPredicate(const mir::Instruction &I) {
  switch (I.opcode()) {
  case mir::Opcode::ICmp:
  case mir::Opcode::FCmp:
  case mir::Opcode::WaveAny:
  case mir::Opcode::WaveAll:
    break;
  default:
    return false;
  }
  for (const mir::Use &U : I.uses()) {
    if (U.User->parent() != I.parent())
      return false;
    switch (U.User->opcode()) {
    case mir::Opcode::CondBr:
    case mir::Opcode::WaveBallot:
    case mir::Opcode::WaveAny:
    case mir::Opcode::WaveAll:
      break;
    case mir::Opcode::Select:
      if (U.OpNo != 0)
        return false;
      break;
    default:
      return false;
    }
  }
  return true;
}

/// The local-memory layout of a kernel's private variables (formats/mir.md
/// "Private variables", formats/wave-asm.md §9).
///
/// A `ptr<private>` is a 32-bit local-memory byte address. The private area
/// starts at alignTo(local_memory, 8), after the kernel's own local memory,
/// and holds one region per alloca, in alloca order, each 8-byte aligned:
/// T * size bytes for a workgroup of T threads and a slot of size bytes
/// (4, or 8 for f64). Linear thread t (emitLinearThreadId, LIR.h) owns the
/// slot at RegionBase + t * size, so the lanes of a wave touch consecutive
/// words. The register allocator's spill area follows the private area
/// (it starts at the kernel's final LocalMemory).
///
/// Every slot's address is computed once, at the start of the entry block
/// (which no branch targets, so it runs once per thread), into the virtual
/// register of its alloca, and the slot is zeroed there: a slot holds 0
/// until first stored even where local memory is not zero-filled.
struct PrivateSlots {
  struct Slot {
    const mir::Instruction *Alloca;
    uint32_t RegionBase;
    /// Bytes per thread: 4, or 8 for f64.
    unsigned Size;
  };
  std::vector<Slot> Slots;
  std::array<uint32_t, 3> WorkgroupSize = {1, 1, 1};
  /// End of the private area: the kernel's new LocalMemory.
  uint32_t End = 0;
};

/// Selects instructions for one MIR function.
class ISel {
public:
  explicit ISel(mir::Function &MF) : MF(MF) {}
  Expected<SelectedFunction> run();

private:
  // Registers and operands.
  LFunction &F() { return SF.F; }
  unsigned newGPR(unsigned Size = 1) {
    return F().newVReg(RegClass::GPR, Size);
  }
  unsigned newPred() { return F().newVReg(RegClass::Pred); }
  static LOperand R(unsigned V, unsigned Sub = 0) {
    return LOperand::reg(V, Sub);
  }
  void emit(Opcode Op, std::initializer_list<LOperand> Ops) {
    Out->push_back(LInst::make(Op, Ops));
  }
  void copy(unsigned Dst, unsigned Src) { Out->push_back(LInst::copy(Dst, Src)); }

  /// A general register holding the 32-bit constant \p Bits in this block.
  unsigned imm(uint32_t Bits);
  /// A register (pair) holding \p V's bits; i1 as 0/1.
  unsigned gpr(const mir::Value *V);
  /// A predicate register holding the i1 \p V.
  unsigned pred(const mir::Value *V);
  /// The result register of \p I.
  unsigned def(const mir::Instruction &I) { return VRegOf.lookup(&I); }

  /// Writes the constant \p C into \p Dst (which has C's size).
  void movConst(unsigned Dst, const mir::Constant &C);
  /// Writes the 0/1 value of predicate \p P into \p Dst.
  void predToGPR(unsigned Dst, unsigned P);
  /// Writes \p V into general register \p Dst (of V's size): a constant
  /// directly, a value from its register (an i1 as 0/1).
  void moveValue(unsigned Dst, const mir::Value *V) {
    if (const auto *C = dyn_cast<mir::Constant>(V))
      movConst(Dst, *C);
    else
      copy(Dst, gpr(V));
  }

  Error error(const mir::Instruction &I, const Twine &Msg) {
    return make_error<SourceDiagError>(
        I.loc(), ("function '@" + MF.name() + "': " + Msg).str());
  }

  void scanValues();
  /// Lays out the allocas of the entry block (PrivateSlots) and grows
  /// F().LocalMemory by the private area.
  Error layoutPrivateSlots();
  /// Computes every slot's address and zeroes the slot, at the start of
  /// the entry block.
  void emitPrivatePrologue();
  Error selectBlock(BasicBlock &BB, SelectedBlock &SB);
  Error select(const mir::Instruction &I);
  void phiCopies(const BasicBlock &BB, BasicBlock &Succ);

  // Lowerings of operation groups.
  Error selectInt(const mir::Instruction &I);
  Error selectFloat(const mir::Instruction &I);
  void selectUDivRem(const mir::Instruction &I, bool Rem);
  void selectCmp(const mir::Instruction &I, unsigned P);
  Error selectMemory(const mir::Instruction &I);
  Error selectAtomic(const mir::Instruction &I);
  Error selectWave(const mir::Instruction &I);
  Error selectCvt(const mir::Instruction &I);
  Error selectCall(const mir::Instruction &I);

  mir::Function &MF;
  SelectedFunction SF;
  DenseMap<const mir::Value *, unsigned> VRegOf;
  /// x' of each phi x (Sreedhar method I).
  DenseMap<const mir::Instruction *, unsigned> PhiIn;
  /// Constants materialized in the current block (32-bit by bits; f64 by
  /// bits in a pair). Not DenseMaps: every bit pattern is a valid key.
  std::unordered_map<uint32_t, unsigned> Const32;
  std::unordered_map<uint64_t, unsigned> Const64;
  std::vector<LInst> *Out = nullptr;
  PrivateSlots Private;
};

} // namespace

unsigned ISel::imm(uint32_t Bits) {
  auto [It, New] = Const32.try_emplace(Bits, 0);
  if (New) {
    It->second = newGPR();
    emit(Opcode::MovImm, {R(It->second), LOperand::imm(Bits)});
  }
  return It->second;
}

void ISel::movConst(unsigned Dst, const mir::Constant &C) {
  uint64_t Bits = C.bits();
  if (C.type() == Type::F64) {
    emit(Opcode::MovImm, {R(Dst, 0), LOperand::imm(uint32_t(Bits))});
    emit(Opcode::MovImm, {R(Dst, 1), LOperand::imm(uint32_t(Bits >> 32))});
    return;
  }
  emit(Opcode::MovImm, {R(Dst), LOperand::imm(uint32_t(Bits))});
}

void ISel::predToGPR(unsigned Dst, unsigned P) {
  unsigned One = imm(1), Zero = imm(0);
  emit(Opcode::Select, {R(Dst), R(P), R(One), R(Zero)});
}

unsigned ISel::gpr(const mir::Value *V) {
  if (const auto *C = dyn_cast<mir::Constant>(V)) {
    if (C->type() != Type::F64)
      return imm(uint32_t(C->bits()));
    auto [It, New] = Const64.try_emplace(C->bits(), 0);
    if (New) {
      It->second = newGPR(2);
      movConst(It->second, *C);
    }
    return It->second;
  }
  unsigned Reg = VRegOf.lookup(V);
  if (F().VRegs[Reg].Class == RegClass::GPR)
    return Reg;
  // A predicate-held i1 read as data (livesInPredicate prevents this, but
  // stay correct regardless).
  unsigned G = newGPR();
  predToGPR(G, Reg);
  return G;
}

unsigned ISel::pred(const mir::Value *V) {
  if (const auto *C = dyn_cast<mir::Constant>(V)) {
    unsigned P = newPred();
    Out->push_back(LInst::pset(P, C->bits() & 1));
    return P;
  }
  unsigned Reg = VRegOf.lookup(V);
  if (F().VRegs[Reg].Class == RegClass::Pred)
    return Reg;
  // A 0/1 general register: made into a predicate right before its use so
  // that predicates stay short-lived.
  unsigned P = newPred();
  emit(Opcode::IcmpNe, {R(P), R(Reg), R(imm(0))});
  return P;
}

void ISel::scanValues() {
  LFunction &L = F();
  // Parameter i arrives in the next register slot: one register each, a
  // pair for an f64 (formats/wave-asm.md §9; kernels take no f64).
  unsigned Slot = 0;
  for (unsigned K = 0; K != MF.numArgs(); ++K) {
    const mir::Argument *A = MF.arg(K);
    unsigned Size = regCount(A->type());
    unsigned V = L.newVReg(RegClass::GPR, Size, A->name());
    L.VRegs[V].Fixed = int16_t(Slot);
    Slot += Size;
    VRegOf[A] = V;
  }
  for (const auto &BB : MF.blocks())
    for (const mir::Instruction &I : *BB) {
      Type T = I.type();
      if (T == Type::Void)
        continue;
      RegClass C = T == Type::I1 && livesInPredicate(I) ? RegClass::Pred
                                                          : RegClass::GPR;
      unsigned Size = regCount(T);
      VRegOf[&I] = L.newVReg(C, Size, I.name());
      if (I.isPhi())
        PhiIn[&I] = L.newVReg(C, Size);
    }
}

Expected<SelectedFunction> ISel::run() {
  if (!MF.isKernel() && MF.linkage() != mir::Function::Linkage::Export)
    return make_error<SourceDiagError>(
        MF.loc(), "function '@" + MF.name().str() +
                      "' is a device function; wave-ra compiles kernels "
                      "and export funcs and inlines the other device "
                      "functions they call");
  if (!MF.isKernel())
    for (const auto &BB : MF.blocks())
      for (const mir::Instruction &I : *BB)
        if (I.opcode() == mir::Opcode::Alloca)
          return error(I, "a device function compiled as '.func' cannot "
                          "use local memory, and this private variable "
                          "would live there (formats/wave-asm.md §9)");
  splitEdges(MF);

  LFunction &L = F();
  L.Name = MF.name().str();
  L.IsKernel = MF.isKernel();
  L.WorkgroupSize = MF.WorkgroupSize;
  L.LocalMemory = MF.LocalMemory.value_or(0);
  L.NumParams = MF.numArgs();
  scanValues();
  if (Error E = layoutPrivateSlots())
    return std::move(E);

  SF.G = buildSCFG(MF);
  SF.Blocks.resize(MF.numBlocks());
  for (unsigned K = 0; K != MF.numBlocks(); ++K)
    if (Error E = selectBlock(*MF.blocks()[K], SF.Blocks[K]))
      return std::move(E);
  return std::move(SF);
}

Error ISel::layoutPrivateSlots() {
  // The verifier keeps allocas in the entry block.
  const mir::Instruction *First = nullptr;
  for (const mir::Instruction &I : *MF.entry())
    if (I.opcode() == mir::Opcode::Alloca) {
      First = &I;
      break;
    }
  if (!First)
    return Error::success();
  if (!MF.WorkgroupSize)
    return error(*First, "private variables need a workgroup_size "
                         "attribute: each thread's slots live in local "
                         "memory");
  const std::array<uint32_t, 3> &WG = *MF.WorkgroupSize;
  Private.WorkgroupSize = WG;
  uint64_t Threads =
      uint64_t(std::max(WG[0], 1u)) * std::max(WG[1], 1u) * std::max(WG[2], 1u);
  uint64_t At = alignTo(F().LocalMemory, 8);
  for (const mir::Instruction &I : *MF.entry()) {
    if (I.opcode() != mir::Opcode::Alloca)
      continue;
    unsigned Size = mir::typeBits(I.auxType()) / 8;
    assert((Size == 4 || Size == 8) && "alloca of a type plain loads lack");
    Private.Slots.push_back({&I, uint32_t(At), Size});
    At = alignTo(At + Threads * Size, 8);
    if (At > UINT32_MAX)
      return error(I, "private variables need more than 4 GiB of local "
                      "memory for " +
                          Twine(Threads) + " threads");
  }
  Private.End = uint32_t(At);
  F().LocalMemory = Private.End;
  return Error::success();
}

void ISel::emitPrivatePrologue() {
  if (Private.Slots.empty())
    return;
  unsigned Tid = newGPR();
  emitLinearThreadId(
      *Out, Tid, Private.WorkgroupSize, [&] { return newGPR(); },
      "private slots: linear thread id");
  // One zero register (a zero pair if some slot is f64) for all slots.
  bool Any64 = any_of(Private.Slots,
                      [](const PrivateSlots::Slot &S) { return S.Size == 8; });
  unsigned Zero = newGPR(Any64 ? 2 : 1);
  for (unsigned K = 0; K != (Any64 ? 2 : 1); ++K)
    emit(Opcode::MovImm, {R(Zero, K), LOperand::imm(0)});
  for (const PrivateSlots::Slot &S : Private.Slots) {
    // Address = RegionBase + Tid * Size; temporaries are fresh registers,
    // not block constants, so that nothing but the addresses outlives the
    // prologue.
    unsigned A = def(*S.Alloca);
    unsigned Shift = newGPR();
    emit(Opcode::MovImm, {R(Shift), LOperand::imm(S.Size == 8 ? 3 : 2)});
    emit(Opcode::Shl, {R(A), R(Tid), R(Shift)});
    if (S.RegionBase) {
      unsigned Base = newGPR();
      emit(Opcode::MovImm, {R(Base), LOperand::imm(S.RegionBase)});
      emit(Opcode::Iadd, {R(A), R(A), R(Base)});
    }
    if (!S.Alloca->name().empty())
      Out->back().Comment = "%" + S.Alloca->name().str();
    if (S.Size == 8)
      emit(Opcode::LocalStoreU64, {R(A), R(Zero)});
    else
      emit(Opcode::LocalStoreU32, {R(A), R(Zero, 0)});
  }
}

void ISel::phiCopies(const BasicBlock &BB, BasicBlock &Succ) {
  for (const mir::Instruction &Phi : Succ) {
    if (!Phi.isPhi())
      break;
    const mir::Value *V = Phi.incomingFor(&BB);
    if (!V)
      continue;
    unsigned In = PhiIn.lookup(&Phi);
    if (const auto *C = dyn_cast<mir::Constant>(V)) {
      movConst(In, *C);
      continue;
    }
    copy(In, gpr(V));
  }
}

Error ISel::selectBlock(BasicBlock &BB, SelectedBlock &SB) {
  Out = &SB.Body;
  Const32.clear();
  Const64.clear();
  if (&BB == MF.entry())
    emitPrivatePrologue();
  // Every LIR instruction made for I carries I's source position.
  auto SetLoc = [&](size_t From, mir::Instruction::DebugLoc DL) {
    if (DL)
      for (size_t K = From; K != Out->size(); ++K) {
        (*Out)[K].Line = DL.Line;
        (*Out)[K].Col = DL.Col;
      }
  };
  for (const mir::Instruction &I : BB) {
    size_t Start = Out->size();
    if (I.isPhi()) {
      Out->push_back(LInst::copy(def(I), PhiIn.lookup(&I),
                                 I.name().empty() ? "" : "%" + I.name().str()));
      SetLoc(Start, I.debugLoc());
      continue;
    }
    if (I.opcode() == mir::Opcode::CondBr) {
      SB.CondVReg = pred(I.operand(0));
      SetLoc(Start, I.debugLoc());
      continue;
    }
    if (Error E = select(I))
      return E;
    SetLoc(Start, I.debugLoc());
    // Name the result on the last instruction that writes it.
    if (I.type() != Type::Void && !I.name().empty()) {
      unsigned D = def(I);
      for (size_t K = Out->size(); K-- > Start;) {
        LInst &LI = (*Out)[K];
        if (writesVReg(LI, D)) {
          LI.Comment = "%" + I.name().str();
          break;
        }
      }
    }
  }
  mir::Instruction::DebugLoc TermLoc;
  if (const mir::Instruction *T = BB.terminator())
    TermLoc = T->debugLoc();
  SB.TermLine = TermLoc.Line;
  SB.TermCol = TermLoc.Col;
  SmallVector<BasicBlock *, 2> Succs = distinctSuccs(&BB);
  size_t Start = Out->size();
  if (Succs.size() == 1)
    phiCopies(BB, *Succs[0]);
  SetLoc(Start, TermLoc);
  return Error::success();
}

//===----------------------------------------------------------------------===//
// Operations
//===----------------------------------------------------------------------===//

Error ISel::select(const mir::Instruction &I) {
  using mir::Opcode;
  switch (I.opcode()) {
  case Opcode::Add:
  case Opcode::Sub:
  case Opcode::Mul:
  case Opcode::MulHi:
  case Opcode::Mad:
  case Opcode::Div:
  case Opcode::Rem:
  case Opcode::Neg:
  case Opcode::Abs:
  case Opcode::Min:
  case Opcode::Max:
  case Opcode::Clamp:
  case Opcode::PtrAdd:
  case Opcode::And:
  case Opcode::Or:
  case Opcode::Xor:
  case Opcode::Not:
  case Opcode::Shl:
  case Opcode::LShr:
  case Opcode::AShr:
  case Opcode::PopCount:
  case Opcode::BitFind:
  case Opcode::BitRev:
  case Opcode::Bfe:
  case Opcode::Bfi:
    return selectInt(I);
  case Opcode::FAdd:
  case Opcode::FSub:
  case Opcode::FMul:
  case Opcode::FMa:
  case Opcode::FDiv:
  case Opcode::FNeg:
  case Opcode::FAbs:
  case Opcode::FMin:
  case Opcode::FMax:
  case Opcode::FClamp:
  case Opcode::FSqrt:
  case Opcode::FRsqrt:
  case Opcode::FRcp:
  case Opcode::FFloor:
  case Opcode::FCeil:
  case Opcode::FRound:
  case Opcode::FTrunc:
  case Opcode::FFract:
  case Opcode::FSat:
  case Opcode::FSin:
  case Opcode::FCos:
  case Opcode::FExp2:
  case Opcode::FLog2:
    return selectFloat(I);
  case Opcode::ICmp:
  case Opcode::FCmp: {
    unsigned D = def(I);
    if (F().VRegs[D].Class == RegClass::Pred) {
      selectCmp(I, D);
    } else {
      unsigned P = newPred();
      selectCmp(I, P);
      predToGPR(D, P);
    }
    return Error::success();
  }
  case Opcode::Select: {
    unsigned P = pred(I.operand(0));
    unsigned T = gpr(I.operand(1)), Fv = gpr(I.operand(2)), D = def(I);
    emit(wave::Opcode::Select, {R(D), R(P), R(T), R(Fv)});
    if (I.type() == Type::F64)
      emit(wave::Opcode::Select, {R(D, 1), R(P), R(T, 1), R(Fv, 1)});
    return Error::success();
  }
  case Opcode::Cvt:
  case Opcode::Bitcast:
    return selectCvt(I);
  case Opcode::Load:
  case Opcode::LoadU8:
  case Opcode::LoadU16:
  case Opcode::Store:
  case Opcode::StoreU8:
  case Opcode::StoreU16:
    return selectMemory(I);
  case Opcode::Alloca:
    // The slot's address was computed at the start of the entry block.
    return Error::success();
  case Opcode::AtomicAdd:
  case Opcode::AtomicSub:
  case Opcode::AtomicMin:
  case Opcode::AtomicMax:
  case Opcode::AtomicAnd:
  case Opcode::AtomicOr:
  case Opcode::AtomicXor:
  case Opcode::AtomicXchg:
  case Opcode::AtomicCas:
    return selectAtomic(I);
  case Opcode::WaveShuffle:
  case Opcode::WaveShuffleUp:
  case Opcode::WaveShuffleDown:
  case Opcode::WaveShuffleXor:
  case Opcode::WaveBroadcast:
  case Opcode::WaveBallot:
  case Opcode::WaveAny:
  case Opcode::WaveAll:
  case Opcode::WavePrefixSum:
  case Opcode::WaveReduceAdd:
  case Opcode::WaveReduceMin:
  case Opcode::WaveReduceMax:
    return selectWave(I);
  case Opcode::Barrier:
    emit(wave::Opcode::Barrier, {});
    return Error::success();
  case Opcode::FenceAcquire:
  case Opcode::FenceRelease:
  case Opcode::FenceAcqRel: {
    wave::Opcode Op = I.opcode() == Opcode::FenceAcquire
                          ? wave::Opcode::FenceAcquire
                      : I.opcode() == Opcode::FenceRelease
                          ? wave::Opcode::FenceRelease
                          : wave::Opcode::FenceAcqRel;
    emit(Op, {LOperand::scope(I.imms()[0])});
    return Error::success();
  }
  case Opcode::SReg:
    emit(wave::Opcode::MovSr, {R(def(I)), LOperand::special(I.imms()[0])});
    return Error::success();
  case Opcode::MmaLoadA:
  case Opcode::MmaLoadB:
    emit(I.opcode() == Opcode::MmaLoadA ? wave::Opcode::MmaLoadA
                                        : wave::Opcode::MmaLoadB,
         {LOperand::frag(I.imms()[0]), R(gpr(I.operand(0))),
          R(gpr(I.operand(1)))});
    return Error::success();
  case Opcode::MmaStoreC:
    emit(wave::Opcode::MmaStoreC, {R(gpr(I.operand(0))), R(gpr(I.operand(1))),
                                   LOperand::frag(I.imms()[0])});
    return Error::success();
  case Opcode::MmaCompute:
    emit(wave::Opcode::MmaCompute,
         {LOperand::frag(I.imms()[0]), LOperand::frag(I.imms()[1]),
          LOperand::frag(I.imms()[2])});
    return Error::success();
  case Opcode::Call:
    // compileModule inlines every call first (CodeGen.h); what is left
    // calls a declaration or a recursive function.
    if (I.callee() && I.callee()->isDeclaration())
      return selectCall(I);
    return error(I,
                 "call to '@" + (I.callee() ? I.callee()->name().str() : "?") +
                     "' cannot be inlined (the function is recursive); "
                     "wave-ra inlines every call because WAVE's "
                     "call/return act on whole waves (formats/isa.md §4.16)");
  case Opcode::Ret:
    // A device function's single ret (compileModule merged them) leaves
    // the result in r0 (r0, r1 for f64) for its `return`
    // (formats/wave-asm.md §9).
    if (!MF.isKernel() && I.numOperands()) {
      const mir::Value *V = I.operand(0);
      unsigned Res = F().newVReg(RegClass::GPR, regCount(V->type()), "result");
      F().VRegs[Res].Fixed = 0;
      moveValue(Res, V);
    }
    return Error::success();
  case Opcode::Phi:
  case Opcode::Br:
  case Opcode::CondBr:
    // Phis and condbr are handled by selectBlock; br is an SCFG edge and a
    // ret becomes a halt (a kernel) or return (a function) in the
    // structurizer.
    return Error::success();
  }
  return error(I, "operation '" + Twine(I.desc().Name) + "' has no lowering");
}

Error ISel::selectInt(const mir::Instruction &I) {
  using mir::Opcode;
  Type T = I.type();
  bool Signed = T == Type::I32;
  unsigned D = def(I);
  auto Op = [&](unsigned K) { return R(gpr(I.operand(K))); };
  auto Bin = [&](wave::Opcode WOp) {
    LOperand A = Op(0), B = Op(1);
    emit(WOp, {R(D), A, B});
    return Error::success();
  };
  auto Un = [&](wave::Opcode WOp) {
    LOperand A = Op(0);
    emit(WOp, {R(D), A});
    return Error::success();
  };
  switch (I.opcode()) {
  case Opcode::Add:
  case Opcode::PtrAdd:
    return Bin(wave::Opcode::Iadd);
  case Opcode::Sub:
    return Bin(wave::Opcode::Isub);
  case Opcode::Mul:
    return Bin(wave::Opcode::Imul);
  case Opcode::MulHi: {
    if (!Signed)
      return Bin(wave::Opcode::ImulHi);
    // The signed high word is the unsigned one minus (a < 0 ? b : 0) and
    // (b < 0 ? a : 0), modulo 2^32.
    unsigned A = gpr(I.operand(0)), B = gpr(I.operand(1));
    unsigned C31 = imm(31);
    unsigned H = newGPR(), SA = newGPR(), SB = newGPR(), MA = newGPR(),
             MB = newGPR(), T1 = newGPR();
    emit(wave::Opcode::ImulHi, {R(H), R(A), R(B)});
    emit(wave::Opcode::Sar, {R(SA), R(A), R(C31)});
    emit(wave::Opcode::And, {R(MA), R(SA), R(B)});
    emit(wave::Opcode::Sar, {R(SB), R(B), R(C31)});
    emit(wave::Opcode::And, {R(MB), R(SB), R(A)});
    emit(wave::Opcode::Isub, {R(T1), R(H), R(MA)});
    emit(wave::Opcode::Isub, {R(D), R(T1), R(MB)});
    return Error::success();
  }
  case Opcode::Mad: {
    LOperand A = Op(0), B = Op(1), C = Op(2);
    emit(wave::Opcode::Imad, {R(D), A, B, C});
    return Error::success();
  }
  case Opcode::Div:
  case Opcode::Rem:
    if (Signed)
      return Bin(I.opcode() == Opcode::Div ? wave::Opcode::Idiv
                                           : wave::Opcode::Imod);
    selectUDivRem(I, I.opcode() == Opcode::Rem);
    return Error::success();
  case Opcode::Neg:
    return Un(wave::Opcode::Ineg);
  case Opcode::Abs:
    if (Signed)
      return Un(wave::Opcode::Iabs);
    copy(D, gpr(I.operand(0))); // |x| of an unsigned value is x
    return Error::success();
  case Opcode::Min:
  case Opcode::Max: {
    bool IsMin = I.opcode() == Opcode::Min;
    if (Signed)
      return Bin(IsMin ? wave::Opcode::Imin : wave::Opcode::Imax);
    unsigned A = gpr(I.operand(0)), B = gpr(I.operand(1));
    unsigned P = newPred();
    emit(wave::Opcode::UcmpLt, {R(P), R(A), R(B)});
    emit(wave::Opcode::Select, {R(D), R(P), R(IsMin ? A : B), R(IsMin ? B : A)});
    return Error::success();
  }
  case Opcode::Clamp: {
    if (Signed) {
      LOperand A = Op(0), Lo = Op(1), Hi = Op(2);
      emit(wave::Opcode::Iclamp, {R(D), A, Lo, Hi});
      return Error::success();
    }
    // min(max(a, lo), hi), unsigned.
    unsigned A = gpr(I.operand(0)), Lo = gpr(I.operand(1)),
             Hi = gpr(I.operand(2));
    unsigned M = newGPR(), P1 = newPred();
    emit(wave::Opcode::UcmpLt, {R(P1), R(A), R(Lo)});
    emit(wave::Opcode::Select, {R(M), R(P1), R(Lo), R(A)});
    unsigned P2 = newPred();
    emit(wave::Opcode::UcmpLt, {R(P2), R(M), R(Hi)});
    emit(wave::Opcode::Select, {R(D), R(P2), R(M), R(Hi)});
    return Error::success();
  }
  case Opcode::And:
    return Bin(wave::Opcode::And);
  case Opcode::Or:
    return Bin(wave::Opcode::Or);
  case Opcode::Xor:
    return Bin(wave::Opcode::Xor);
  case Opcode::Not:
    if (T == Type::I1) {
      unsigned A = gpr(I.operand(0));
      emit(wave::Opcode::Xor, {R(D), R(A), R(imm(1))});
      return Error::success();
    }
    return Un(wave::Opcode::Not);
  case Opcode::Shl:
    return Bin(wave::Opcode::Shl);
  case Opcode::LShr:
    return Bin(wave::Opcode::Shr);
  case Opcode::AShr:
    return Bin(wave::Opcode::Sar);
  case Opcode::PopCount:
    return Un(wave::Opcode::Bitcount);
  case Opcode::BitFind:
    return Un(wave::Opcode::Bitfind);
  case Opcode::BitRev:
    return Un(wave::Opcode::Bitrev);
  case Opcode::Bfe: {
    LOperand A = Op(0), Off = Op(1), W = Op(2);
    emit(wave::Opcode::Bfe, {R(D), A, Off, W});
    return Error::success();
  }
  case Opcode::Bfi: {
    // MIR and WAVE agree on the order: base, insert, offset, width.
    LOperand Base = Op(0), Ins = Op(1), Off = Op(2), W = Op(3);
    emit(wave::Opcode::Bfi, {R(D), Base, Ins, Off, W});
    return Error::success();
  }
  default:
    return error(I, "unexpected integer operation");
  }
}

void ISel::selectUDivRem(const mir::Instruction &I, bool Rem) {
  // WAVE divides only signed. For b < 2^31: q0 = 2 * (int(a >> 1) / int(b))
  // leaves a remainder a - q0*b in [0, 2b), so one correction step gives
  // the quotient. For b >= 2^31 the quotient is a >= b. b == 0 gives 0
  // (formats/mir.md) for both the quotient and the remainder.
  unsigned A = gpr(I.operand(0)), B = gpr(I.operand(1));
  unsigned Zero = imm(0), One = imm(1);
  unsigned Half = newGPR(), Q0 = newGPR(), Q0x2 = newGPR(), Prod = newGPR(),
           R0 = newGPR(), Inc = newGPR(), QLo = newGPR(), QHi = newGPR(),
           Q = newGPR();
  emit(wave::Opcode::Shr, {R(Half), R(A), R(One)});
  emit(wave::Opcode::Idiv, {R(Q0), R(Half), R(B)});
  emit(wave::Opcode::Shl, {R(Q0x2), R(Q0), R(One)});
  emit(wave::Opcode::Imul, {R(Prod), R(Q0x2), R(B)});
  emit(wave::Opcode::Isub, {R(R0), R(A), R(Prod)});
  unsigned PGe = newPred();
  emit(wave::Opcode::UcmpLe, {R(PGe), R(B), R(R0)}); // r0 >= b
  emit(wave::Opcode::Select, {R(Inc), R(PGe), R(One), R(Zero)});
  emit(wave::Opcode::Iadd, {R(QLo), R(Q0x2), R(Inc)});
  unsigned PHiGe = newPred();
  emit(wave::Opcode::UcmpLe, {R(PHiGe), R(B), R(A)}); // a >= b
  emit(wave::Opcode::Select, {R(QHi), R(PHiGe), R(One), R(Zero)});
  unsigned PBig = newPred();
  emit(wave::Opcode::IcmpLt, {R(PBig), R(B), R(Zero)}); // b >= 2^31
  emit(wave::Opcode::Select, {R(Q), R(PBig), R(QHi), R(QLo)});
  unsigned Result = Q;
  if (Rem) {
    unsigned QB = newGPR();
    Result = newGPR();
    emit(wave::Opcode::Imul, {R(QB), R(Q), R(B)});
    emit(wave::Opcode::Isub, {R(Result), R(A), R(QB)});
  }
  unsigned PZero = newPred();
  emit(wave::Opcode::IcmpEq, {R(PZero), R(B), R(Zero)});
  emit(wave::Opcode::Select, {R(def(I)), R(PZero), R(Zero), R(Result)});
}

void ISel::selectCmp(const mir::Instruction &I, unsigned P) {
  unsigned A = gpr(I.operand(0)), B = gpr(I.operand(1));
  bool Swap = false;
  wave::Opcode Op = wave::Opcode::Nop;
  CmpPred Pr = I.cmpPred();
  if (I.opcode() == mir::Opcode::FCmp) {
    switch (Pr) {
    case CmpPred::Eq:
      Op = wave::Opcode::FcmpEq;
      break;
    case CmpPred::Ne:
      Op = wave::Opcode::FcmpNe;
      break;
    case CmpPred::Lt:
      Op = wave::Opcode::FcmpLt;
      break;
    case CmpPred::Le:
      Op = wave::Opcode::FcmpLe;
      break;
    case CmpPred::Gt:
      Op = wave::Opcode::FcmpGt;
      break;
    case CmpPred::Ge: // no fcmp_ge in the reference (formats/isa.md D19)
      Op = wave::Opcode::FcmpLe;
      Swap = true;
      break;
    case CmpPred::Ord:
      Op = wave::Opcode::FcmpOrd;
      break;
    case CmpPred::Unord:
      Op = wave::Opcode::FcmpUnord;
      break;
    }
  } else if (I.auxType() == Type::I32) {
    static const wave::Opcode Signed[] = {
        wave::Opcode::IcmpEq, wave::Opcode::IcmpNe, wave::Opcode::IcmpLt,
        wave::Opcode::IcmpLe, wave::Opcode::IcmpGt, wave::Opcode::IcmpGe};
    Op = Signed[std::min(unsigned(Pr), 5u)];
  } else {
    // Unsigned: only ucmp_lt/ucmp_le exist in the reference (formats/isa.md
    // D19); equality is sign-agnostic.
    switch (Pr) {
    case CmpPred::Eq:
      Op = wave::Opcode::IcmpEq;
      break;
    case CmpPred::Ne:
      Op = wave::Opcode::IcmpNe;
      break;
    case CmpPred::Lt:
      Op = wave::Opcode::UcmpLt;
      break;
    case CmpPred::Le:
      Op = wave::Opcode::UcmpLe;
      break;
    case CmpPred::Gt:
      Op = wave::Opcode::UcmpLt;
      Swap = true;
      break;
    default: // Ge; ord/unord are rejected by the parser for icmp
      Op = wave::Opcode::UcmpLe;
      Swap = true;
      break;
    }
  }
  if (Swap)
    std::swap(A, B);
  emit(Op, {R(P), R(A), R(B)});
}

Error ISel::selectFloat(const mir::Instruction &I) {
  using mir::Opcode;
  Type T = I.type();
  unsigned D = def(I);
  SmallVector<LOperand, 3> Ops;
  Ops.push_back(R(D));
  for (const mir::Value *V : I.operands())
    Ops.push_back(R(gpr(V)));
  auto Emit = [&](wave::Opcode Op) {
    LInst L;
    L.Op = Op;
    L.Ops.assign(Ops.begin(), Ops.end());
    Out->push_back(std::move(L));
    return Error::success();
  };
  // Per type: add, sub, mul, fma (Nop: no instruction).
  struct Row {
    wave::Opcode Add, Sub, Mul, Ma;
  };
  const Row *Rw = nullptr;
  static const Row F32 = {wave::Opcode::Fadd, wave::Opcode::Fsub,
                          wave::Opcode::Fmul, wave::Opcode::Fma};
  static const Row F16 = {wave::Opcode::Hadd, wave::Opcode::Hsub,
                          wave::Opcode::Hmul, wave::Opcode::Hma};
  static const Row BF16 = {wave::Opcode::Badd, wave::Opcode::Bsub,
                           wave::Opcode::Bmul, wave::Opcode::Bma};
  static const Row V2F16 = {wave::Opcode::Hadd2, wave::Opcode::Nop,
                            wave::Opcode::Hmul2, wave::Opcode::Hma2};
  static const Row V2BF16 = {wave::Opcode::Badd2, wave::Opcode::Nop,
                             wave::Opcode::Bmul2, wave::Opcode::Bma2};
  static const Row F64 = {wave::Opcode::Dadd, wave::Opcode::Dsub,
                          wave::Opcode::Dmul, wave::Opcode::Dma};
  switch (T) {
  case Type::F32:
    Rw = &F32;
    break;
  case Type::F16:
    Rw = &F16;
    break;
  case Type::BF16:
    Rw = &BF16;
    break;
  case Type::V2F16:
    Rw = &V2F16;
    break;
  case Type::V2BF16:
    Rw = &V2BF16;
    break;
  case Type::F64:
    Rw = &F64;
    break;
  default:
    return error(I, "unexpected type of a floating-point operation");
  }
  switch (I.opcode()) {
  case Opcode::FAdd:
    return Emit(Rw->Add);
  case Opcode::FSub:
    if (Rw->Sub == wave::Opcode::Nop) {
      // a - b = a + (-b): flip both sign bits of b.
      unsigned NegB = newGPR();
      emit(wave::Opcode::Xor, {R(NegB), Ops[2], R(imm(0x80008000u))});
      Ops[2] = R(NegB);
      return Emit(Rw->Add);
    }
    return Emit(Rw->Sub);
  case Opcode::FMul:
    return Emit(Rw->Mul);
  case Opcode::FMa:
    return Emit(Rw->Ma);
  case Opcode::FDiv:
    return Emit(T == Type::F64 ? wave::Opcode::Ddiv : wave::Opcode::Fdiv);
  case Opcode::FSqrt:
    return Emit(T == Type::F64 ? wave::Opcode::Dsqrt : wave::Opcode::Fsqrt);
  default:
    break;
  }
  if (T != Type::F32)
    return error(I, "unexpected type of a floating-point operation");
  switch (I.opcode()) {
  case Opcode::FNeg:
    return Emit(wave::Opcode::Fneg);
  case Opcode::FAbs:
    return Emit(wave::Opcode::Fabs);
  case Opcode::FMin:
    return Emit(wave::Opcode::Fmin);
  case Opcode::FMax:
    return Emit(wave::Opcode::Fmax);
  case Opcode::FClamp:
    return Emit(wave::Opcode::Fclamp);
  case Opcode::FRsqrt:
    return Emit(wave::Opcode::Frsqrt);
  case Opcode::FRcp:
    return Emit(wave::Opcode::Frcp);
  case Opcode::FFloor:
    return Emit(wave::Opcode::Ffloor);
  case Opcode::FCeil:
    return Emit(wave::Opcode::Fceil);
  case Opcode::FRound:
    return Emit(wave::Opcode::Fround);
  case Opcode::FTrunc:
    return Emit(wave::Opcode::Ftrunc);
  case Opcode::FFract:
    return Emit(wave::Opcode::Ffract);
  case Opcode::FSat:
    return Emit(wave::Opcode::Fsat);
  case Opcode::FSin:
    return Emit(wave::Opcode::Fsin);
  case Opcode::FCos:
    return Emit(wave::Opcode::Fcos);
  case Opcode::FExp2:
    return Emit(wave::Opcode::Fexp2);
  case Opcode::FLog2:
    return Emit(wave::Opcode::Flog2);
  default:
    return error(I, "unexpected floating-point operation");
  }
}

Error ISel::selectCvt(const mir::Instruction &I) {
  Type From = I.auxType(), To = I.type();
  unsigned D = def(I);
  unsigned A = gpr(I.operand(0));
  if (I.opcode() == mir::Opcode::Bitcast || From == Type::I1) {
    // Same bits (bitcast), or the 0/1 register of an i1.
    copy(D, A);
    return Error::success();
  }
  auto Is = [&](Type F, Type T) { return From == F && To == T; };
  wave::Opcode Op;
  if (Is(Type::I32, Type::F32))
    Op = wave::Opcode::CvtF32I32;
  else if (Is(Type::U32, Type::F32))
    Op = wave::Opcode::CvtF32U32;
  else if (Is(Type::F32, Type::I32))
    Op = wave::Opcode::CvtI32F32;
  else if (Is(Type::F32, Type::U32))
    Op = wave::Opcode::CvtU32F32;
  else if (Is(Type::F16, Type::F32))
    Op = wave::Opcode::CvtF32F16;
  else if (Is(Type::F32, Type::F16))
    Op = wave::Opcode::CvtF16F32;
  else if (Is(Type::F64, Type::F32))
    Op = wave::Opcode::CvtF32F64;
  else if (Is(Type::F32, Type::F64))
    Op = wave::Opcode::CvtF64F32;
  else if (Is(Type::BF16, Type::F32))
    Op = wave::Opcode::CvtF32Bf16;
  else if (Is(Type::F32, Type::BF16))
    Op = wave::Opcode::CvtBf16F32;
  else
    return error(I, "cannot convert '" + mir::typeName(From) + "' to '" +
                        mir::typeName(To) + "'");
  emit(Op, {R(D), R(A)});
  return Error::success();
}

Error ISel::selectMemory(const mir::Instruction &I) {
  using mir::Opcode;
  Type PtrTy = I.auxType();
  bool IsStore = I.opcode() == Opcode::Store || I.opcode() == Opcode::StoreU8 ||
                 I.opcode() == Opcode::StoreU16;
  if (PtrTy != Type::PtrDevice && PtrTy != Type::PtrLocal &&
      PtrTy != Type::PtrPrivate)
    return error(I, "unexpected address type '" + mir::typeName(PtrTy) + "'");
  // A ptr<private> is a local-memory address (PrivateSlots).
  bool Local = PtrTy != Type::PtrDevice;
  Type ValTy = IsStore ? I.operand(0)->type() : I.type();
  // Width: 0 u8, 1 u16, 2 u32, 3 u64.
  unsigned W;
  switch (I.opcode()) {
  case Opcode::LoadU8:
  case Opcode::StoreU8:
    W = 0;
    break;
  case Opcode::LoadU16:
  case Opcode::StoreU16:
    W = 1;
    break;
  default:
    W = ValTy == Type::F64 ? 3 : 2;
    break;
  }
  static const wave::Opcode Loads[2][4] = {
      {wave::Opcode::DeviceLoadU8, wave::Opcode::DeviceLoadU16,
       wave::Opcode::DeviceLoadU32, wave::Opcode::DeviceLoadU64},
      {wave::Opcode::LocalLoadU8, wave::Opcode::LocalLoadU16,
       wave::Opcode::LocalLoadU32, wave::Opcode::LocalLoadU64}};
  static const wave::Opcode Stores[2][4] = {
      {wave::Opcode::DeviceStoreU8, wave::Opcode::DeviceStoreU16,
       wave::Opcode::DeviceStoreU32, wave::Opcode::DeviceStoreU64},
      {wave::Opcode::LocalStoreU8, wave::Opcode::LocalStoreU16,
       wave::Opcode::LocalStoreU32, wave::Opcode::LocalStoreU64}};
  if (IsStore) {
    unsigned V = gpr(I.operand(0)), Addr = gpr(I.operand(1));
    emit(Stores[Local][W], {R(Addr), R(V)});
  } else {
    unsigned Addr = gpr(I.operand(0));
    emit(Loads[Local][W], {R(def(I)), R(Addr)});
  }
  return Error::success();
}

Error ISel::selectAtomic(const mir::Instruction &I) {
  using mir::Opcode;
  bool Local = I.auxType() == Type::PtrLocal;
  if (!Local && I.auxType() != Type::PtrDevice)
    return error(I, "atomics need a device or local pointer");
  if ((I.opcode() == Opcode::AtomicMin || I.opcode() == Opcode::AtomicMax) &&
      I.type() == Type::I32)
    return error(
        I, "WAVE has no signed atomic " +
               Twine(I.opcode() == Opcode::AtomicMin ? "min" : "max") +
               " (formats/isa.md D32); use u32 or a compare-and-swap loop");
  wave::Opcode Op;
  switch (I.opcode()) {
#define ATOMIC(M, W)                                                           \
  case Opcode::M:                                                              \
    Op = Local ? wave::Opcode::LocalAtomic##W : wave::Opcode::Atomic##W;       \
    break;
    ATOMIC(AtomicAdd, Add)
    ATOMIC(AtomicSub, Sub)
    ATOMIC(AtomicMin, Min)
    ATOMIC(AtomicMax, Max)
    ATOMIC(AtomicAnd, And)
    ATOMIC(AtomicOr, Or)
    ATOMIC(AtomicXor, Xor)
    ATOMIC(AtomicXchg, Xchg)
    ATOMIC(AtomicCas, Cas)
#undef ATOMIC
  default:
    return error(I, "unexpected atomic operation");
  }
  LInst L;
  L.Op = Op;
  if (I.hasUses()) {
    unsigned D = def(I);
    F().VRegs[D].NoR0 = true;
    L.Ops.push_back(R(D));
  }
  // Address, then the value (or compare and new value: formats/isa.md D3
  // default, compare in rs2, store rs3).
  SmallVector<unsigned, 3> Regs;
  for (const mir::Value *V : I.operands())
    Regs.push_back(gpr(V));
  for (unsigned Reg : Regs)
    L.Ops.push_back(R(Reg));
  if (!Local)
    L.Ops.push_back(LOperand::scope(I.imms()[0]));
  Out->push_back(std::move(L));
  return Error::success();
}

Error ISel::selectWave(const mir::Instruction &I) {
  using mir::Opcode;
  unsigned D = def(I);
  switch (I.opcode()) {
  case Opcode::WaveShuffle:
  case Opcode::WaveShuffleUp:
  case Opcode::WaveShuffleDown:
  case Opcode::WaveShuffleXor:
  case Opcode::WaveBroadcast: {
    wave::Opcode Op = I.opcode() == Opcode::WaveShuffle
                          ? wave::Opcode::WaveShuffle
                      : I.opcode() == Opcode::WaveShuffleUp
                          ? wave::Opcode::WaveShuffleUp
                      : I.opcode() == Opcode::WaveShuffleDown
                          ? wave::Opcode::WaveShuffleDown
                      : I.opcode() == Opcode::WaveShuffleXor
                          ? wave::Opcode::WaveShuffleXor
                          : wave::Opcode::WaveBroadcast;
    unsigned V = gpr(I.operand(0)), Lane = gpr(I.operand(1));
    emit(Op, {R(D), R(V), R(Lane)});
    return Error::success();
  }
  case Opcode::WaveBallot:
    emit(wave::Opcode::WaveBallot, {R(D), R(pred(I.operand(0)))});
    return Error::success();
  case Opcode::WaveAny:
  case Opcode::WaveAll: {
    wave::Opcode Op = I.opcode() == Opcode::WaveAny ? wave::Opcode::WaveAny
                                                    : wave::Opcode::WaveAll;
    unsigned Src = pred(I.operand(0));
    if (F().VRegs[D].Class == RegClass::Pred) {
      emit(Op, {R(D), R(Src)});
    } else {
      unsigned P = newPred();
      emit(Op, {R(P), R(Src)});
      predToGPR(D, P);
    }
    return Error::success();
  }
  case Opcode::WavePrefixSum:
    emit(wave::Opcode::WavePrefixSum, {R(D), R(gpr(I.operand(0)))});
    return Error::success();
  case Opcode::WaveReduceAdd:
    emit(wave::Opcode::WaveReduceAdd, {R(D), R(gpr(I.operand(0)))});
    return Error::success();
  case Opcode::WaveReduceMin:
  case Opcode::WaveReduceMax: {
    wave::Opcode Op = I.opcode() == Opcode::WaveReduceMin
                          ? wave::Opcode::WaveReduceMin
                          : wave::Opcode::WaveReduceMax;
    unsigned A = gpr(I.operand(0));
    if (I.type() != Type::I32) {
      emit(Op, {R(D), R(A)});
      return Error::success();
    }
    // WAVE reduces unsigned: flipping the sign bit maps the signed order
    // onto the unsigned one.
    unsigned Bias = imm(0x80000000u), T = newGPR(), U = newGPR();
    emit(wave::Opcode::Xor, {R(T), R(A), R(Bias)});
    emit(Op, {R(U), R(T)});
    emit(wave::Opcode::Xor, {R(D), R(U), R(Bias)});
    return Error::success();
  }
  default:
    return error(I, "unexpected wave operation");
  }
}

/// A call of a declaration (formats/wave-asm.md §9): each argument is
/// moved into its own call-slot register (one slot each, two for f64, in
/// parameter order; i1 as 0/1, f16/bf16 in the low bits as they are held),
/// the `call` reads them and defines the result slot (slot 0), and the
/// result is moved out of it. The allocator places the slots at r(B...)
/// above everything else and keeps no predicate live across the call.
Error ISel::selectCall(const mir::Instruction &I) {
  const mir::Function *Callee = I.callee();
  auto NewSlot = [&](unsigned Slot, unsigned Size, const Twine &Name) {
    unsigned V = F().newVReg(RegClass::GPR, Size, Name.str());
    F().VRegs[V].CallSlot = int16_t(Slot);
    return V;
  };
  std::string Name = Callee->name().str();
  auto It = llvm::find(F().Callees, Name);
  unsigned CalleeIdx = It - F().Callees.begin();
  if (It == F().Callees.end())
    F().Callees.push_back(Name);

  SmallVector<unsigned, 4> Args;
  unsigned Slot = 0;
  for (unsigned K = 0; K != I.numOperands(); ++K) {
    const mir::Value *V = I.operand(K);
    unsigned Size = regCount(V->type());
    unsigned S = NewSlot(Slot, Size, Name + ".arg" + Twine(K));
    moveValue(S, V);
    Out->back().Comment = "argument " + std::to_string(K) + " of @" + Name;
    Args.push_back(S);
    Slot += Size;
  }
  LInst Call;
  Call.Op = wave::Opcode::Call;
  Call.Ops.push_back(LOperand::label(CalleeIdx));
  unsigned Result = ~0u, ResultSize = 0;
  if (I.type() != Type::Void) {
    ResultSize = regCount(I.type());
    Result = NewSlot(0, ResultSize, Name + ".result");
    Call.Ops.push_back(R(Result));
    Call.CallResults = 1;
  }
  for (unsigned S : Args)
    Call.Ops.push_back(R(S));
  Out->push_back(std::move(Call));
  F().CallSlots = std::max({F().CallSlots, Slot, ResultSize});
  // The result: a 0/1 register for an i1 (made a predicate where one is
  // needed, like any i1 that lives in a general register).
  if (Result != ~0u)
    copy(def(I), Result);
  return Error::success();
}

SCFG buildSCFG(const mir::Function &F) {
  SCFG G;
  unsigned N = F.numBlocks();
  DenseMap<const BasicBlock *, unsigned> NodeOf;
  for (unsigned K = 0; K != N; ++K)
    NodeOf[F.blocks()[K].get()] = K;
  DenseMap<const BasicBlock *, std::string> Labels = blockLabels(F);
  G.Succs.resize(N);
  G.Names.resize(N);
  for (unsigned K = 0; K != N; ++K) {
    const BasicBlock &BB = *F.blocks()[K];
    G.Names[K] = "^" + Labels[&BB];
    for (BasicBlock *S : BB.successors())
      G.Succs[K].push_back(NodeOf.lookup(S));
  }
  return G;
}

Expected<SelectedFunction> selectInstructions(mir::Function &F) {
  return ISel(F).run();
}

} // namespace wave::codegen
