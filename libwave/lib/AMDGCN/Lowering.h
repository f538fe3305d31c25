//===- Lowering.h - WAVE to AMDGCN lowering, internals ----------*- C++ -*-===//
//
// Private to the AMDGCN stage: the flattened kernel (WOp), its structured
// regions and control frames, the reaching-definition records, small opcode
// predicates, and KernelLowering, the class that translates one kernel. Its
// member functions live in one file per stage of the pipeline:
//   LowerStructure.cpp  flatten (inline calls) and structure (regions, frames)
//   Webs.cpp            reaching definitions and webs
//   Uniformity.cpp      uniform webs and regions, SGPR webs
//   LowerControl.cpp    if/else/loop/break/continue, calls, halt, barriers,
//                       fences
//   LowerALU.cpp        integer, f32, f16, bf16, f64, compares, conversions
//   LowerMemory.cpp     loads, stores, atomics, register tuples
//   LowerWave.cpp       shuffles, broadcast, ballot, any/all, scans
//   LowerMMA.cpp        MMA fragments
//   Translate.cpp       the driver: lowerOp's dispatch, the prologue, the
//                       pipeline after lowering
// ConstantBus.cpp legalizes the constant bus of the lowered code.
//
//===----------------------------------------------------------------------===//
#ifndef WAVE_LIB_AMDGCN_LOWERING_H
#define WAVE_LIB_AMDGCN_LOWERING_H

#include "Emitter.h"
#include "GCNIR.h"

#include "wave/AMDGCN/Translate.h"
#include "wave/ISA/ISA.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/ErrorHandling.h"

#include <array>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace wave::amdgcn::detail {

using llvm::DenseMap;
using llvm::Error;
using llvm::SmallVector;
using llvm::SmallVectorImpl;
using llvm::StringRef;
using llvm::Twine;

/// Register ids of the analysis: r0..r255, then p0..p3.
constexpr unsigned NumGPR = 256;
constexpr unsigned PredBase = 256;
constexpr unsigned NumAnalysisRegs = 260;
constexpr unsigned MaxCallDepth = 8;           // formats/isa.md §4.16
constexpr unsigned MaxFrames = 32;             // formats/isa.md §4.15
constexpr uint32_t DefaultLocalMemory = 16384; // formats/isa.md §4.1
/// Inlining can multiply a kernel's size (8 levels of calls); past this many
/// WAVE instructions the kernel is refused rather than translated slowly.
constexpr size_t MaxInlinedOps = 1 << 14;

/// What an entry of the flattened kernel stands for.
enum class WOpKind : uint8_t {
  Inst,      ///< a WAVE instruction
  CallBegin, ///< an inlined `call` (I is the call; Target: its CallEnd)
  CallEnd,   ///< where the inlined function returns to
  FuncReturn,///< a predicated `return` at a function's top level (Target)
  Trap,      ///< a call past the 8-entry call stack: the wave faults
};

/// One entry of the flattened kernel: a WAVE instruction, or a marker of
/// an inlined call (formats/isa.md §4.16).
struct WOp {
  Inst I;
  uint32_t PC = 0;
  int Region = -1; ///< innermost structured region, -1 = top level.
  WOpKind Kind = WOpKind::Inst;
  int Target = -1; ///< CallBegin, FuncReturn: index of the CallEnd.
};

enum class RegionKind : uint8_t { Then, Else, Loop };

/// A structured region: the then- or else-part of an if, or a loop body.
struct Region {
  RegionKind Kind;
  int Parent = -1;
  unsigned Begin = 0; ///< index of the `if`/`else`/`loop`.
  unsigned End = 0;   ///< index of the `else`/`endif`/`endloop`.
  unsigned Opener = 0; ///< index of the `if` (both parts) or `loop`.
  int Frame = -1;     ///< control frame (an if's two parts share one).
  /// Holds an instruction that acts on the whole wave even with no lane
  /// active (isWholeWaveOp): the region is never skipped, and no uniform
  /// branch may jump over one.
  bool HasWholeWaveOp = false;
  bool Uniform = true;
};

/// Whether \p O acts on the whole wave even when no lane runs it
/// (formats/isa.md §4.15, §4.17): a `barrier`, which every wave must reach,
/// and an unpredicated `return` from the kernel, which ends the wave. (An
/// empty mask makes the emulator's `halt` a no-op, D8, and a callee's
/// `return` only returns.)
inline bool isWholeWaveOp(const WOp &O) {
  return O.Kind == WOpKind::Inst &&
         (O.I.Op == Opcode::Barrier ||
          (O.I.Op == Opcode::Return && !O.I.isPredicated()));
}

