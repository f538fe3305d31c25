//===- RegAlloc.cpp - Chaitin-Briggs register allocation for LIR ----------===//
//
// Iterated register coalescing (L. George and A. W. Appel, "Iterated
// Register Coalescing", TOPLAS 18(3), 1996), the organisation of the
// Chaitin-Briggs allocator that the WAVE compiler's design describes:
//
//   repeat
//     Liveness   per thread over the structured LIR (LIR.h), blocks split at
//                control instructions, backward dataflow to a fixpoint.
//     Build      interference (at each definition, the defined register
//                against everything live after it, except a copy's source)
//                and the list of coalescable copies.
//     Simplify / Coalesce (Briggs test between two virtual registers, George
//                test against a precoloured one) / Freeze / potential Spill
//                (cost = sum over uses and definitions of 10^loop depth,
//                divided by degree), then optimistic Select (Briggs).
//     Rewrite    actual spills: rematerialise `mov_imm` values, store other
//                general registers to per-thread local-memory slots, move
//                predicates into general registers.
//   until nothing spills.
//
// Register pairs (f64, formats/isa.md §4.9): a node of size s coloured c
// occupies c..c+s-1. Degrees are weighted so that "degree < capacity" still
// proves a node colourable: a neighbour of size t excludes s+t-1 of the K-s+1
// start colours of a node of size s (a pair neighbour of a single counts 2).
// When Select still finds no colour the node is an actual spill, as in Briggs'
// optimistic colouring.
//
// Partial definitions (one half of a pair) read the other half: they count
// as a use as well, unless no definition of the register can reach them (a
// pair built half by half), in which case the first half is a plain
// definition. This "maybe defined" refinement is safe: a value no
// definition reaches is undefined, so its register need not be preserved.
//
// Calls of declarations (formats/wave-asm.md §9): argument and result slot
// registers (VRegInfo::CallSlot) take no part in allocation; they become
// r(B + slot) with B one above every allocated register, and the colours
// available shrink by the largest slot count so that the frame still fits
// --max-registers. The callee clobbers p0..p3, so before colouring, every
// predicate live across a call is spilled to a general register (the
// predicate spill code below), until none is.
//
// Kernel parameters arrive in r0..r(n-1) (precoloured). Each is first copied
// into a fresh virtual register, so that only the short range up to the copy
// is pinned; coalescing (George test) normally removes the copy again.
//
//===----------------------------------------------------------------------===//
#include "wave/CodeGen/RegAlloc.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/SparseBitVector.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <bitset>
#include <cmath>
#include <limits>
#include <queue>

using namespace llvm;

namespace wave::codegen {

namespace {

/// Hashing for interference-graph edge keys ((A << 32) | B). LLVM's default
/// for integers multiplies by 37, which keeps all edges of one low-numbered
/// register in one probe chain; a full 64-bit mix (the finalizer of
/// MurmurHash3) spreads them.
struct EdgeKeyInfo {
  static uint64_t getEmptyKey() { return ~uint64_t(0); }
  static uint64_t getTombstoneKey() { return ~uint64_t(0) - 1; }
  static unsigned getHashValue(uint64_t K) {
    K ^= K >> 33;
    K *= 0xff51afd7ed558ccdULL;
    K ^= K >> 33;
    K *= 0xc4ceb9fe1a85ec53ULL;
    K ^= K >> 33;
    return unsigned(K);
  }
  static bool isEqual(uint64_t A, uint64_t B) { return A == B; }
};

} // namespace

namespace {

using LiveSet = SparseBitVector<128>;

/// How an instruction touches a virtual register.
enum class RefKind : uint8_t {
  Use,
  Def,        ///< writes the whole register
  PartialDef, ///< writes part of it and keeps the rest: a use and a def
};

struct RegRef {
  unsigned VReg;
  RefKind Kind;
};

/// The opcode of a real instruction, Nop for pseudo-instructions.
Opcode opOf(const LInst &I) {
  return I.Pseudo == LPseudo::None ? I.Op : Opcode::Nop;
}

/// Whether \p I ends a basic block because control may leave it other than
/// to the next instruction (formats/isa.md §2.13, §4.15).
bool isBranch(const LInst &I) {
  switch (opOf(I)) {
  case Opcode::If:
  case Opcode::Else:
  case Opcode::Break:
  case Opcode::Continue:
  case Opcode::Endloop:
    return true;
  default:
    return false;
  }
}

enum class NodeState : uint8_t {
  Unused,     ///< no instruction mentions it
  Precolored, ///< fixed register (kernel parameter)
  Initial,
  Simplify,
  Freeze,
  Spill,
  OnStack,
  Coalesced,
  Colored,
  Spilled, ///< actual spill of this round
};

enum class MoveState : uint8_t {
  Worklist,
  Active,
  Coalesced,
  Constrained,
  Frozen
};

struct Move {
  unsigned Dst, Src;
  MoveState State;
};

/// How a spilled register is rewritten.
enum class SpillKind : uint8_t { None, Remat, Memory, Pred };

class Allocator {
public:
  Allocator(LFunction &F, const RegAllocOptions &Opts) : F(F), Opts(Opts) {}
  Expected<RegAllocStats> run();

private:
  // Diagnostics.
  Error error(const Twine &Msg) const {
    return createStringError(inconvertibleErrorCode(),
                             "function '@" + F.Name + "' " + Msg);
  }

  // Set-up.
  int fixedOf(unsigned V) const {
    if (F.VRegs[V].Fixed >= 0)
      return F.VRegs[V].Fixed;
    return V < F.NumParams ? int(V) : -1;
  }
  unsigned newTemp(RegClass C, unsigned Size, StringRef Name);
  void splitParameters();

  // Liveness.
  Error buildRefs();
  Error buildCFG();
  void classifyPartialDefs();
  void computeLiveness();
  SmallVector<unsigned, 8> predsLiveAcrossCalls() const;
  ArrayRef<RegRef> refs(unsigned I) const {
    return ArrayRef<RegRef>(Refs).slice(RefStart[I],
                                        RefStart[I + 1] - RefStart[I]);
  }
  /// Turns \p Live, the registers live after instruction \p I, into those
  /// live before it: full definitions end a live range, uses (and the
  /// partial definitions that keep the rest of a register) start one.
  void stepBack(LiveSet &Live, unsigned I) const {
    for (const RegRef &R : refs(I))
      if (R.Kind == RefKind::Def)
        Live.reset(R.VReg);
    for (const RegRef &R : refs(I))
      if (R.Kind != RefKind::Def)
        Live.set(R.VReg);
  }
  SmallVector<unsigned, 2> instSuccs(unsigned I) const;
  bool isCoalescableCopy(const LInst &I) const;

