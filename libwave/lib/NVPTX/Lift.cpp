//===- Lift.cpp - WAVE kernels to LLVM IR in per-thread SIMT form ---------===//
//
// One WAVE kernel becomes one `ptx_kernel` function (formats/nvptx-abi.md).
// The instruction stream is walked once, in order, with the control frames
// (formats/isa.md §4.15) on a stack known at translation time: calls are
// inlined, so the frames of an `if` or a `loop` are allocas of their own.
// Every mask (active, exited, a frame's entry, else and break masks) is a
// warp-uniform i32 that each thread computes identically from ballots, so
// every branch the lifter emits on a mask is uniform across the warp: the
// warp stays converged, and shuffles and ballots always run with all 32
// lanes, which is what WAVE's "read a source lane whether it is active or
// not" needs (formats/isa.md §4.14). The only divergent branches are around
// one lane's memory access.
//
// The semantics are the reference emulator's in the default mode:
// formats/isa.md §4 with the D-items of §8 (libwave/lib/Emu/Interpreter.cpp is
// the executable statement of them).
//
//===----------------------------------------------------------------------===//

#include "Lift.h"

#include "wave/ISA/ISA.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/IR/PatternMatch.h"

#include <array>
#include <map>
#include <optional>
#include <set>

using namespace llvm;
using namespace llvm::PatternMatch;

namespace wave::nvptx::detail {

namespace {

constexpr unsigned MaxControlDepth = 32; // formats/isa.md §4.15
constexpr unsigned MaxCallDepth = 8;     // formats/isa.md §4.16
/// Instructions the lifter walks per kernel, calls inlined; past this the
/// kernel is refused rather than translated slowly.
constexpr unsigned MaxLiftedInsts = 1 << 16;
/// How far the lifter looks ahead for a region's end when deciding whether
/// an empty region may be jumped over.
constexpr unsigned MaxRegionScan = 4096;

Error err(const KernelInfo &K, uint32_t PC, const Twine &Msg) {
  return make_error<TranslateError>(K.Name, PC, Msg.str());
}

/// Instructions that act on the whole wave even under an empty mask
/// (formats/isa.md §4.15 "Instructions in a region not taken"): a region
/// holding one of them cannot be jumped over.
bool actsOnWholeWave(Opcode Op) {
  return Op == Opcode::Barrier || Op == Opcode::Halt || Op == Opcode::Return ||
         Op == Opcode::Call;
}

class Lifter {
public:
  Lifter(const WbinFile &File, unsigned Index, const KernelABI &ABI, Module &M)
      : File(File), K(File.Kernels[Index]), ABI(ABI), M(M), C(M.getContext()),
        B(C), EB(C) {}

  Error run();

private:
  const WbinFile &File;
  const KernelInfo &K;
  const KernelABI &ABI;
  Module &M;
  LLVMContext &C;
  IRBuilder<> B;  ///< the code.
  IRBuilder<> EB; ///< the entry block: allocas and per-thread constants.

  Function *Fn = nullptr;
  BasicBlock *EntryBB = nullptr;
  Type *I1 = nullptr, *I8 = nullptr, *I16 = nullptr, *I32 = nullptr,
       *I64 = nullptr, *F16 = nullptr, *F32 = nullptr, *F64 = nullptr;
  unsigned NumRegs = 32;
  uint32_t PC = 0; ///< the instruction being lifted, for diagnostics.
  unsigned Lifted = 0;

  std::array<AllocaInst *, 256> Regs{};
  std::array<AllocaInst *, 4> Preds{};
  std::map<std::pair<unsigned, unsigned>, AllocaInst *> Frags;
  AllocaInst *Active = nullptr, *Exited = nullptr;
  Value *Live = nullptr, *Lane = nullptr, *LaneBit = nullptr, *Linear = nullptr,
        *Threads = nullptr;
  std::array<Value *, 3> Tid{}, WG{};
  Value *DevBase = nullptr, *DevSize = nullptr, *LocalSize = nullptr;
  GlobalVariable *LocalMem = nullptr;

  /// A control frame (formats/isa.md §4.15): an IF's entry and else masks,
  /// or a LOOP's entry and break masks.
  struct Frame {
    bool IsLoop = false;
    AllocaInst *Entry = nullptr, *Other = nullptr;
    BasicBlock *Header = nullptr; ///< LOOP: the first block of the body.
    /// IF: the block the open region jumps to when it runs with an empty
    /// mask (the `else` or `endif`), or null.
    BasicBlock *Skip = nullptr;
  };
  std::vector<Frame> Frames;
  /// An inlined call: where `return` goes, and the frame depth at entry.
  struct CallSite {
    BasicBlock *Cont;
    size_t FrameBase;
  };
  std::vector<CallSite> Calls;

  // --- Setup -------------------------------------------------------------
  void createFunction();
  void zeroLocalMemory();

  // --- Walking -----------------------------------------------------------
  Expected<Inst> decodeAt(uint32_t At) const;
  Error walk(uint32_t Start);
  Expected<uint32_t> liftSegment(uint32_t Start);
  /// Set while lifting the full-wave version of a segment.
  bool FullWave = false;

  /// A speculative chunk of a segment's full-wave version (formats/
  /// nvptx-abi.md "Full-wave fast path"): a run of ALU, compare and
  /// unpredicated load/store instructions whose register values live in SSA
  /// values, committed to the register slots at its end, and whose memory
  /// accesses are checked all at once in its head, before any of them
  /// runs. When a check fails, the head branches to the general version of
  /// the segment at the chunk's first instruction instead, which finds the
  /// registers as they were and does each access the careful way.
  struct Chunk {
    BasicBlock *Head = nullptr, *Body = nullptr, *Fallback = nullptr;
    /// Register r (0-255) or predicate p (256 + p): its value in the chunk.
    std::map<unsigned, Value *> Vals;
    std::set<unsigned> Dirty; ///< written in the chunk.
    /// The accesses at Base + a constant, Base the sum of Terms: bytes
    /// [Lo, Hi) from Base, wrapping at 2^32, all aligned iff (Base &
    /// AlignMask) == AlignRes.
    struct Span {
      bool Local;
      SmallVector<Value *, 4> Terms; ///< in the order the address adds them.
      SmallVector<Value *, 4> Key;   ///< sorted, to compare spans.
      int64_t Lo, Hi;
      uint32_t AlignMask, AlignRes;
    };
    SmallVector<Span, 4> Spans;
  };
  std::optional<Chunk> Open;
  void openChunk(BasicBlock *Fallback);
  void closeChunk();
  /// Whether the speculative chunk can take \p I.
  bool chunkable(const Inst &I) const;
  /// The value of register or predicate \p Key in the open chunk, read at
  /// its head on first use.
  Value *chunkValue(unsigned Key, Type *Ty, AllocaInst *Slot);
  /// Adds an access of \p Bytes bytes at \p Addr to the open chunk's
  /// checks; false when the address is not Base + constant with Base known
  /// at the head, or cannot share its span's alignment.
  bool addChunkAccess(bool Local, Value *Addr, unsigned Bytes);
  /// The unchecked access of the chunk: in bounds and aligned.
  /// A load or store instruction's memory, direction and access type.
  struct MemOp {
    bool Local, Store;
    unsigned Bytes;
    Type *Ty;
  };
  MemOp memOp(const Inst &I) const;
  /// The value a store instruction writes, as its MemOp's type.
  Value *storeValue(const Inst &I, const MemOp &M);
  /// Writes loaded \p V to the destination registers (in lanes with \p Ex).
  void setLoaded(const Inst &I, const MemOp &M, Value *V, Value *Ex);
  /// \p Fallback: the general version at \p I, where a chunk that
  /// starts at \p I falls back to.
  void liftChunkMemory(const Inst &I, BasicBlock *Fallback);
  Expected<bool> regionSkippable(uint32_t After) const;
  void startBlock(const Twine &Name);
  BasicBlock *newBlock(const Twine &Name) {
    return BasicBlock::Create(C, Name, Fn);
  }

  // --- State -------------------------------------------------------------
  AllocaInst *slot(Type *Ty, const Twine &Name);
  /// Register \p R's slot, created (holding its initial value) on first
  /// use.
  AllocaInst *regSlot(unsigned R);
  Value *reg(unsigned R);
  void setReg(unsigned R, Value *V, Value *Ex);
  Value *regF(unsigned R) { return B.CreateBitCast(reg(R), F32); }
  Value *regD(unsigned R);
  void setRegD(unsigned R, Value *V, Value *Ex);
  Value *pred(unsigned P);
  void setPred(unsigned P, Value *V, Value *Ex);
  Value *active() { return B.CreateLoad(I32, Active, "active"); }
  Value *exited() { return B.CreateLoad(I32, Exited, "exited"); }
  AllocaInst *frag(unsigned Table, unsigned Id);

  /// The lane's bit of \p Mask, as i1.
  Value *laneIn(Value *Mask) {
    return B.CreateICmpNE(B.CreateAnd(Mask, LaneBit), B.getInt32(0));
  }
  /// Whether this lane executes \p I: active, and its predicate holds.
  Value *exec(const Inst &I);
  /// The lanes executing \p I, as a warp-uniform mask.
  Value *execMask(const Inst &I);
  Value *ballot(Value *Bit);
  Value *shuffleIdx(Value *V, Value *SrcLane);

  // --- Instruction groups --------------------------------------------------
  Error liftInst(const Inst &I);
  Error liftControl(const Inst &I, uint32_t Next, bool &Stop);
  void liftALU(const Inst &I);
  void liftCompare(const Inst &I);
  void liftMemory(const Inst &I);
  void liftAtomic(const Inst &I);
  void liftWave(const Inst &I);
  void liftMMA(const Inst &I);
  void liftSync(const Inst &I);
  Value *special(unsigned Index);

  /// Runs \p Body in a block entered only by lanes with \p Ex set; \p Body
  /// returns the value it produces (or null), merged with \p Else.
  Value *guarded(Value *Ex, Type *Ty, Value *Else,
                 function_ref<Value *()> Body);
  /// Bounds check of an access of \p Bytes bytes at \p Addr: traps when it
  /// leaves the memory (formats/isa.md §4.12).
  void checkBounds(bool Local, Value *Addr, unsigned Bytes);
  Value *address(bool Local, Value *Addr);
  /// A load or store of \p Ty at a 32-bit WAVE address, any alignment.
  Value *loadAny(bool Local, Value *Addr, Type *Ty, unsigned Bytes);
  void storeAny(bool Local, Value *Addr, Value *V, unsigned Bytes);
  void warpSync();
  /// Runs \p Body in each lane with \p Ex set, one lane after the other in
  /// ascending order; returns the value Body gave this lane (Ty) or null.
  Value *inLaneOrder(Value *Ex, Type *Ty, function_ref<Value *()> Body);
  /// Orders this access after the wave's earlier stores (a warp barrier
  /// when one may still be pending).
  void orderAfterStores() {
    if (PendingStore)
      warpSync();
    PendingStore = false;
  }
  /// A store of the wave may not yet be ordered before later accesses of
  /// other lanes.
  bool PendingStore = false;
  /// The kernel stores to memory somewhere (a control-flow join may bring
  /// a pending store along).
  bool HasStores = false;
  void trap();
  /// The wave leaves when all its live lanes have exited (D8 default).
  void endWaveIfDone(bool ActiveOnly);