/// A control frame: the masks of one `if` or `loop` (formats/isa.md §4.15).
struct Frame {
  bool IsLoop = false;
  int Parent = -1;
  uint32_t Entry = 0; ///< mask vreg: entry mask (IF, LOOP).
  uint32_t Other = 0; ///< mask vreg: else mask (IF) or breaks (LOOP).
  unsigned Head = 0;  ///< label: loop header.
  unsigned Mid = 0;   ///< label: else (IF) or latch (LOOP).
  unsigned Exit = 0;  ///< label: endif (IF) or loop exit (LOOP).
  bool HasElse = false;
  /// An if whose condition is uniform (Region::Uniform): scalar branches
  /// around its parts, EXEC untouched. Entry still tracks the lanes left
  /// (for a halt inside), Other is not used.
  bool UniformIf = false;
  /// A uniform loop's drains: where a uniform break or continue (op index
  /// From) goes first to run the barriers the rest of the body would have
  /// run with no lane active, before label To (KernelLowering::drain).
  struct Drain {
    unsigned Label, From, To;
  };
  std::vector<Drain> Drains;
};

struct DefRec {
  unsigned Reg;
  int Op; ///< -1: the value on entry.
};

/// Fails with a TranslateError at \p PC.
inline Error err(StringRef Kernel, uint32_t PC, const Twine &Msg) {
  return llvm::make_error<TranslateError>(Kernel.str(), PC, Msg.str());
}

/// Registers the value of load or store \p Op spans (1, 2 or 4; Opcodes.def
/// columns Dst and Src).
inline unsigned memRegs(Opcode Op) {
  return isStore(Op) ? getSourceRegs(Op) : getDestRegs(Op);
}

/// Whether \p Op reads its source register (rs1) in other lanes, active
/// or not (formats/isa.md §4.14: a wave shuffle or broadcast reads "the current
/// register value of that lane whether or not it is active").
inline bool readsOtherLanes(Opcode Op) {
  return Op == Opcode::WaveShuffle || Op == Opcode::WaveShuffleUp ||
         Op == Opcode::WaveShuffleDown || Op == Opcode::WaveShuffleXor ||
         Op == Opcode::WaveBroadcast;
}

/// The registers (analysis ids) \p I reads and writes. The instruction
/// predicate is a read. An atomic with rd = 0 writes nothing (formats/isa.md
/// §2.11).
void regsOf(const Inst &I, SmallVectorImpl<unsigned> &Uses,
            SmallVectorImpl<unsigned> &Defs);

/// Translates one kernel.
class KernelLowering {
public:
  KernelLowering(const WbinFile &File, const KernelInfo &K,
                 const GCNTarget &T, bool Comments)
      : File(File), K(K), T(T), Comments(Comments) {
    F.T = &T;
    F.Name = K.Name;
  }

  Error run(KernelDesc &Desc);
  MFunction F;

private:
  const WbinFile &File;
  const KernelInfo &K;
  const GCNTarget &T;
  bool Comments;

  std::vector<WOp> Ops;
  std::vector<Region> Regions;
  std::vector<Frame> Frames;
  std::vector<int> RegionOpenedAt; ///< per op: region it opens, or -1.

  // Webs.
  std::vector<DefRec> Defs;
  std::vector<SmallVector<unsigned, 2>> OpDefs; ///< def ids per op.
  /// Per op, per use: (reg, reaching def ids).
  std::vector<SmallVector<std::pair<unsigned, SmallVector<unsigned, 2>>, 4>>
      OpUses;
  std::vector<unsigned> UF; ///< union-find parent over def ids.
  std::vector<char> WebDivergent; ///< indexed by root def id.
  std::vector<char> WebScalar;    ///< root def id: lives in an SGPR.
  std::vector<char> DefMerges;    ///< def id: partial def, merges.
  /// Root def id: a wave shuffle or broadcast reads the web in other
  /// lanes, so it lives in a VGPR whose every lane holds that lane's value.
  std::vector<char> CrossLaneWeb;
  /// Merging def id: the innermost region holding the def and every use it
  /// reaches. Lanes that ran the def and lanes that did not meet only at
  /// those uses, so the value stays uniform when every region between the
  /// def and this one keeps its lanes together (and so does every loop
  /// around the def, which a divergent `continue` would split).
  std::vector<int> DefScope;
  std::map<unsigned, uint32_t> WebVReg; ///< root def id -> vreg.
  std::vector<unsigned> WebNumDefs;     ///< root def id -> its defs.
  /// vreg of a web -> (tuple vreg, part): the web lives in one register of
  /// a tuple a single wide load writes (applyTupleParts()).
  DenseMap<uint32_t, std::pair<uint32_t, int8_t>> TupleParts;
  unsigned NumParams = 0;
  bool UsesLocal = false;