  // Graph and colouring.
  void buildGraph();
  unsigned sizeOf(unsigned N) const { return SizeOf[N]; }
  unsigned kOf(unsigned N) const {
    return ClassOf[N] == RegClass::Pred ? NumPredRegs : KGpr;
  }
  int capOf(unsigned N) const {
    return int(kOf(N)) - int(sizeOf(N)) + 1 - int(NoR0[N]);
  }
  int weight(unsigned N, unsigned M) const {
    return int(sizeOf(N) + sizeOf(M)) - 1;
  }
  static uint64_t edgeKey(unsigned A, unsigned B) {
    if (A > B)
      std::swap(A, B);
    return uint64_t(A) << 32 | B;
  }
  bool adjacent(unsigned A, unsigned B) const {
    return AdjSet.contains(edgeKey(A, B));
  }
  bool isActive(unsigned N) const {
    return State[N] != NodeState::OnStack && State[N] != NodeState::Coalesced;
  }
  bool isPre(unsigned N) const { return State[N] == NodeState::Precolored; }
  void addEdge(unsigned A, unsigned B);
  unsigned getAlias(unsigned N) const {
    while (State[N] == NodeState::Coalesced)
      N = Alias[N];
    return N;
  }
  bool moveRelated(unsigned N) const;
  void enableMoves(unsigned N);
  void decrementDegree(unsigned M, unsigned N);
  void addWorkList(unsigned U);
  bool georgeOK(unsigned U, unsigned V) const;
  bool briggsOK(unsigned U, unsigned V);
  void combine(unsigned U, unsigned V);
  void freezeMoves(unsigned U);
  void pushTo(std::vector<unsigned> &WL, unsigned N, NodeState S) {
    State[N] = S;
    WL.push_back(N);
  }
  bool popFrom(std::vector<unsigned> &WL, NodeState S, unsigned &N);
  void simplify(unsigned N);
  void coalesce(unsigned M);
  bool selectSpill();
  void assignColors();
  void colorGraph();

  // Spilling.
  Error rewrite(ArrayRef<unsigned> Spilled);
  unsigned slotAddress(unsigned Slot, SmallVectorImpl<LInst> &Out);
  void emitSpillBase(std::vector<LInst> &Out);

  // Results.
  void finish();
  void printInterference(raw_ostream &OS) const;

  LFunction &F;
  const RegAllocOptions &Opts;
  RegAllocStats Stats;
  unsigned KGpr = 0;

  /// Registers that spilling would not help: spill and reload temporaries,
  /// rematerialised constants, the spill base address.
  std::vector<bool> IsTemp;
  /// Registers made by splitParameters: their entry copies are ours, so
  /// deleting them does not count as coalescing (RegAllocStats).
  std::vector<bool> IsParamCopy;

  // Spill area (RegAlloc.h): slot s of linear thread t at
  // SpillBase + (s * Threads + t) * 4.
  int Addr0 = -1;
  bool NeedSpillBase = false;
  uint32_t SpillBase = 0;
  uint32_t Threads = 0;
  unsigned NextSlot = 0;
  std::vector<unsigned> SlotOf;
  std::vector<unsigned> PredHome;

  // Per round: instruction operands, control structure, liveness.
  std::vector<unsigned> RefStart;
  std::vector<RegRef> Refs;
  bool HasPartialDefs = false;
  std::vector<unsigned> Match; ///< if->else/endif, else->endif,
                               ///< loop<->endloop, break/continue->endloop
  std::vector<unsigned> Depth; ///< loop depth of each instruction
  std::vector<unsigned> BStart;
  std::vector<unsigned> BlockOf;
  std::vector<SmallVector<unsigned, 2>> Succ, Pred;
  std::vector<LiveSet> LiveOut;