  // --- Float helpers -------------------------------------------------------
  Value *sinCos(Value *X, bool Cos);
  Value *exp2(Value *X);
  Value *log2(Value *X);
  Value *fclamp(Value *A, Value *Lo, Value *Hi);
  /// A NaN made quiet, keeping its payload (x86's libm does so).
  Value *quietNaN(Value *X) {
    return B.CreateBitCast(B.CreateOr(B.CreateBitCast(X, I32), 0x00400000),
                           F32);
  }
  Value *h2f(Value *Bits);
  Value *f2h(Value *F);
  Value *b2f(Value *Bits);
  Value *f2b(Value *F);
};

//===----------------------------------------------------------------------===//
// Setup
//===----------------------------------------------------------------------===//

void Lifter::createFunction() {
  I1 = B.getInt1Ty();
  I8 = B.getInt8Ty();
  I16 = B.getInt16Ty();
  I32 = B.getInt32Ty();
  I64 = B.getInt64Ty();
  F16 = B.getHalfTy();
  F32 = B.getFloatTy();
  F64 = B.getDoubleTy();
  NumRegs = K.RegisterCount ? std::min<uint32_t>(K.RegisterCount, 256) : 32;

  // (base, r0..rN-1, device size, local size, wg x, y, z): KernelABI.
  SmallVector<Type *, 40> Params{I64};
  Params.append(ABI.NumRegParams, I32);
  Params.append({I64, I32, I32, I32, I32});
  auto *FT = FunctionType::get(B.getVoidTy(), Params, false);
  Fn = Function::Create(FT, GlobalValue::ExternalLinkage, ABI.Symbol, M);
  Fn->setCallingConv(CallingConv::PTX_Kernel);
  Fn->addFnAttr(Attribute::NoUnwind);
  // A WAVE loop may legitimately never end (the instruction limit stops
  // it on the emulator), so no `mustprogress`.
  unsigned A = 0;
  Fn->getArg(A++)->setName("device_base");
  for (unsigned R = 0; R < ABI.NumRegParams; ++R)
    Fn->getArg(A++)->setName("r" + Twine(R));
  Fn->getArg(A++)->setName("device_size");
  Fn->getArg(A++)->setName("local_size");
  for (char D : {'x', 'y', 'z'})
    Fn->getArg(A++)->setName(std::string("wg_") + D);

  EntryBB = BasicBlock::Create(C, "entry", Fn);
  EB.SetInsertPoint(EntryBB);
  Argument *Base = Fn->getArg(0);
  DevBase = EB.CreateIntToPtr(Base, PointerType::get(C, 1), "device");
  DevSize = Fn->getArg(1 + ABI.NumRegParams);
  LocalSize = Fn->getArg(2 + ABI.NumRegParams);
  for (unsigned D = 0; D < 3; ++D)
    WG[D] = Fn->getArg(3 + ABI.NumRegParams + D);
  // Sizes the metadata fixes are constants (the runner passes the same
  // values, formats/nvptx-abi.md "Launch"), so that LLVM can fold the
  // thread-id arithmetic and the local bounds checks of masked addresses.
  if (K.LocalMemorySize > 0)
    LocalSize = EB.getInt32(K.LocalMemorySize);
  bool FullWarps = false;
  if (K.WorkgroupSize[0] > 0) {
    std::array<uint32_t, 3> Size = effectiveWorkgroupSize(K, {});
    uint64_t T = 1;
    for (unsigned D = 0; D < 3; ++D) {
      WG[D] = EB.getInt32(Size[D]);
      T *= Size[D];
    }
    // A workgroup without threads is never launched (the runner skips it).
    if (T > 0 && T <= 1024) // the CTA is exactly this many threads
      Fn->addFnAttr("nvvm.reqntid", std::to_string((T + 31) / 32 * 32));
    FullWarps = T > 0 && T <= 1024 && T % WaveWidth == 0;
  } else {
    Fn->addFnAttr("nvvm.maxntid", "1024");
  }

  // Lanes: the CTA is one-dimensional; thread i is lane i % 32 of wave
  // i / 32, with the emulator's linear-to-(x, y, z) mapping (isa.md §4.2).
  Linear = EB.CreateIntrinsic(Intrinsic::nvvm_read_ptx_sreg_tid_x, {}, {},
                              nullptr, "linear");
  Lane = EB.CreateAnd(Linear, 31, "lane");
  LaneBit = EB.CreateShl(EB.getInt32(1), Lane, "lane_bit");
  Value *WXY = EB.CreateMul(WG[0], WG[1]);
  Threads = EB.CreateMul(WXY, WG[2], "threads");
  Tid[0] = EB.CreateURem(Linear, WG[0], "tid_x");
  Tid[1] = EB.CreateURem(EB.CreateUDiv(Linear, WG[0]), WG[1], "tid_y");
  Tid[2] = EB.CreateUDiv(Linear, WXY, "tid_z");
  // A CTA of a multiple of 32 threads fixed by the metadata has full warps
  // only: every lane is live, which LLVM could not tell from a vote.
  if (FullWarps) {
    Live = EB.getInt32(~0u);
  } else {
    Value *IsLive = EB.CreateICmpULT(Linear, Threads);
    Live = EB.CreateIntrinsic(Intrinsic::nvvm_vote_ballot_sync, {},
                              {EB.getInt32(~0u), IsLive}, nullptr, "live");
  }
  Active = slot(I32, "active");
  EB.CreateStore(Live, Active);
  Exited = slot(I32, "exited");
  EB.CreateStore(EB.getInt32(0), Exited);
  for (unsigned P = 0; P < 4; ++P) {
    Preds[P] = slot(I1, "p" + Twine(P));
    EB.CreateStore(EB.getFalse(), Preds[P]);
  }
  // One pass over the code: what the kernel stores to and whether it has
  // local memory at all. An undecodable word counts as both; the walk
  // reports it.
  bool UsesLocal = false;
  for (uint32_t At = 0; At < K.CodeSize;) {
    Expected<Inst> I = decodeAt(At);
    if (!I) {
      consumeError(I.takeError());
      HasStores = UsesLocal = true;
      break;
    }
    Opcode Op = I->Op;
    if (isStore(Op) || isAtomic(Op) || Op == Opcode::MmaStoreC)
      HasStores = true;
    UsesLocal = UsesLocal || getAddressSpace(Op) == AddressSpace::Local;
    At += I->length();
  }
  if (UsesLocal) {
    auto *Ty = ArrayType::get(I8, 0);
    LocalMem = new GlobalVariable(M, Ty, false, GlobalValue::ExternalLinkage,
                                  nullptr, "__wave_local_" + ABI.Symbol,
                                  nullptr, GlobalValue::NotThreadLocal, 3);
    LocalMem->setAlignment(Align(16));
  }
}

/// Zero-fills local memory at workgroup start (isa.md §4.1; D39), 16
/// bytes per thread and step, then a barrier.
void Lifter::zeroLocalMemory() {
  BasicBlock *Head = newBlock("zero.head"), *Body = newBlock("zero.body"),
             *Done = newBlock("zero.done");
  BasicBlock *Pre = B.GetInsertBlock();
  Value *Start = B.CreateShl(Linear, 4);
  Value *Step = B.CreateShl(
      B.CreateIntrinsic(Intrinsic::nvvm_read_ptx_sreg_ntid_x, {}), 4);
  B.CreateBr(Head);
  B.SetInsertPoint(Head);
  PHINode *Off = B.CreatePHI(I32, 2, "zero.off");
  Off->addIncoming(Start, Pre);
  B.CreateCondBr(B.CreateICmpULT(Off, LocalSize), Body, Done);
  B.SetInsertPoint(Body);
  Value *P = B.CreateGEP(I8, LocalMem, B.CreateZExt(Off, I64));
  B.CreateAlignedStore(Constant::getNullValue(FixedVectorType::get(I32, 4)), P,
                       Align(16));
  Off->addIncoming(B.CreateAdd(Off, Step), Body);
  B.CreateBr(Head);
  B.SetInsertPoint(Done);
  B.CreateIntrinsic(Intrinsic::nvvm_barrier_cta_sync_all, {}, {B.getInt32(0)});
}

AllocaInst *Lifter::slot(Type *Ty, const Twine &Name) {
  IRBuilder<>::InsertPointGuard G(EB);
  EB.SetInsertPoint(EntryBB, EntryBB->getFirstInsertionPt());
  return EB.CreateAlloca(Ty, nullptr, Name);
}

//===----------------------------------------------------------------------===//
// State
//===----------------------------------------------------------------------===//

AllocaInst *Lifter::regSlot(unsigned R) {
  if (!Regs[R]) {
    Regs[R] = slot(I32, "r" + Twine(R) + ".slot");
    Value *Init = R < ABI.NumRegParams ? static_cast<Value *>(Fn->getArg(1 + R))
                                       : EB.getInt32(0);
    EB.CreateStore(Init, Regs[R]);
  }
  return Regs[R];
}

Value *Lifter::reg(unsigned R) {
  R &= 255;
  if (R >= NumRegs) // D20: registers past the count read 0.
    return B.getInt32(0);
  if (Open)
    return chunkValue(R, I32, regSlot(R));
  return B.CreateLoad(I32, regSlot(R), "r" + Twine(R));
}

void Lifter::setReg(unsigned R, Value *V, Value *Ex) {
  R &= 255;
  if (R >= NumRegs) // D20: writes past the count are dropped.
    return;
  if (V->getType() != I32)
    V = B.CreateBitCast(V, I32);
  Value *New = V;
  if (Ex && !match(Ex, m_One())) // all lanes when Ex is true
    New = B.CreateSelect(Ex, V, reg(R));
  if (Open) {
    Open->Vals[R] = New;
    Open->Dirty.insert(R);
    return;
  }
  B.CreateStore(New, regSlot(R));
}

Value *Lifter::regD(unsigned R) {
  Value *Lo = B.CreateZExt(reg(R), I64), *Hi = B.CreateZExt(reg(R + 1), I64);
  return B.CreateBitCast(B.CreateOr(Lo, B.CreateShl(Hi, 32)), F64);
}

void Lifter::setRegD(unsigned R, Value *V, Value *Ex) {
  Value *Bits = B.CreateBitCast(V, I64);
  setReg(R, B.CreateTrunc(Bits, I32), Ex);
  setReg(R + 1, B.CreateTrunc(B.CreateLShr(Bits, 32), I32), Ex);
}

Value *Lifter::pred(unsigned P) {
  if (P > 3) // isa.md §4.10: predicates past p3 read false.
    return B.getFalse();
  if (Open)
    return chunkValue(256 + P, I1, Preds[P]);
  return B.CreateLoad(I1, Preds[P], "p" + Twine(P));
}

void Lifter::setPred(unsigned P, Value *V, Value *Ex) {
  if (P > 3)
    return;
  Value *New = V;
  if (Ex && !match(Ex, m_One()))
    New = B.CreateSelect(Ex, V, pred(P));
  if (Open) {
    Open->Vals[256 + P] = New;
    Open->Dirty.insert(256 + P);
    return;
  }
  B.CreateStore(New, Preds[P]);
}

AllocaInst *Lifter::frag(unsigned Table, unsigned Id) {
  AllocaInst *&S = Frags[{Table, Id}];
  if (!S) {
    S = slot(ArrayType::get(F32, 16), "frag" + Twine(Table) + "." + Twine(Id));
    // A fragment never written reads as zeros (isa.md §4.18).
    for (unsigned E = 0; E < 16; ++E)
      EB.CreateStore(
          ConstantFP::get(F32, 0.0),
          EB.CreateConstInBoundsGEP2_32(S->getAllocatedType(), S, 0, E));
  }
  return S;
}

Value *Lifter::exec(const Inst &I) {
  Value *Ex = FullWave ? B.getTrue() : laneIn(active());
  if (!I.isPredicated())
    return Ex;
  Value *P = pred(I.PredReg & 3);
  if (I.PredNeg)
    P = B.CreateNot(P);
  return B.CreateAnd(Ex, P, "exec");
}

Value *Lifter::execMask(const Inst &I) {
  if (!I.isPredicated())
    return active();
  return ballot(exec(I));
}

Value *Lifter::ballot(Value *Bit) {
  // Every lane of the warp exists and takes part, so a constant ballot is
  // a constant (LLVM does not fold vote.sync).
  if (auto *C = dyn_cast<ConstantInt>(Bit))
    return B.getInt32(C->isZero() ? 0u : ~0u);
  return B.CreateIntrinsic(Intrinsic::nvvm_vote_ballot_sync, {},
                           {B.getInt32(~0u), Bit});
}

Value *Lifter::shuffleIdx(Value *V, Value *SrcLane) {
  return B.CreateIntrinsic(
      Intrinsic::nvvm_shfl_sync_idx_i32, {},
      {B.getInt32(~0u), V, B.CreateAnd(SrcLane, 31), B.getInt32(31)});
}

//===----------------------------------------------------------------------===//
// Walking the instruction stream
//===----------------------------------------------------------------------===//

Expected<Inst> Lifter::decodeAt(uint32_t At) const {
  ArrayRef<uint8_t> Code(File.Code);
  uint64_t End = uint64_t(K.CodeOffset) + K.CodeSize;
  if (End > Code.size())
    return err(K, At, "kernel code runs past the code section");
  Expected<Inst> I =
      decodeInst(Code.slice(0, End), uint64_t(K.CodeOffset) + At);
  if (!I)
    return err(K, At, "invalid instruction: " + toString(I.takeError()));
  return I;
}

void Lifter::startBlock(const Twine &Name) {
  BasicBlock *BB = newBlock(Name);
  if (!B.GetInsertBlock()->getTerminator())
    B.CreateBr(BB);
  B.SetInsertPoint(BB);
}

/// Whether the region that starts at \p After (the instruction after an
/// `if` or `else`) can be jumped over when its mask is empty: nothing in it,
/// nested regions included, acts on the whole wave.
Expected<bool> Lifter::regionSkippable(uint32_t After) const {
  unsigned Depth = 0, Seen = 0;
  for (uint32_t At = After; At < K.CodeSize && Seen < MaxRegionScan; ++Seen) {
    Expected<Inst> I = decodeAt(At);
    if (!I)
      return I.takeError();
    Opcode Op = I->Op;
    if (actsOnWholeWave(Op))
      return false;
    if (Op == Opcode::If || Op == Opcode::Loop)
      ++Depth;
    else if (Op == Opcode::Endif || Op == Opcode::Endloop) {
      if (Depth == 0)
        return Op == Opcode::Endif;
      --Depth;
    } else if (Op == Opcode::Else && Depth == 0)
      return true;
    At += I->length();
  }
  return false;
}

Error Lifter::walk(uint32_t Start) {
  for (uint32_t At = Start;;) {
    if (At >= K.CodeSize) {
      if (!Calls.empty())
        return err(K, At,
                   "a called function runs past the end of the "
                   "kernel without 'return'");
      // D18 default: the wave stops at the end of its kernel's code.
      if (!B.GetInsertBlock()->getTerminator())
        B.CreateRetVoid();
      return Error::success();
    }
    Expected<Inst> I = decodeAt(At);
    if (!I)
      return I.takeError();
    PC = At;
    if (B.GetInsertBlock()->getTerminator())
      B.SetInsertPoint(newBlock("dead")); // code after a return or halt
    bool Stop = false;
    uint32_t Next = At + I->length();
    if (!isControl(I->Op)) {
      Expected<uint32_t> End = liftSegment(At);
      if (!End)
        return End.takeError();
      At = *End;
      continue;
    }
    if (++Lifted > MaxLiftedInsts)
      return err(K, At,
                 "more than " + Twine(MaxLiftedInsts) +
                     " instructions once calls are inlined");
    // Paths join at control instructions; a store may be pending on one.
    PendingStore = PendingStore || HasStores;
    if (Error E = liftControl(*I, Next, Stop))
      return E;
    if (I->Op == Opcode::Barrier)
      PendingStore = false; // barrier.sync orders the CTA's memory
    if (Stop)
      return Error::success();
    At = Next;
  }
}

/// Lifts the straight-line run of non-control instructions that starts at
/// \p Start twice: a version for a full wave (all 32 lanes active, so no
/// lane needs its old register values kept) and the general one, chosen at
/// run time. Returns the PC after the run.
Expected<uint32_t> Lifter::liftSegment(uint32_t Start) {
  SmallVector<std::pair<uint32_t, Inst>, 32> Seg;
  uint32_t At = Start;
  while (At < K.CodeSize) {
    Expected<Inst> I = decodeAt(At);
    if (!I)
      return I.takeError();
    if (isControl(I->Op))
      break;
    Seg.push_back({At, *I});
    At += I->length();
  }
  Lifted += Seg.size();
  if (Lifted > MaxLiftedInsts)
    return err(K, Start,
               "more than " + Twine(MaxLiftedInsts) +
                   " instructions once calls are inlined");
  auto LiftAll = [&]() -> Error {
    for (auto &[InstPC, I] : Seg) {
      PC = InstPC;
      if (Error E = liftInst(I))
        return E;
    }
    return Error::success();
  };
  if (Seg.size() < 3) {
    if (Error E = LiftAll())
      return std::move(E);
    return At;
  }
  BasicBlock *Fast = newBlock("full"), *Slow = newBlock("partial"),
             *Join = newBlock("seg.join");
  B.CreateCondBr(B.CreateICmpEQ(active(), B.getInt32(~0u)), Fast, Slow);
  bool Pending = PendingStore;
  // The general version first: the full-wave one falls back into it, at
  // the instruction where a speculative chunk starts.
  B.SetInsertPoint(Slow);
  SmallVector<BasicBlock *, 32> SlowAt;
  for (auto &[InstPC, I] : Seg) {
    BasicBlock *At = nullptr;
    if (chunkable(I)) {
      At = newBlock("partial.at");
      B.CreateBr(At);
      B.SetInsertPoint(At);
    }
    SlowAt.push_back(At);
    PC = InstPC;
    if (Error E = liftInst(I))
      return std::move(E);
  }
  B.CreateBr(Join);
  B.SetInsertPoint(Fast);
  PendingStore = Pending;
  FullWave = true;
  for (auto [Index, Entry] : enumerate(Seg)) {
    auto &[InstPC, I] = Entry;
    PC = InstPC;
    if (!chunkable(I)) {
      if (Open)
        closeChunk();
      if (Error E = liftInst(I)) {
        FullWave = false;
        return std::move(E);
      }
      continue;
    }
    if (!Open)
      openChunk(SlowAt[Index]);
    if (getInstDesc(I.Op).Class == InstClass::Memory)
      liftChunkMemory(I, SlowAt[Index]);
    else if (Error E = liftInst(I)) {
      Open.reset();
      FullWave = false;
      return std::move(E);
    }
  }
  if (Open)
    closeChunk();
  FullWave = false;
  B.CreateBr(Join);
  B.SetInsertPoint(Join);
  return At;
}

bool Lifter::chunkable(const Inst &I) const {
  switch (getInstDesc(I.Op).Class) {
  case InstClass::Memory:
    return !I.isPredicated();
  case InstClass::Atomic:
  case InstClass::Wave:
    return false;
  default:
    // ALU and compares: straight-line code, no blocks of their own.
    return I.Op != Opcode::MmaLoadA && I.Op != Opcode::MmaLoadB &&
           I.Op != Opcode::MmaStoreC && I.Op != Opcode::MmaCompute;
  }
}

void Lifter::openChunk(BasicBlock *Fallback) {
  assert(!Open && Fallback && "chunks do not nest");
  Open.emplace();
  Open->Head = newBlock("spec");
  Open->Body = newBlock("spec.body");
  Open->Fallback = Fallback;
  B.CreateBr(Open->Head);
  B.SetInsertPoint(Open->Body);
}

Value *Lifter::chunkValue(unsigned Key, Type *Ty, AllocaInst *Slot) {
  Value *&V = Open->Vals[Key];
  if (!V) {
    // The slots are not written before the chunk ends, so reading at its
    // head gives the value at its start.
    IRBuilder<>::InsertPointGuard G(B);
    B.SetInsertPoint(Open->Head);
    V = B.CreateLoad(Ty, Slot,
                     Key < 256 ? "r" + Twine(Key) : "p" + Twine(Key - 256));
  }
  return V;
}

bool Lifter::addChunkAccess(bool Local, Value *Addr, unsigned Bytes) {
  SmallVector<Value *, 4> Terms;
  uint32_t Off = splitAddress(Addr, Terms);
  // The check runs in the head: every term must exist there.
  for (Value *T : Terms)
    if (auto *Def = dyn_cast<Instruction>(T);
        Def && Def->getParent() == Open->Body)
      return false;
  // Spans are told apart by their terms as a multiset.
  SmallVector<Value *, 4> Key(Terms);
  llvm::sort(Key);
  int64_t Lo = int32_t(Off), Hi = Lo + Bytes;
  uint32_t Mask = Bytes - 1, Res = (0u - Off) & Mask;
  for (Chunk::Span &S : Open->Spans) {
    if (S.Local != Local || S.Key != Key)
      continue;
    // Base & Mask == Res and Base & S.AlignMask == S.AlignRes must agree
    // on the bits both test (the masks are 2^k - 1).
    if ((S.AlignRes & Mask) != (Res & S.AlignMask))
      return false;
    int64_t NewLo = std::min(S.Lo, Lo), NewHi = std::max(S.Hi, Hi);
    if (NewHi - NewLo > MaxSpanBytes)
      return false;
    S.Lo = NewLo;
    S.Hi = NewHi;
    S.AlignMask |= Mask;
    S.AlignRes |= Res;
    return true;
  }
  Open->Spans.push_back(
      {Local, std::move(Terms), std::move(Key), Lo, Hi, Mask, Res});
  return true;
}

void Lifter::closeChunk() {
  Chunk Ch = std::move(*Open);
  Open.reset();
  assert(B.GetInsertBlock() == Ch.Body && "a chunk is one block");
  for (unsigned Key : Ch.Dirty)
    B.CreateStore(Ch.Vals[Key], Key < 256 ? Regs[Key] : Preds[Key - 256]);
  IRBuilder<>::InsertPointGuard G(B);
  B.SetInsertPoint(Ch.Head);
  if (Ch.Spans.empty()) {
    B.CreateBr(Ch.Body);
    return;
  }
  // Every access of the span lies in [A, A + (Hi - Lo)) with A = Base + Lo
  // (mod 2^32); lowerSpanChecks() compares, once constants are folded.
  SmallVector<SpanCheck, 4> Ranges;
  Value *Aligned = B.getTrue();
  for (const Chunk::Span &S : Ch.Spans) {
    Value *Base = B.getInt32(0);
    for (auto [N, Term] : enumerate(S.Terms))
      Base = N ? B.CreateAdd(Base, Term) : Term;
    Ranges.push_back({B.CreateAdd(Base, B.getInt32(uint32_t(S.Lo))),
                      S.Hi - S.Lo,
                      S.Local ? B.CreateZExt(LocalSize, I64) : DevSize});
    if (S.AlignMask)
      Aligned =
          B.CreateAnd(Aligned, B.CreateICmpEQ(B.CreateAnd(Base, S.AlignMask),
                                              B.getInt32(S.AlignRes)));
  }
  Value *Ok = B.CreateAnd(emitSpanCheck(B, Ranges), Aligned);
  // All lanes take the same way, so that the warp stays converged.
  B.CreateCondBr(B.CreateICmpEQ(ballot(Ok), B.getInt32(~0u)), Ch.Body,
                 Ch.Fallback, MDBuilder(C).createLikelyBranchWeights());
}

void Lifter::liftChunkMemory(const Inst &I, BasicBlock *Fallback) {
  MemOp Mo = memOp(I);
  Value *Addr = reg(I.Rs1);
  if (!addChunkAccess(Mo.Local, Addr, Mo.Bytes)) {
    // A fresh chunk reads the address register at its head.
    closeChunk();
    openChunk(Fallback);
    Addr = reg(I.Rs1);
    [[maybe_unused]] bool Added = addChunkAccess(Mo.Local, Addr, Mo.Bytes);
    assert(Added && "a lone access always forms a span");
  }
  Value *P = address(Mo.Local, Addr);
  if (Mo.Store) {
    Value *V = storeValue(I, Mo);
    orderAfterStores();
    B.CreateAlignedStore(V, P, Align(Mo.Bytes));
    PendingStore = true;
    return;
  }
  orderAfterStores();
  setLoaded(I, Mo, B.CreateAlignedLoad(Mo.Ty, P, Align(Mo.Bytes)), nullptr);
}

//===----------------------------------------------------------------------===//
// Control flow, calls, halt, barriers (isa.md §4.15-§4.17; D5, D6, D8, D9)
//===----------------------------------------------------------------------===//

void Lifter::endWaveIfDone(bool ActiveOnly) {
  // A wave with no active lane and no open frame halts (isa.md §4.3); one
  // whose live lanes have all exited halts anywhere (D8 default).
  Value *Done = ActiveOnly
                    ? B.CreateICmpEQ(active(), B.getInt32(0))
                    : B.CreateICmpEQ(B.CreateAnd(Live, B.CreateNot(exited())),
                                     B.getInt32(0));
  BasicBlock *Ret = newBlock("wave.end"), *Cont = newBlock("wave.go");
  B.CreateCondBr(Done, Ret, Cont);
  B.SetInsertPoint(Ret);
  B.CreateRetVoid();
  B.SetInsertPoint(Cont);
}

Error Lifter::liftControl(const Inst &I, uint32_t Next, bool &Stop) {
  switch (I.Op) {
  case Opcode::If: {
    if (Frames.size() == MaxControlDepth)
      return err(K, PC, "more than 32 nested if/loop frames");
    // D9 default: a predicate prefix is one more AND on the condition.
    Value *A = active();
    Value *Pm = B.CreateAnd(A, ballot(B.CreateAnd(pred(I.Rs1), exec(I))));
    Frame F;
    F.Entry = slot(I32, "if.entry");
    F.Other = slot(I32, "if.else");
    B.CreateStore(A, F.Entry);
    B.CreateStore(B.CreateAnd(A, B.CreateNot(Pm)), F.Other);
    B.CreateStore(Pm, Active);
    Expected<bool> Skip = regionSkippable(Next);
    if (!Skip)
      return Skip.takeError();
    if (*Skip) {
      F.Skip = newBlock("if.skip");
      BasicBlock *Then = newBlock("if.then");
      B.CreateCondBr(B.CreateICmpEQ(Pm, B.getInt32(0)), F.Skip, Then);
      B.SetInsertPoint(Then);
    }
    Frames.push_back(F);
    return Error::success();
  }
  case Opcode::Else:
  case Opcode::Endif: {
    if (Frames.size() == (Calls.empty() ? 0 : Calls.back().FrameBase) ||
        Frames.back().IsLoop)
      return err(K, PC,
                 Twine("'") + I.desc().Mnemonic + "' without a matching 'if'");
    Frame &F = Frames.back();
    BasicBlock *BB =
        F.Skip ? F.Skip : newBlock(I.Op == Opcode::Else ? "if.else" : "if.end");
    F.Skip = nullptr;
    if (!B.GetInsertBlock()->getTerminator())
      B.CreateBr(BB);
    B.SetInsertPoint(BB);
    Value *NotExited = B.CreateNot(exited());
    if (I.Op == Opcode::Else) {
      Value *A = B.CreateAnd(B.CreateLoad(I32, F.Other), NotExited);
      B.CreateStore(A, Active);
      Expected<bool> Skip = regionSkippable(Next);
      if (!Skip)
        return Skip.takeError();
      if (*Skip) {
        F.Skip = newBlock("if.skip");
        BasicBlock *Body = newBlock("if.else.body");
        B.CreateCondBr(B.CreateICmpEQ(A, B.getInt32(0)), F.Skip, Body);
        B.SetInsertPoint(Body);
      }
      return Error::success();
    }
    B.CreateStore(B.CreateAnd(B.CreateLoad(I32, F.Entry), NotExited), Active);
    Frames.pop_back();
    if (Frames.empty())
      endWaveIfDone(/*ActiveOnly=*/true);
    return Error::success();
  }
  case Opcode::Loop: {
    if (Frames.size() == MaxControlDepth)
      return err(K, PC, "more than 32 nested if/loop frames");
    Frame F;
    F.IsLoop = true;
    F.Entry = slot(I32, "loop.entry");
    F.Other = slot(I32, "loop.breaks");
    B.CreateStore(active(), F.Entry);
    B.CreateStore(B.getInt32(0), F.Other);
    F.Header = newBlock("loop.head");
    B.CreateBr(F.Header);
    B.SetInsertPoint(F.Header);
    Frames.push_back(F);
    return Error::success();
  }
  case Opcode::Break:
  case Opcode::Continue: {
    // A function may leave a loop of its caller (the frames are one stack).
    size_t Base = 0;
    int L = int(Frames.size()) - 1;
    while (L >= int(Base) && !Frames[L].IsLoop)
      --L;
    if (L < int(Base))
      return err(K, PC, Twine("'") + I.desc().Mnemonic + "' outside of a loop");
    // D5/D6 default: the lanes leave the active mask and every IF frame
    // above the loop; a break also records them in the loop's breaks.
    Value *A = active();
    Value *Bm = B.CreateAnd(A, ballot(B.CreateAnd(pred(I.Rs1), exec(I))));
    Value *NotBm = B.CreateNot(Bm);
    if (I.Op == Opcode::Break)
      B.CreateStore(B.CreateOr(B.CreateLoad(I32, Frames[L].Other), Bm),
                    Frames[L].Other);
    B.CreateStore(B.CreateAnd(A, NotBm), Active);
    for (size_t F = L + 1; F < Frames.size(); ++F) {
      B.CreateStore(B.CreateAnd(B.CreateLoad(I32, Frames[F].Entry), NotBm),
                    Frames[F].Entry);
      B.CreateStore(B.CreateAnd(B.CreateLoad(I32, Frames[F].Other), NotBm),
                    Frames[F].Other);
    }
    return Error::success();
  }
  case Opcode::Endloop: {
    if (Frames.size() == (Calls.empty() ? 0 : Calls.back().FrameBase) ||
        !Frames.back().IsLoop)
      return err(K, PC, "'endloop' without a matching 'loop'");
    Frame F = Frames.back();
    Frames.pop_back();
    Value *NotExited = B.CreateNot(exited());
    Value *Entry = B.CreateLoad(I32, F.Entry);
    Value *Rm = B.CreateAnd(
        B.CreateAnd(Entry, B.CreateNot(B.CreateLoad(I32, F.Other))), NotExited);
    BasicBlock *Latch = newBlock("loop.latch"), *Exit = newBlock("loop.exit");
    B.CreateCondBr(B.CreateICmpNE(Rm, B.getInt32(0)), Latch, Exit);
    B.SetInsertPoint(Latch);
    B.CreateStore(Rm, Active);
    B.CreateBr(F.Header);
    B.SetInsertPoint(Exit);
    B.CreateStore(B.CreateAnd(Entry, NotExited), Active);
    if (Frames.empty())
      endWaveIfDone(/*ActiveOnly=*/true);
    return Error::success();
  }
  case Opcode::Call: {
    if (I.Word1 >= K.CodeSize || I.Word1 % 4)
      return err(K, PC, "call target outside the kernel");
    BasicBlock *Cont = newBlock("call.cont");
    if (I.isPredicated()) { // D9 default: skipped when no lane qualifies
      BasicBlock *Do = newBlock("call");
      B.CreateCondBr(B.CreateICmpEQ(execMask(I), B.getInt32(0)), Cont, Do);
      B.SetInsertPoint(Do);
    }
    if (Calls.size() == MaxCallDepth) {
      trap(); // "stack overflow: call" (isa.md §4.16)
      B.SetInsertPoint(Cont);
      return Error::success();
    }
    uint32_t SavedPC = PC;
    Calls.push_back({Cont, Frames.size()});
    if (Error E = walk(I.Word1))
      return E;
    Calls.pop_back();
    PC = SavedPC;
    if (!B.GetInsertBlock()->getTerminator())
      B.CreateBr(Cont);
    B.SetInsertPoint(Cont);
    return Error::success();
  }
  case Opcode::Return: {
    BasicBlock *Skip = nullptr;
    if (I.isPredicated()) { // isa.md §4.4: skipped when no lane qualifies
      Skip = newBlock("return.skip");
      BasicBlock *Do = newBlock("return");
      B.CreateCondBr(B.CreateICmpEQ(execMask(I), B.getInt32(0)), Skip, Do);
      B.SetInsertPoint(Do);
    }
    if (Calls.empty()) {
      B.CreateRetVoid(); // the kernel's return: the wave ends
    } else {
      if (Frames.size() != Calls.back().FrameBase)
        return err(K, PC,
                   "'return' inside an 'if' or 'loop' of the called "
                   "function is not supported");
      B.CreateBr(Calls.back().Cont);
    }
    if (Skip) {
      B.SetInsertPoint(Skip);
      return Error::success();
    }
    // Nothing after an unconditional return runs, except a function body
    // reached by a call, which its call walks.
    Stop = true;
    return Error::success();
  }
  case Opcode::Halt: {
    Value *Ex = execMask(I);
    BasicBlock *Skip = nullptr;
    if (I.isPredicated()) {
      Skip = newBlock("halt.skip");
      BasicBlock *Do = newBlock("halt");
      B.CreateCondBr(B.CreateICmpEQ(Ex, B.getInt32(0)), Skip, Do);
      B.SetInsertPoint(Do);
    }
    Value *X = B.CreateOr(exited(), Ex);
    B.CreateStore(X, Exited);
    B.CreateStore(B.CreateAnd(active(), B.CreateNot(X)), Active);
    if (!I.isPredicated() && Frames.empty()) {
      // Every live lane was active: the wave is over, and nothing after
      // this halt runs by falling through.
      B.CreateRetVoid();
      Stop = true;
      return Error::success();
    }
    endWaveIfDone(/*ActiveOnly=*/false);
    if (Skip) {
      B.CreateBr(Skip);
      B.SetInsertPoint(Skip);
    }
    return Error::success();
  }
  case Opcode::Barrier:
  case Opcode::FenceAcquire:
  case Opcode::FenceRelease:
  case Opcode::FenceAcqRel:
  case Opcode::Wait:
  case Opcode::Nop:
    liftSync(I);
    return Error::success();
  default:
    llvm_unreachable("not a control instruction");
  }
}

void Lifter::liftSync(const Inst &I) {
  BasicBlock *Skip = nullptr;
  if (I.isPredicated()) { // isa.md §4.4: skipped when no lane qualifies
    Skip = newBlock("sync.skip");
    BasicBlock *Do = newBlock("sync");
    B.CreateCondBr(B.CreateICmpEQ(execMask(I), B.getInt32(0)), Skip, Do);
    B.SetInsertPoint(Do);
  }
  switch (I.Op) {
  case Opcode::Barrier:
    // bar.sync 0 over the whole CTA: like the emulator's, it matches any
    // other barrier instruction (D28).
    B.CreateIntrinsic(Intrinsic::nvvm_barrier_cta_sync_all, {},
                      {B.getInt32(0)});
    break;
  case Opcode::FenceAcquire:
    B.CreateFence(AtomicOrdering::Acquire);
    break;
  case Opcode::FenceRelease:
    B.CreateFence(AtomicOrdering::Release);
    break;
  case Opcode::FenceAcqRel:
    B.CreateFence(AtomicOrdering::AcquireRelease);
    break;
  default: // wait, nop: loads complete at once (D31)
    break;
  }
  if (Skip) {
    B.CreateBr(Skip);
    B.SetInsertPoint(Skip);
  }
}

//===----------------------------------------------------------------------===//
// Everything else
//===----------------------------------------------------------------------===//

Error Lifter::liftInst(const Inst &I) {
  switch (getInstDesc(I.Op).Class) {
  case InstClass::Memory:
    liftMemory(I);
    return Error::success();
  case InstClass::Atomic:
    liftAtomic(I);
    return Error::success();
  case InstClass::Wave:
    liftWave(I);
    return Error::success();
  default:
    break;
  }
  if (isCompare(I.Op)) {
    liftCompare(I);
    return Error::success();
  }
  if (isMMA(I.Op)) {
    liftMMA(I);
    return Error::success();
  }
  liftALU(I);
  return Error::success();
}

Value *Lifter::special(unsigned Index) {
  switch (Index) { // isa.md §3
  case 0:
  case 1:
  case 2:
    return Tid[Index];
  case 3:
    return B.CreateLShr(Linear, 5);
  case 4:
    return Lane;
  case 5:
    return B.CreateIntrinsic(Intrinsic::nvvm_read_ptx_sreg_ctaid_x, {});
  case 6:
    return B.CreateIntrinsic(Intrinsic::nvvm_read_ptx_sreg_ctaid_y, {});
  case 7:
    return B.CreateIntrinsic(Intrinsic::nvvm_read_ptx_sreg_ctaid_z, {});
  case 8:
  case 9:
  case 10:
    return WG[Index - 8];
  case 11:
    return B.CreateIntrinsic(Intrinsic::nvvm_read_ptx_sreg_nctaid_x, {});
  case 12:
    return B.CreateIntrinsic(Intrinsic::nvvm_read_ptx_sreg_nctaid_y, {});
  case 13:
    return B.CreateIntrinsic(Intrinsic::nvvm_read_ptx_sreg_nctaid_z, {});
  case 14:
    return B.getInt32(WaveWidth);
  case 15:
    return B.CreateLShr(B.CreateAdd(Threads, B.getInt32(31)), 5);
  case 16:
    return B.getInt32(1);
  case 17:
  case 18:
  case 19:
    return B.getInt32(4);
  default:
    return B.getInt32(0);
  }
}

Value *Lifter::fclamp(Value *A, Value *Lo, Value *Hi) {
  // D11 default: NaN bounds are ignored; lo > hi gives min(max(a,lo),hi).
  Value *UseLo = B.CreateAnd(B.CreateFCmpORD(Lo, Lo), B.CreateFCmpOLT(A, Lo));
  A = B.CreateSelect(UseLo, Lo, A);
  Value *UseHi = B.CreateAnd(B.CreateFCmpORD(Hi, Hi), B.CreateFCmpOGT(A, Hi));
  return B.CreateSelect(UseHi, Hi, A);
}

Value *Lifter::h2f(Value *Bits) {
  return B.CreateFPExt(B.CreateBitCast(B.CreateTrunc(Bits, I16), F16), F32);
}
Value *Lifter::f2h(Value *X) {
  return B.CreateZExt(B.CreateBitCast(B.CreateFPTrunc(X, F16), I16), I32);
}
Value *Lifter::b2f(Value *Bits) {
  return B.CreateBitCast(B.CreateShl(Bits, 16), F32);
}
Value *Lifter::f2b(Value *X) { // D35: truncation
  return B.CreateLShr(B.CreateBitCast(X, I32), 16);
}

void Lifter::liftALU(const Inst &I) {
  Value *Ex = exec(I);
  auto A = [&] { return reg(I.Rs1); };
  auto Bv = [&] { return reg(I.Rs2); };
  auto Cv = [&] { return reg(I.Rs3); };
  auto FA = [&] { return regF(I.Rs1); };
  auto FB = [&] { return regF(I.Rs2); };
  auto FC = [&] { return regF(I.Rs3); };
  auto Un = [&](Intrinsic::ID ID, Value *X) {
    return B.CreateUnaryIntrinsic(ID, X);
  };
  auto Fma = [&](Value *X, Value *Y, Value *Z) {
    return B.CreateIntrinsic(Intrinsic::fma, {X->getType()}, {X, Y, Z});
  };
  Value *R = nullptr;
  switch (I.Op) {
  // Integer (isa.md §4.5).
  case Opcode::Iadd:
    R = B.CreateAdd(A(), Bv());
    break;
  case Opcode::Isub:
    R = B.CreateSub(A(), Bv());
    break;
  case Opcode::Imul:
    R = B.CreateMul(A(), Bv());
    break;
  case Opcode::ImulHi: // D34: unsigned
    R = B.CreateTrunc(
        B.CreateLShr(
            B.CreateMul(B.CreateZExt(A(), I64), B.CreateZExt(Bv(), I64)), 32),
        I32);
    break;
  case Opcode::Imad:
    R = B.CreateAdd(B.CreateMul(A(), Bv()), Cv());
    break;
  case Opcode::Idiv:
  case Opcode::Imod: {
    // D36: b == 0 gives 0; INT_MIN / -1 wraps to INT_MIN, INT_MIN mod -1
    // is 0. Dividing by 1 instead gives both without a trap.
    Value *X = A(), *Y = Bv();
    Value *Zero = B.CreateICmpEQ(Y, B.getInt32(0));
    Value *Ovf = B.CreateAnd(B.CreateICmpEQ(X, B.getInt32(0x80000000u)),
                             B.CreateICmpEQ(Y, B.getInt32(~0u)));
    Value *Y1 = B.CreateSelect(B.CreateOr(Zero, Ovf), B.getInt32(1), Y);
    R = I.Op == Opcode::Idiv
            ? B.CreateSelect(Zero, B.getInt32(0), B.CreateSDiv(X, Y1))
            : B.CreateSRem(X, Y1);
    break;
  }
  case Opcode::Ineg:
    R = B.CreateNeg(A());
    break;
  case Opcode::Iabs: {
    Value *X = A();
    R = B.CreateSelect(B.CreateICmpSLT(X, B.getInt32(0)), B.CreateNeg(X), X);
    break;
  }
  case Opcode::Imin:
    R = B.CreateBinaryIntrinsic(Intrinsic::smin, A(), Bv());
    break;
  case Opcode::Imax:
    R = B.CreateBinaryIntrinsic(Intrinsic::smax, A(), Bv());
    break;
  case Opcode::Iclamp: { // D11 default: min(max(a, lo), hi)
    Value *X = A(), *Lo = Bv(), *Hi = Cv();
    X = B.CreateSelect(B.CreateICmpSLT(X, Lo), Lo, X);
    R = B.CreateSelect(B.CreateICmpSGT(X, Hi), Hi, X);
    break;
  }
  // f32 (isa.md §4.7).
  case Opcode::Fadd:
    R = B.CreateFAdd(FA(), FB());
    break;
  case Opcode::Fsub:
    R = B.CreateFSub(FA(), FB());
    break;
  case Opcode::Fmul:
    R = B.CreateFMul(FA(), FB());
    break;
  case Opcode::Fma:
    R = Fma(FA(), FB(), FC());
    break;
  case Opcode::Fdiv: { // D10: division by ±0 is +inf
    Value *Y = FB();
    R = B.CreateSelect(B.CreateFCmpOEQ(Y, ConstantFP::get(F32, 0.0)),
                       ConstantFP::getInfinity(F32), B.CreateFDiv(FA(), Y));
    break;
  }
  case Opcode::Fneg:
    R = B.CreateXor(A(), B.getInt32(0x80000000u));
    break;
  case Opcode::Fabs:
    R = B.CreateAnd(A(), B.getInt32(0x7FFFFFFFu));
    break;
  case Opcode::Fmin:
  case Opcode::Fmax: {
    Value *X = FA(), *Y = FB();
    Value *Better =
        I.Op == Opcode::Fmin ? B.CreateFCmpOLT(Y, X) : B.CreateFCmpOGT(Y, X);
    R = B.CreateSelect(
        B.CreateFCmpUNO(X, X), Y,
        B.CreateSelect(B.CreateFCmpUNO(Y, Y), X, B.CreateSelect(Better, Y, X)));
    break;
  }
  case Opcode::Fclamp:
    R = fclamp(FA(), FB(), FC());
    break;
  case Opcode::Fsqrt:
    R = Un(Intrinsic::sqrt, FA());
    break;
  case Opcode::Frsqrt:
    R = B.CreateFDiv(ConstantFP::get(F32, 1.0), Un(Intrinsic::sqrt, FA()));
    break;
  case Opcode::Frcp:
    R = B.CreateFDiv(ConstantFP::get(F32, 1.0), FA());
    break;
  case Opcode::Ffloor:
    R = Un(Intrinsic::floor, FA());
    break;
  case Opcode::Fceil:
    R = Un(Intrinsic::ceil, FA());
    break;
  case Opcode::Fround:
    R = Un(Intrinsic::round, FA());
    break; // ties away
  case Opcode::Ftrunc:
    R = Un(Intrinsic::trunc, FA());
    break;
  case Opcode::Ffract: {
    Value *X = FA();
    R = B.CreateFSub(X, Un(Intrinsic::trunc, X));
    break;
  }
  case Opcode::Fsat:
    R = fclamp(FA(), ConstantFP::get(F32, 0.0), ConstantFP::get(F32, 1.0));
    break;
  case Opcode::Fsin:
    R = sinCos(FA(), false);
    break;
  case Opcode::Fcos:
    R = sinCos(FA(), true);
    break;
  case Opcode::Fexp2:
    R = exp2(FA());
    break;
  case Opcode::Flog2:
    R = log2(FA());
    break;
  // f16 and bf16 (isa.md §4.8): in f32, one rounding (truncation for bf16).
  case Opcode::Hadd:
    R = f2h(B.CreateFAdd(h2f(A()), h2f(Bv())));
    break;
  case Opcode::Hsub:
    R = f2h(B.CreateFSub(h2f(A()), h2f(Bv())));
    break;
  case Opcode::Hmul:
    R = f2h(B.CreateFMul(h2f(A()), h2f(Bv())));
    break;
  case Opcode::Hma:
    R = f2h(Fma(h2f(A()), h2f(Bv()), h2f(Cv())));
    break;
  case Opcode::Badd:
    R = f2b(B.CreateFAdd(b2f(A()), b2f(Bv())));
    break;
  case Opcode::Bsub:
    R = f2b(B.CreateFSub(b2f(A()), b2f(Bv())));
    break;
  case Opcode::Bmul:
    R = f2b(B.CreateFMul(b2f(A()), b2f(Bv())));
    break;
  case Opcode::Bma:
    R = f2b(Fma(b2f(A()), b2f(Bv()), b2f(Cv())));
    break;
  case Opcode::Hadd2:
  case Opcode::Hmul2:
  case Opcode::Hma2:
  case Opcode::Badd2:
  case Opcode::Bmul2:
  case Opcode::Bma2: {
    bool Half =
        I.Op == Opcode::Hadd2 || I.Op == Opcode::Hmul2 || I.Op == Opcode::Hma2;
    auto Lo = [&](Value *V) { return V; };
    auto Hi = [&](Value *V) { return B.CreateLShr(V, 16); };
    Value *X = A(), *Y = Bv(),
          *Z = I.Op == Opcode::Hma2 || I.Op == Opcode::Bma2 ? Cv() : nullptr;
    auto Part = [&](auto Pick) -> Value * {
      auto In = [&](Value *V) {
        return Half ? h2f(Pick(V)) : b2f(B.CreateAnd(Pick(V), 0xFFFF));
      };
      Value *F;
      if (I.Op == Opcode::Hadd2 || I.Op == Opcode::Badd2)
        F = B.CreateFAdd(In(X), In(Y));
      else if (I.Op == Opcode::Hmul2 || I.Op == Opcode::Bmul2)
        F = B.CreateFMul(In(X), In(Y));
      else
        F = Fma(In(X), In(Y), In(Z));
      return Half ? f2h(F) : f2b(F);
    };
    R = B.CreateOr(Part(Lo), B.CreateShl(Part(Hi), 16));
    break;
  }
  // f64 (isa.md §4.9).
  case Opcode::Dadd:
  case Opcode::Dsub:
  case Opcode::Dmul:
  case Opcode::Ddiv:
  case Opcode::Dma:
  case Opcode::Dsqrt: {
    Value *X = regD(I.Rs1), *D;
    switch (I.Op) {
    case Opcode::Dadd:
      D = B.CreateFAdd(X, regD(I.Rs2));
      break;
    case Opcode::Dsub:
      D = B.CreateFSub(X, regD(I.Rs2));
      break;
    case Opcode::Dmul:
      D = B.CreateFMul(X, regD(I.Rs2));
      break;
    case Opcode::Ddiv:
      D = B.CreateFDiv(X, regD(I.Rs2));
      break;
    case Opcode::Dma:
      D = Fma(X, regD(I.Rs2), regD(I.Rs3));
      break;
    default:
      D = Un(Intrinsic::sqrt, X);
      break;
    }
    setRegD(I.Rd, D, Ex);
    return;
  }
  // Bitwise (isa.md §4.6).
  case Opcode::And:
    R = B.CreateAnd(A(), Bv());
    break;
  case Opcode::Or:
    R = B.CreateOr(A(), Bv());
    break;
  case Opcode::Xor:
    R = B.CreateXor(A(), Bv());
    break;
  case Opcode::Not:
    R = B.CreateNot(A());
    break;
  case Opcode::Shl:
    R = B.CreateShl(A(), B.CreateAnd(Bv(), 31));
    break;
  case Opcode::Shr:
    R = B.CreateLShr(A(), B.CreateAnd(Bv(), 31));
    break;
  case Opcode::Sar:
    R = B.CreateAShr(A(), B.CreateAnd(Bv(), 31));
    break;
  case Opcode::Bitcount:
    R = Un(Intrinsic::ctpop, A());
    break;
  case Opcode::Bitfind: { // D33: leading zeros, 0xFFFFFFFF for 0
    Value *X = A();
    R = B.CreateSelect(
        B.CreateICmpEQ(X, B.getInt32(0)), B.getInt32(~0u),
        B.CreateBinaryIntrinsic(Intrinsic::ctlz, X, B.getTrue()));
    break;
  }
  case Opcode::Bitrev:
    R = Un(Intrinsic::bitreverse, A());
    break;
  case Opcode::Bfe: {
    Value *O = B.CreateAnd(Bv(), 31), *N = B.CreateAnd(Cv(), 31);
    Value *Mask = B.CreateSub(B.CreateShl(B.getInt32(1), N), B.getInt32(1));
    R = B.CreateAnd(B.CreateLShr(A(), O), Mask); // N == 0: mask 0
    break;
  }
  case Opcode::Bfi: {
    Value *Base = A(), *Ins = Bv();
    Value *O = B.CreateAnd(Cv(), 31), *N = B.CreateAnd(reg(I.Rs4), 31);
    Value *Ones = B.CreateSub(B.CreateShl(B.getInt64(1), B.CreateZExt(N, I64)),
                              B.getInt64(1));
    Value *Mask = B.CreateTrunc(B.CreateShl(Ones, B.CreateZExt(O, I64)), I32);
    R = B.CreateOr(B.CreateAnd(Base, B.CreateNot(Mask)),
                   B.CreateAnd(B.CreateShl(Ins, O), Mask));
    break;
  }
  case Opcode::Select:
    R = B.CreateSelect(pred(I.Rs1), reg(I.Rs2), reg(I.Rs3));
    break;
  // Conversions (isa.md §4.11).
  case Opcode::CvtF32I32:
    R = B.CreateSIToFP(A(), F32);
    break;
  case Opcode::CvtF32U32:
    R = B.CreateUIToFP(A(), F32);
    break;
  case Opcode::CvtI32F32:
    R = B.CreateIntrinsic(Intrinsic::fptosi_sat, {I32, F32}, {FA()});
    break;
  case Opcode::CvtU32F32:
    R = B.CreateIntrinsic(Intrinsic::fptoui_sat, {I32, F32}, {FA()});
    break;
  case Opcode::CvtF32F16:
    R = h2f(A());
    break;
  case Opcode::CvtF16F32:
    R = f2h(FA());
    break;
  case Opcode::CvtF32F64:
    R = B.CreateFPTrunc(regD(I.Rs1), F32);
    break;
  case Opcode::CvtF64F32: {
    Value *D = B.CreateBitCast(B.CreateFPExt(FA(), F64), I64);
    // The high word first (isa.md §4.11).
    setReg(I.Rd + 1, B.CreateTrunc(B.CreateLShr(D, 32), I32), Ex);
    setReg(I.Rd, B.CreateTrunc(D, I32), Ex);
    return;
  }
  case Opcode::CvtF32Bf16:
    R = B.CreateShl(A(), 16);
    break;
  case Opcode::CvtBf16F32:
    R = B.CreateLShr(A(), 16);
    break;
  // Moves (isa.md §4.19).
  case Opcode::Mov:
    R = A();
    break;
  case Opcode::MovImm:
    R = B.getInt32(I.Word1);
    break;
  case Opcode::MovSr:
    R = special(I.Rs1);
    break;
  default:
    llvm_unreachable("not an ALU instruction");
  }
  setReg(I.Rd, R, Ex);
}

void Lifter::liftCompare(const Inst &I) {
  Value *Ex = exec(I);
  Value *A = reg(I.Rs1), *Bv = reg(I.Rs2);
  Value *FA = B.CreateBitCast(A, F32), *FB = B.CreateBitCast(Bv, F32);
  Value *R;
  switch (I.Op) { // isa.md §4.10 with D19's default
  case Opcode::IcmpEq:
  case Opcode::UcmpEq:
    R = B.CreateICmpEQ(A, Bv);
    break;
  case Opcode::IcmpNe:
  case Opcode::UcmpNe:
    R = B.CreateICmpNE(A, Bv);
    break;
  case Opcode::IcmpLt:
    R = B.CreateICmpSLT(A, Bv);
    break;
  case Opcode::IcmpLe:
    R = B.CreateICmpSLE(A, Bv);
    break;
  case Opcode::IcmpGt:
    R = B.CreateICmpSGT(A, Bv);
    break;
  case Opcode::IcmpGe:
    R = B.CreateICmpSGE(A, Bv);
    break;
  case Opcode::UcmpLt:
    R = B.CreateICmpULT(A, Bv);
    break;
  case Opcode::UcmpLe:
    R = B.CreateICmpULE(A, Bv);
    break;
  case Opcode::UcmpGt:
    R = B.CreateICmpUGT(A, Bv);
    break;
  case Opcode::UcmpGe:
    R = B.CreateICmpUGE(A, Bv);
    break;
  case Opcode::FcmpEq:
    R = B.CreateFCmpOEQ(FA, FB);
    break;
  case Opcode::FcmpNe:
    R = B.CreateFCmpUNE(FA, FB);
    break;
  case Opcode::FcmpLt:
    R = B.CreateFCmpOLT(FA, FB);
    break;
  case Opcode::FcmpLe:
    R = B.CreateFCmpOLE(FA, FB);
    break;
  case Opcode::FcmpGt:
    R = B.CreateFCmpOGT(FA, FB);
    break;
  case Opcode::FcmpGe:
    R = B.CreateFCmpOGE(FA, FB);
    break;
  case Opcode::FcmpOrd:
    R = B.CreateFCmpORD(FA, FB);
    break;
  case Opcode::FcmpUnord:
    R = B.CreateFCmpUNO(FA, FB);
    break;
  default:
    R = B.getFalse();
    break; // icmp/ucmp ord, unord
  }
  setPred(I.Rd, R, Ex);
}

//===----------------------------------------------------------------------===//
// Memory (isa.md §4.12, §4.13)
//===----------------------------------------------------------------------===//

Value *Lifter::guarded(Value *Ex, Type *Ty, Value *Else,
                       function_ref<Value *()> Body) {
  BasicBlock *From = B.GetInsertBlock();
  BasicBlock *Do = newBlock("lane"), *Join = newBlock("lane.join");
  B.CreateCondBr(Ex, Do, Join);
  B.SetInsertPoint(Do);
  Value *V = Body();
  BasicBlock *DoEnd = B.GetInsertBlock();
  B.CreateBr(Join);
  B.SetInsertPoint(Join);
  if (!Ty)
    return nullptr;
  PHINode *Phi = B.CreatePHI(Ty, 2);
  Phi->addIncoming(V, DoEnd);
  Phi->addIncoming(Else, From);
  return Phi;
}

void Lifter::trap() {
  B.CreateIntrinsic(Intrinsic::trap, {});
  B.CreateUnreachable();
}

void Lifter::checkBounds(bool Local, Value *Addr, unsigned Bytes) {
  Value *End = B.CreateAdd(B.CreateZExt(Addr, I64), B.getInt64(Bytes));
  Value *Size = Local ? B.CreateZExt(LocalSize, I64) : DevSize;
  BasicBlock *Fault = newBlock("oob"), *Ok = newBlock("inb");
  B.CreateCondBr(B.CreateICmpUGT(End, Size), Fault, Ok);
  B.SetInsertPoint(Fault);
  trap(); // "memory access out of bounds" (isa.md §4.12)
  B.SetInsertPoint(Ok);
}

Value *Lifter::address(bool Local, Value *Addr) {
  return B.CreateGEP(I8, Local ? static_cast<Value *>(LocalMem) : DevBase,
                     B.CreateZExt(Addr, I64));
}

Value *Lifter::loadAny(bool Local, Value *Addr, Type *Ty, unsigned Bytes) {
  Value *P = address(Local, Addr);
  if (Bytes == 1)
    return B.CreateLoad(Ty, P);
  // Alignment is never required (isa.md §4.12): an aligned access when
  // the address allows it, bytes otherwise.
  BasicBlock *Al = newBlock("al"), *Un = newBlock("unal"),
             *Join = newBlock("al.join");
  B.CreateCondBr(B.CreateICmpEQ(B.CreateAnd(Addr, Bytes - 1), B.getInt32(0)),
                 Al, Un);
  B.SetInsertPoint(Al);
  Value *VA = B.CreateAlignedLoad(Ty, P, Align(Bytes));
  B.CreateBr(Join);
  B.SetInsertPoint(Un);
  // Byte by byte, and volatile: a plain align-1 load of the same type
  // would let SimplifyCFG merge the two paths into the slow one.
  Type *IntTy = B.getIntNTy(8 * Bytes);
  Value *Acc = ConstantInt::get(IntTy, 0);
  for (unsigned K = 0; K < Bytes; ++K) {
    LoadInst *L = B.CreateLoad(I8, B.CreateConstGEP1_32(I8, P, K));
    L->setVolatile(true);
    Acc = B.CreateOr(Acc, B.CreateShl(B.CreateZExt(L, IntTy), 8 * K));
  }
  Value *VU = B.CreateBitCast(Acc, Ty);
  B.CreateBr(Join);
  B.SetInsertPoint(Join);
  PHINode *Phi = B.CreatePHI(Ty, 2);
  Phi->addIncoming(VA, Al);
  Phi->addIncoming(VU, Un);
  return Phi;
}

void Lifter::storeAny(bool Local, Value *Addr, Value *V, unsigned Bytes) {
  Value *P = address(Local, Addr);
  if (Bytes == 1) {
    B.CreateStore(V, P);
    return;
  }
  BasicBlock *Al = newBlock("al"), *Un = newBlock("unal"),
             *Join = newBlock("al.join");
  B.CreateCondBr(B.CreateICmpEQ(B.CreateAnd(Addr, Bytes - 1), B.getInt32(0)),
                 Al, Un);
  B.SetInsertPoint(Al);
  B.CreateAlignedStore(V, P, Align(Bytes));
  B.CreateBr(Join);
  B.SetInsertPoint(Un);
  Value *Int = B.CreateBitCast(V, B.getIntNTy(8 * Bytes));
  for (unsigned K = 0; K < Bytes; ++K)
    B.CreateStore(B.CreateTrunc(B.CreateLShr(Int, 8 * K), I8),
                  B.CreateConstGEP1_32(I8, P, K), /*isVolatile=*/true);
  B.CreateBr(Join);
  B.SetInsertPoint(Join);
}

Value *Lifter::inLaneOrder(Value *Ex, Type *Ty, function_ref<Value *()> Body) {
  // The lanes update memory in ascending lane order (isa.md §4.3): one
  // lane per step, with a warp barrier between steps.
  BasicBlock *Pre = B.GetInsertBlock();
  BasicBlock *Head = newBlock("lanes"), *Done = newBlock("lanes.done");
  B.CreateBr(Head);
  B.SetInsertPoint(Head);
  PHINode *L = B.CreatePHI(I32, 2, "lanes.l");
  L->addIncoming(B.getInt32(0), Pre);
  PHINode *Acc = nullptr;
  if (Ty) {
    Acc = B.CreatePHI(Ty, 2, "lanes.v");
    Acc->addIncoming(Constant::getNullValue(Ty), Pre);
  }
  Value *Mine = B.CreateAnd(Ex, B.CreateICmpEQ(L, Lane));
  Value *Got = guarded(Mine, Ty, Acc, Body);
  warpSync();
  Value *LN = B.CreateAdd(L, B.getInt32(1));
  L->addIncoming(LN, B.GetInsertBlock());
  if (Acc)
    Acc->addIncoming(Got, B.GetInsertBlock());
  B.CreateCondBr(B.CreateICmpULT(LN, B.getInt32(WaveWidth)), Head, Done);
  B.SetInsertPoint(Done);
  return Got;
}

void Lifter::warpSync() {
  // The lanes of a wave see each other's memory in instruction order
  // (isa.md §4.3); a warp-wide barrier orders them on the GPU. It is put
  // between a store and the wave's next memory access, where another
  // lane could observe the order.
  B.CreateIntrinsic(Intrinsic::nvvm_bar_warp_sync, {}, {B.getInt32(~0u)});
}

Lifter::MemOp Lifter::memOp(const Inst &I) const {
  MemOp M;
  M.Local = getAddressSpace(I.Op) == AddressSpace::Local;
  M.Store = isStore(I.Op);
  M.Bytes = getAccessBytes(I.Op); // D25 default: local u128 is 16 bytes
  M.Ty = M.Bytes == 16 ? static_cast<Type *>(FixedVectorType::get(I32, 4))
                       : Type::getIntNTy(C, 8 * M.Bytes);
  return M;
}

Value *Lifter::storeValue(const Inst &I, const MemOp &M) {
  if (M.Bytes == 16) {
    Value *V = PoisonValue::get(M.Ty);
    for (unsigned W = 0; W < 4; ++W)
      V = B.CreateInsertElement(V, reg(I.Rs2 + W), W);
    return V;
  }
  if (M.Bytes == 8)
    return B.CreateOr(B.CreateZExt(reg(I.Rs2), I64),
                      B.CreateShl(B.CreateZExt(reg(I.Rs2 + 1), I64), 32));
  return B.CreateTrunc(reg(I.Rs2), M.Ty);
}

void Lifter::setLoaded(const Inst &I, const MemOp &M, Value *V, Value *Ex) {
  SmallVector<Value *, 4> W;
  if (M.Bytes == 16) {
    for (unsigned E = 0; E < 4; ++E)
      W.push_back(B.CreateExtractElement(V, E));
  } else if (M.Bytes == 8) {
    W.push_back(B.CreateTrunc(V, I32));
    W.push_back(B.CreateTrunc(B.CreateLShr(V, 32), I32));
  } else {
    W.push_back(B.CreateZExt(V, I32));
  }
  for (auto [E, Word] : enumerate(W))
    setReg(I.Rd + E, Word, Ex);
}

void Lifter::liftMemory(const Inst &I) {
  MemOp Mo = memOp(I);
  bool Local = Mo.Local;
  unsigned Bytes = Mo.Bytes;
  Type *Ty = Mo.Ty;
  Value *Ex = exec(I);
  Value *Addr = reg(I.Rs1);
  if (Mo.Store) {
    Value *V = storeValue(I, Mo);
    orderAfterStores();
    auto Store = [&]() -> Value * {
      checkBounds(Local, Addr, Bytes);
      storeAny(Local, Addr, V, Bytes);
      return nullptr;
    };
    if (Bytes == 1) {
      guarded(Ex, nullptr, nullptr, Store);
    } else {
      // Misaligned stores of several lanes may overlap, and then the
      // highest lane's bytes win (isa.md §4.3): when any lane's address is
      // misaligned the lanes store one after the other.
      Value *Mis = B.CreateAnd(
          Ex, B.CreateICmpNE(B.CreateAnd(Addr, Bytes - 1), B.getInt32(0)));
      BasicBlock *Fast = newBlock("st.together"),
                 *Slow = newBlock("st.in.order"), *Done = newBlock("st.done");
      B.CreateCondBr(B.CreateICmpNE(ballot(Mis), B.getInt32(0)), Slow, Fast);
      B.SetInsertPoint(Fast);
      guarded(Ex, nullptr, nullptr, Store);
      B.CreateBr(Done);
      B.SetInsertPoint(Slow);
      inLaneOrder(Ex, nullptr, Store);
      B.CreateBr(Done);
      B.SetInsertPoint(Done);
    }
    PendingStore = true;
    return;
  }
  orderAfterStores();
  Value *V = guarded(Ex, Ty, Constant::getNullValue(Ty), [&] {
    checkBounds(Local, Addr, Bytes);
    return loadAny(Local, Addr, Ty, Bytes);
  });
  setLoaded(I, Mo, V, Ex);
}

void Lifter::liftAtomic(const Inst &I) {
  bool Local = getAddressSpace(I.Op) == AddressSpace::Local;
  unsigned Mod = unsigned(I.desc().Mod); // the operation (isa.md §2.11)
  Value *Ex = exec(I);
  Value *Addr = reg(I.Rs1), *V = reg(I.Rs2);
  Value *Desired = Mod == 8 ? reg(I.Rs3) : nullptr;
  auto Do = [&]() -> Value * {
    checkBounds(Local, Addr, 4);
    // A 32-bit atomic needs a 4-byte aligned address on the GPU
    // (formats/nvptx-abi.md "Where results can differ").
    BasicBlock *Mis = newBlock("atomic.misaligned"), *Ok = newBlock("atomic");
    B.CreateCondBr(B.CreateICmpNE(B.CreateAnd(Addr, 3), B.getInt32(0)), Mis,
                   Ok);
    B.SetInsertPoint(Mis);
    trap();
    B.SetInsertPoint(Ok);
    Value *P = address(Local, Addr);
    if (Mod == 8) // D3 default: if mem == rs2 then mem = rs3
      return B.CreateExtractValue(
          B.CreateAtomicCmpXchg(P, V, Desired, MaybeAlign(4),
                                AtomicOrdering::Monotonic,
                                AtomicOrdering::Monotonic),
          0);
    static const AtomicRMWInst::BinOp Ops[] = {
        AtomicRMWInst::Add,  AtomicRMWInst::Sub, AtomicRMWInst::UMin,
        AtomicRMWInst::UMax, AtomicRMWInst::And, AtomicRMWInst::Or,
        AtomicRMWInst::Xor,  AtomicRMWInst::Xchg};
    return B.CreateAtomicRMW(Ops[Mod], P, V, MaybeAlign(4),
                             AtomicOrdering::Monotonic);
  };
  bool Ordered = I.Rd != 0 || Mod >= 7;
  orderAfterStores();
  if (!Ordered) {
    // Commutative and not returning: the order of the lanes is invisible.
    guarded(Ex, nullptr, nullptr, [&] {
      Do();
      return nullptr;
    });
    PendingStore = true;
    return;
  }
  Value *Got = inLaneOrder(Ex, I32, Do);
  if (I.Rd != 0)
    setReg(I.Rd, Got, Ex);
}

//===----------------------------------------------------------------------===//
// Wave operations (isa.md §4.14)
//===----------------------------------------------------------------------===//

void Lifter::liftWave(const Inst &I) {
  Value *Ex = exec(I);
  switch (I.Op) {
  case Opcode::WaveShuffle:
  case Opcode::WaveShuffleUp:
  case Opcode::WaveShuffleDown:
  case Opcode::WaveShuffleXor: {
    Value *V = reg(I.Rs1), *S = reg(I.Rs2);
    Value *Src, *Ok;
    switch (I.Op) {
    case Opcode::WaveShuffle:
      Src = S;
      Ok = B.CreateICmpULT(S, B.getInt32(WaveWidth));
      break;
    case Opcode::WaveShuffleUp:
      Src = B.CreateSub(Lane, S);
      Ok = B.CreateICmpUGE(Lane, S);
      break;
    case Opcode::WaveShuffleDown: // D26: wraps modulo 2^32
      Src = B.CreateAdd(Lane, S);
      Ok = B.CreateICmpULT(Src, B.getInt32(WaveWidth));
      break;
    default:
      Src = B.CreateXor(Lane, S);
      Ok = B.CreateICmpULT(Src, B.getInt32(WaveWidth));
      break;
    }
    Value *Got = shuffleIdx(V, Src);
    setReg(I.Rd, B.CreateSelect(Ok, Got, B.getInt32(0)), Ex);
    return;
  }
  case Opcode::WaveBroadcast: {
    Value *Mask = execMask(I);
    Value *First = B.CreateBinaryIntrinsic(Intrinsic::cttz, Mask, B.getFalse());
    Value *S = shuffleIdx(reg(I.Rs2), First);
    Value *Got = shuffleIdx(reg(I.Rs1), S);
    Value *Ok = B.CreateICmpULT(S, B.getInt32(WaveWidth));
    setReg(I.Rd, B.CreateSelect(Ok, Got, B.getInt32(0)), Ex);
    return;
  }
  case Opcode::WaveBallot: {
    Value *Mask = execMask(I);
    setReg(I.Rd, B.CreateAnd(ballot(pred(I.Rs1)), Mask), Ex);
    return;
  }
  case Opcode::WaveAny:
  case Opcode::WaveAll: {
    Value *Mask = execMask(I);
    Value *Set = B.CreateAnd(ballot(pred(I.Rs1)), Mask);
    Value *R = I.Op == Opcode::WaveAny ? B.CreateICmpNE(Set, B.getInt32(0))
                                       : B.CreateICmpEQ(Set, Mask);
    setPred(I.Rd, R, Ex);
    return;
  }
  case Opcode::WavePrefixSum: {
    // Inclusive scan over the executing lanes' values (0 elsewhere) by
    // doubling steps, then exclusive = inclusive - own.
    Value *X0 = B.CreateSelect(Ex, reg(I.Rs1), B.getInt32(0));
    Value *X = X0;
    for (unsigned D = 1; D < WaveWidth; D *= 2) {
      Value *Y = shuffleIdx(X, B.CreateSub(Lane, B.getInt32(D)));
      X = B.CreateAdd(X, B.CreateSelect(B.CreateICmpUGE(Lane, B.getInt32(D)), Y,
                                        B.getInt32(0)));
    }
    setReg(I.Rd, B.CreateSub(X, X0), Ex);
    return;
  }
  case Opcode::WaveReduceAdd:
  case Opcode::WaveReduceMin:
  case Opcode::WaveReduceMax: {
    uint32_t Id = I.Op == Opcode::WaveReduceMin ? ~0u : 0u;
    Value *X = B.CreateSelect(Ex, reg(I.Rs1), B.getInt32(Id));
    for (unsigned D = WaveWidth / 2; D >= 1; D /= 2) {
      Value *Y = shuffleIdx(X, B.CreateXor(Lane, B.getInt32(D)));
      X = I.Op == Opcode::WaveReduceAdd
              ? B.CreateAdd(X, Y)
              : B.CreateBinaryIntrinsic(I.Op == Opcode::WaveReduceMin
                                            ? Intrinsic::umin
                                            : Intrinsic::umax,
                                        X, Y);
    }
    setReg(I.Rd, X, Ex);
    return;
  }
  default:
    llvm_unreachable("not a wave operation");
  }
}

//===----------------------------------------------------------------------===//
// MMA (isa.md §4.18): per-lane 4x4 f32 fragments on local memory
//===----------------------------------------------------------------------===//

void Lifter::liftMMA(const Inst &I) {
  Value *Ex = exec(I);
  auto Elem = [&](AllocaInst *S, unsigned E) {
    return B.CreateConstInBoundsGEP2_32(S->getAllocatedType(), S, 0, E);
  };
  orderAfterStores();
  switch (I.Op) {
  case Opcode::MmaLoadA:
  case Opcode::MmaLoadB: {
    AllocaInst *S = frag(I.Op == Opcode::MmaLoadA ? 0 : 1, I.Rd);
    Value *Base = reg(I.Rs1), *Stride = reg(I.Rs2);
    for (unsigned Row = 0; Row < 4; ++Row)
      for (unsigned Col = 0; Col < 4; ++Col) {
        Value *Addr =
            B.CreateAdd(B.CreateAdd(Base, B.CreateMul(Stride, B.getInt32(Row))),
                        B.getInt32(4 * Col));
        Value *Old = B.CreateLoad(F32, Elem(S, Row * 4 + Col));
        Value *V = guarded(Ex, I32, B.getInt32(0), [&] {
          checkBounds(true, Addr, 4);
          return loadAny(true, Addr, I32, 4);
        });
        B.CreateStore(B.CreateSelect(Ex, B.CreateBitCast(V, F32), Old),
                      Elem(S, Row * 4 + Col));
      }
    return;
  }
  case Opcode::MmaCompute: {
    AllocaInst *A = frag(0, I.Rd), *Bf = frag(1, I.Rs1), *Cf = frag(2, I.Rs2);
    for (unsigned Row = 0; Row < 4; ++Row)
      for (unsigned Col = 0; Col < 4; ++Col) {
        Value *Old = B.CreateLoad(F32, Elem(Cf, Row * 4 + Col));
        Value *Acc = Old;
        for (unsigned Kk = 0; Kk < 4; ++Kk) {
          Value *Prod = B.CreateFMul(B.CreateLoad(F32, Elem(A, Row * 4 + Kk)),
                                     B.CreateLoad(F32, Elem(Bf, Kk * 4 + Col)));
          Acc = B.CreateFAdd(Acc, Prod); // separate rounding, no FMA
        }
        B.CreateStore(B.CreateSelect(Ex, Acc, Old), Elem(Cf, Row * 4 + Col));
      }
    return;
  }
  case Opcode::MmaStoreC: {
    AllocaInst *S = frag(2, I.Rs2);
    Value *Base = reg(I.Rd), *Stride = reg(I.Rs1);
    for (unsigned Row = 0; Row < 4; ++Row)
      for (unsigned Col = 0; Col < 4; ++Col) {
        Value *Addr =
            B.CreateAdd(B.CreateAdd(Base, B.CreateMul(Stride, B.getInt32(Row))),
                        B.getInt32(4 * Col));
        Value *V =
            B.CreateBitCast(B.CreateLoad(F32, Elem(S, Row * 4 + Col)), I32);
        guarded(Ex, nullptr, nullptr, [&]() -> Value * {
          checkBounds(true, Addr, 4);
          storeAny(true, Addr, V, 4);
          return nullptr;
        });
        PendingStore = true;
        orderAfterStores(); // its 16 stores in order, too
      }
    return;
  }
  default:
    llvm_unreachable("not an MMA instruction");
  }
}

//===----------------------------------------------------------------------===//
// Transcendentals: within isa.md §4.7's 2 ULP, computed in f64
//===----------------------------------------------------------------------===//

/// sin or cos of f32 \p X, the AMDGCN stage's algorithm (formats/nvptx-abi.md
/// "Transcendentals"): |x|/(2π) modulo 1 with 1/(2π) in nine 21-bit pieces
/// (each product and its fraction exact), the fractions summed with TwoSum;
/// quarter turns; Taylor series to θ^15 / θ^16 on |θ| <= π/4; one rounding
/// to f32. NaN gives the input, quieted; ±inf the x86 default NaN.
Value *Lifter::sinCos(Value *X, bool Cos) {
  static const uint32_t InvTwoPi[] = {0x3fc45f30, 0x3e6b7272, 0x3cf054a7,
                                      0x3bae13ab, 0x3a5d1f53, 0x38f37703,
                                      0x379b6295, 0x36432788, 0x34ec820f};
  auto K64 = [&](uint64_t Bits) {
    return ConstantFP::get(F64,
                           APFloat(APFloat::IEEEdouble(), APInt(64, Bits)));
  };
  auto Fract = [&](Value *V) {
    return B.CreateFSub(V, B.CreateUnaryIntrinsic(Intrinsic::floor, V));
  };
  auto Fma = [&](Value *A, Value *Bv, Value *Cv) {
    return B.CreateIntrinsic(Intrinsic::fma, {F64}, {A, Bv, Cv});
  };
  Value *Bits = B.CreateBitCast(X, I32);
  Value *Ax =
      B.CreateFPExt(B.CreateBitCast(B.CreateAnd(Bits, 0x7FFFFFFF), F32), F64);
  Value *S = nullptr, *Comp = nullptr;
  for (int P = 8; P >= 0; --P) {
    Value *Fr = Fract(B.CreateFMul(Ax, K64(uint64_t(InvTwoPi[P]) << 32)));
    if (!S) {
      S = Fr;
      continue;
    }
    Value *T = B.CreateFAdd(S, Fr);
    Value *BP = B.CreateFSub(T, S);
    Value *AP = B.CreateFSub(T, BP);
    Value *E = B.CreateFAdd(B.CreateFSub(S, AP), B.CreateFSub(Fr, BP));
    Comp = Comp ? B.CreateFAdd(Comp, E) : E;
    S = T;
  }
  Value *Four = ConstantFP::get(F64, 4.0);
  Value *Y4 = B.CreateFMul(S, Four);
  Value *Q = B.CreateUnaryIntrinsic(Intrinsic::roundeven, Y4);
  Value *D = B.CreateFAdd(B.CreateFSub(Y4, Q), B.CreateFMul(Comp, Four));
  Value *Th = Fma(D, K64(0x3ff921fb54442d18ULL),
                  B.CreateFMul(D, K64(0x3c91a62633145c07ULL)));
  Value *Z = B.CreateFMul(Th, Th);
  auto Poly = [&](ArrayRef<uint64_t> Coeffs) {
    Value *Acc = K64(Coeffs[0]);
    for (uint64_t Cf : Coeffs.drop_front())
      Acc = Fma(Acc, Z, K64(Cf));
    return Acc;
  };
  Value *SinP =
      Poly({0xbd6ae7f3e733b81fULL, 0x3de6124613a86d09ULL, 0xbe5ae64567f544e4ULL,
            0x3ec71de3a556c734ULL, 0xbf2a01a01a01a01aULL, 0x3f81111111111111ULL,
            0xbfc5555555555555ULL});
  Value *CosP =
      Poly({0x3d2ae7f3e733b81fULL, 0xbda93974a8c07c9dULL, 0x3e21eed8eff8d898ULL,
            0xbe927e4fb7789f5cULL, 0x3efa01a01a01a01aULL, 0xbf56c16c16c16c17ULL,
            0x3fa5555555555555ULL, 0xbfe0000000000000ULL});
  Value *SinF = B.CreateFPTrunc(Fma(B.CreateFMul(Th, Z), SinP, Th), F32);
  Value *CosF = B.CreateFPTrunc(Fma(Z, CosP, ConstantFP::get(F64, 1.0)), F32);
  Value *Qi = B.CreateFPToSI(Q, I32);
  if (Cos)
    Qi = B.CreateAdd(Qi, B.getInt32(1));
  Value *Odd = B.CreateICmpNE(B.CreateAnd(Qi, 1), B.getInt32(0));
  Value *Sel = B.CreateBitCast(B.CreateSelect(Odd, CosF, SinF), I32);
  Value *Sgn = B.CreateShl(B.CreateAnd(Qi, 2), 30);
  if (!Cos)
    Sgn = B.CreateXor(Sgn, B.CreateAnd(Bits, 0x80000000u));
  Value *R = B.CreateBitCast(B.CreateXor(Sel, Sgn), F32);
  // NaN: the input quieted; ±inf: the default NaN 0xFFC00000.
  Value *IsNaN = B.CreateFCmpUNO(X, X);
  Value *IsInf =
      B.CreateICmpEQ(B.CreateAnd(Bits, 0x7FFFFFFF), B.getInt32(0x7F800000));
  R = B.CreateSelect(IsInf, B.CreateBitCast(B.getInt32(0xFFC00000u), F32), R);
  return B.CreateSelect(IsNaN, quietNaN(X), R);
}

/// 2^x for f32 \p X: x = n + f with n = round(x), |f| <= 1/2, 2^f by its
/// Taylor series in f·ln2 to degree 13 in f64 (truncation below 2^-60), the
/// scale by 2^n in f64, one rounding to f32 (which makes results below
/// 2^-126 correctly rounded subnormals).
Value *Lifter::exp2(Value *X) {
  Value *Xd = B.CreateFPExt(X, F64);
  // Clamp so that n fits the f64 exponent; the f32 result already
  // overflows past 128 and underflows to 0 below -150.
  Value *Xc = B.CreateBinaryIntrinsic(
      Intrinsic::minnum,
      B.CreateBinaryIntrinsic(Intrinsic::maxnum, Xd,
                              ConstantFP::get(F64, -200.0)),
      ConstantFP::get(F64, 200.0));
  Value *N = B.CreateUnaryIntrinsic(Intrinsic::roundeven, Xc);
  Value *F = B.CreateFMul(B.CreateFSub(Xc, N),
                          ConstantFP::get(F64, 0.69314718055994530942));
  // Horner over f of sum f^k / k!, k = 13 .. 0.
  double InvFact[14];
  InvFact[0] = 1;
  for (int Deg = 1; Deg <= 13; ++Deg)
    InvFact[Deg] = InvFact[Deg - 1] / Deg;
  Value *Acc = ConstantFP::get(F64, InvFact[13]);
  for (int Deg = 12; Deg >= 0; --Deg)
    Acc = B.CreateIntrinsic(Intrinsic::fma, {F64},
                            {Acc, F, ConstantFP::get(F64, InvFact[Deg])});
  // 2^n as an f64 (n in [-200, 200]).
  Value *Ni = B.CreateFPToSI(N, I64);
  Value *Scale =
      B.CreateBitCast(B.CreateShl(B.CreateAdd(Ni, B.getInt64(1023)), 52), F64);
  Value *R = B.CreateFPTrunc(B.CreateFMul(Acc, Scale), F32);
  return B.CreateSelect(B.CreateFCmpUNO(X, X), quietNaN(X), R);
}

/// log2 of f32 \p X: x = m·2^e with m in [√½, √2), log2(m) =
/// 2·atanh(s)/ln2 with s = (m-1)/(m+1) by its series to s^23 in f64
/// (|s| <= 0.172, truncation below 2^-60), plus e, rounded once to f32.
/// x < 0 and NaN give NaN, ±0 gives -inf, +inf gives +inf.
Value *Lifter::log2(Value *X) {
  Value *Xd = B.CreateFPExt(X, F64); // subnormal f32 are normal f64
  Value *Bits = B.CreateBitCast(Xd, I64);
  Value *E =
      B.CreateSub(B.CreateTrunc(B.CreateLShr(Bits, 52), I32), B.getInt32(1023));
  Value *M = B.CreateBitCast(
      B.CreateOr(B.CreateAnd(Bits, B.getInt64(0x000FFFFFFFFFFFFFULL)),
                 B.getInt64(0x3FF0000000000000ULL)),
      F64);
  Value *Big = B.CreateFCmpOGT(M, ConstantFP::get(F64, 1.4142135623730951));
  M = B.CreateSelect(Big, B.CreateFMul(M, ConstantFP::get(F64, 0.5)), M);
  E = B.CreateSelect(Big, B.CreateAdd(E, B.getInt32(1)), E);
  Value *One = ConstantFP::get(F64, 1.0);
  Value *S = B.CreateFDiv(B.CreateFSub(M, One), B.CreateFAdd(M, One));
  Value *S2 = B.CreateFMul(S, S);
  Value *Acc = ConstantFP::get(F64, 1.0 / 23);
  for (int Deg = 21; Deg >= 1; Deg -= 2)
    Acc = B.CreateIntrinsic(Intrinsic::fma, {F64},
                            {Acc, S2, ConstantFP::get(F64, 1.0 / Deg)});
  // 2·s·Acc / ln 2 = s·Acc·(2/ln2)
  Value *LogM = B.CreateFMul(B.CreateFMul(S, Acc),
                             ConstantFP::get(F64, 2.8853900817779268147));
  Value *R = B.CreateFPTrunc(B.CreateFAdd(B.CreateSIToFP(E, F64), LogM), F32);
  Value *Inf = ConstantFP::getInfinity(F32);
  R = B.CreateSelect(B.CreateFCmpOEQ(X, Inf), Inf, R);
  R = B.CreateSelect(B.CreateFCmpOEQ(X, ConstantFP::get(F32, 0.0)),
                     ConstantFP::getInfinity(F32, true), R);
  R = B.CreateSelect(B.CreateFCmpOLT(X, ConstantFP::get(F32, 0.0)),
                     B.CreateBitCast(B.getInt32(0xFFC00000u), F32), R);
  return B.CreateSelect(B.CreateFCmpUNO(X, X), quietNaN(X), R);
}

Error Lifter::run() {
  createFunction();
  BasicBlock *Body = newBlock("body");
  B.SetInsertPoint(Body);
  if (LocalMem)
    zeroLocalMemory();
  if (Error E = walk(0))
    return E;
  if (!Frames.empty() && !B.GetInsertBlock()->getTerminator())
    B.CreateRetVoid();
  EB.SetInsertPoint(EntryBB);
  EB.CreateBr(Body);
  return Error::success();
}

} // namespace

unsigned registerParamCount(const WbinFile &File, const KernelInfo &K) {
  unsigned NumRegs =
      K.RegisterCount ? std::min<uint32_t>(K.RegisterCount, 256) : 32;
  unsigned N = K.Params ? unsigned(K.Params->size()) : 0;
  ArrayRef<uint8_t> Code(File.Code);
  uint64_t End =
      std::min<uint64_t>(uint64_t(K.CodeOffset) + K.CodeSize, Code.size());
  for (uint64_t At = K.CodeOffset; At < End;) {
    Expected<Inst> I = decodeInst(Code.slice(0, End), At);
    if (!I) {
      consumeError(I.takeError());
      break;
    }
    const FormDesc &F = I->form();
    // Every register source counts as wide as the widest value of the
    // instruction: f64 pairs, 64- and 128-bit memory values
    // (formats/nvptx-abi.md "Kernel parameters").
    unsigned Width = std::max(getDestRegs(I->Op), getSourceRegs(I->Op));
    for (unsigned O = 0; O < F.NumOperands; ++O) {
      const OperandDesc &D = F.Operands[O];
      if (D.Kind != OperandKind::Reg)
        continue;
      // Field Rd is a destination except for mma_store_c's base address.
      if (D.Fld == Field::Rd && I->Op != Opcode::MmaStoreC)
        continue;
      unsigned R = I->getField(D.Fld);
      N = std::max(N, std::min(R + Width, 256u));
    }
    At += I->length();
  }
  return std::min(N, NumRegs);
}

std::string entrySymbol(const KernelInfo &K, unsigned Index) {
  StringRef N = K.Name;
  bool Ok = !N.empty() && N.size() <= 200 && !N.starts_with("__") &&
            (llvm::isAlpha(N[0]) || N[0] == '_') &&
            all_of(N, [](char Ch) { return llvm::isAlnum(Ch) || Ch == '_'; });
  return Ok ? N.str() : "__wave_kernel_" + std::to_string(Index);
}

Error liftKernel(const WbinFile &File, unsigned Index, const KernelABI &ABI,
                 Module &M) {
  return Lifter(File, Index, ABI, M).run();
}

} // namespace wave::nvptx::detail