  // Lowering state.
  std::vector<int> FrameStack;
  uint32_t KernargPtr = 0, Base = 0, TidV = 0;
  int WgId[3] = {-1, -1, -1};
  int GridSize[3] = {-1, -1, -1}, GroupSize[3] = {-1, -1, -1};
  unsigned EndLabel = 0;
  bool NeedEndLabel = false;
  /// MMA fragments by fragKey: 16 VGPRs, element (r, c) at r * 4 + c.
  std::map<unsigned, std::array<uint32_t, 16>> Frags;
  /// With packed f32 (GCNTarget::PackedF32): fragment elements (r, 2c) and
  /// (r, 2c + 1) are the halves of pair r * 2 + c (TupleParts).
  std::map<unsigned, std::array<uint32_t, 8>> FragPairs;
  /// The fragment tables of formats/isa.md §4.18: A, B and C are separate.
  enum FragTable : unsigned { FragA, FragB, FragC };
  static unsigned fragKey(FragTable Tab, unsigned Id) { return Tab * 256 + Id; }
  bool UsesDeviceMemory = false;
  /// Every wave starts with all its lanes and no lane stops before the
  /// wave does (see execFull()).
  bool WavesFull = false;
  uint32_t LaneIdV = 0; ///< lane ids, computed once at entry (or 0).
  /// Whether the kernel fixes its workgroup size with y and z both 1
  /// (formats/isa.md §4.2: metadata with x > 0 gives all three), so the
  /// packed work-item id VGPR holds x alone.
  bool yzFixedOne() const {
    return K.WorkgroupSize[0] > 0 && K.WorkgroupSize[1] == 1 &&
           K.WorkgroupSize[2] == 1;
  }
  std::map<unsigned, unsigned> CallEndLabels; ///< CallEnd op -> label.

  Error flatten();
  Error walk(uint32_t PC, unsigned CallDepth, unsigned FrameDepthAtEntry,
             unsigned &OpenFrames, SmallVectorImpl<unsigned> &Returns);
  Error structure();
  void reachingDefs();
  void buildWebs();
  void uniformity();
  Error lower(KernelDesc &Desc);
  Error lowerOp(unsigned Idx);
  bool lowerScalarALU(unsigned Idx);
  Error lowerALU(unsigned Idx);
  Error lowerMemory(unsigned Idx);
  Error lowerWaveOp(unsigned Idx);
  Error lowerMMA(unsigned Idx);
  Error lowerControl(unsigned Idx);
  Error lowerCallMarker(unsigned Idx);
  bool loadsIntoTuple(unsigned Idx);
  bool execFull(unsigned Idx) const;
  bool localWrittenBeforeRead(uint32_t Bytes) const;
  int loopRegionOf(int R) const;
  bool regionsUniform(int R, int Stop = -1) const;
  bool loopKeepsExec(const Region &Loop) const;
  bool needsDrain(unsigned From, const Region &Loop) const;
  bool lastIsCselectOf(uint32_t Mask) const;
  std::optional<int64_t> constantOf(uint32_t R) const;
  uint32_t sharedScan(StringRef Name, uint32_t Src) const;
  /// The last inclusive scan lowered with every lane active (sharedScan):
  /// its source, its result, its operation and where its code ends.
  struct ScanRecord {
    uint32_t Src = 0, Scan = 0;
    std::string Name;
    size_t End = 0;
  } LastScan;
  uint32_t inclusiveScan(StringRef Name, int64_t Identity, uint32_t Src,
                         uint32_t Active);
  void applyTupleParts();

  /// The innermost region enclosing both \p A and \p B (-1: top level).
  int commonRegion(int A, int B) const {
    auto Depth = [&](int R) {
      unsigned N = 0;
      for (; R >= 0; R = Regions[R].Parent)
        ++N;
      return N;
    };
    unsigned DA = Depth(A), DB = Depth(B);
    for (; DA > DB; --DA)
      A = Regions[A].Parent;
    for (; DB > DA; --DB)
      B = Regions[B].Parent;
    while (A != B)
      A = Regions[A].Parent, B = Regions[B].Parent;
    return A;
  }
  unsigned find(unsigned X) {
    while (UF[X] != X)
      X = UF[X] = UF[UF[X]];
    return X;
  }
  void unite(unsigned A, unsigned B) {
    A = find(A), B = find(B);
    if (A != B)
      UF[std::max(A, B)] = std::min(A, B);
  }