  // Per round: the interference graph and the IRC worklists.
  unsigned NV = 0;
  std::vector<SmallVector<unsigned, 8>> Adj;
  /// Compact copies of VRegInfo::Class and Size for the hot loops.
  std::vector<RegClass> ClassOf;
  std::vector<uint8_t> SizeOf;
  DenseSet<uint64_t, EdgeKeyInfo> AdjSet;
  std::vector<int> Degree;
  std::vector<SmallVector<unsigned, 2>> MoveList;
  std::vector<Move> Moves;
  std::vector<NodeState> State;
  std::vector<unsigned> Alias;
  std::vector<int> Color;
  std::vector<double> Cost;
  std::vector<bool> NoSpill;
  std::vector<bool> NoR0;
  std::vector<unsigned> SimplifyWL, FreezeWL, MoveWL, SelectStack;
  /// Potential spills, cheapest first. Keys only grow while a node waits
  /// (its degree falls, coalescing adds cost), so stale entries are
  /// re-keyed lazily when they reach the top.
  using SpillEntry = std::pair<double, unsigned>;
  std::priority_queue<SpillEntry, std::vector<SpillEntry>,
                      std::greater<SpillEntry>>
      SpillHeap;
  double spillKey(unsigned N) const {
    return NoSpill[N] ? std::numeric_limits<double>::infinity()
                      : Cost[N] / std::max(Degree[N], 1);
  }
  void pushSpill(unsigned N) {
    State[N] = NodeState::Spill;
    SpillHeap.push({spillKey(N), N});
  }
  std::vector<unsigned> Mark;
  unsigned MarkStamp = 0;
  /// Interference edges as built (before coalescing), for InterferenceOut.
  std::vector<std::pair<unsigned, unsigned>> BuiltEdges;
};

//===----------------------------------------------------------------------===//
// Set-up
//===----------------------------------------------------------------------===//

unsigned Allocator::newTemp(RegClass C, unsigned Size, StringRef Name) {
  unsigned V = F.newVReg(C, Size, Name);
  IsTemp.resize(F.VRegs.size(), false);
  IsTemp[V] = true;
  return V;
}

/// Replaces every mention of a precoloured register by a fresh one and
/// copies the parameter into it at entry, so that the precoloured range ends
/// at the copy and the value itself can be coalesced back or spilled.
void Allocator::splitParameters() {
  std::vector<int> NewOf(F.VRegs.size(), -1);
  std::vector<LInst> Entry;
  for (const LInst &I : F.Insts)
    for (const LOperand &Op : I.Ops)
      if (Op.isReg() && Op.V < F.NumParams && fixedOf(Op.V) >= 0 &&
          NewOf[Op.V] < 0) {
        VRegInfo Info = F.VRegs[Op.V];
        Info.Fixed = -1;
        F.VRegs.push_back(Info);
        NewOf[Op.V] = int(F.VRegs.size() - 1);
        IsParamCopy.resize(F.VRegs.size(), false);
        IsParamCopy[NewOf[Op.V]] = true;
      }
  for (unsigned V = 0; V != NewOf.size(); ++V)
    if (NewOf[V] >= 0)
      Entry.push_back(LInst::copy(NewOf[V], V, F.VRegs[V].Name));
  if (Entry.empty())
    return;
  for (LInst &I : F.Insts)
    for (LOperand &Op : I.Ops)
      if (Op.isReg() && Op.V < NewOf.size() && NewOf[Op.V] >= 0)
        Op.V = unsigned(NewOf[Op.V]);
  F.Insts.insert(F.Insts.begin(), Entry.begin(), Entry.end());
}

//===----------------------------------------------------------------------===//
// Liveness
//===----------------------------------------------------------------------===//

Error Allocator::buildRefs() {
  unsigned N = F.Insts.size();
  RefStart.assign(N + 1, 0);
  Refs.clear();
  HasPartialDefs = false;
  for (unsigned I = 0; I != N; ++I) {
    const LInst &Inst = F.Insts[I];
    RefStart[I] = Refs.size();
    for (unsigned Idx = 0; Idx != Inst.Ops.size(); ++Idx) {
      const LOperand &Op = Inst.Ops[Idx];
      if (!Op.isReg())
        continue;
      if (Op.V >= F.VRegs.size())
        return error("uses undefined virtual register %" + Twine(Op.V) +
                     " in instruction " + Twine(I));
      if (F.VRegs[Op.V].CallSlot >= 0)
        continue; // r(B + slot), above every allocated register
      if (!isDefOperand(Inst, Idx)) {
        Refs.push_back({Op.V, RefKind::Use});
        continue;
      }
      unsigned Width = operandWidth(Inst, Idx, F.VRegs);
      bool Partial = Op.Sub != 0 || Width < F.VRegs[Op.V].Size;
      HasPartialDefs |= Partial;
      Refs.push_back({Op.V, Partial ? RefKind::PartialDef : RefKind::Def});
    }
  }
  RefStart[N] = Refs.size();
  return Error::success();
}

SmallVector<unsigned, 2> Allocator::instSuccs(unsigned I) const {
  const std::vector<LInst> &In = F.Insts;
  switch (opOf(In[I])) {
  case Opcode::If: {
    unsigned M = Match[I];
    return {I + 1, opOf(In[M]) == Opcode::Else ? M + 1 : M};
  }
  case Opcode::Else:
    return {Match[I]};
  case Opcode::Break:
    return {I + 1, Match[I] + 1};
  case Opcode::Continue:
    return {I + 1, Match[I]};
  case Opcode::Endloop:
    return {Match[I] + 1, I + 1};
  default:
    // halt and return fall through too: lanes may remain (D8).
    return {I + 1};
  }
}

Error Allocator::buildCFG() {
  unsigned N = F.Insts.size();
  Match.assign(N, ~0u);
  Depth.assign(N, 0);
  SmallVector<unsigned, 16> Stack, Loops;
  SmallVector<std::pair<unsigned, unsigned>, 16> Exits; // (break, loop)
  unsigned D = 0;
  auto Unbalanced = [&](unsigned I) {
    return error("has unbalanced structured control flow at instruction " +
                 Twine(I));
  };
  for (unsigned I = 0; I != N; ++I) {
    Depth[I] = D;
    switch (opOf(F.Insts[I])) {
    case Opcode::If:
      Stack.push_back(I);
      break;
    case Opcode::Else:
      if (Stack.empty() || opOf(F.Insts[Stack.back()]) != Opcode::If)
        return Unbalanced(I);
      Match[Stack.back()] = I;
      Stack.back() = I;
      break;
    case Opcode::Endif:
      if (Stack.empty() || (opOf(F.Insts[Stack.back()]) != Opcode::If &&
                            opOf(F.Insts[Stack.back()]) != Opcode::Else))
        return Unbalanced(I);
      Match[Stack.pop_back_val()] = I;
      break;
    case Opcode::Loop:
      Stack.push_back(I);
      Loops.push_back(I);
      ++D;
      break;
    case Opcode::Endloop:
      if (Stack.empty() || opOf(F.Insts[Stack.back()]) != Opcode::Loop)
        return Unbalanced(I);
      Match[Stack.back()] = I;
      Match[I] = Stack.pop_back_val();
      Loops.pop_back();
      Depth[I] = --D;
      break;
    case Opcode::Break:
    case Opcode::Continue:
      if (Loops.empty())
        return Unbalanced(I);
      Exits.push_back({I, Loops.back()});
      break;
    default:
      break;
    }
  }
  if (!Stack.empty())
    return Unbalanced(Stack.back());
  for (auto [I, L] : Exits)
    Match[I] = Match[L];

  // Basic blocks: leaders are the entry, every branch target and every
  // instruction after a branch.
  std::vector<uint8_t> Leader(N + 1, 0);
  if (N)
    Leader[0] = 1;
  for (unsigned I = 0; I != N; ++I)
    if (isBranch(F.Insts[I])) {
      Leader[I + 1] = 1;
      for (unsigned S : instSuccs(I))
        Leader[S] = 1;
    }
  BStart.clear();
  BlockOf.assign(N, 0);
  for (unsigned I = 0; I != N; ++I) {
    if (Leader[I])
      BStart.push_back(I);
    BlockOf[I] = BStart.size() - 1;
  }
  unsigned NB = BStart.size();
  BStart.push_back(N);
  Succ.assign(NB, {});
  Pred.assign(NB, {});
  for (unsigned B = 0; B != NB; ++B) {
    for (unsigned S : instSuccs(BStart[B + 1] - 1)) {
      if (S >= N)
        continue;
      unsigned SB = BlockOf[S];
      if (!is_contained(Succ[B], SB)) {
        Succ[B].push_back(SB);
        Pred[SB].push_back(B);
      }
    }
  }
  return Error::success();
}

/// Turns a partial definition that no definition of its register can reach
/// into a plain definition (forward "maybe defined" dataflow).
void Allocator::classifyPartialDefs() {
  unsigned NB = BStart.size() - 1;
  std::vector<LiveSet> Gen(NB), In(NB), Out(NB);
  for (unsigned B = 0; B != NB; ++B)
    for (unsigned I = BStart[B]; I != BStart[B + 1]; ++I)
      for (const RegRef &R : refs(I))
        if (R.Kind != RefKind::Use)
          Gen[B].set(R.VReg);
  LiveSet EntryDefined;
  for (unsigned V = 0; V != F.VRegs.size(); ++V)
    if (fixedOf(V) >= 0)
      EntryDefined.set(V);
  std::vector<uint8_t> InList(NB, 1);
  std::vector<unsigned> Work;
  for (unsigned B = NB; B-- > 0;)
    Work.push_back(B);
  while (!Work.empty()) {
    unsigned B = Work.back();
    Work.pop_back();
    InList[B] = 0;
    LiveSet NewIn;
    if (B == 0)
      NewIn |= EntryDefined;
    for (unsigned P : Pred[B])
      NewIn |= Out[P];
    In[B] = NewIn;
    NewIn |= Gen[B];
    if (NewIn == Out[B])
      continue; // every block starts on the list, so none is missed
    Out[B] = std::move(NewIn);
    for (unsigned S : reverse(Succ[B]))
      if (!InList[S]) {
        InList[S] = 1;
        Work.push_back(S);
      }
  }
  std::vector<int> DefinedIn(F.VRegs.size(), -1);
  for (unsigned B = 0; B != NB; ++B)
    for (unsigned I = BStart[B]; I != BStart[B + 1]; ++I) {
      for (unsigned K = RefStart[I]; K != RefStart[I + 1]; ++K) {
        RegRef &R = Refs[K];
        if (R.Kind == RefKind::PartialDef && !In[B].test(R.VReg) &&
            DefinedIn[R.VReg] != int(B))
          R.Kind = RefKind::Def;
      }
      for (unsigned K = RefStart[I]; K != RefStart[I + 1]; ++K)
        if (Refs[K].Kind != RefKind::Use)
          DefinedIn[Refs[K].VReg] = int(B);
    }
}

void Allocator::computeLiveness() {
  unsigned NB = BStart.size() - 1;
  std::vector<LiveSet> Use(NB), Kill(NB), LiveIn(NB);
  LiveOut.assign(NB, LiveSet());
  for (unsigned B = 0; B != NB; ++B)
    for (unsigned I = BStart[B]; I != BStart[B + 1]; ++I) {
      for (const RegRef &R : refs(I))
        if (R.Kind != RefKind::Def && !Kill[B].test(R.VReg))
          Use[B].set(R.VReg);
      for (const RegRef &R : refs(I))
        if (R.Kind == RefKind::Def)
          Kill[B].set(R.VReg);
    }
  std::vector<uint8_t> InList(NB, 1);
  std::vector<unsigned> Work;
  for (unsigned B = 0; B != NB; ++B) // pops the last block first
    Work.push_back(B);
  std::vector<uint8_t> Visited(NB, 0);
  while (!Work.empty()) {
    unsigned B = Work.back();
    Work.pop_back();
    InList[B] = 0;
    LiveSet Out;
    for (unsigned S : Succ[B])
      Out |= LiveIn[S];
    LiveSet In = Out;
    In.intersectWithComplement(Kill[B]);
    In |= Use[B];
    LiveOut[B] = std::move(Out);
    if (Visited[B] && In == LiveIn[B])
      continue;
    Visited[B] = 1;
    LiveIn[B] = std::move(In);
    for (unsigned P : Pred[B])
      if (!InList[P]) {
        InList[P] = 1;
        Work.push_back(P);
      }
  }
}

/// The predicates live right after some `call` (a call defines none):
/// the callee clobbers p0..p3 (formats/wave-asm.md §9).
SmallVector<unsigned, 8> Allocator::predsLiveAcrossCalls() const {
  SmallVector<unsigned, 8> Out;
  unsigned NB = BStart.size() - 1;
  for (unsigned B = 0; B != NB; ++B) {
    if (none_of(ArrayRef(F.Insts).slice(BStart[B], BStart[B + 1] - BStart[B]),
                [](const LInst &I) { return opOf(I) == Opcode::Call; }))
      continue;
    LiveSet Live = LiveOut[B];
    for (unsigned I = BStart[B + 1]; I-- > BStart[B];) {
      if (opOf(F.Insts[I]) == Opcode::Call)
        for (unsigned L : Live)
          if (F.VRegs[L].Class == RegClass::Pred && !is_contained(Out, L))
            Out.push_back(L);
      stepBack(Live, I);
    }
  }
  llvm::sort(Out);
  return Out;
}

bool Allocator::isCoalescableCopy(const LInst &I) const {
  if (!I.isCopy() || I.Ops.size() != 2 || !I.Ops[0].isReg() ||
      !I.Ops[1].isReg())
    return false;
  const LOperand &D = I.Ops[0], &S = I.Ops[1];
  const VRegInfo &DI = F.VRegs[D.V], &SI = F.VRegs[S.V];
  return D.V != S.V && D.Sub == 0 && S.Sub == 0 && DI.Class == SI.Class &&
         DI.Size == SI.Size && DI.CallSlot < 0 && SI.CallSlot < 0;
}

//===----------------------------------------------------------------------===//
// Build
//===----------------------------------------------------------------------===//

void Allocator::addEdge(unsigned A, unsigned B) {
  if (A == B || ClassOf[A] != ClassOf[B])
    return;
  if (!AdjSet.insert(edgeKey(A, B)).second)
    return;
  if (!isPre(A)) {
    Adj[A].push_back(B);
    Degree[A] += weight(A, B);
  }
  if (!isPre(B)) {
    Adj[B].push_back(A);
    Degree[B] += weight(B, A);
  }
}

void Allocator::buildGraph() {
  NV = F.VRegs.size();
  IsTemp.resize(NV, false);
  Adj.assign(NV, {});
  ClassOf.resize(NV);
  SizeOf.resize(NV);
  for (unsigned V = 0; V != NV; ++V) {
    ClassOf[V] = F.VRegs[V].Class;
    SizeOf[V] = F.VRegs[V].Size;
  }
  AdjSet.clear();
  AdjSet.reserve(Refs.size() * 8);
  Degree.assign(NV, 0);
  MoveList.assign(NV, {});
  Moves.clear();
  State.assign(NV, NodeState::Unused);
  Alias.assign(NV, 0);
  Color.assign(NV, -1);
  Cost.assign(NV, 0);
  NoSpill.assign(NV, false);
  NoR0.assign(NV, false);
  Mark.assign(NV, 0);
  MarkStamp = 0;
  SimplifyWL.clear();
  FreezeWL.clear();
  SpillHeap = {};
  MoveWL.clear();
  SelectStack.clear();
  BuiltEdges.clear();

  for (unsigned I = 0; I != F.Insts.size(); ++I) {
    double W = std::pow(10.0, double(std::min(Depth[I], 30u)));
    for (const RegRef &R : refs(I)) {
      unsigned V = R.VReg;
      if (State[V] == NodeState::Unused) {
        int Fx = fixedOf(V);
        State[V] = Fx >= 0 ? NodeState::Precolored : NodeState::Initial;
        Color[V] = Fx;
        if (Fx >= 0)
          Degree[V] = std::numeric_limits<int>::max() / 2;
        NoR0[V] = F.VRegs[V].NoR0 && F.VRegs[V].Class == RegClass::GPR;
        NoSpill[V] = IsTemp[V];
      }
      Cost[V] += W;
    }
  }

  unsigned NB = BStart.size() - 1;
  SmallVector<unsigned, 4> Defs;
  for (unsigned B = 0; B != NB; ++B) {
    LiveSet Live = LiveOut[B];
    for (unsigned I = BStart[B + 1]; I-- > BStart[B];) {
      const LInst &Inst = F.Insts[I];
      ArrayRef<RegRef> RR = refs(I);
      int CopySrc = -1;
      if (isCoalescableCopy(Inst)) {
        unsigned D = Inst.Ops[0].V, S = Inst.Ops[1].V;
        CopySrc = int(S);
        unsigned M = Moves.size();
        Moves.push_back({D, S, MoveState::Worklist});
        MoveList[D].push_back(M);
        MoveList[S].push_back(M);
        MoveWL.push_back(M);
      }
      Defs.clear();
      for (const RegRef &R : RR)
        if (R.Kind != RefKind::Use && !is_contained(Defs, R.VReg))
          Defs.push_back(R.VReg);
      for (unsigned D : Defs) {
        for (unsigned L : Live)
          if (L != D && int(L) != CopySrc)
            addEdge(L, D);
        for (unsigned D2 : Defs)
          addEdge(D, D2);
      }
      stepBack(Live, I);
    }
  }
  if (Opts.InterferenceOut)
    for (uint64_t K : AdjSet)
      BuiltEdges.push_back({unsigned(K >> 32), unsigned(K & 0xFFFFFFFF)});
}

//===----------------------------------------------------------------------===//
// Simplify, coalesce, freeze, spill, select (George & Appel, figure 4)
//===----------------------------------------------------------------------===//

bool Allocator::moveRelated(unsigned N) const {
  for (unsigned M : MoveList[N])
    if (Moves[M].State == MoveState::Active ||
        Moves[M].State == MoveState::Worklist)
      return true;
  return false;
}

void Allocator::enableMoves(unsigned N) {
  for (unsigned M : MoveList[N])
    if (Moves[M].State == MoveState::Active) {
      Moves[M].State = MoveState::Worklist;
      MoveWL.push_back(M);
    }
}

void Allocator::decrementDegree(unsigned M, unsigned N) {
  if (isPre(M))
    return;
  int D = Degree[M];
  Degree[M] -= weight(M, N);
  int Cap = capOf(M);
  if (D >= Cap && Degree[M] < Cap) {
    enableMoves(M);
    for (unsigned A : Adj[M])
      if (isActive(A))
        enableMoves(A);
    if (State[M] == NodeState::Spill) {
      if (moveRelated(M))
        pushTo(FreezeWL, M, NodeState::Freeze);
      else
        pushTo(SimplifyWL, M, NodeState::Simplify);
    }
  }
}

void Allocator::addWorkList(unsigned U) {
  if (State[U] == NodeState::Freeze && !moveRelated(U) && Degree[U] < capOf(U))
    pushTo(SimplifyWL, U, NodeState::Simplify);
}

/// George: coalescing V into the precoloured U is safe when every neighbour
/// of V already interferes with U, is of insignificant degree, or is a
/// precoloured register that does not overlap U's.
bool Allocator::georgeOK(unsigned U, unsigned V) const {
  if (NoR0[V] && Color[U] == 0)
    return false;
  for (unsigned T : Adj[V]) {
    if (!isActive(T))
      continue;
    if (isPre(T)) {
      bool Overlap = Color[T] < Color[U] + int(sizeOf(U)) &&
                     Color[U] < Color[T] + int(sizeOf(T));
      if (Overlap)
        return false;
      continue;
    }
    if (Degree[T] < capOf(T) || adjacent(T, U))
      continue;
    return false;
  }
  return true;
}

/// Briggs: the merged node has fewer significant neighbours (weighted) than
/// colours it can take.
bool Allocator::briggsOK(unsigned U, unsigned V) {
  int Cap = int(kOf(U)) - int(sizeOf(U)) + 1 - int(NoR0[U] || NoR0[V]);
  ++MarkStamp;
  int Sum = 0;
  for (unsigned N : {U, V})
    for (unsigned T : Adj[N]) {
      if (!isActive(T) || Mark[T] == MarkStamp)
        continue;
      Mark[T] = MarkStamp;
      if (isPre(T) || Degree[T] >= capOf(T)) {
        Sum += weight(U, T);
        if (Sum >= Cap)
          return false;
      }
    }
  return Sum < Cap;
}

void Allocator::combine(unsigned U, unsigned V) {
  State[V] = NodeState::Coalesced;
  Alias[V] = U;
  MoveList[U].append(MoveList[V].begin(), MoveList[V].end());
  NoR0[U] = NoR0[U] || NoR0[V];
  Cost[U] += Cost[V];
  NoSpill[U] = NoSpill[U] && NoSpill[V];
  enableMoves(V);
  // Adj[V] may grow through addEdge only for V itself, which is coalesced
  // now, so iterating by index is safe.
  for (unsigned K = 0; K != Adj[V].size(); ++K) {
    unsigned T = Adj[V][K];
    if (!isActive(T))
      continue;
    addEdge(T, U);
    decrementDegree(T, V);
  }
  if (State[U] == NodeState::Freeze && Degree[U] >= capOf(U))
    pushSpill(U);
  else if (State[U] == NodeState::Spill)
    pushSpill(U); // new neighbours may have lowered its key
}

void Allocator::freezeMoves(unsigned U) {
  for (unsigned M : MoveList[U]) {
    Move &Mv = Moves[M];
    if (Mv.State != MoveState::Active && Mv.State != MoveState::Worklist)
      continue;
    unsigned X = getAlias(Mv.Dst), Y = getAlias(Mv.Src);
    unsigned V = Y == getAlias(U) ? X : Y;
    Mv.State = MoveState::Frozen;
    if (State[V] == NodeState::Freeze && !moveRelated(V) &&
        Degree[V] < capOf(V))
      pushTo(SimplifyWL, V, NodeState::Simplify);
  }
}

bool Allocator::popFrom(std::vector<unsigned> &WL, NodeState S, unsigned &N) {
  while (!WL.empty()) {
    N = WL.back();
    WL.pop_back();
    if (State[N] == S)
      return true;
  }
  return false;
}

void Allocator::simplify(unsigned N) {
  State[N] = NodeState::OnStack;
  SelectStack.push_back(N);
  for (unsigned M : Adj[N])
    if (isActive(M))
      decrementDegree(M, N);
}

void Allocator::coalesce(unsigned M) {
  Move &Mv = Moves[M];
  unsigned X = getAlias(Mv.Dst), Y = getAlias(Mv.Src);
  unsigned U = X, V = Y;
  if (isPre(Y))
    std::swap(U, V);
  if (U == V) {
    Mv.State = MoveState::Coalesced;
    addWorkList(U);
  } else if (isPre(V) || adjacent(U, V)) {
    Mv.State = MoveState::Constrained;
    addWorkList(U);
    addWorkList(V);
  } else if (isPre(U) ? georgeOK(U, V) : briggsOK(U, V)) {
    Mv.State = MoveState::Coalesced;
    combine(U, V);
    addWorkList(U);
  } else {
    Mv.State = MoveState::Active;
  }
}

/// Takes the cheapest potential spill (cost / degree) off the heap; spill
/// temporaries (infinite cost) come last. Returns false when none is left.
bool Allocator::selectSpill() {
  while (!SpillHeap.empty()) {
    auto [Key, N] = SpillHeap.top();
    if (State[N] != NodeState::Spill) {
      SpillHeap.pop();
      continue;
    }
    double Now = spillKey(N);
    if (Now != Key) {
      SpillHeap.pop();
      SpillHeap.push({Now, N});
      continue;
    }
    SpillHeap.pop();
    pushTo(SimplifyWL, N, NodeState::Simplify);
    freezeMoves(N);
    return true;
  }
  return false;
}

void Allocator::assignColors() {
  while (!SelectStack.empty()) {
    unsigned N = SelectStack.back();
    SelectStack.pop_back();
    std::bitset<256> Used;
    for (unsigned W : Adj[N]) {
      unsigned A = getAlias(W);
      if (State[A] == NodeState::Colored || State[A] == NodeState::Precolored)
        for (unsigned K = 0; K != sizeOf(A); ++K)
          Used.set(unsigned(Color[A]) + K);
    }
    unsigned S = sizeOf(N), K = kOf(N);
    auto Fits = [&](int C) {
      if (C < 0 || unsigned(C) + S > K || (C == 0 && NoR0[N]))
        return false;
      for (unsigned J = 0; J != S; ++J)
        if (Used.test(unsigned(C) + J))
          return false;
      return true;
    };
    int Chosen = -1;
    // Biased colouring: prefer the colour of a copy partner, so that a
    // frozen or constrained copy can still disappear.
    for (unsigned M : MoveList[N]) {
      unsigned Other = getAlias(Moves[M].Dst) == N ? getAlias(Moves[M].Src)
                                                   : getAlias(Moves[M].Dst);
      if ((State[Other] == NodeState::Colored ||
           State[Other] == NodeState::Precolored) &&
          Fits(Color[Other])) {
        Chosen = Color[Other];
        break;
      }
    }
    for (int C = 0; Chosen < 0 && C + S <= K; ++C)
      if (Fits(C))
        Chosen = C;
    if (Chosen < 0) {
      State[N] = NodeState::Spilled;
    } else {
      State[N] = NodeState::Colored;
      Color[N] = Chosen;
    }
  }
  for (unsigned N = 0; N != NV; ++N)
    if (State[N] == NodeState::Coalesced)
      Color[N] = Color[getAlias(N)];
}

void Allocator::colorGraph() {
  for (unsigned N = 0; N != NV; ++N) {
    if (State[N] != NodeState::Initial)
      continue;
    if (Degree[N] >= capOf(N))
      pushSpill(N);
    else if (moveRelated(N))
      pushTo(FreezeWL, N, NodeState::Freeze);
    else
      pushTo(SimplifyWL, N, NodeState::Simplify);
  }
  // Worklists are stacks; reverse them so that low-numbered nodes come
  // first (any order is correct; this one is deterministic and readable).
  std::reverse(SimplifyWL.begin(), SimplifyWL.end());
  std::reverse(FreezeWL.begin(), FreezeWL.end());
  std::reverse(MoveWL.begin(), MoveWL.end());
  unsigned N;
  while (true) {
    if (popFrom(SimplifyWL, NodeState::Simplify, N)) {
      simplify(N);
      continue;
    }
    bool Coalesced = false;
    while (!MoveWL.empty()) {
      unsigned M = MoveWL.back();
      MoveWL.pop_back();
      if (Moves[M].State == MoveState::Worklist) {
        coalesce(M);
        Coalesced = true;
        break;
      }
    }
    if (Coalesced)
      continue;
    if (popFrom(FreezeWL, NodeState::Freeze, N)) {
      pushTo(SimplifyWL, N, NodeState::Simplify);
      freezeMoves(N);
      continue;
    }
    if (!selectSpill())
      break;
  }
  assignColors();
}

//===----------------------------------------------------------------------===//
// Spill code
//===----------------------------------------------------------------------===//

/// The per-thread address of \p Slot: the base register itself for slot 0,
/// else a fresh temporary `base + Slot * T * 4` computed into \p Out.
unsigned Allocator::slotAddress(unsigned Slot, SmallVectorImpl<LInst> &Out) {
  if (Slot == 0)
    return unsigned(Addr0);
  unsigned T = newTemp(RegClass::GPR, 1, "");
  Out.push_back(LInst::make(
      Opcode::MovImm, {LOperand::reg(T), LOperand::imm(Slot * Threads * 4)}));
  Out.push_back(LInst::make(Opcode::Iadd, {LOperand::reg(T), LOperand::reg(T),
                                           LOperand::reg(unsigned(Addr0))}));
  return T;
}

/// addr0 = base + 4 * (tid_x + wx * (tid_y + wy * tid_z)) (the linear
/// thread id: emitLinearThreadId, LIR.h). Computed at the very start of the
/// function, where the parameters still occupy r0..r(n-1), so it accumulates
/// in addr0 and needs only one short-lived temporary at a time: two
/// registers besides the parameters.
void Allocator::emitSpillBase(std::vector<LInst> &Out) {
  unsigned A = unsigned(Addr0);
  auto Temp = [&] { return newTemp(RegClass::GPR, 1, ""); };
  emitLinearThreadId(Out, A, *F.WorkgroupSize, Temp,
                     "spill area: linear thread id");
  // A op= imm, through a temporary.
  auto WithImm = [&](Opcode Op, uint32_t Imm) {
    unsigned T = Temp();
    Out.push_back(
        LInst::make(Opcode::MovImm, {LOperand::reg(T), LOperand::imm(Imm)}));
    Out.push_back(LInst::make(
        Op, {LOperand::reg(A), LOperand::reg(A), LOperand::reg(T)}));
  };
  WithImm(Opcode::Shl, 2);
  if (SpillBase)
    WithImm(Opcode::Iadd, SpillBase);
  Out.back().Comment = "spill area base";
}

Error Allocator::rewrite(ArrayRef<unsigned> Spilled) {
  unsigned NumOrig = F.VRegs.size();
  std::vector<SpillKind> Kind(NumOrig, SpillKind::None);
  std::vector<uint32_t> RematImm(NumOrig, 0);
  // Definitions of each spilled register.
  std::vector<unsigned> DefCount(NumOrig, 0);
  std::vector<int> DefInst(NumOrig, -1);
  for (unsigned I = 0; I != F.Insts.size(); ++I)
    for (const RegRef &R : refs(I))
      if (R.Kind != RefKind::Use) {
        ++DefCount[R.VReg];
        DefInst[R.VReg] = int(I);
      }
  std::vector<uint8_t> DropInst(F.Insts.size(), 0);
  unsigned NewSlots = 0;
  for (unsigned V : Spilled) {
    const VRegInfo &VI = F.VRegs[V];
    if (VI.Class == RegClass::Pred) {
      Kind[V] = SpillKind::Pred;
      continue;
    }
    if (DefCount[V] == 1 && VI.Size == 1) {
      const LInst &D = F.Insts[DefInst[V]];
      if (opOf(D) == Opcode::MovImm && D.Ops.size() == 2 && D.Ops[0].isReg() &&
          D.Ops[0].V == V && D.Ops[0].Sub == 0 &&
          D.Ops[1].K == LOperand::Kind::Imm) {
        Kind[V] = SpillKind::Remat;
        RematImm[V] = D.Ops[1].V;
        DropInst[DefInst[V]] = 1;
        ++Stats.Rematerialized;
        continue;
      }
    }
    Kind[V] = SpillKind::Memory;
    NewSlots += VI.Size;
  }
  if (NewSlots) {
    // A `.func` has no local memory of its own (formats/wave-asm.md §9).
    if (!F.IsKernel)
      return error("needs " + Twine(NextSlot + NewSlots) +
                   " spill slots at --max-registers " +
                   Twine(Opts.MaxRegisters) +
                   ", but a device function compiled as '.func' cannot "
                   "use local memory (formats/wave-asm.md §9)");
    if (!F.WorkgroupSize)
      return error("needs " + Twine(NextSlot + NewSlots) +
                   " spill slots but has no workgroup_size attribute; spill "
                   "slots are per thread");
    if (Addr0 < 0) {
      const std::array<uint32_t, 3> &WG = *F.WorkgroupSize;
      uint64_t T = uint64_t(std::max(WG[0], 1u)) * std::max(WG[1], 1u) *
                   std::max(WG[2], 1u);
      Threads = uint32_t(T);
      SpillBase = uint32_t(alignTo(F.LocalMemory, 4));
      Addr0 = int(newTemp(RegClass::GPR, 1, "spill.base"));
      NeedSpillBase = true;
    }
  }
  SlotOf.resize(NumOrig, 0);
  PredHome.resize(NumOrig, 0);
  for (unsigned V : Spilled) {
    if (Kind[V] == SpillKind::Memory) {
      SlotOf[V] = NextSlot;
      NextSlot += F.VRegs[V].Size;
      ++Stats.SpilledVRegs;
    } else if (Kind[V] == SpillKind::Pred) {
      std::string Name =
          F.VRegs[V].Name.empty() ? std::string() : F.VRegs[V].Name + ".spill";
      PredHome[V] = F.newVReg(RegClass::GPR, 1, Name);
      IsTemp.resize(F.VRegs.size(), false);
      ++Stats.SpilledPreds;
    }
  }

  std::vector<LInst> Out;
  Out.reserve(F.Insts.size() + 16);
  // The spill base goes first: spill stores of the parameters' entry copies
  // follow right after them and need it.
  unsigned BaseAt = 0;
  SmallVector<LInst, 8> Pre, Post;
  SmallVector<unsigned, 4> Seen;
  for (unsigned I = 0; I != F.Insts.size(); ++I) {
    if (I == BaseAt && NeedSpillBase) {
      emitSpillBase(Out);
      NeedSpillBase = false;
    }
    if (DropInst[I])
      continue;
    LInst Inst = std::move(F.Insts[I]);
    Seen.clear();
    for (const LOperand &Op : Inst.Ops)
      if (Op.isReg() && Op.V < NumOrig && Kind[Op.V] != SpillKind::None &&
          !is_contained(Seen, Op.V))
        Seen.push_back(Op.V);
    if (Seen.empty()) {
      Out.push_back(std::move(Inst));
      continue;
    }
    Pre.clear();
    Post.clear();
    for (unsigned V : Seen) {
      const VRegInfo VI = F.VRegs[V];
      bool Uses = false;
      unsigned DefHalves = 0; // bit k: half k written
      for (unsigned Idx = 0; Idx != Inst.Ops.size(); ++Idx) {
        const LOperand &Op = Inst.Ops[Idx];
        if (!Op.isReg() || Op.V != V)
          continue;
        if (!isDefOperand(Inst, Idx)) {
          Uses = true;
          continue;
        }
        unsigned W = operandWidth(Inst, Idx, F.VRegs);
        for (unsigned H = Op.Sub; H < std::min<unsigned>(Op.Sub + W, VI.Size);
             ++H)
          DefHalves |= 1u << H;
        if (Op.Sub != 0 || W < VI.Size)
          Uses = true; // keeps the other half
      }
      std::string Note =
          "%" + std::string(VI.Class == RegClass::Pred ? "p" : "r") +
          std::to_string(V) + (VI.Name.empty() ? "" : " (" + VI.Name + ")");
      unsigned T = newTemp(VI.Class, VI.Size, VI.Name);
      for (LOperand &Op : Inst.Ops)
        if (Op.isReg() && Op.V == V)
          Op.V = T;
      switch (Kind[V]) {
      case SpillKind::Remat:
        Pre.push_back(LInst::make(
            Opcode::MovImm, {LOperand::reg(T), LOperand::imm(RematImm[V])},
            "remat " + Note));
        break;
      case SpillKind::Memory:
        if (Uses)
          for (unsigned H = 0; H != VI.Size; ++H) {
            unsigned A = slotAddress(SlotOf[V] + H, Pre);
            Pre.push_back(LInst::make(Opcode::LocalLoadU32,
                                      {LOperand::reg(T, H), LOperand::reg(A)},
                                      "reload " + Note));
            ++Stats.SpillReloads;
          }
        for (unsigned H = 0; H != VI.Size; ++H)
          if (DefHalves & (1u << H)) {
            unsigned A = slotAddress(SlotOf[V] + H, Post);
            Post.push_back(LInst::make(Opcode::LocalStoreU32,
                                       {LOperand::reg(A), LOperand::reg(T, H)},
                                       "spill " + Note));
            ++Stats.SpillStores;
          }
        break;
      case SpillKind::Pred: {
        unsigned G = PredHome[V];
        if (Uses) {
          unsigned Z = newTemp(RegClass::GPR, 1, "");
          Pre.push_back(LInst::make(Opcode::MovImm,
                                    {LOperand::reg(Z), LOperand::imm(0)}));
          Pre.push_back(LInst::make(
              Opcode::IcmpNe,
              {LOperand::reg(T), LOperand::reg(G), LOperand::reg(Z)},
              "reload " + Note));
        }
        if (DefHalves) {
          unsigned One = newTemp(RegClass::GPR, 1, ""),
                   Zero = newTemp(RegClass::GPR, 1, "");
          Post.push_back(LInst::make(Opcode::MovImm,
                                     {LOperand::reg(One), LOperand::imm(1)}));
          Post.push_back(LInst::make(Opcode::MovImm,
                                     {LOperand::reg(Zero), LOperand::imm(0)}));
          Post.push_back(LInst::make(Opcode::Select,
                                     {LOperand::reg(G), LOperand::reg(T),
                                      LOperand::reg(One), LOperand::reg(Zero)},
                                     "spill " + Note));
        }
        break;
      }
      case SpillKind::None:
        break;
      }
    }
    for (LInst &P : Pre)
      Out.push_back(std::move(P));
    Out.push_back(std::move(Inst));
    for (LInst &P : Post)
      Out.push_back(std::move(P));
  }
  F.Insts = std::move(Out);
  if (Addr0 >= 0) {
    Stats.SpillSlots = NextSlot;
    F.LocalMemory = SpillBase + 4 * Threads * NextSlot;
  }
  return Error::success();
}

//===----------------------------------------------------------------------===//
// Results
//===----------------------------------------------------------------------===//

/// Format of the interference dump: one line per virtual register that some
/// instruction of the final round mentions, in register-number order:
///   %rN: %rA %rB ... -> rC
/// listing its interfering registers (same class, sorted by number) and its
/// assignment (`pC` for predicates, `spilled` never occurs in a successful
/// allocation). Predicates print as %pN. The graph is the one built in the
/// last round, before coalescing merged any nodes.
void Allocator::printInterference(raw_ostream &OS) const {
  std::vector<SmallVector<unsigned, 8>> Nbrs(NV);
  for (auto [A, B] : BuiltEdges) {
    Nbrs[A].push_back(B);
    Nbrs[B].push_back(A);
  }
  auto Name = [&](unsigned V) {
    return (F.VRegs[V].Class == RegClass::Pred ? "%p" : "%r") +
           std::to_string(V);
  };
  for (unsigned V = 0; V != NV; ++V) {
    if (State[V] == NodeState::Unused)
      continue;
    llvm::sort(Nbrs[V]);
    OS << Name(V) << ':';
    for (unsigned N : Nbrs[V])
      OS << ' ' << Name(N);
    OS << " -> " << (F.VRegs[V].Class == RegClass::Pred ? 'p' : 'r') << Color[V]
       << '\n';
  }
}

void Allocator::finish() {
  // Delete copies between identical registers.
  std::vector<LInst> Out;
  Out.reserve(F.Insts.size());
  for (LInst &I : F.Insts) {
    if (I.isCopy() && I.Ops.size() == 2 && I.Ops[0].isReg() &&
        I.Ops[1].isReg() &&
        F.VRegs[I.Ops[0].V].Class == F.VRegs[I.Ops[1].V].Class &&
        Color[I.Ops[0].V] + I.Ops[0].Sub == Color[I.Ops[1].V] + I.Ops[1].Sub) {
      unsigned D = I.Ops[0].V;
      if (D >= IsParamCopy.size() || !IsParamCopy[D])
        ++Stats.CoalescedCopies;
      continue;
    }
    Out.push_back(std::move(I));
  }
  F.Insts = std::move(Out);

  F.Assignment.assign(F.VRegs.size(), -1);
  unsigned Regs = F.NumParams;
  std::bitset<NumPredRegs> Preds;
  for (const LInst &I : F.Insts) {
    if (I.Pseudo == LPseudo::PSet ||
        (I.isCopy() && F.VRegs[I.Ops[0].V].Class == RegClass::Pred))
      Regs = std::max(Regs, 1u); // their expansions compare r0 with itself
    for (unsigned Idx = 0; Idx != I.Ops.size(); ++Idx) {
      const LOperand &Op = I.Ops[Idx];
      if (!Op.isReg() || F.VRegs[Op.V].CallSlot >= 0)
        continue;
      F.Assignment[Op.V] = int16_t(Color[Op.V]);
      if (F.VRegs[Op.V].Class == RegClass::Pred)
        Preds.set(Color[Op.V]);
      else
        Regs = std::max(Regs, unsigned(Color[Op.V]) + Op.Sub +
                                  std::max(operandWidth(I, Idx, F.VRegs), 1u));
    }
  }
  for (unsigned V = 0; V != F.VRegs.size(); ++V)
    if (fixedOf(V) >= 0)
      F.Assignment[V] = int16_t(fixedOf(V));
  // Calls: the slots go right above everything else (formats/wave-asm.md
  // §9); run() kept CallSlots registers free for them.
  if (!F.Callees.empty()) {
    F.CallBase = Regs;
    for (unsigned V = 0; V != F.VRegs.size(); ++V)
      if (F.VRegs[V].CallSlot >= 0)
        F.Assignment[V] = int16_t(Regs + unsigned(F.VRegs[V].CallSlot));
    Regs += F.CallSlots;
  }
  F.RegistersUsed = Regs;
  Stats.RegistersUsed = Regs;
  Stats.PredicatesUsed = Preds.count();
}

Expected<RegAllocStats> Allocator::run() {
  if (Opts.MaxRegisters < 1 || Opts.MaxRegisters > 256)
    return error("cannot be allocated: --max-registers must be 1..256, not " +
                 Twine(Opts.MaxRegisters));
  KGpr = std::min(Opts.MaxRegisters, MaxGPRs);
  if (F.NumParams > Opts.MaxRegisters)
    return error("has " + Twine(F.NumParams) + " parameters but " +
                 "--max-registers is " + Twine(Opts.MaxRegisters) +
                 "; kernel parameters arrive in r0..r" +
                 Twine(F.NumParams - 1));
  // The outgoing argument and result registers of calls sit above every
  // colour (formats/wave-asm.md §9).
  if (!F.Callees.empty()) {
    if (F.NumParams + F.CallSlots > KGpr || F.CallSlots >= KGpr)
      return error("cannot be allocated with --max-registers " +
                   Twine(Opts.MaxRegisters) + ": its calls need " +
                   Twine(F.CallSlots) +
                   " argument registers above its own (formats/wave-asm.md "
                   "§9)");
    KGpr -= F.CallSlots;
  }
  for (unsigned V = 0; V != F.VRegs.size(); ++V) {
    int Fx = fixedOf(V);
    if (Fx >= 0 && (F.VRegs[V].Class != RegClass::GPR ||
                    unsigned(Fx) + F.VRegs[V].Size > KGpr))
      return error("has %r" + Twine(V) + " fixed to r" + Twine(Fx) +
                   ", outside --max-registers " + Twine(Opts.MaxRegisters));
  }
  IsTemp.assign(F.VRegs.size(), false);
  splitParameters();

  const unsigned MaxRounds = 64;
  while (true) {
    ++Stats.Rounds;
    if (Error E = buildRefs())
      return std::move(E);
    if (Error E = buildCFG())
      return std::move(E);
    if (HasPartialDefs)
      classifyPartialDefs();
    computeLiveness();
    // No predicate survives a call: spill those live across one into
    // general registers and look again.
    if (!F.Callees.empty()) {
      SmallVector<unsigned, 8> Across = predsLiveAcrossCalls();
      if (!Across.empty()) {
        IsTemp.resize(F.VRegs.size(), false);
        if (any_of(Across, [&](unsigned V) { return IsTemp[V]; }))
          return error("keeps a spill temporary predicate live across a "
                       "call");
        if (Stats.Rounds == MaxRounds)
          return error("still spills after " + Twine(MaxRounds) +
                       " rounds of register allocation");
        if (Error E = rewrite(Across))
          return std::move(E);
        continue;
      }
    }
    buildGraph();
    Stats.InterferenceEdges = std::max<uint64_t>(Stats.InterferenceEdges,
                                                 AdjSet.size());
    colorGraph();

    SmallVector<unsigned, 16> Spilled;
    bool AnySpill = false;
    for (unsigned V = 0; V != NV; ++V) {
      if (State[V] == NodeState::Unused || State[V] == NodeState::Precolored)
        continue;
      if (State[getAlias(V)] != NodeState::Spilled)
        continue;
      AnySpill = true;
      if (!IsTemp[V])
        Spilled.push_back(V);
    }
    if (!AnySpill)
      break;
    if (Spilled.empty())
      return error("cannot be allocated with --max-registers " +
                   Twine(Opts.MaxRegisters) +
                   ": an instruction needs more registers at once than "
                   "remain besides the spill code's");
    if (Stats.Rounds == MaxRounds)
      return error("still spills after " + Twine(MaxRounds) +
                   " rounds of register allocation");
    if (Error E = rewrite(Spilled))
      return std::move(E);
  }
  if (Opts.InterferenceOut)
    printInterference(*Opts.InterferenceOut);
  finish();
  return Stats;
}

} // namespace

Expected<RegAllocStats> allocateRegisters(LFunction &F,
                                          const RegAllocOptions &Opts) {
  return Allocator(F, Opts).run();
}

} // namespace wave::codegen