  // --- Builders --------------------------------------------------------
  /// Appends \p Op (GCNOps.def). A spelling may carry modifiers after a
  /// space (the memory-model sequences, "buffer_inv sc1"): they go first
  /// in the suffix.
  MInst &emit(GCNOp Op, std::initializer_list<MOperand> Operands,
              StringRef Suffix = "") {
    MInst MI;
    MI.setOp(Op);
    MI.Ops.append(Operands.begin(), Operands.end());
    MI.Suffix = Suffix.str();
    F.Insts.push_back(std::move(MI));
    return F.Insts.back();
  }
  MInst &emit(StringRef Spelling, std::initializer_list<MOperand> Operands,
              StringRef Suffix = "") {
    auto [Name, Modifiers] = Spelling.split(' ');
    GCNOp Op = lookupGCNOp(Name);
    if (Op == GCNOp::None)
      report_fatal_error("AMDGCN: no GCNOps.def row for '" + Name + "'");
    MInst &MI = emit(Op, Operands, Suffix);
    if (!Modifiers.empty())
      MI.Suffix = (" " + Modifiers + Suffix).str();
    return MI;
  }
  void comment(const Twine &Text) {
    MInst MI;
    MI.Kind = InstKind::Comment;
    MI.Comment = Text.str();
    F.Insts.push_back(std::move(MI));
  }
  void label(unsigned L) {
    MInst MI;
    MI.Kind = InstKind::Label;
    MI.Ops.push_back(MOperand::label(L));
    F.Insts.push_back(std::move(MI));
  }
  void branch(StringRef Op, unsigned L) {
    emit(Op, {MOperand::label(L)});
  }

  static MOperand D(uint32_t R, int8_t Sub = -1) {
    return MOperand::def(R, Sub);
  }
  static MOperand U(uint32_t R, int8_t Sub = -1) {
    return MOperand::use(R, Sub);
  }
  static MOperand I(int64_t V) { return MOperand::imm(V); }
  static MOperand ExecU() { return MOperand::hw(HwReg::Exec, false, true); }
  static MOperand ExecD() { return MOperand::hw(HwReg::Exec, true, false); }
  static MOperand ExecDU() { return MOperand::hw(HwReg::Exec, true, true); }
  static MOperand Neg(MOperand O) {
    O.Neg = true;
    return O;
  }

  uint32_t newV() { return F.newVReg(RegClass::V32); }
  uint32_t newS() { return F.newVReg(RegClass::S32); }
  uint32_t newMask() { return F.newVReg(F.maskClass()); }
  std::string m(StringRef Base) const {
    return (Base + (T.WaveSize == 64 ? "_b64" : "_b32")).str();
  }
  std::string mU(StringRef Base) const { // s_cmp_*_u64 / u32
    return (Base + (T.WaveSize == 64 ? "_u64" : "_u32")).str();
  }
  bool isS(uint32_t R) const {
    return !isVector(F.VRegs[R].Class);
  }
  /// \p R as a VGPR: itself, or a v_mov copy of an SGPR.
  uint32_t toV(uint32_t R) {
    if (!isS(R))
      return R;
    uint32_t V = newV();
    emit("v_mov_b32", {D(V), U(R)});
    return V;
  }

  // --- Values of WAVE registers at an op --------------------------------
  unsigned webOfUse(unsigned Idx, unsigned Reg) {
    for (auto &[R, DefsReaching] : OpUses[Idx])
      if (R == Reg)
        return find(DefsReaching.front());
    llvm_unreachable("register not recorded as a use");
  }
  /// The web of \p Reg written by op \p Idx; ~0u when the write is
  /// dropped (a register past the kernel's register count).
  unsigned webOfDef(unsigned Idx, unsigned Reg) {
    for (unsigned D : OpDefs[Idx])
      if (Defs[D].Reg == Reg)
        return find(D);
    assert(!exists(Reg) && "register not recorded as a def");
    return ~0u;
  }
  /// Whether analysis register \p R exists: registers r0..rN-1 of a
  /// kernel with N registers, and the predicates (formats/isa.md §4.1: reads of
  /// the others give 0, writes to them are dropped).
  bool exists(unsigned R) const {
    return R >= PredBase || K.RegisterCount == 0 || R < K.RegisterCount;
  }
  uint32_t vregOfWeb(unsigned Web) {
    auto It = WebVReg.find(Web);
    if (It != WebVReg.end())
      return It->second;
    RegClass C = Defs[Web].Reg >= PredBase ? F.maskClass()
                 : WebScalar[Web]          ? RegClass::S32
                                           : RegClass::V32;
    uint32_t R = F.newVReg(C);
    WebVReg[Web] = R;
    return R;
  }
  uint32_t use(unsigned Idx, unsigned Reg) {
    return vregOfWeb(webOfUse(Idx, Reg & 0xFF));
  }
  uint32_t useP(unsigned Idx, unsigned P) {
    return vregOfWeb(webOfUse(Idx, PredBase + (P & 3)));
  }
  uint32_t def(unsigned Idx, unsigned Reg) {
    unsigned Web = webOfDef(Idx, Reg & 0xFF);
    return Web == ~0u ? newV() : vregOfWeb(Web); // dropped: a dead vreg
  }
  uint32_t defP(unsigned Idx, unsigned P) {
    return vregOfWeb(webOfDef(Idx, PredBase + (P & 3)));
  }
  bool defMerges(unsigned Idx, unsigned Reg) {
    for (unsigned D : OpDefs[Idx])
      if (Defs[D].Reg == Reg)
        return DefMerges[D];
    return false;
  }

  /// A merging definition (DefMerges) writes only the lanes that run it, so
  /// the machine instructions op Idx became (\p OpInsts[Idx], a range of
  /// F.Insts) read the register they write as well: the other lanes' values
  /// stay live through them, around a loop's back edge too.
  void markMergingDefs(llvm::ArrayRef<std::pair<size_t, size_t>> OpInsts);
  uint32_t laneId();
  uint32_t groupSize(unsigned Dim);
  uint32_t gridSize(unsigned Dim);
  uint32_t workgroupId(unsigned Dim);
  uint32_t specialReg(unsigned Idx, bool Scalar);
  uint32_t hiddenLoad(unsigned Offset);
  unsigned hiddenBase() const { return (8 + 4 * NumParams + 7) & ~7u; }
  void setPredicate(unsigned Idx, unsigned Pd, uint32_t Result);
  /// Correctly rounded f32 division; with \p ZeroDenIsInf, a zero
  /// denominator of either sign gives +inf (formats/isa.md D10, `fdiv` only).
  void fdiv(uint32_t Dst, MOperand Num, uint32_t Den, bool ZeroDenIsInf);
  uint32_t fsqrt(uint32_t X);
  void sinCos(uint32_t Dst, uint32_t X, bool Cos);
  void udivmod(uint32_t Q, uint32_t R, uint32_t UA, uint32_t UB,
               bool NeedQ = true);
  uint32_t pairIn(unsigned Idx, unsigned Reg);
  void pairOut(unsigned Idx, unsigned Reg, uint32_t Tuple);
  void waitAll() { emit(GCNOp::WAIT_ALL, {}); }
  void fence(bool Acquire, bool Release, unsigned Scope);
  void barrier();
  int regionEndLabel(int RegionIdx);
  void skipIfExecZero(int RegionIdx);
  void removeLanes(uint32_t Lanes, bool AllFrames, int LoopFrame);
  uint32_t vaddr(unsigned Idx, unsigned Reg) { return toV(use(Idx, Reg)); }
  uint32_t fragment(unsigned Key, unsigned I, unsigned J);
  uint32_t rowAddress(uint32_t Addr, uint32_t Stride, unsigned Row);

  // --- The instruction lowerOp() is lowering ----------------------------
  // Set by lowerOp() for the per-class lowerings, which end with finish().
  unsigned CurIdx = 0;
  /// EXEC before a predicated instruction narrowed it to EXEC & P, or 0.
  uint32_t CurSavedExec = 0;
  /// Its sources rs1, rs2, rs3 and its destination rd.
  uint32_t A() { return use(CurIdx, Ops[CurIdx].I.Rs1); }
  uint32_t B() { return use(CurIdx, Ops[CurIdx].I.Rs2); }
  uint32_t C() { return use(CurIdx, Ops[CurIdx].I.Rs3); }
  uint32_t Dst() { return def(CurIdx, Ops[CurIdx].I.Rd); }
  /// Ends its lowering: restores EXEC after a predicated instruction.
  Error finish() {
    if (CurSavedExec)
      emit(m("s_mov"), {ExecD(), U(CurSavedExec)});
    return Error::success();
  }
  Error unsupported(StringRef What) {
    return err(K.Name, Ops[CurIdx].PC,
               "'" + What + "' is not supported on " + T.Name);
  }
};

/// Keeps the constant bus within the target's limit (ConstantBus.cpp).
void legalizeConstantBus(MFunction &F);

} // namespace wave::amdgcn::detail

#endif // WAVE_LIB_AMDGCN_LOWERING_H
