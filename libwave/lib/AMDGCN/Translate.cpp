//===- Translate.cpp - WAVE to AMDGCN assembly ----------------------------===//
//
// The front half of the AMDGCN stage (formats/amdgcn-abi.md):
//
//  1. Flatten: decode a kernel, inline its `call`s (WAVE has no stack, so a
//     call is a jump whose callee's body can be copied), check that the
//     control flow is structured (ISA.md §4.15).
//  2. Webs: reaching definitions of every WAVE register and predicate over
//     the structured program; a definition made while some lanes may be
//     inactive, whose old value can still be observed, is a *partial*
//     definition and joins the web of the values it merges with.
//  3. Uniformity: which webs hold the same value in every active lane and
//     which if/loop regions keep all live lanes together; uniform integer
//     webs live in SGPRs and use SALU instructions.
//  4. Lowering: every WAVE instruction becomes AMDGCN instructions over
//     virtual registers (GCNIR.h); structured control flow becomes EXEC-mask
//     arithmetic with the reference emulator's default semantics (ISA.md
//     §4.15 with D5, D6, D8, D9), with `s_cbranch_execz` skips over regions
//     no lane runs.
//
// Then: legalization of the constant bus, peephole, register allocation,
// wait counts, hazards and emission (Emitter.cpp).
//
//===----------------------------------------------------------------------===//
#include "wave/AMDGCN/Translate.h"

#include "Emitter.h"
#include "GCNIR.h"

#include "wave/ISA/ISA.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <map>
#include <numeric>

using namespace llvm;

namespace wave::amdgcn {

char TranslateError::ID = 0;

void TranslateError::log(raw_ostream &OS) const {
  OS << "kernel '" << Kernel << "', PC " << format("0x%04x", PC) << ": "
     << Message;
}

std::error_code TranslateError::convertToErrorCode() const {
  return inconvertibleErrorCode();
}

namespace {

/// Register ids of the analysis: r0..r255, then p0..p3.
constexpr unsigned NumGPR = 256;
constexpr unsigned PredBase = 256;
constexpr unsigned NumAnalysisRegs = 260;
constexpr unsigned MaxCallDepth = 8;  // ISA.md §4.16
constexpr unsigned MaxFrames = 32;    // ISA.md §4.15
constexpr uint32_t DefaultLocalMemory = 16384; // ISA.md §4.1
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
/// an inlined call (ISA.md §4.16).
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
  bool HasBarrier = false;
  bool Uniform = true;
};

/// A control frame: the masks of one `if` or `loop` (ISA.md §4.15).
struct Frame {
  bool IsLoop = false;
  int Parent = -1;
  uint32_t Entry = 0; ///< mask vreg: entry mask (IF, LOOP).
  uint32_t Other = 0; ///< mask vreg: else mask (IF) or breaks (LOOP).
  unsigned Head = 0;  ///< label: loop header.
  unsigned Mid = 0;   ///< label: else (IF) or latch (LOOP).
  unsigned Exit = 0;  ///< label: endif (IF) or loop exit (LOOP).
  bool HasElse = false;
};

struct DefRec {
  unsigned Reg;
  int Op; ///< -1: the value on entry.
};

/// Fails with a TranslateError at \p PC.
Error err(StringRef Kernel, uint32_t PC, const Twine &Msg) {
  return make_error<TranslateError>(Kernel.str(), PC, Msg.str());
}

bool isCompare(Opcode Op) {
  return Op >= Opcode::IcmpEq && Op <= Opcode::FcmpUnord;
}
bool isControl(Opcode Op) {
  switch (Op) {
  case Opcode::If:
  case Opcode::Else:
  case Opcode::Endif:
  case Opcode::Loop:
  case Opcode::Break:
  case Opcode::Continue:
  case Opcode::Endloop:
  case Opcode::Call:
  case Opcode::Return:
  case Opcode::Halt:
  case Opcode::Barrier:
  case Opcode::FenceAcquire:
  case Opcode::FenceRelease:
  case Opcode::FenceAcqRel:
  case Opcode::Wait:
  case Opcode::Nop:
    return true;
  default:
    return false;
  }
}

/// Width in registers of a memory access of \p Op (1, 2 or 4), 0 if none.
unsigned memRegs(Opcode Op) {
  switch (Op) {
  case Opcode::LocalLoadU64:
  case Opcode::LocalStoreU64:
  case Opcode::DeviceLoadU64:
  case Opcode::DeviceStoreU64:
    return 2;
  case Opcode::LocalLoadU128:
  case Opcode::LocalStoreU128:
  case Opcode::DeviceLoadU128:
  case Opcode::DeviceStoreU128:
    return 4;
  default:
    return 1;
  }
}


/// The AMDGCN instruction of one 8-, 16- or 32-bit piece of a WAVE load or
/// store (wider accesses are several 32-bit pieces).
const char *memMnemonic(Opcode Op) {
  switch (Op) {
  case Opcode::LocalLoadU8:
    return "ds_read_u8";
  case Opcode::LocalLoadU16:
    return "ds_read_u16";
  case Opcode::LocalStoreU8:
    return "ds_write_b8";
  case Opcode::LocalStoreU16:
    return "ds_write_b16";
  case Opcode::DeviceLoadU8:
    return "global_load_ubyte";
  case Opcode::DeviceLoadU16:
    return "global_load_ushort";
  case Opcode::DeviceStoreU8:
    return "global_store_byte";
  case Opcode::DeviceStoreU16:
    return "global_store_short";
  default:
    break;
  }
  if (Op >= Opcode::LocalLoadU8 && Op <= Opcode::LocalLoadU128)
    return "ds_read_b32";
  if (Op >= Opcode::LocalStoreU8 && Op <= Opcode::LocalStoreU128)
    return "ds_write_b32";
  if (Op >= Opcode::DeviceLoadU8 && Op <= Opcode::DeviceLoadU128)
    return "global_load_dword";
  return "global_store_dword";
}

bool isLocalAtomic(Opcode Op) {
  return Op >= Opcode::LocalAtomicAdd && Op <= Opcode::LocalAtomicCas;
}
bool isDeviceAtomic(Opcode Op) {
  return Op >= Opcode::AtomicAdd && Op <= Opcode::AtomicCas;
}
bool isLocalMem(Opcode Op) {
  return (Op >= Opcode::LocalLoadU8 && Op <= Opcode::LocalStoreU128) ||
         isLocalAtomic(Op) || Op == Opcode::MmaLoadA ||
         Op == Opcode::MmaLoadB || Op == Opcode::MmaStoreC;
}

/// Whether \p Op reads its source register (rs1) in other lanes, active
/// or not (ISA.md §4.14: a wave shuffle or broadcast reads "the current
/// register value of that lane whether or not it is active").
bool readsOtherLanes(Opcode Op) {
  return Op == Opcode::WaveShuffle || Op == Opcode::WaveShuffleUp ||
         Op == Opcode::WaveShuffleDown || Op == Opcode::WaveShuffleXor ||
         Op == Opcode::WaveBroadcast;
}

/// The registers (analysis ids) \p I reads and writes. The instruction
/// predicate is a read. An atomic with rd = 0 writes nothing (ISA.md §2.11).
void regsOf(const Inst &I, SmallVectorImpl<unsigned> &Uses,
            SmallVectorImpl<unsigned> &Defs) {
  auto R = [&](unsigned N, unsigned Count = 1) {
    for (unsigned K = 0; K < Count; ++K)
      Uses.push_back((N + K) & 0xFF);
  };
  auto W = [&](unsigned N, unsigned Count = 1) {
    for (unsigned K = 0; K < Count; ++K)
      Defs.push_back((N + K) & 0xFF);
  };
  auto P = [&](unsigned N) { Uses.push_back(PredBase + (N & 3)); };
  if (I.isPredicated())
    P(I.PredReg);
  Opcode Op = I.Op;
  const FormDesc &F = I.form();
  if (isCompare(Op)) {
    R(I.Rs1), R(I.Rs2);
    Defs.push_back(PredBase + (I.Rd & 3));
    return;
  }
  switch (Op) {
  case Opcode::Select:
    P(I.Rs1), R(I.Rs2), R(I.Rs3), W(I.Rd);
    return;
  case Opcode::If:
  case Opcode::Break:
  case Opcode::Continue:
    P(I.Rs1);
    return;
  case Opcode::WaveBallot:
    P(I.Rs1), W(I.Rd);
    return;
  case Opcode::WaveAny:
  case Opcode::WaveAll:
    P(I.Rs1);
    Defs.push_back(PredBase + (I.Rd & 3));
    return;
  case Opcode::Dadd:
  case Opcode::Dsub:
  case Opcode::Dmul:
  case Opcode::Ddiv:
    R(I.Rs1, 2), R(I.Rs2, 2), W(I.Rd, 2);
    return;
  case Opcode::Dma:
    R(I.Rs1, 2), R(I.Rs2, 2), R(I.Rs3, 2), W(I.Rd, 2);
    return;
  case Opcode::Dsqrt:
    R(I.Rs1, 2), W(I.Rd, 2);
    return;
  case Opcode::CvtF32F64:
    R(I.Rs1, 2), W(I.Rd);
    return;
  case Opcode::CvtF64F32:
    R(I.Rs1), W(I.Rd, 2);
    return;
  case Opcode::MovSr:
  case Opcode::MovImm:
    W(I.Rd);
    return;
  case Opcode::MmaLoadA:
  case Opcode::MmaLoadB:
    R(I.Rs1), R(I.Rs2);
    return;
  case Opcode::MmaStoreC:
    R(I.Rd), R(I.Rs1);
    return;
  case Opcode::MmaCompute:
    return;
  default:
    break;
  }
  if (Op >= Opcode::LocalLoadU8 && Op <= Opcode::LocalLoadU128) {
    R(I.Rs1), W(I.Rd, memRegs(Op));
    return;
  }
  if (Op >= Opcode::DeviceLoadU8 && Op <= Opcode::DeviceLoadU128) {
    R(I.Rs1), W(I.Rd, memRegs(Op));
    return;
  }
  if ((Op >= Opcode::LocalStoreU8 && Op <= Opcode::LocalStoreU128) ||
      (Op >= Opcode::DeviceStoreU8 && Op <= Opcode::DeviceStoreU128)) {
    R(I.Rs1), R(I.Rs2, memRegs(Op));
    return;
  }
  if (isLocalAtomic(Op) || isDeviceAtomic(Op)) {
    R(I.Rs1), R(I.Rs2);
    if (Op == Opcode::LocalAtomicCas || Op == Opcode::AtomicCas)
      R(I.Rs3);
    if (I.Rd != 0)
      W(I.Rd);
    return;
  }
  if (isControl(Op))
    return;
  // Generic register forms: the first operand is the destination.
  for (unsigned K = 0; K < F.NumOperands; ++K) {
    const OperandDesc &O = F.Operands[K];
    if (O.Kind != OperandKind::Reg)
      continue;
    unsigned N = I.getField(O.Fld);
    if (K == 0)
      W(N);
    else
      R(N);
  }
}

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
  std::map<unsigned, std::array<uint32_t, 16>> Frags;
  bool UsesDeviceMemory = false;
  /// Every wave starts with all its lanes and no lane stops before the
  /// wave does (see execFull()).
  bool WavesFull = false;
  uint32_t LaneIdV = 0; ///< lane ids, computed once at entry (or 0).
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
  Error lowerControl(unsigned Idx);
  Error lowerCallMarker(unsigned Idx);
  bool loadsIntoTuple(unsigned Idx);
  bool execFull(unsigned Idx) const;
  int loopRegionOf(int R) const;
  bool regionsUniform(int R, int Stop = -1) const;
  bool lastIsCselectOf(uint32_t Mask) const;
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
  MInst &emit(StringRef Op, std::initializer_list<MOperand> Operands,
              StringRef Suffix = "") {
    MInst MI;
    MI.Op = Op.str();
    MI.Kind = classify(Op);
    MI.Ops.append(Operands.begin(), Operands.end());
    MI.Suffix = Suffix.str();
    if (MI.Kind == InstKind::SALU && !Op.starts_with("s_mov") &&
        !Op.starts_with("s_cselect") && !Op.starts_with("s_ff1") &&
        !Op.starts_with("s_bitset") && !Op.starts_with("s_brev") &&
        !Op.starts_with("s_flbit") && !Op.starts_with("s_mul_i32") &&
        !Op.starts_with("s_mul_hi") && !Op.starts_with("s_not") &&
        Op != "s_sext_i32_i16")
      MI.WritesSCC = true;
    if (Op.starts_with("s_cselect") || Op.starts_with("s_cbranch_scc"))
      MI.ReadsSCC = true;
    F.Insts.push_back(std::move(MI));
    return F.Insts.back();
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
    MInst &MI = emit(Op, {MOperand::label(L)});
    MI.Kind = InstKind::Branch;
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
  /// kernel with N registers, and the predicates (ISA.md §4.1: reads of
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

  uint32_t laneId();
  uint32_t groupSize(unsigned Dim);
  uint32_t gridSize(unsigned Dim);
  uint32_t workgroupId(unsigned Dim);
  uint32_t specialReg(unsigned Idx, bool Scalar);
  uint32_t hiddenLoad(unsigned Offset);
  unsigned hiddenBase() const { return (8 + 4 * NumParams + 7) & ~7u; }
  void setPredicate(unsigned Idx, unsigned Pd, uint32_t Result);
  /// Correctly rounded f32 division; with \p ZeroDenIsInf, a zero
  /// denominator of either sign gives +inf (ISA.md D10, `fdiv` only).
  void fdiv(uint32_t Dst, MOperand Num, uint32_t Den, bool ZeroDenIsInf);
  uint32_t fsqrt(uint32_t X);
  void sinCos(uint32_t Dst, uint32_t X, bool Cos);
  void udivmod(uint32_t Q, uint32_t R, uint32_t UA, uint32_t UB);
  uint32_t pairIn(unsigned Idx, unsigned Reg);
  void pairOut(unsigned Idx, unsigned Reg, uint32_t Tuple);
  void waitAll() { emit("wait_all", {}).Kind = InstKind::Wait; }
  void fence(bool Acquire, bool Release, unsigned Scope);
  void barrier();
  int regionEndLabel(int RegionIdx);
  void skipIfExecZero(int RegionIdx);
  void removeLanes(uint32_t Lanes, bool AllFrames, int LoopFrame);
  uint32_t vaddr(unsigned Idx, unsigned Reg) { return toV(use(Idx, Reg)); }
  uint32_t fragment(unsigned Id, unsigned I, unsigned J);
  uint32_t rowAddress(uint32_t Addr, uint32_t Stride, unsigned Row);
};

//===----------------------------------------------------------------------===//
// 1. Flatten
//===----------------------------------------------------------------------===//

Error KernelLowering::walk(uint32_t PC, unsigned CallDepth,
                           unsigned FrameDepthAtEntry, unsigned &OpenFrames,
                           SmallVectorImpl<unsigned> &Returns) {
  ArrayRef<uint8_t> Code(File.Code);
  uint32_t Begin = K.CodeOffset, End = K.CodeOffset + K.CodeSize;
  auto Marker = [&](WOpKind Kind, uint32_t At, const Inst &In) {
    WOp O{In, At, -1};
    O.Kind = Kind;
    Ops.push_back(O);
    return unsigned(Ops.size() - 1);
  };
  while (true) {
    if (Ops.size() > MaxInlinedOps)
      return err(K.Name, PC, "more than " + Twine(MaxInlinedOps) +
                                 " instructions once calls are inlined");
    if (PC >= K.CodeSize) {
      if (CallDepth > 0)
        return err(K.Name, PC, "a called function runs past the end of the "
                               "kernel without 'return'");
      // D18 default: running past the end stops the wave.
      Inst H;
      H.Op = Opcode::Halt;
      Ops.push_back({H, PC, -1});
      return Error::success();
    }
    Expected<Inst> II =
        decodeInst(Code.slice(0, End), uint64_t(Begin) + PC);
    if (!II) {
      consumeError(II.takeError());
      return err(K.Name, PC, "invalid instruction");
    }
    Inst In = *II;
    if (In.Op == Opcode::If || In.Op == Opcode::Loop)
      ++OpenFrames;
    if (In.Op == Opcode::Endif || In.Op == Opcode::Endloop) {
      if (OpenFrames == FrameDepthAtEntry)
        return err(K.Name, PC,
                   CallDepth ? "'" + std::string(In.desc().Mnemonic) +
                                   "' closes a frame the function did "
                                   "not open"
                             : "'" + std::string(In.desc().Mnemonic) +
                                   "' without a matching frame");
      --OpenFrames;
    }
    if (In.Op == Opcode::Call) {
      if (In.Word1 >= K.CodeSize || In.Word1 % 4)
        return err(K.Name, PC, "call target outside the kernel");
      // The body is inlined between two markers; a predicated call (D9
      // default: skipped when no active lane qualifies) and a function's
      // predicated returns branch to the end marker.
      unsigned B = Marker(WOpKind::CallBegin, PC, In);
      SmallVector<unsigned, 2> Rets;
      if (CallDepth == MaxCallDepth) {
        // A ninth nested call overflows the call stack: the wave faults
        // when it gets here (ISA.md §4.16, "stack overflow: call").
        Inst Tr;
        Tr.Op = Opcode::Nop;
        Marker(WOpKind::Trap, PC, Tr);
      } else if (Error E = walk(In.Word1, CallDepth + 1, OpenFrames,
                                OpenFrames, Rets)) {
        return E;
      }
      Inst Nop;
      Nop.Op = Opcode::Nop;
      unsigned EndIdx = Marker(WOpKind::CallEnd, PC, Nop);
      Ops[B].Target = int(EndIdx);
      for (unsigned R : Rets)
        Ops[R].Target = int(EndIdx);
      PC += 8;
      continue;
    }
    if (In.Op == Opcode::Return && CallDepth > 0) {
      if (OpenFrames != FrameDepthAtEntry)
        return err(K.Name, PC, "'return' inside an if or loop of a function "
                               "is not supported on AMDGCN (it would leave "
                               "the frame on the divergence stack)");
      if (!In.isPredicated())
        return Error::success();
      // §4.4: a predicated sync op is skipped when no active lane
      // qualifies, and otherwise returns for the whole wave.
      Returns.push_back(Marker(WOpKind::FuncReturn, PC, In));
      PC += 4;
      continue;
    }
    Ops.push_back({In, PC, -1});
    bool EndsWave = (In.Op == Opcode::Halt || In.Op == Opcode::Return) &&
                    !In.isPredicated() && OpenFrames == 0;
    if (EndsWave)
      return Error::success(); // what follows is not reachable from here.
    PC += In.length();
  }
}

Error KernelLowering::flatten() {
  unsigned Open = 0;
  SmallVector<unsigned, 1> Returns; // a kernel's `return` ends the wave.
  if (Error E = walk(0, 0, 0, Open, Returns))
    return E;
  if (Open != 0)
    return err(K.Name, Ops.back().PC, "unterminated if or loop");
  for (const WOp &O : Ops) {
    if (isLocalMem(O.I.Op))
      UsesLocal = true;
    if ((O.I.Op >= Opcode::DeviceLoadU8 && O.I.Op <= Opcode::DeviceStoreU128) ||
        isDeviceAtomic(O.I.Op))
      UsesDeviceMemory = true;
  }
  return Error::success();
}

//===----------------------------------------------------------------------===//
// Structure: regions and frames
//===----------------------------------------------------------------------===//

Error KernelLowering::structure() {
  RegionOpenedAt.assign(Ops.size(), -1);
  std::vector<int> RStack; // open regions
  for (unsigned Idx = 0; Idx < Ops.size(); ++Idx) {
    WOp &O = Ops[Idx];
    int Cur = RStack.empty() ? -1 : RStack.back();
    O.Region = Cur;
    switch (O.I.Op) {
    case Opcode::If:
    case Opcode::Loop: {
      if (RStack.size() >= MaxFrames * 2)
        return err(K.Name, O.PC, "more than 32 nested if/loop frames");
      Frame Fr;
      Fr.IsLoop = O.I.Op == Opcode::Loop;
      Fr.Parent = Cur < 0 ? -1 : Regions[Cur].Frame;
      Frames.push_back(Fr);
      Region R{O.I.Op == Opcode::Loop ? RegionKind::Loop : RegionKind::Then};
      R.Parent = Cur;
      R.Begin = R.Opener = Idx;
      R.Frame = int(Frames.size() - 1);
      Regions.push_back(R);
      RStack.push_back(int(Regions.size() - 1));
      RegionOpenedAt[Idx] = RStack.back();
      break;
    }
    case Opcode::Else: {
      if (Cur < 0 || Regions[Cur].Kind != RegionKind::Then)
        return err(K.Name, O.PC, "'else' without a matching 'if'");
      Regions[Cur].End = Idx;
      Region R{RegionKind::Else};
      R.Parent = Regions[Cur].Parent;
      R.Begin = Idx;
      R.Opener = Regions[Cur].Opener;
      R.Frame = Regions[Cur].Frame;
      Frames[R.Frame].HasElse = true;
      RStack.back() = int(Regions.size());
      RegionOpenedAt[Idx] = RStack.back();
      Regions.push_back(R);
      O.Region = R.Parent;
      break;
    }
    case Opcode::Endif:
    case Opcode::Endloop: {
      bool Loop = O.I.Op == Opcode::Endloop;
      if (Cur < 0 || (Regions[Cur].Kind == RegionKind::Loop) != Loop)
        return err(K.Name, O.PC,
                   Loop ? "'endloop' without a matching 'loop'"
                        : "'endif' without a matching 'if'");
      Regions[Cur].End = Idx;
      RStack.pop_back();
      O.Region = Regions[Cur].Parent;
      break;
    }
    case Opcode::Break:
    case Opcode::Continue: {
      if (loopRegionOf(Cur) < 0)
        return err(K.Name, O.PC,
                   "'" + std::string(O.I.desc().Mnemonic) +
                       "' outside of a loop");
      break;
    }
    case Opcode::Barrier:
      for (int R = Cur; R >= 0; R = Regions[R].Parent)
        Regions[R].HasBarrier = true;
      break;
    default:
      break;
    }
    if (O.I.Op == Opcode::If || O.I.Op == Opcode::Loop)
      O.Region = Cur;
  }
  if (!RStack.empty())
    return err(K.Name, Ops.back().PC, "unterminated if or loop");
  return Error::success();
}

//===----------------------------------------------------------------------===//
// 2. Webs
//===----------------------------------------------------------------------===//

static void mergeInto(SmallVector<unsigned, 2> &Dst,
                      const SmallVector<unsigned, 2> &Src) {
  for (unsigned D : Src)
    if (!is_contained(Dst, D))
      Dst.push_back(D);
  llvm::sort(Dst);
}

/// Reaching definitions over the paths a single lane can take (ISA.md
/// §4.15 with D5, D6, D9 default): an `if` sends each lane into its then-
/// or its else-part (or past the region), `break` takes the breaking lanes
/// to the loop's exit, `continue` takes them round to the loop's header,
/// and a lane leaves a loop only through a `break`. The flattened order,
/// which runs both parts of an `if` one after the other, is the wave's
/// path, not a lane's: a value defined in a then-part does not reach its
/// else-part, and a value live into a region reaches past it in the lanes
/// that skip it.
void KernelLowering::reachingDefs() {
  using State = std::vector<SmallVector<unsigned, 2>>;
  auto Merge = [](State &Dst, const State &Src) {
    bool Grew = false;
    for (unsigned R = 0; R < NumAnalysisRegs; ++R) {
      size_t Before = Dst[R].size();
      mergeInto(Dst[R], Src[R]);
      Grew |= Dst[R].size() != Before;
    }
    return Grew;
  };
  Defs.clear();
  for (unsigned R = 0; R < NumAnalysisRegs; ++R)
    Defs.push_back({R, -1});
  OpDefs.assign(Ops.size(), {});
  OpUses.assign(Ops.size(), {});
  std::vector<SmallVector<unsigned, 4>> UseRegs(Ops.size()),
      DefRegs(Ops.size());
  for (unsigned Idx = 0; Idx < Ops.size(); ++Idx) {
    SmallVector<unsigned, 4> U, Dd;
    regsOf(Ops[Idx].I, U, Dd);
    for (unsigned R : U)
      if (!is_contained(UseRegs[Idx], R))
        UseRegs[Idx].push_back(R);
    for (unsigned R : Dd)
      if (!is_contained(DefRegs[Idx], R) && exists(R)) {
        DefRegs[Idx].push_back(R);
        OpDefs[Idx].push_back(unsigned(Defs.size()));
        Defs.push_back({R, int(Idx)});
      }
  }
  // Loop (index of its `loop`) -> the state arriving over its back edge
  // (the end of the body and every `continue`), from the last sweep.
  std::map<unsigned, State> BackEdge;
  bool Changed = true;
  while (Changed) {
    Changed = false;
    State Cur(NumAnalysisRegs);
    for (unsigned R = 0; R < NumAnalysisRegs; ++R)
      Cur[R] = {R};
    // Open regions, innermost last: for an `if`, the state at the `if`
    // and, once its else-part begins, the state at the end of its
    // then-part; for a loop, the state its `break`s take to its exit.
    struct Open {
      unsigned Begin;
      State AtIf, ThenEnd, Exit;
      bool Broken = false;
    };
    std::vector<Open> Stack;
    // CallEnd index -> state arriving over a skipped call or a return.
    std::map<unsigned, State> Jumps;
    for (unsigned Idx = 0; Idx < Ops.size(); ++Idx) {
      const WOp &O = Ops[Idx];
      if (O.Kind == WOpKind::CallEnd) {
        auto It = Jumps.find(Idx);
        if (It != Jumps.end())
          Merge(Cur, It->second);
      }
      if (O.Kind == WOpKind::Inst && O.I.Op == Opcode::Loop) {
        auto It = BackEdge.find(Idx);
        if (It != BackEdge.end())
          Merge(Cur, It->second);
      }
      OpUses[Idx].clear();
      for (unsigned R : UseRegs[Idx])
        OpUses[Idx].push_back({R, Cur[R]});
      // A def also records what it may merge with, as a pseudo-use of its
      // own register (only consulted when the def turns out partial).
      for (unsigned R : DefRegs[Idx])
        if (!is_contained(UseRegs[Idx], R))
          OpUses[Idx].push_back({R | 0x10000, Cur[R]});
      for (unsigned D : OpDefs[Idx])
        Cur[Defs[D].Reg] = {D};
      if ((O.Kind == WOpKind::CallBegin || O.Kind == WOpKind::FuncReturn) &&
          O.I.isPredicated()) {
        State &J = Jumps[unsigned(O.Target)];
        if (J.empty())
          J.assign(NumAnalysisRegs, {});
        Merge(J, Cur);
      }
      if (O.Kind != WOpKind::Inst)
        continue;
      auto InnermostLoop = [&]() -> Open & {
        for (auto It = Stack.rbegin(); It != Stack.rend(); ++It)
          if (Ops[It->Begin].I.Op == Opcode::Loop)
            return *It;
        llvm_unreachable("break/continue outside a loop (structure())");
      };
      switch (O.I.Op) {
      case Opcode::If:
        Stack.push_back({Idx, Cur, {}, {}});
        break;
      case Opcode::Loop:
        Stack.push_back({Idx, {}, {}, State(NumAnalysisRegs)});
        break;
      case Opcode::Else:
        Stack.back().ThenEnd = Cur;
        Cur = Stack.back().AtIf;
        break;
      case Opcode::Endif: {
        Open &Top = Stack.back();
        // Lanes come from the then-part and the else-part, or past the
        // then-part when there is no else-part.
        Merge(Cur, Top.ThenEnd.empty() ? Top.AtIf : Top.ThenEnd);
        Stack.pop_back();
        break;
      }
      case Opcode::Break: {
        Open &L = InnermostLoop();
        Merge(L.Exit, Cur);
        L.Broken = true;
        break;
      }
      case Opcode::Continue: {
        State &BE = BackEdge[InnermostLoop().Begin];
        if (BE.empty())
          BE.assign(NumAnalysisRegs, {});
        Changed |= Merge(BE, Cur);
        break;
      }
      case Opcode::Endloop: {
        Open &Top = Stack.back();
        State &BE = BackEdge[Top.Begin];
        if (BE.empty())
          BE.assign(NumAnalysisRegs, {});
        Changed |= Merge(BE, Cur);
        // Lanes leave only through a `break`; a loop without one is left
        // by no lane (the wave halts inside it), so what follows keeps
        // the state at its end (unreachable, but kept defined).
        if (Top.Broken)
          Cur = std::move(Top.Exit);
        Stack.pop_back();
        break;
      }
      default:
        break;
      }
    }
  }
  // A wave shuffle or broadcast also reads its source in lanes that are
  // not on this lane's path: lanes parked in an enclosing `if` or outside
  // a `break`, halted lanes and lanes past the workgroup's end (which
  // hold the register's initial value). Any definition the wave has run
  // by then, in this pass over the code or an earlier iteration of a loop
  // around it, may be the value such a lane holds.
  for (unsigned Idx = 0; Idx < Ops.size(); ++Idx) {
    const WOp &O = Ops[Idx];
    if (O.Kind != WOpKind::Inst || !readsOtherLanes(O.I.Op))
      continue;
    unsigned Src = O.I.Rs1 & 0xFF;
    if (!exists(Src))
      continue;
    // Ops [First, Last]: the outermost loop around the op, if any.
    unsigned First = Idx, Last = Idx;
    for (int R = O.Region; R >= 0; R = Regions[R].Parent)
      if (Regions[R].Kind == RegionKind::Loop)
        First = Regions[R].Begin, Last = Regions[R].End;
    for (auto &[R, Ds] : OpUses[Idx]) {
      if (R != Src)
        continue;
      SmallVector<unsigned, 2> All = {Src};
      for (unsigned D = NumAnalysisRegs; D < Defs.size(); ++D)
        if (Defs[D].Reg == Src &&
            (unsigned(Defs[D].Op) < Idx ||
             (unsigned(Defs[D].Op) >= First && unsigned(Defs[D].Op) <= Last)))
          All.push_back(D);
      mergeInto(Ds, All);
    }
  }
}

void KernelLowering::buildWebs() {
  UF.resize(Defs.size());
  std::iota(UF.begin(), UF.end(), 0u);
  DefMerges.assign(Defs.size(), 0);
  DefScope.assign(Defs.size(), -1);
  // Uses reached by each def.
  std::vector<SmallVector<unsigned, 4>> Reached(Defs.size());
  for (unsigned Idx = 0; Idx < Ops.size(); ++Idx)
    for (auto &[R, Ds] : OpUses[Idx]) {
      if (R & 0x10000)
        continue;
      for (unsigned D : Ds) {
        Reached[D].push_back(Idx);
        unite(D, Ds.front());
      }
    }
  // A merging definition writes only its active lanes, so it joins the
  // web of the values it may leave in the others (its pseudo-use).
  auto MakeMerging = [&](unsigned Idx, unsigned D) {
    DefMerges[D] = 1;
    for (auto &[UR, Ds] : OpUses[Idx])
      if ((UR & 0xFFFF) == Defs[D].Reg)
        for (unsigned Old : Ds)
          unite(D, Old);
  };
  // Partial definitions.
  for (unsigned Idx = 0; Idx < Ops.size(); ++Idx) {
    const WOp &O = Ops[Idx];
    for (unsigned D : OpDefs[Idx]) {
      bool Partial = O.I.isPredicated() || O.Region >= 0;
      if (!Partial)
        continue;
      bool Local = !O.I.isPredicated();
      if (Local) {
        unsigned End = Regions[O.Region].End;
        for (unsigned U : Reached[D])
          if (U <= Idx || U >= End)
            Local = false;
      }
      if (Local)
        continue;
      int Scope = O.Region;
      for (unsigned U : Reached[D])
        Scope = commonRegion(Scope, Ops[U].Region);
      DefScope[D] = Scope;
      MakeMerging(Idx, D);
    }
  }
  // A web that a wave shuffle or broadcast reads keeps every lane's own
  // value: each of its definitions writes only the lanes that run it.
  CrossLaneWeb.assign(Defs.size(), 0);
  for (bool Grew = true; Grew;) {
    Grew = false;
    for (unsigned Idx = 0; Idx < Ops.size(); ++Idx)
      if (Ops[Idx].Kind == WOpKind::Inst && readsOtherLanes(Ops[Idx].I.Op) &&
          exists(Ops[Idx].I.Rs1 & 0xFF))
        CrossLaneWeb[webOfUse(Idx, Ops[Idx].I.Rs1 & 0xFF)] = 1;
    for (unsigned Idx = 0; Idx < Ops.size(); ++Idx)
      for (unsigned D : OpDefs[Idx])
        if (CrossLaneWeb[find(D)] && !DefMerges[D]) {
          MakeMerging(Idx, D);
          Grew = true;
        }
    for (unsigned D = 0; D < Defs.size(); ++D)
      if (CrossLaneWeb[D] && !CrossLaneWeb[find(D)])
        CrossLaneWeb[find(D)] = 1, Grew = true;
  }
  auto CountDefs = [&]() {
    WebNumDefs.assign(Defs.size(), 0);
    for (unsigned D = 0; D < Defs.size(); ++D)
      ++WebNumDefs[find(D)];
  };
  // A predicate is one lane mask that every write replaces whole, so a
  // write under a partial EXEC merges with the other lanes' bits whenever
  // its web holds another value: in a region that writes a predicate
  // twice, the first write is read only by the second, yet the lanes that
  // skip the region still hold the value from before it. (DefScope stays
  // -1, the top level.)
  for (bool Grew = true; Grew;) {
    Grew = false;
    CountDefs();
    for (unsigned Idx = 0; Idx < Ops.size(); ++Idx)
      for (unsigned D : OpDefs[Idx])
        if (Defs[D].Reg >= PredBase && !DefMerges[D] &&
            (Ops[Idx].I.isPredicated() || Ops[Idx].Region >= 0) &&
            WebNumDefs[find(D)] > 1) {
          MakeMerging(Idx, D);
          Grew = true;
        }
  }
}

void KernelLowering::uniformity() {
  WebDivergent.assign(Defs.size(), 0);
  auto UseDiv = [&](unsigned Idx, unsigned Reg) {
    for (auto &[R, Ds] : OpUses[Idx])
      if (R == Reg)
        return WebDivergent[find(Ds.front())] != 0;
    return false;
  };
  // Whether every loop around region \p R keeps its lanes together: a
  // divergent `continue` lets some lanes skip a definition in an iteration
  // while the others run it, even where the uses stay inside the loop.
  auto LoopsUniform = [&](int R) {
    for (; R >= 0; R = Regions[R].Parent)
      if (Regions[R].Kind == RegionKind::Loop && !Regions[R].Uniform)
        return false;
    return true;
  };
  bool Changed = true;
  while (Changed) {
    Changed = false;
    auto Mark = [&](unsigned Web) {
      if (!WebDivergent[Web]) {
        WebDivergent[Web] = 1;
        Changed = true;
      }
    };
    // Regions.
    for (Region &R : Regions) {
      bool U = !R.HasBarrier;
      const WOp &Open = Ops[R.Opener];
      if (R.Kind != RegionKind::Loop) {
        if (UseDiv(&Open - &Ops[0], PredBase + (Open.I.Rs1 & 3)))
          U = false;
        if (Open.I.isPredicated())
          U = false;
      } else {
        // A break or continue is uniform when its condition is, and so is
        // every if between it and the loop.
        for (unsigned Idx = R.Begin + 1; Idx < R.End; ++Idx) {
          const WOp &O = Ops[Idx];
          if ((O.I.Op == Opcode::Break || O.I.Op == Opcode::Continue) &&
              (O.I.isPredicated() ||
               UseDiv(Idx, PredBase + (O.I.Rs1 & 3)) ||
               !regionsUniform(O.Region, loopRegionOf(O.Region))))
            U = false;
        }
      }
      if (R.Uniform && !U) {
        R.Uniform = false;
        Changed = true;
      }
    }
    // Values.
    for (unsigned Idx = 0; Idx < Ops.size(); ++Idx) {
      const WOp &O = Ops[Idx];
      if (OpDefs[Idx].empty())
        continue;
      Opcode Op = O.I.Op;
      bool Div = false;
      switch (Op) {
      case Opcode::MovSr: {
        unsigned S = O.I.Rs1;
        Div = S <= 2 || S == 4;
        break;
      }
      case Opcode::WaveBroadcast:
      case Opcode::WaveBallot:
      case Opcode::WaveAny:
      case Opcode::WaveAll:
      case Opcode::WaveReduceAdd:
      case Opcode::WaveReduceMin:
      case Opcode::WaveReduceMax:
        Div = O.I.isPredicated() &&
              UseDiv(Idx, PredBase + (O.I.PredReg & 3));
        break;
      case Opcode::WaveShuffle:
      case Opcode::WaveShuffleUp:
      case Opcode::WaveShuffleDown:
      case Opcode::WaveShuffleXor:
      case Opcode::WavePrefixSum:
        Div = true;
        break;
      default:
        if ((Op >= Opcode::LocalLoadU8 && Op <= Opcode::DeviceStoreU128) ||
            isLocalAtomic(Op) || isDeviceAtomic(Op)) {
          Div = true;
          break;
        }
        for (auto &[R, Ds] : OpUses[Idx])
          if (!(R & 0x10000) && WebDivergent[find(Ds.front())])
            Div = true;
        break;
      }
      for (unsigned D : OpDefs[Idx]) {
        bool DD = Div || CrossLaneWeb[find(D)];
        if (DefMerges[D] && (O.I.isPredicated() ||
                             !regionsUniform(O.Region, DefScope[D]) ||
                             !LoopsUniform(O.Region)))
          DD = true;
        if (DD)
          Mark(find(D));
      }
    }
  }
  // SGPR placement: uniform 32-bit webs whose every definition has a
  // scalar form, over operands that are scalar too.
  WebScalar.assign(Defs.size(), 0);
  for (unsigned D = 0; D < Defs.size(); ++D)
    if (find(D) == D && Defs[D].Reg < PredBase && !WebDivergent[D] &&
        !CrossLaneWeb[D])
      WebScalar[D] = 1;
  Changed = true;
  while (Changed) {
    Changed = false;
    for (unsigned Idx = 0; Idx < Ops.size(); ++Idx) {
      const WOp &O = Ops[Idx];
      bool AnyScalar = false;
      for (unsigned D : OpDefs[Idx])
        if (Defs[D].Reg < PredBase && WebScalar[find(D)])
          AnyScalar = true;
      if (!AnyScalar)
        continue;
      bool Ok;
      bool NeedScalarOperands = true;
      switch (O.I.Op) {
      case Opcode::Iadd:
      case Opcode::Isub:
      case Opcode::Imul:
      case Opcode::ImulHi:
      case Opcode::Imad:
      case Opcode::Ineg:
      case Opcode::Iabs:
      case Opcode::Imin:
      case Opcode::Imax:
      case Opcode::Iclamp:
      case Opcode::And:
      case Opcode::Or:
      case Opcode::Xor:
      case Opcode::Not:
      case Opcode::Shl:
      case Opcode::Shr:
      case Opcode::Sar:
      case Opcode::Bitcount:
      case Opcode::Bitfind:
      case Opcode::Bitrev:
      case Opcode::Mov:
      case Opcode::MovImm:
      case Opcode::Select:
        Ok = true;
        break;
      case Opcode::MovSr:
        Ok = true;
        NeedScalarOperands = false;
        break;
      case Opcode::WaveBroadcast:
      case Opcode::WaveBallot:
      case Opcode::WaveReduceAdd:
      case Opcode::WaveReduceMin:
      case Opcode::WaveReduceMax:
        Ok = !O.I.isPredicated();
        NeedScalarOperands = false;
        break;
      default:
        Ok = false;
        break;
      }
      if (Ok && NeedScalarOperands)
        for (auto &[R, Ds] : OpUses[Idx])
          if (!(R & 0x10000) && R < PredBase && !WebScalar[find(Ds.front())])
            Ok = false;
      if (O.I.isPredicated())
        Ok = false;
      if (!Ok)
        for (unsigned D : OpDefs[Idx])
          if (Defs[D].Reg < PredBase && WebScalar[find(D)]) {
            WebScalar[find(D)] = 0;
            Changed = true;
          }
    }
  }
}

//===----------------------------------------------------------------------===//
// 4. Lowering
//===----------------------------------------------------------------------===//

uint32_t KernelLowering::hiddenLoad(unsigned Offset) {
  uint32_t R = newS();
  emit("s_load_dword", {D(R), U(KernargPtr), I(Offset)});
  return R;
}

uint32_t KernelLowering::laneId() {
  if (LaneIdV)
    return LaneIdV;
  uint32_t V = newV();
  emit("v_mbcnt_lo_u32_b32", {D(V), I(-1), I(0)});
  if (T.WaveSize == 64)
    emit("v_mbcnt_hi_u32_b32", {D(V), I(-1), U(V)});
  return V;
}

uint32_t KernelLowering::workgroupId(unsigned Dim) {
  return uint32_t(WgId[Dim]);
}

uint32_t KernelLowering::groupSize(unsigned Dim) {
  if (K.WorkgroupSize[0] > 0) {
    uint32_t R = newS();
    emit("s_mov_b32", {D(R), I(K.WorkgroupSize[Dim])});
    return R;
  }
  uint32_t R = newS();
  uint32_t Word = uint32_t(GroupSize[Dim]);
  if (Dim == 1)
    emit("s_lshr_b32", {D(R), U(Word), I(16)});
  else
    emit("s_and_b32", {D(R), U(Word), I(0xFFFF)});
  return R;
}

uint32_t KernelLowering::gridSize(unsigned Dim) {
  return uint32_t(GridSize[Dim]);
}

uint32_t KernelLowering::specialReg(unsigned Idx, bool Scalar) {
  uint32_t R;
  switch (Idx) {
  case 0:
    R = newV();
    emit("v_and_b32", {D(R), I(0x3FF), U(TidV)});
    return R;
  case 1:
  case 2:
    R = newV();
    if (K.WorkgroupSize[Idx] == 1) // a fixed size of 1: the id is 0
      emit("v_mov_b32", {D(R), I(0)});
    else
      emit("v_bfe_u32", {D(R), U(TidV), I(Idx == 1 ? 10 : 20), I(10)});
    return R;
  case 3: { // wave index: linear id of the first active lane / W
    uint32_t S = newS();
    emit("v_readfirstlane_b32", {D(S), U(TidV)});
    uint32_t X = newS(), Y = newS(), Z = newS();
    emit("s_and_b32", {D(X), U(S), I(0x3FF)});
    for (unsigned Dim : {1u, 2u}) {
      uint32_t Id = Dim == 1 ? Y : Z;
      if (K.WorkgroupSize[Dim] == 1)
        emit("s_mov_b32", {D(Id), I(0)});
      else
        emit("s_bfe_u32", {D(Id), U(S), I((10 << 16) | (10 * Dim))});
    }
    uint32_t SY = groupSize(1), SX = groupSize(0);
    uint32_t L1 = newS(), L2 = newS(), L3 = newS(), L4 = newS();
    R = newS();
    emit("s_mul_i32", {D(L1), U(Z), U(SY)});
    emit("s_add_u32", {D(L2), U(L1), U(Y)});
    emit("s_mul_i32", {D(L3), U(L2), U(SX)});
    emit("s_add_u32", {D(L4), U(L3), U(X)});
    emit("s_lshr_b32", {D(R), U(L4), I(T.WaveSize == 64 ? 6 : 5)});
    break;
  }
  case 4:
    return laneId();
  case 5:
  case 6:
  case 7:
    R = newS();
    emit("s_mov_b32", {D(R), U(workgroupId(Idx - 5))});
    break;
  case 8:
  case 9:
  case 10:
    R = groupSize(Idx - 8);
    break;
  case 11:
  case 12:
  case 13:
    R = newS();
    emit("s_mov_b32", {D(R), U(gridSize(Idx - 11))});
    break;
  case 14:
    R = newS();
    emit("s_mov_b32", {D(R), I(T.WaveSize)});
    break;
  case 15: { // ceil(x*y*z / W)
    uint32_t SX = groupSize(0), SY = groupSize(1), SZ = groupSize(2);
    uint32_t XY = newS(), XYZ = newS(), Up = newS();
    R = newS();
    emit("s_mul_i32", {D(XY), U(SX), U(SY)});
    emit("s_mul_i32", {D(XYZ), U(XY), U(SZ)});
    emit("s_add_u32", {D(Up), U(XYZ), I(T.WaveSize - 1)});
    emit("s_lshr_b32", {D(R), U(Up), I(T.WaveSize == 64 ? 6 : 5)});
    break;
  }
  case 16:
    R = newS();
    emit("s_mov_b32", {D(R), I(1)});
    break;
  case 17:
  case 18:
  case 19:
    R = newS();
    emit("s_mov_b32", {D(R), I(4)});
    break;
  default:
    R = newS();
    emit("s_mov_b32", {D(R), I(0)});
    break;
  }
  if (Scalar)
    return R;
  return toV(R);
}

/// Writes compare/any/all result \p Result (a mask, zero in inactive lanes)
/// to predicate \p Pd of op \p Idx, keeping inactive lanes' bits when the
/// definition is partial.
void KernelLowering::setPredicate(unsigned Idx, unsigned Pd, uint32_t Result) {
  uint32_t P = defP(Idx, Pd);
  if (defMerges(Idx, PredBase + (Pd & 3))) {
    // A merging definition shares its web, so its vreg, with the old value.
    uint32_t Keep = newMask();
    emit(m("s_andn2"), {D(Keep), U(P), ExecU()});
    emit(m("s_or"), {D(P), U(Keep), U(Result)});
  } else {
    emit(m("s_mov"), {D(P), U(Result)});
  }
}

/// IEEE f32 division Num / Den, correctly rounded (the v_div_scale /
/// v_div_fmas / v_div_fixup sequence of the CDNA3 and RDNA ISA guides),
/// with WAVE's rule that any division by ±0 gives +inf (ISA.md §4.7, D10).
void KernelLowering::fdiv(uint32_t Dst, MOperand Num, uint32_t Den,
                          bool ZeroDenIsInf) {
  uint32_t DS = newV(), NS = newV(), R = newV(), E = newV(), Q = newV(),
           Rm = newV(), Res = newV();
  uint32_t Dummy = newMask();
  MOperand Vcc = MOperand::hw(HwReg::Vcc, true, false);
  emit("v_div_scale_f32", {D(DS), D(Dummy), U(Den), U(Den), Num});
  emit("v_div_scale_f32", {D(NS), Vcc, Num, U(Den), Num});
  emit("v_rcp_f32", {D(R), U(DS)});
  emit("v_fma_f32", {D(E), Neg(U(DS)), U(R), I(0x3F800000)});
  emit("v_fma_f32", {D(R), U(E), U(R), U(R)});
  emit("v_mul_f32", {D(Q), U(NS), U(R)});
  emit("v_fma_f32", {D(Rm), Neg(U(DS)), U(Q), U(NS)});
  emit("v_fma_f32", {D(Q), U(Rm), U(R), U(Q)});
  emit("v_fma_f32", {D(Rm), Neg(U(DS)), U(Q), U(NS)});
  MInst &Fm = emit("v_div_fmas_f32", {D(Res), U(Rm), U(R), U(Q)});
  Fm.ReadsVCC = true;
  F.UsesVCC = true;
  uint32_t Fx = ZeroDenIsInf ? newV() : Dst;
  emit("v_div_fixup_f32", {D(Fx), U(Res), U(Den), Num});
  if (!ZeroDenIsInf)
    return;
  uint32_t Z = newMask();
  emit("v_cmp_eq_f32_e64", {D(Z), I(0), U(Den)});
  emit("v_cndmask_b32_e64", {D(Dst), U(Fx), I(0x7F800000), U(Z)});
}

/// Correctly rounded f32 square root (the scaled v_sqrt_f32 with one-ulp
/// correction that LLVM uses for IEEE sqrt).
uint32_t KernelLowering::fsqrt(uint32_t X) {
  uint32_t NeedScale = newMask(), Scaled = newV(), SX = newV(), S = newV(),
           Dn = newV(), Up = newV(), RDn = newV(), RUp = newV(),
           C1 = newMask(), C2 = newMask(), S2 = newV(), Out = newV(),
           Zi = newMask(), Res = newV();
  emit("v_cmp_gt_f32_e64", {D(NeedScale), I(0x0F800000), U(X)});
  emit("v_mul_f32", {D(Scaled), I(0x4F800000), U(X)});
  emit("v_cndmask_b32_e64", {D(SX), U(X), U(Scaled), U(NeedScale)});
  emit("v_sqrt_f32", {D(S), U(SX)});
  emit(T.VAddU32, {D(Dn), I(-1), U(S)});
  emit(T.VAddU32, {D(Up), I(1), U(S)});
  emit("v_fma_f32", {D(RDn), Neg(U(Dn)), U(S), U(SX)});
  emit("v_fma_f32", {D(RUp), Neg(U(Up)), U(S), U(SX)});
  emit("v_cmp_ge_f32_e64", {D(C1), I(0), U(RDn)});
  emit("v_cndmask_b32_e64", {D(S2), U(S), U(Dn), U(C1)});
  emit("v_cmp_lt_f32_e64", {D(C2), I(0), U(RUp)});
  emit("v_cndmask_b32_e64", {D(S2), U(S2), U(Up), U(C2)});
  uint32_t Down = newV();
  emit("v_mul_f32", {D(Down), I(0x37800000), U(S2)});
  emit("v_cndmask_b32_e64", {D(Out), U(S2), U(Down), U(NeedScale)});
  emit("v_cmp_class_f32_e64", {D(Zi), U(SX), I(0x260)});
  emit("v_cndmask_b32_e64", {D(Res), U(Out), U(SX), U(Zi)});
  return Res;
}

/// f32 sine or cosine of \p X into \p Dst, within 2 ULP for every input
/// (ISA.md §4.7) and in practice the correctly rounded value (glibc's sinf
/// and cosf, which the reference emulator calls, are within 1 ulp of it;
/// the hardware's v_sin_f32 of x/2π is tens to thousands of ulp off past
/// |x| ≈ 8, as is LLVM's lowering). Everything is f64:
///  - reduction: |x| · 1/(2π) modulo 1, with 1/(2π) split into nine
///    pieces of 21 significant bits, so that each product with the 24-bit
///    |x| is exact and so is its fraction (v_fract_f64); products whose
///    fraction is 0 (|x| large) or negligible (|x| small) cost nothing in
///    accuracy. The fractions are summed from the smallest with TwoSum,
///    keeping the rounding errors, so the turn count r has about 2^-100
///    absolute error even for |x| near 2^128 (a Payne-Hanek reduction
///    with the bits of 1/(2π) as constants);
///  - r = q/4 + d, q the nearest quarter turn, |d| <= 1/8; θ = d·π/2 with
///    π/2 as two doubles;
///  - sin θ and cos θ by their Taylor series to θ^15 and θ^16 (truncation
///    below 2^-53 relative on |θ| <= π/4), selected and negated by q mod 4
///    (q + 1 for the cosine), rounded once to f32, with x's sign for sin.
/// NaN inputs return the input, quieted; ±inf the x86 default NaN
/// 0xFFC00000, as the reference's sinf/cosf on x86-64 (ISA.md §4.7).
void KernelLowering::sinCos(uint32_t Dst, uint32_t X, bool Cos) {
  auto K64 = [&](uint64_t Bits) {
    uint32_t C = F.newVReg(RegClass::S64);
    emit("s_mov_b32", {D(C, 0), I(int64_t(Bits & 0xFFFFFFFF))});
    emit("s_mov_b32", {D(C, 1), I(int64_t(Bits >> 32))});
    return C;
  };
  auto P = [&]() { return F.newVReg(RegClass::V64); };
  // 1/(2π) = sum of these doubles (each 21 significant bits, so only the
  // high word is non-zero) to within 2^-197.
  static const uint32_t InvTwoPi[] = {0x3fc45f30, 0x3e6b7272, 0x3cf054a7,
                                      0x3bae13ab, 0x3a5d1f53, 0x38f37703,
                                      0x379b6295, 0x36432788, 0x34ec820f};
  uint32_t Ax = newV(), A = P();
  emit("v_and_b32", {D(Ax), I(0x7FFFFFFF), U(X)});
  emit("v_cvt_f64_f32", {D(A), U(Ax)});
  uint32_t S = 0, Comp = 0; // the sum of the fractions and its error
  for (int K2 = 8; K2 >= 0; --K2) {
    uint32_t Prod = P(), Fr = P();
    emit("v_mul_f64", {D(Prod), U(A), U(K64(uint64_t(InvTwoPi[K2]) << 32))});
    emit("v_fract_f64", {D(Fr), U(Prod)});
    if (!S) {
      S = Fr;
      continue;
    }
    // TwoSum (Knuth): T + E = S + Fr exactly.
    uint32_t T = P(), BP = P(), AP = P(), DA = P(), DB = P(), E = P();
    emit("v_add_f64", {D(T), U(S), U(Fr)});
    emit("v_add_f64", {D(BP), U(T), Neg(U(S))});
    emit("v_add_f64", {D(AP), U(T), Neg(U(BP))});
    emit("v_add_f64", {D(DA), U(S), Neg(U(AP))});
    emit("v_add_f64", {D(DB), U(Fr), Neg(U(BP))});
    emit("v_add_f64", {D(E), U(DA), U(DB)});
    if (Comp) {
      uint32_t C2 = P();
      emit("v_add_f64", {D(C2), U(Comp), U(E)});
      Comp = C2;
    } else {
      Comp = E;
    }
    S = T;
  }
  // Quarter turns: 4r = q + d.
  uint32_t Y4 = P(), Q = P(), Dq = P(), C4 = P(), Dd = P();
  emit("v_ldexp_f64", {D(Y4), U(S), I(2)});
  emit("v_rndne_f64", {D(Q), U(Y4)});
  emit("v_add_f64", {D(Dq), U(Y4), Neg(U(Q))});
  emit("v_ldexp_f64", {D(C4), U(Comp), I(2)});
  emit("v_add_f64", {D(Dd), U(Dq), U(C4)});
  // θ = d · π/2 (π/2 = 0x3ff921fb54442d18 + 0x3c91a62633145c07).
  uint32_t Lo = P(), Th = P(), Z = P(), ThZ = P();
  emit("v_mul_f64", {D(Lo), U(Dd), U(K64(0x3c91a62633145c07ULL))});
  emit("v_fma_f64", {D(Th), U(Dd), U(K64(0x3ff921fb54442d18ULL)), U(Lo)});
  emit("v_mul_f64", {D(Z), U(Th), U(Th)});
  emit("v_mul_f64", {D(ThZ), U(Th), U(Z)});
  // Horner over θ², from the highest coefficient (±1/n!, nearest double).
  auto Poly = [&](ArrayRef<uint64_t> Coeffs) {
    uint32_t Acc = P();
    emit("v_mov_b32", {D(Acc, 0), I(int64_t(Coeffs[0] & 0xFFFFFFFF))});
    emit("v_mov_b32", {D(Acc, 1), I(int64_t(Coeffs[0] >> 32))});
    for (uint64_t C : Coeffs.drop_front()) {
      uint32_t N = P();
      emit("v_fma_f64", {D(N), U(Acc), U(Z), U(K64(C))});
      Acc = N;
    }
    return Acc;
  };
  // sin θ = θ + θ³·(-1/3! + θ²/5! - ... - θ^12/15!)
  uint32_t SinP = Poly({0xbd6ae7f3e733b81fULL, 0x3de6124613a86d09ULL,
                        0xbe5ae64567f544e4ULL, 0x3ec71de3a556c734ULL,
                        0xbf2a01a01a01a01aULL, 0x3f81111111111111ULL,
                        0xbfc5555555555555ULL});
  // cos θ = 1 + θ²·(-1/2! + θ²/4! - ... + θ^14/16!)
  uint32_t CosP = Poly({0x3d2ae7f3e733b81fULL, 0xbda93974a8c07c9dULL,
                        0x3e21eed8eff8d898ULL, 0xbe927e4fb7789f5cULL,
                        0x3efa01a01a01a01aULL, 0xbf56c16c16c16c17ULL,
                        0x3fa5555555555555ULL, 0xbfe0000000000000ULL});
  uint32_t SinD = P(), CosD = P(), SinF = newV(), CosF = newV();
  emit("v_fma_f64", {D(SinD), U(ThZ), U(SinP), U(Th)});
  emit("v_fma_f64", {D(CosD), U(Z), U(CosP), I(0x3FF0000000000000LL)});
  emit("v_cvt_f32_f64", {D(SinF), U(SinD)});
  emit("v_cvt_f32_f64", {D(CosF), U(CosD)});
  // Quadrant q mod 4 (q + 1 for the cosine): odd swaps sin and cos, 2 and
  // 3 negate.
  uint32_t Qi = newV(), Swap = newMask(), Neg2 = newV(), Sel = newV(),
           Sgn = newV(), Res = newV();
  emit("v_cvt_i32_f64", {D(Qi), U(Q)});
  if (Cos) {
    uint32_t Q1 = newV();
    emit(T.VAddU32, {D(Q1), I(1), U(Qi)});
    Qi = Q1;
  }
  uint32_t Odd = newV();
  emit("v_and_b32", {D(Odd), I(1), U(Qi)});
  emit("v_cmp_ne_u32_e64", {D(Swap), I(0), U(Odd)});
  emit("v_cndmask_b32_e64", {D(Sel), U(SinF), U(CosF), U(Swap)});
  // (q & 2) << 30 is the sign bit to flip; sin also takes x's sign.
  emit("v_and_b32", {D(Neg2), I(2), U(Qi)});
  emit("v_lshlrev_b32", {D(Sgn), I(30), U(Neg2)});
  if (!Cos) {
    uint32_t XS = newV(), S2 = newV();
    emit("v_and_b32", {D(XS), I(int64_t(0x80000000)), U(X)});
    emit("v_xor_b32", {D(S2), U(Sgn), U(XS)});
    Sgn = S2;
  }
  emit("v_xor_b32", {D(Res), U(Sel), U(Sgn)});
  // NaN: the input quieted; ±inf: the default NaN.
  uint32_t Quiet = newV(), NaN = newV(), IsInf = newMask(),
           NotFinite = newMask();
  emit("v_or_b32", {D(Quiet), I(0x400000), U(X)});
  emit("v_cmp_class_f32_e64", {D(IsInf), U(X), I(0x204)});
  emit("v_cndmask_b32_e64", {D(NaN), U(Quiet), I(int64_t(0xFFC00000)),
                             U(IsInf)});
  emit("v_cmp_class_f32_e64", {D(NotFinite), U(X), I(0x207)});
  emit("v_cndmask_b32_e64", {D(Dst), U(Res), U(NaN), U(NotFinite)});
}

/// Unsigned 32-bit Q = UA / UB, R = UA % UB for UB != 0 (reciprocal
/// estimate and two corrections, as AMDGPUCodeGenPrepare expands it).
void KernelLowering::udivmod(uint32_t Q, uint32_t R, uint32_t UA,
                             uint32_t UB) {
  uint32_t Fb = newV(), Rc = newV(), Inv = newV(), NegB = newV(), Tm = newV(),
           Hi = newV(), QB = newV(), C = newMask(), Q1 = newV(), R1 = newV();
  emit("v_cvt_f32_u32", {D(Fb), U(UB)});
  emit("v_rcp_iflag_f32", {D(Rc), U(Fb)});
  emit("v_mul_f32", {D(Rc), I(0x4F7FFFFE), U(Rc)});
  emit("v_cvt_u32_f32", {D(Inv), U(Rc)});
  emit(T.VSubU32, {D(NegB), I(0), U(UB)});
  emit("v_mul_lo_u32", {D(Tm), U(NegB), U(Inv)});
  emit("v_mul_hi_u32", {D(Hi), U(Inv), U(Tm)});
  emit(T.VAddU32, {D(Inv), U(Inv), U(Hi)});
  emit("v_mul_hi_u32", {D(Q), U(UA), U(Inv)});
  emit("v_mul_lo_u32", {D(QB), U(Q), U(UB)});
  emit(T.VSubU32, {D(R), U(UA), U(QB)});
  for (int K2 = 0; K2 < 2; ++K2) {
    emit("v_cmp_ge_u32_e64", {D(C), U(R), U(UB)});
    emit(T.VAddU32, {D(Q1), I(1), U(Q)});
    emit(T.VSubU32, {D(R1), U(R), U(UB)});
    emit("v_cndmask_b32_e64", {D(Q), U(Q), U(Q1), U(C)});
    emit("v_cndmask_b32_e64", {D(R), U(R), U(R1), U(C)});
  }
}

/// An even-aligned VGPR pair holding WAVE registers (Reg, Reg+1) at op Idx.
uint32_t KernelLowering::pairIn(unsigned Idx, unsigned Reg) {
  uint32_t P = F.newVReg(RegClass::V64);
  emit("v_mov_b32", {D(P, 0), U(use(Idx, Reg))});
  emit("v_mov_b32", {D(P, 1), U(use(Idx, Reg + 1))});
  return P;
}
void KernelLowering::pairOut(unsigned Idx, unsigned Reg, uint32_t Tuple) {
  emit("v_mov_b32", {D(def(Idx, Reg)), U(Tuple, 0)});
  emit("v_mov_b32", {D(def(Idx, Reg + 1)), U(Tuple, 1)});
}

void KernelLowering::fence(bool Acquire, bool Release, unsigned Scope) {
  auto Seq = [&](const char *Text) {
    StringRef S(Text);
    while (!S.empty()) {
      auto [Line, Rest] = S.split('\n');
      emit(Line, {}).Kind = InstKind::Other;
      S = Rest;
    }
  };
  waitAll();
  if (Release) {
    const char *R = Scope == 3 ? T.ReleaseSystem
                    : Scope == 2 ? T.ReleaseAgent
                                 : "";
    if (*R) {
      Seq(R);
      waitAll();
    }
  }
  if (Acquire) {
    const char *A = Scope == 3   ? T.AcquireSystem
                    : Scope == 2 ? T.AcquireAgent
                    : Scope == 1 ? T.AcquireWorkgroup
                                 : "";
    Seq(A);
  }
}

/// WAVE's barrier also makes every earlier memory access of the workgroup
/// visible to every later one (the emulator is sequentially consistent):
/// a workgroup release, the hardware barrier, a workgroup acquire.
void KernelLowering::barrier() {
  waitAll();
  if (T.SplitBarrier) {
    emit("s_barrier_signal", {I(-1)}).Kind = InstKind::Other;
    emit("s_barrier_wait", {I(-1)}).Kind = InstKind::Other;
  } else {
    emit("s_barrier", {}).Kind = InstKind::Other;
  }
  if (*T.AcquireWorkgroup)
    emit(T.AcquireWorkgroup, {}).Kind = InstKind::Other;
}

/// Label at the end of region \p R (where the wave may continue when no
/// lane is left in it), or -1 at the top level.
int KernelLowering::regionEndLabel(int R) {
  if (R < 0)
    return -1;
  const Region &Rg = Regions[R];
  const Frame &Fr = Frames[Rg.Frame];
  if (Rg.Kind == RegionKind::Loop)
    return int(Fr.Mid);
  if (Rg.Kind == RegionKind::Then && Fr.HasElse)
    return int(Fr.Mid);
  return int(Fr.Exit);
}

/// After an instruction that may empty EXEC inside region \p R: skip to the
/// region's end when no lane is left (never over a barrier, which must be
/// reached by every wave, ISA.md §4.17).
void KernelLowering::skipIfExecZero(int R) {
  if (R < 0 || Regions[R].HasBarrier)
    return;
  branch("s_cbranch_execz", unsigned(regionEndLabel(R)));
}

/// Removes \p Lanes from the saved masks of the frames above loop frame
/// \p LoopFrame (break/continue, ISA.md D5/D6), or of every frame (halt,
/// D8).
void KernelLowering::removeLanes(uint32_t Lanes, bool AllFrames,
                                 int LoopFrame) {
  for (auto It = FrameStack.rbegin(); It != FrameStack.rend(); ++It) {
    int Fi = *It;
    if (!AllFrames && Fi == LoopFrame)
      break;
    Frame &Fr = Frames[Fi];
    emit(m("s_andn2"), {D(Fr.Entry), U(Fr.Entry), U(Lanes)});
    if (!Fr.IsLoop && Fr.HasElse)
      emit(m("s_andn2"), {D(Fr.Other), U(Fr.Other), U(Lanes)});
  }
}

uint32_t KernelLowering::fragment(unsigned Id, unsigned Row, unsigned Col) {
  return Frags[Id][Row * 4 + Col];
}

/// The local address of row \p Row of an MMA tile: Addr + Row * Stride
/// (ISA.md §4.18; wraps modulo 2^32).
uint32_t KernelLowering::rowAddress(uint32_t Addr, uint32_t Stride,
                                    unsigned Row) {
  uint32_t RA = newV();
  if (Row == 0) {
    emit("v_mov_b32", {D(RA), U(Addr)});
    return RA;
  }
  uint32_t Off = newV();
  emit("v_mul_lo_u32", {D(Off), U(Stride), I(Row)});
  emit(T.VAddU32, {D(RA), U(Addr), U(Off)});
  return RA;
}

Error KernelLowering::lowerControl(unsigned Idx) {
  const WOp &O = Ops[Idx];
  const Inst &In = O.I;
  switch (In.Op) {
  case Opcode::If: {
    int Ri = RegionOpenedAt[Idx];
    Frame &Fr = Frames[Regions[Ri].Frame];
    Fr.Entry = newMask();
    Fr.Other = newMask();
    Fr.Mid = F.newLabel();
    Fr.Exit = F.newLabel();
    uint32_t Cond = useP(Idx, In.Rs1);
    if (In.isPredicated()) { // D9 default: an extra AND on the condition.
      uint32_t C2 = newMask();
      emit(m(In.PredNeg ? "s_andn2" : "s_and"),
           {D(C2), U(Cond), U(useP(Idx, In.PredReg))});
      Cond = C2;
    }
    emit(m("s_and_saveexec"), {D(Fr.Entry), U(Cond)});
    if (Fr.HasElse)
      emit(m("s_andn2"), {D(Fr.Other), U(Fr.Entry), U(Cond)});
    FrameStack.push_back(Regions[Ri].Frame);
    if (!Regions[Ri].HasBarrier)
      branch("s_cbranch_execz", Fr.HasElse ? Fr.Mid : Fr.Exit);
    return Error::success();
  }
  case Opcode::Else: {
    Frame &Fr = Frames[FrameStack.back()];
    label(Fr.Mid);
    emit(m("s_mov"), {ExecD(), U(Fr.Other)});
    int Ri = RegionOpenedAt[Idx];
    if (!Regions[Ri].HasBarrier)
      branch("s_cbranch_execz", Fr.Exit);
    return Error::success();
  }
  case Opcode::Endif: {
    Frame &Fr = Frames[FrameStack.back()];
    label(Fr.Exit);
    emit(m("s_mov"), {ExecD(), U(Fr.Entry)});
    FrameStack.pop_back();
    return Error::success();
  }
  case Opcode::Loop: {
    int Ri = RegionOpenedAt[Idx];
    Frame &Fr = Frames[Regions[Ri].Frame];
    Fr.Entry = newMask();
    Fr.Other = newMask();
    Fr.Head = F.newLabel();
    Fr.Mid = F.newLabel();
    Fr.Exit = F.newLabel();
    emit(m("s_mov"), {D(Fr.Entry), ExecU()});
    emit(m("s_mov"), {D(Fr.Other), I(0)});
    if (!Regions[Ri].HasBarrier)
      branch("s_cbranch_execz", Fr.Exit);
    label(Fr.Head);
    FrameStack.push_back(Regions[Ri].Frame);
    return Error::success();
  }
  case Opcode::Break:
  case Opcode::Continue: {
    int LoopRegion = loopRegionOf(O.Region);
    if (LoopRegion >= 0 && Regions[LoopRegion].Uniform) {
      // Every active lane leaves (or continues) together: a branch, with
      // EXEC left as it is. Right after the uniform compare that made the
      // condition, SCC already holds it.
      Frame &Fr = Frames[Regions[LoopRegion].Frame];
      unsigned Target = In.Op == Opcode::Break ? Fr.Exit : Fr.Mid;
      uint32_t Cond = useP(Idx, In.Rs1);
      if (!In.isPredicated() && lastIsCselectOf(Cond)) {
        branch("s_cbranch_scc1", Target);
        return Error::success();
      }
      uint32_t Lanes = newMask();
      emit(m("s_and"), {D(Lanes), ExecU(), U(Cond)});
      if (In.isPredicated())
        emit(m(In.PredNeg ? "s_andn2" : "s_and"),
             {D(Lanes), U(Lanes), U(useP(Idx, In.PredReg))});
      branch("s_cbranch_scc1", Target);
      return Error::success();
    }
    int LoopFrame = -1;
    for (auto It = FrameStack.rbegin(); It != FrameStack.rend(); ++It)
      if (Frames[*It].IsLoop) {
        LoopFrame = *It;
        break;
      }
    uint32_t Lanes = newMask();
    emit(m("s_and"), {D(Lanes), ExecU(), U(useP(Idx, In.Rs1))});
    if (In.isPredicated())
      emit(m(In.PredNeg ? "s_andn2" : "s_and"),
           {D(Lanes), U(Lanes), U(useP(Idx, In.PredReg))});
    if (In.Op == Opcode::Break)
      emit(m("s_or"), {D(Frames[LoopFrame].Other),
                       U(Frames[LoopFrame].Other), U(Lanes)});
    emit(m("s_andn2"), {ExecD(), ExecU(), U(Lanes)});
    removeLanes(Lanes, false, LoopFrame);
    skipIfExecZero(O.Region);
    return Error::success();
  }
  case Opcode::Endloop: {
    Frame &Fr = Frames[FrameStack.back()];
    label(Fr.Mid);
    const Region *Loop = nullptr;
    for (const Region &R : Regions)
      if (R.Kind == RegionKind::Loop && R.End == Idx)
        Loop = &R;
    assert(Loop && "endloop closes a loop region");
    if (Loop->Uniform) {
      // No lane has left: go round while any lane is left (a halt may
      // have removed them all).
      branch("s_cbranch_execnz", Fr.Head);
    } else {
      emit(m("s_andn2"), {ExecD(), U(Fr.Entry), U(Fr.Other)});
      branch("s_cbranch_scc1", Fr.Head);
    }
    label(Fr.Exit);
    emit(m("s_mov"), {ExecD(), U(Fr.Entry)});
    FrameStack.pop_back();
    return Error::success();
  }
  case Opcode::Halt: {
    NeedEndLabel = true;
    if (!In.isPredicated() && FrameStack.empty()) {
      branch("s_branch", EndLabel);
      return Error::success();
    }
    uint32_t Lanes = newMask();
    if (In.isPredicated())
      emit(m(In.PredNeg ? "s_andn2" : "s_and"),
           {D(Lanes), ExecU(), U(useP(Idx, In.PredReg))});
    else
      emit(m("s_mov"), {D(Lanes), ExecU()});
    emit(m("s_andn2"), {ExecD(), ExecU(), U(Lanes)});
    if (FrameStack.empty()) {
      branch("s_cbranch_execz", EndLabel);
      return Error::success();
    }
    removeLanes(Lanes, true, -1);
    emit(mU("s_cmp_eq"), {U(Frames[FrameStack.front()].Entry), I(0)});
    branch("s_cbranch_scc1", EndLabel);
    skipIfExecZero(O.Region);
    return Error::success();
  }
  case Opcode::Return: { // from the kernel: the whole wave ends
    NeedEndLabel = true;
    if (!In.isPredicated()) {
      branch("s_branch", EndLabel);
      return Error::success();
    }
    uint32_t Lanes = newMask();
    emit(m(In.PredNeg ? "s_andn2" : "s_and"),
         {D(Lanes), ExecU(), U(useP(Idx, In.PredReg))});
    branch("s_cbranch_scc1", EndLabel);
    return Error::success();
  }
  case Opcode::Barrier: {
    unsigned Skip = 0;
    if (In.isPredicated()) {
      uint32_t Lanes = newMask();
      emit(m(In.PredNeg ? "s_andn2" : "s_and"),
           {D(Lanes), ExecU(), U(useP(Idx, In.PredReg))});
      Skip = F.newLabel();
      branch("s_cbranch_scc0", Skip);
    }
    barrier();
    if (In.isPredicated())
      label(Skip);
    return Error::success();
  }
  case Opcode::FenceAcquire:
    fence(true, false, In.ScopeBits);
    return Error::success();
  case Opcode::FenceRelease:
    fence(false, true, In.ScopeBits);
    return Error::success();
  case Opcode::FenceAcqRel:
    fence(true, true, In.ScopeBits);
    return Error::success();
  case Opcode::Wait:
    waitAll();
    return Error::success();
  case Opcode::Nop:
    emit("s_nop", {I(0)}).Kind = InstKind::Other;
    return Error::success();
  default:
    return err(K.Name, O.PC, "unexpected control instruction");
  }
}

/// Calls are inlined (ISA.md §4.16); the markers around a body only
/// branch: a predicated call is skipped, and a predicated return at the
/// function's top level returns, when no active lane satisfies the
/// predicate (§4.4, D9 default). Neither changes EXEC.
Error KernelLowering::lowerCallMarker(unsigned Idx) {
  const WOp &O = Ops[Idx];
  auto EndLabel = [&](unsigned End) {
    auto [It, New] = CallEndLabels.try_emplace(End, 0);
    if (New)
      It->second = F.newLabel();
    return It->second;
  };
  switch (O.Kind) {
  case WOpKind::CallBegin:
  case WOpKind::FuncReturn: {
    if (Comments)
      comment("WAVE " + Twine::utohexstr(O.PC) + ": " +
              (O.Kind == WOpKind::CallBegin ? "call" : "return"));
    if (!O.I.isPredicated())
      return Error::success();
    uint32_t Lanes = newMask();
    emit(m(O.I.PredNeg ? "s_andn2" : "s_and"),
         {D(Lanes), ExecU(), U(useP(Idx, O.I.PredReg))});
    branch(O.Kind == WOpKind::CallBegin ? "s_cbranch_scc0" : "s_cbranch_scc1",
           EndLabel(unsigned(O.Target)));
    return Error::success();
  }
  case WOpKind::CallEnd: {
    auto It = CallEndLabels.find(Idx);
    if (It != CallEndLabels.end())
      label(It->second);
    return Error::success();
  }
  case WOpKind::Trap:
    // The ninth nested call: the emulator stops with "stack overflow:
    // call"; the GPU aborts the dispatch (s_trap 2, LLVM's llvm.trap).
    emit("s_trap", {I(2)}).Kind = InstKind::Other;
    return Error::success();
  case WOpKind::Inst:
    break;
  }
  return err(K.Name, O.PC, "unexpected call marker");
}

Error KernelLowering::lowerOp(unsigned Idx) {
  const WOp &O = Ops[Idx];
  const Inst &In = O.I;
  Opcode Op = In.Op;
  if (O.Kind != WOpKind::Inst)
    return lowerCallMarker(Idx);
  if (Comments)
    comment("WAVE " + Twine::utohexstr(O.PC) + ": " + In.desc().Mnemonic);
  if (isControl(Op))
    return lowerControl(Idx);

  // Predicated instructions run with EXEC & P (ISA.md §4.4).
  uint32_t SavedExec = 0;
  if (In.isPredicated()) {
    SavedExec = newMask();
    emit(m("s_mov"), {D(SavedExec), ExecU()});
    emit(m(In.PredNeg ? "s_andn2" : "s_and"),
         {ExecD(), ExecU(), U(useP(Idx, In.PredReg))});
  }
  auto Finish = [&]() {
    if (SavedExec)
      emit(m("s_mov"), {ExecD(), U(SavedExec)});
    return Error::success();
  };
  auto A = [&]() { return use(Idx, In.Rs1); };
  auto B = [&]() { return use(Idx, In.Rs2); };
  auto C = [&]() { return use(Idx, In.Rs3); };
  auto Dst = [&]() { return def(Idx, In.Rd); };
  auto Unsupported = [&](StringRef What) {
    return err(K.Name, O.PC,
               "'" + What + "' is not supported on " + T.Name);
  };

  // Scalar (SGPR) forms of uniform integer operations.
  bool Scalar = false;
  for (unsigned Dd : OpDefs[Idx])
    if (Defs[Dd].Reg < PredBase && WebScalar[find(Dd)])
      Scalar = true;
  if (Scalar) {
    uint32_t Dd = Dst();
    auto S1 = [&](StringRef Opc) {
      emit(Opc, {D(Dd), U(A())});
      return Finish();
    };
    auto S2 = [&](StringRef Opc) {
      emit(Opc, {D(Dd), U(A()), U(B())});
      return Finish();
    };
    switch (Op) {
    case Opcode::Iadd:
      return S2("s_add_u32");
    case Opcode::Isub:
      return S2("s_sub_u32");
    case Opcode::Imul:
      return S2("s_mul_i32");
    case Opcode::ImulHi:
      return S2("s_mul_hi_u32");
    case Opcode::Imin:
      return S2("s_min_i32");
    case Opcode::Imax:
      return S2("s_max_i32");
    case Opcode::And:
      return S2("s_and_b32");
    case Opcode::Or:
      return S2("s_or_b32");
    case Opcode::Xor:
      return S2("s_xor_b32");
    case Opcode::Shl:
      return S2("s_lshl_b32");
    case Opcode::Shr:
      return S2("s_lshr_b32");
    case Opcode::Sar:
      return S2("s_ashr_i32");
    case Opcode::Imad: {
      uint32_t Tm = newS();
      emit("s_mul_i32", {D(Tm), U(A()), U(B())});
      emit("s_add_u32", {D(Dd), U(Tm), U(C())});
      return Finish();
    }
    case Opcode::Iclamp: {
      uint32_t Tm = newS();
      emit("s_max_i32", {D(Tm), U(A()), U(B())});
      emit("s_min_i32", {D(Dd), U(Tm), U(C())});
      return Finish();
    }
    case Opcode::Ineg:
      emit("s_sub_u32", {D(Dd), I(0), U(A())});
      return Finish();
    case Opcode::Iabs:
      return S1("s_abs_i32");
    case Opcode::Not:
      return S1("s_not_b32");
    case Opcode::Bitcount:
      return S1("s_bcnt1_i32_b32");
    case Opcode::Bitfind:
      return S1("s_flbit_i32_b32");
    case Opcode::Bitrev:
      return S1("s_brev_b32");
    case Opcode::Mov:
      return S1("s_mov_b32");
    case Opcode::MovImm:
      emit("s_mov_b32", {D(Dd), I(int64_t(In.Word1))});
      return Finish();
    case Opcode::MovSr:
      emit("s_mov_b32", {D(Dd), U(specialReg(In.Rs1, true))});
      return Finish();
    case Opcode::Select: {
      uint32_t Tm = newMask();
      emit(m("s_and"), {D(Tm), U(useP(Idx, In.Rs1)), ExecU()});
      emit("s_cselect_b32", {D(Dd), U(B()), U(C())});
      return Finish();
    }
    default:
      break; // wave operations with scalar results: below.
    }
  }

  auto V2 = [&](StringRef Opc) {
    emit(Opc, {D(Dst()), U(A()), U(B())});
    return Finish();
  };
  auto V1 = [&](StringRef Opc) {
    emit(Opc, {D(Dst()), U(A())});
    return Finish();
  };
  auto V3 = [&](StringRef Opc) {
    emit(Opc, {D(Dst()), U(A()), U(B()), U(C())});
    return Finish();
  };
  auto VCmp = [&](StringRef Opc, bool Swap = false) {
    uint32_t R = newMask();
    if (Swap)
      emit(Opc, {D(R), U(B()), U(A())});
    else
      emit(Opc, {D(R), U(A()), U(B())});
    setPredicate(Idx, In.Rd, R);
    return Finish();
  };
  auto SCmp = [&](StringRef Opc) { // uniform operands: s_cmp + s_cselect
    uint32_t R = newMask();
    emit(Opc, {U(A()), U(B())}).WritesSCC = true;
    emit(m("s_cselect"), {D(R), ExecU(), I(0)});
    setPredicate(Idx, In.Rd, R);
    return Finish();
  };
  bool ScalarOperands = false;
  if (isCompare(Op))
    ScalarOperands = isS(A()) && isS(B());
  auto ICmp = [&](StringRef S, StringRef V) {
    return ScalarOperands ? SCmp(S) : VCmp(V);
  };
  auto FalsePred = [&]() {
    uint32_t R = newMask();
    emit(m("s_mov"), {D(R), I(0)});
    setPredicate(Idx, In.Rd, R);
    return Finish();
  };
  auto F16Fix = [&](uint32_t R) {
    if (!T.F16ZeroesHigh)
      emit("v_and_b32", {D(R), I(0xFFFF), U(R)});
  };

  switch (Op) {
  // --- Integer (ISA.md §4.5)
  case Opcode::Iadd:
    return V2(T.VAddU32);
  case Opcode::Isub:
    return V2(T.VSubU32);
  case Opcode::Imul:
    return V2("v_mul_lo_u32");
  case Opcode::ImulHi:
    return V2("v_mul_hi_u32");
  case Opcode::Imad: {
    uint32_t Tm = newV();
    emit("v_mul_lo_u32", {D(Tm), U(A()), U(B())});
    emit(T.VAddU32, {D(Dst()), U(Tm), U(C())});
    return Finish();
  }
  case Opcode::Idiv:
  case Opcode::Imod: {
    uint32_t SA = newV(), SB = newV(), UA = newV(), UB = newV(), Q = newV(),
             R = newV(), Res = newV(), Z = newMask();
    emit("v_ashrrev_i32", {D(SA), I(31), U(A())});
    emit("v_ashrrev_i32", {D(SB), I(31), U(B())});
    emit(T.VAddU32, {D(UA), U(A()), U(SA)});
    emit("v_xor_b32", {D(UA), U(UA), U(SA)});
    emit(T.VAddU32, {D(UB), U(B()), U(SB)});
    emit("v_xor_b32", {D(UB), U(UB), U(SB)});
    udivmod(Q, R, UA, UB);
    if (Op == Opcode::Idiv) {
      uint32_t S = newV();
      emit("v_xor_b32", {D(S), U(SA), U(SB)});
      emit("v_xor_b32", {D(Res), U(Q), U(S)});
      emit(T.VSubU32, {D(Res), U(Res), U(S)});
    } else {
      emit("v_xor_b32", {D(Res), U(R), U(SA)});
      emit(T.VSubU32, {D(Res), U(Res), U(SA)});
    }
    emit("v_cmp_eq_u32_e64", {D(Z), I(0), U(UB)});
    emit("v_cndmask_b32_e64", {D(Dst()), U(Res), I(0), U(Z)});
    return Finish();
  }
  case Opcode::Ineg:
    emit(T.VSubU32, {D(Dst()), I(0), U(A())});
    return Finish();
  case Opcode::Iabs: {
    uint32_t N = newV();
    emit(T.VSubU32, {D(N), I(0), U(A())});
    emit("v_max_i32", {D(Dst()), U(A()), U(N)});
    return Finish();
  }
  case Opcode::Imin:
    return V2("v_min_i32");
  case Opcode::Imax:
    return V2("v_max_i32");
  case Opcode::Iclamp: {
    uint32_t Tm = newV();
    emit("v_max_i32", {D(Tm), U(A()), U(B())});
    emit("v_min_i32", {D(Dst()), U(Tm), U(C())});
    return Finish();
  }
  // --- f32 (ISA.md §4.7)
  case Opcode::Fadd:
    return V2("v_add_f32");
  case Opcode::Fsub:
    return V2("v_sub_f32");
  case Opcode::Fmul:
    return V2("v_mul_f32");
  case Opcode::Fma:
    return V3("v_fma_f32");
  case Opcode::Fdiv:
    fdiv(Dst(), U(A()), B(), /*ZeroDenIsInf=*/true);
    return Finish();
  case Opcode::Fneg:
    emit("v_xor_b32", {D(Dst()), I(0x80000000), U(A())});
    return Finish();
  case Opcode::Fabs:
    emit("v_and_b32", {D(Dst()), I(0x7FFFFFFF), U(A())});
    return Finish();
  case Opcode::Fmin:
  case Opcode::Fmax: {
    // a NaN -> b; b NaN -> a; b < a (b > a) -> b; else a.
    uint32_t Lt = newMask(), Tm = newV(), Na = newMask();
    emit(Op == Opcode::Fmin ? "v_cmp_lt_f32_e64" : "v_cmp_gt_f32_e64",
         {D(Lt), U(B()), U(A())});
    emit("v_cndmask_b32_e64", {D(Tm), U(A()), U(B()), U(Lt)});
    emit("v_cmp_u_f32_e64", {D(Na), U(A()), U(A())});
    emit("v_cndmask_b32_e64", {D(Dst()), U(Tm), U(B()), U(Na)});
    return Finish();
  }
  case Opcode::Fclamp:
  case Opcode::Fsat: {
    // D11 default: a < lo -> lo; then > hi -> hi; NaN bounds ignored.
    MOperand Lo = Op == Opcode::Fsat ? I(0) : U(B());
    MOperand Hi = Op == Opcode::Fsat ? I(0x3F800000) : U(C());
    uint32_t C1 = newMask(), Tm = newV(), C2 = newMask();
    emit("v_cmp_lt_f32_e64", {D(C1), U(A()), Lo});
    emit("v_cndmask_b32_e64", {D(Tm), U(A()), Lo, U(C1)});
    emit("v_cmp_gt_f32_e64", {D(C2), U(Tm), Hi});
    emit("v_cndmask_b32_e64", {D(Dst()), U(Tm), Hi, U(C2)});
    return Finish();
  }
  case Opcode::Fsqrt: {
    uint32_t R = fsqrt(toV(A()));
    emit("v_mov_b32", {D(Dst()), U(R)});
    return Finish();
  }
  case Opcode::Frsqrt: {
    uint32_t R = fsqrt(toV(A()));
    fdiv(Dst(), I(0x3F800000), R, /*ZeroDenIsInf=*/false);
    return Finish();
  }
  case Opcode::Frcp:
    fdiv(Dst(), I(0x3F800000), toV(A()), /*ZeroDenIsInf=*/false);
    return Finish();
  case Opcode::Ffloor:
    return V1("v_floor_f32");
  case Opcode::Fceil:
    return V1("v_ceil_f32");
  case Opcode::Ftrunc:
    return V1("v_trunc_f32");
  case Opcode::Ffract: {
    uint32_t Tr = newV();
    emit("v_trunc_f32", {D(Tr), U(A())});
    emit("v_sub_f32", {D(Dst()), U(A()), U(Tr)});
    return Finish();
  }
  case Opcode::Fround: { // ties away from zero
    uint32_t Tr = newV(), Df = newV(), C1 = newMask(), One = newV(),
             Adj = newV();
    emit("v_trunc_f32", {D(Tr), U(A())});
    emit("v_sub_f32", {D(Df), U(A()), U(Tr)});
    // Round away from zero when |a - trunc(a)| >= 0.5.
    uint32_t Ab = newV();
    emit("v_and_b32", {D(Ab), I(0x7FFFFFFF), U(Df)});
    emit("v_cmp_le_f32_e64", {D(C1), I(0x3F000000), U(Ab)});
    // ±1 with a's sign, else a zero with a's sign (so -0.4 gives -0).
    uint32_t Zero = newV();
    emit("v_bfi_b32", {D(One), I(0x7FFFFFFF), I(0x3F800000), U(A())});
    emit("v_and_b32", {D(Zero), I(0x80000000), U(A())});
    emit("v_cndmask_b32_e64", {D(Adj), U(Zero), U(One), U(C1)});
    emit("v_add_f32", {D(Dst()), U(Tr), U(Adj)});
    return Finish();
  }
  case Opcode::Fsin:
  case Opcode::Fcos:
    sinCos(Dst(), A(), Op == Opcode::Fcos);
    return Finish();
  case Opcode::Fexp2:
    return V1("v_exp_f32");
  case Opcode::Flog2:
    return V1("v_log_f32");
  // --- f16 (ISA.md §4.8)
  case Opcode::Hadd:
  case Opcode::Hsub:
  case Opcode::Hmul: {
    uint32_t Dd = Dst();
    emit(Op == Opcode::Hadd   ? "v_add_f16"
         : Op == Opcode::Hsub ? "v_sub_f16"
                              : "v_mul_f16",
         {D(Dd), U(A()), U(B())});
    F16Fix(Dd);
    return Finish();
  }
  case Opcode::Hma: {
    uint32_t FA = newV(), FB = newV(), FC = newV(), R = newV();
    emit("v_cvt_f32_f16", {D(FA), U(A())});
    emit("v_cvt_f32_f16", {D(FB), U(B())});
    emit("v_cvt_f32_f16", {D(FC), U(C())});
    emit("v_fma_f32", {D(R), U(FA), U(FB), U(FC)});
    uint32_t Dd = Dst();
    emit("v_cvt_f16_f32", {D(Dd), U(R)});
    F16Fix(Dd);
    return Finish();
  }
  case Opcode::Hadd2:
    return V2("v_pk_add_f16");
  case Opcode::Hmul2:
    return V2("v_pk_mul_f16");
  case Opcode::Hma2: {
    uint32_t Half[2];
    for (unsigned H = 0; H < 2; ++H) {
      uint32_t Src[3];
      uint32_t Ins[3] = {A(), B(), C()};
      for (unsigned K2 = 0; K2 < 3; ++K2) {
        uint32_t X = Ins[K2];
        if (H == 1) {
          uint32_t S = newV();
          emit("v_lshrrev_b32", {D(S), I(16), U(X)});
          X = S;
        }
        Src[K2] = newV();
        emit("v_cvt_f32_f16", {D(Src[K2]), U(X)});
      }
      uint32_t R = newV();
      emit("v_fma_f32", {D(R), U(Src[0]), U(Src[1]), U(Src[2])});
      Half[H] = newV();
      emit("v_cvt_f16_f32", {D(Half[H]), U(R)});
      emit("v_and_b32", {D(Half[H]), I(0xFFFF), U(Half[H])});
    }
    emit("v_lshl_or_b32", {D(Dst()), U(Half[1]), I(16), U(Half[0])});
    return Finish();
  }
  // --- bf16 (ISA.md §4.8): widen, f32 op, truncate.
  case Opcode::Badd:
  case Opcode::Bsub:
  case Opcode::Bmul:
  case Opcode::Bma: {
    uint32_t W[3], Ins[3] = {A(), B(), Op == Opcode::Bma ? C() : 0};
    unsigned N = Op == Opcode::Bma ? 3 : 2;
    for (unsigned K2 = 0; K2 < N; ++K2) {
      W[K2] = newV();
      emit("v_lshlrev_b32", {D(W[K2]), I(16), U(Ins[K2])});
    }
    uint32_t R = newV();
    if (Op == Opcode::Bma)
      emit("v_fma_f32", {D(R), U(W[0]), U(W[1]), U(W[2])});
    else
      emit(Op == Opcode::Badd   ? "v_add_f32"
           : Op == Opcode::Bsub ? "v_sub_f32"
                                : "v_mul_f32",
           {D(R), U(W[0]), U(W[1])});
    emit("v_lshrrev_b32", {D(Dst()), I(16), U(R)});
    return Finish();
  }
  case Opcode::Badd2:
  case Opcode::Bmul2:
  case Opcode::Bma2: {
    unsigned N = Op == Opcode::Bma2 ? 3 : 2;
    uint32_t Ins[3] = {A(), B(), N == 3 ? C() : 0};
    uint32_t R[2];
    for (unsigned H = 0; H < 2; ++H) {
      uint32_t W[3];
      for (unsigned K2 = 0; K2 < N; ++K2) {
        W[K2] = newV();
        if (H == 0)
          emit("v_lshlrev_b32", {D(W[K2]), I(16), U(Ins[K2])});
        else
          emit("v_and_b32", {D(W[K2]), I(int64_t(0xFFFF0000)), U(Ins[K2])});
      }
      R[H] = newV();
      if (N == 3)
        emit("v_fma_f32", {D(R[H]), U(W[0]), U(W[1]), U(W[2])});
      else
        emit(Op == Opcode::Badd2 ? "v_add_f32" : "v_mul_f32",
             {D(R[H]), U(W[0]), U(W[1])});
    }
    uint32_t Lo = newV();
    emit("v_lshrrev_b32", {D(Lo), I(16), U(R[0])});
    emit("v_and_or_b32", {D(Dst()), U(R[1]), I(int64_t(0xFFFF0000)), U(Lo)});
    return Finish();
  }
  // --- f64 (ISA.md §4.9)
  case Opcode::Dadd:
  case Opcode::Dsub:
  case Opcode::Dmul:
  case Opcode::Dma: {
    uint32_t PA = pairIn(Idx, In.Rs1), PB = pairIn(Idx, In.Rs2);
    uint32_t PD = F.newVReg(RegClass::V64);
    if (Op == Opcode::Dma) {
      uint32_t PC = pairIn(Idx, In.Rs3);
      emit("v_fma_f64", {D(PD), U(PA), U(PB), U(PC)});
    } else if (Op == Opcode::Dsub) {
      emit("v_add_f64", {D(PD), U(PA), Neg(U(PB))});
    } else {
      emit(Op == Opcode::Dadd ? "v_add_f64" : "v_mul_f64",
           {D(PD), U(PA), U(PB)});
    }
    pairOut(Idx, In.Rd, PD);
    return Finish();
  }
  case Opcode::Ddiv: {
    uint32_t PA = pairIn(Idx, In.Rs1), PB = pairIn(Idx, In.Rs2);
    auto P = [&]() { return F.newVReg(RegClass::V64); };
    uint32_t DS = P(), R = P(), E = P(), NS = P(), Q = P(), Rm = P(),
             Res = P(), Out = P();
    uint32_t Dummy = newMask();
    MOperand Vcc = MOperand::hw(HwReg::Vcc, true, false);
    emit("v_div_scale_f64", {D(DS), D(Dummy), U(PB), U(PB), U(PA)});
    emit("v_rcp_f64", {D(R), U(DS)});
    emit("v_fma_f64", {D(E), Neg(U(DS)), U(R), I(0x3FF0000000000000LL)});
    emit("v_fma_f64", {D(R), U(R), U(E), U(R)});
    emit("v_fma_f64", {D(E), Neg(U(DS)), U(R), I(0x3FF0000000000000LL)});
    emit("v_fma_f64", {D(R), U(R), U(E), U(R)});
    emit("v_div_scale_f64", {D(NS), Vcc, U(PA), U(PB), U(PA)});
    emit("v_mul_f64", {D(Q), U(NS), U(R)});
    emit("v_fma_f64", {D(Rm), Neg(U(DS)), U(Q), U(NS)});
    MInst &Fm = emit("v_div_fmas_f64", {D(Res), U(Rm), U(R), U(Q)});
    Fm.ReadsVCC = true;
    F.UsesVCC = true;
    emit("v_div_fixup_f64", {D(Out), U(Res), U(PB), U(PA)});
    pairOut(Idx, In.Rd, Out);
    return Finish();
  }
  case Opcode::Dsqrt: {
    // Scaled rsq with Goldschmidt/Newton refinement (LLVM's f64 sqrt).
    uint32_t X = pairIn(Idx, In.Rs1);
    auto P = [&]() { return F.newVReg(RegClass::V64); };
    uint32_t Need = newMask(), Sc = newV(), XS = P(), G = P(), S = P(),
             H = P(), R = P(), Dd = P(), Out = P(), Cls = newMask(),
             Res = P(), SO = newV();
    uint32_t Tiny = P(); // 2^-767: below it, scale by 2^256 first
    emit("v_mov_b32", {D(Tiny, 0), I(0)});
    emit("v_mov_b32", {D(Tiny, 1), I(0x10000000)});
    emit("v_cmp_gt_f64_e64", {D(Need), U(Tiny), U(X)});
    emit("v_cndmask_b32_e64", {D(Sc), I(0), I(256), U(Need)});
    emit("v_ldexp_f64", {D(XS), U(X), U(Sc)});
    emit("v_rsq_f64", {D(G), U(XS)});
    emit("v_mul_f64", {D(S), U(XS), U(G)});
    emit("v_mul_f64", {D(H), U(G), I(0x3FE0000000000000LL)});
    emit("v_fma_f64", {D(R), Neg(U(H)), U(S), I(0x3FE0000000000000LL)});
    emit("v_fma_f64", {D(S), U(S), U(R), U(S)});
    emit("v_fma_f64", {D(H), U(H), U(R), U(H)});
    for (int K2 = 0; K2 < 2; ++K2) {
      emit("v_fma_f64", {D(Dd), Neg(U(S)), U(S), U(XS)});
      emit("v_fma_f64", {D(S), U(Dd), U(H), U(S)});
    }
    emit("v_cndmask_b32_e64", {D(SO), I(0), I(-128), U(Need)});
    emit("v_ldexp_f64", {D(Out), U(S), U(SO)});
    emit("v_cmp_class_f64_e64", {D(Cls), U(XS), I(0x260)});
    emit("v_cndmask_b32_e64", {D(Res, 0), U(Out, 0), U(XS, 0), U(Cls)});
    emit("v_cndmask_b32_e64", {D(Res, 1), U(Out, 1), U(XS, 1), U(Cls)});
    pairOut(Idx, In.Rd, Res);
    return Finish();
  }
  // --- Bitwise (ISA.md §4.6)
  case Opcode::And:
    return V2("v_and_b32");
  case Opcode::Or:
    return V2("v_or_b32");
  case Opcode::Xor:
    return V2("v_xor_b32");
  case Opcode::Not:
    return V1("v_not_b32");
  case Opcode::Shl:
    emit("v_lshlrev_b32", {D(Dst()), U(B()), U(A())});
    return Finish();
  case Opcode::Shr:
    emit("v_lshrrev_b32", {D(Dst()), U(B()), U(A())});
    return Finish();
  case Opcode::Sar:
    emit("v_ashrrev_i32", {D(Dst()), U(B()), U(A())});
    return Finish();
  case Opcode::Bitcount:
    emit("v_bcnt_u32_b32", {D(Dst()), U(A()), I(0)});
    return Finish();
  case Opcode::Bitfind:
    return V1("v_ffbh_u32");
  case Opcode::Bitrev:
    return V1("v_bfrev_b32");
  case Opcode::Bfe:
    return V3("v_bfe_u32");
  case Opcode::Bfi: {
    uint32_t M = newV(), Sh = newV();
    uint32_t Off = use(Idx, In.Rs3), Wd = use(Idx, In.Rs4);
    emit("v_bfm_b32", {D(M), U(Wd), U(Off)});
    emit("v_lshlrev_b32", {D(Sh), U(Off), U(B())});
    emit("v_bfi_b32", {D(Dst()), U(M), U(Sh), U(A())});
    return Finish();
  }
  // --- Compares (ISA.md §4.10 with D19 defaults)
  case Opcode::IcmpEq:
    return ICmp("s_cmp_eq_u32", "v_cmp_eq_u32_e64");
  case Opcode::IcmpNe:
    return ICmp("s_cmp_lg_u32", "v_cmp_ne_u32_e64");
  case Opcode::IcmpLt:
    return ICmp("s_cmp_lt_i32", "v_cmp_lt_i32_e64");
  case Opcode::IcmpLe:
    return ICmp("s_cmp_le_i32", "v_cmp_le_i32_e64");
  case Opcode::IcmpGt:
    return ICmp("s_cmp_gt_i32", "v_cmp_gt_i32_e64");
  case Opcode::IcmpGe:
    return ICmp("s_cmp_ge_i32", "v_cmp_ge_i32_e64");
  case Opcode::UcmpEq:
    return ICmp("s_cmp_eq_u32", "v_cmp_eq_u32_e64");
  case Opcode::UcmpNe:
    return ICmp("s_cmp_lg_u32", "v_cmp_ne_u32_e64");
  case Opcode::UcmpLt:
    return ICmp("s_cmp_lt_u32", "v_cmp_lt_u32_e64");
  case Opcode::UcmpLe:
    return ICmp("s_cmp_le_u32", "v_cmp_le_u32_e64");
  case Opcode::UcmpGt:
    return ICmp("s_cmp_gt_u32", "v_cmp_gt_u32_e64");
  case Opcode::UcmpGe:
    return ICmp("s_cmp_ge_u32", "v_cmp_ge_u32_e64");
  case Opcode::IcmpOrd:
  case Opcode::IcmpUnord:
  case Opcode::UcmpOrd:
  case Opcode::UcmpUnord:
    return FalsePred();
  case Opcode::FcmpEq:
    return VCmp("v_cmp_eq_f32_e64");
  case Opcode::FcmpNe:
    return VCmp("v_cmp_neq_f32_e64");
  case Opcode::FcmpLt:
    return VCmp("v_cmp_lt_f32_e64");
  case Opcode::FcmpLe:
    return VCmp("v_cmp_le_f32_e64");
  case Opcode::FcmpGt:
    return VCmp("v_cmp_gt_f32_e64");
  case Opcode::FcmpGe:
    return VCmp("v_cmp_ge_f32_e64");
  case Opcode::FcmpOrd:
    return VCmp("v_cmp_o_f32_e64");
  case Opcode::FcmpUnord:
    return VCmp("v_cmp_u_f32_e64");
  case Opcode::Select:
    emit("v_cndmask_b32_e64",
         {D(Dst()), U(C()), U(B()), U(useP(Idx, In.Rs1))});
    return Finish();
  // --- Conversions (ISA.md §4.11)
  case Opcode::CvtF32I32:
    return V1("v_cvt_f32_i32");
  case Opcode::CvtF32U32:
    return V1("v_cvt_f32_u32");
  case Opcode::CvtI32F32:
    return V1("v_cvt_i32_f32");
  case Opcode::CvtU32F32:
    return V1("v_cvt_u32_f32");
  case Opcode::CvtF32F16:
    return V1("v_cvt_f32_f16");
  case Opcode::CvtF16F32: {
    uint32_t Dd = Dst();
    emit("v_cvt_f16_f32", {D(Dd), U(A())});
    F16Fix(Dd);
    return Finish();
  }
  case Opcode::CvtF32F64: {
    uint32_t PA = pairIn(Idx, In.Rs1);
    emit("v_cvt_f32_f64", {D(Dst()), U(PA)});
    return Finish();
  }
  case Opcode::CvtF64F32: {
    uint32_t PD = F.newVReg(RegClass::V64);
    emit("v_cvt_f64_f32", {D(PD), U(A())});
    pairOut(Idx, In.Rd, PD);
    return Finish();
  }
  case Opcode::CvtF32Bf16:
    emit("v_lshlrev_b32", {D(Dst()), I(16), U(A())});
    return Finish();
  case Opcode::CvtBf16F32:
    emit("v_lshrrev_b32", {D(Dst()), I(16), U(A())});
    return Finish();
  // --- Moves
  case Opcode::Mov:
    emit("v_mov_b32", {D(Dst()), U(A())});
    return Finish();
  case Opcode::MovImm:
    emit("v_mov_b32", {D(Dst()), I(int64_t(In.Word1))});
    return Finish();
  case Opcode::MovSr:
    emit("v_mov_b32", {D(Dst()), U(specialReg(In.Rs1, false))});
    return Finish();
  default:
    break;
  }

  // --- Memory (ISA.md §4.12): device = base + 32-bit offset. Accesses
  // wider than 32 bits are split into dwords at offsets 4, 8 and 12, which
  // needs no alignment and writes the registers' webs directly.
  bool Load = (Op >= Opcode::LocalLoadU8 && Op <= Opcode::LocalLoadU128) ||
              (Op >= Opcode::DeviceLoadU8 && Op <= Opcode::DeviceLoadU128);
  bool Store =
      (Op >= Opcode::LocalStoreU8 && Op <= Opcode::LocalStoreU128) ||
      (Op >= Opcode::DeviceStoreU8 && Op <= Opcode::DeviceStoreU128);
  if (Load || Store) {
    bool Device = Op >= Opcode::DeviceLoadU8;
    uint32_t Addr = vaddr(Idx, In.Rs1);
    if (Load && Device && loadsIntoTuple(Idx)) {
      unsigned N = memRegs(Op);
      uint32_t Tuple = F.newVReg(N == 4 ? RegClass::V128 : RegClass::V64);
      emit(N == 4 ? "global_load_dwordx4" : "global_load_dwordx2",
           {D(Tuple), U(Addr), U(Base)});
      for (unsigned K2 = 0; K2 < N; ++K2)
        TupleParts[def(Idx, In.Rd + K2)] = {Tuple, int8_t(K2)};
      return Finish();
    }
    const char *Name = memMnemonic(Op);
    for (unsigned K2 = 0; K2 < memRegs(Op); ++K2) {
      std::string Off = K2 ? (" offset:" + Twine(4 * K2)).str() : "";
      MInst &MI =
          Load ? emit(Name, {D(def(Idx, In.Rd + K2)), U(Addr)}, Off)
               : emit(Name, {U(Addr), U(toV(use(Idx, In.Rs2 + K2)))}, Off);
      if (Device)
        MI.Ops.push_back(U(Base));
    }
    return Finish();
  }
  if (isDeviceAtomic(Op)) {
    static const char *Names[] = {
        "global_atomic_add", "global_atomic_sub", "global_atomic_umin",
        "global_atomic_umax", "global_atomic_and", "global_atomic_or",
        "global_atomic_xor", "global_atomic_swap", "global_atomic_cmpswap"};
    unsigned K2 = unsigned(Op) - unsigned(Opcode::AtomicAdd);
    uint32_t Addr = vaddr(Idx, In.Rs1);
    MOperand Data = U(toV(B()));
    if (Op == Opcode::AtomicCas) { // D3 default: rs2 expected, rs3 desired
      uint32_t P = F.newVReg(RegClass::V64);
      emit("v_mov_b32", {D(P, 0), U(C())});
      emit("v_mov_b32", {D(P, 1), U(B())});
      Data = U(P);
    }
    if (In.Rd != 0)
      emit(Names[K2], {D(Dst()), U(Addr), Data, U(Base)}, T.AtomicReturn);
    else
      emit(Names[K2], {U(Addr), Data, U(Base)});
    return Finish();
  }
  if (isLocalAtomic(Op)) {
    static const char *Names[] = {"ds_add",    "ds_sub",   "ds_min",
                                  "ds_max",    "ds_and",   "ds_or",
                                  "ds_xor",    "ds_wrxchg", ""};
    static const char *Sfx[] = {"_u32", "_u32", "_u32", "_u32", "_b32",
                                "_b32", "_b32", "_b32", ""};
    unsigned K2 = unsigned(Op) - unsigned(Opcode::LocalAtomicAdd);
    uint32_t Addr = vaddr(Idx, In.Rs1);
    uint32_t Dd = In.Rd != 0 ? Dst() : newV();
    if (Op == Opcode::LocalAtomicCas) {
      uint32_t Exp = toV(B()), Des = toV(C());
      if (T.DsCmpSwapNewFirst)
        emit(T.DsCmpSwap, {D(Dd), U(Addr), U(Des), U(Exp)});
      else
        emit(T.DsCmpSwap, {D(Dd), U(Addr), U(Exp), U(Des)});
    } else if (In.Rd != 0 || Op == Opcode::LocalAtomicXchg) {
      emit((Twine(Names[K2]) + "_rtn" + Sfx[K2]).str(),
           {D(Dd), U(Addr), U(toV(B()))});
    } else {
      emit((Twine(Names[K2]) + Sfx[K2]).str(), {U(Addr), U(toV(B()))});
    }
    return Finish();
  }

  // --- Wave operations (ISA.md §4.14)
  switch (Op) {
  case Opcode::WaveShuffle:
  case Opcode::WaveShuffleUp:
  case Opcode::WaveShuffleDown:
  case Opcode::WaveShuffleXor: {
    // Source lanes are read whether or not they are active: permute with
    // every lane enabled, then write the active lanes.
    uint32_t Save = newMask(), Lane = 0, SL = newV(), Addr = newV(),
             Tmp = newV(), Valid = newMask();
    // A uniform source is copied with every lane enabled, so lanes past the
    // workgroup's end hold it too (formats/amdgcn-abi.md).
    uint32_t SrcS = A(), Sel = B();
    bool Full = execFull(Idx);
    if (!Full)
      emit(m("s_or_saveexec"), {D(Save), I(-1)});
    uint32_t Src = toV(SrcS);
    if (Op != Opcode::WaveShuffle)
      Lane = laneId();
    switch (Op) {
    case Opcode::WaveShuffle:
      emit("v_mov_b32", {D(SL), U(Sel)});
      break;
    case Opcode::WaveShuffleUp:
      emit(T.VSubU32, {D(SL), U(Lane), U(Sel)});
      break;
    case Opcode::WaveShuffleDown:
      emit(T.VAddU32, {D(SL), U(Lane), U(Sel)});
      break;
    default:
      emit("v_xor_b32", {D(SL), U(Lane), U(Sel)});
      break;
    }
    emit("v_lshlrev_b32", {D(Addr), I(2), U(SL)});
    emit("ds_bpermute_b32", {D(Tmp), U(Addr), U(Src)});
    if (!Full)
      emit(m("s_mov"), {ExecD(), U(Save)});
    if (Op == Opcode::WaveShuffleXor && isS(Sel)) {
      // lane ^ m < W exactly when m < W (W is a power of two): a uniform
      // test, and a SALU one (no VALU-written mask for the select to wait
      // for).
      emit("s_cmp_lt_u32", {U(Sel), I(T.WaveSize)}).WritesSCC = true;
      emit(m("s_cselect"), {D(Valid), I(-1), I(0)});
    } else if (Op == Opcode::WaveShuffleUp) {
      emit("v_cmp_le_u32_e64", {D(Valid), U(Sel), U(Lane)});
    } else {
      emit("v_cmp_gt_u32_e64", {D(Valid), I(T.WaveSize), U(SL)});
    }
    emit("v_cndmask_b32_e64", {D(Dst()), I(0), U(Tmp), U(Valid)});
    return Finish();
  }
  case Opcode::WaveBroadcast: {
    uint32_t Fl = newS(), SI = newS(), SV = newS();
    uint32_t Sel = B();
    if (isS(Sel)) {
      SI = Sel;
    } else {
      emit(T.WaveSize == 64 ? "s_ff1_i32_b64" : "s_ff1_i32_b32",
           {D(Fl), ExecU()});
      emit("v_readlane_b32", {D(SI), U(Sel), U(Fl)});
    }
    emit("v_readlane_b32", {D(SV), U(toV(A())), U(SI)});
    emit("s_cmp_lt_u32", {U(SI), I(T.WaveSize)}).WritesSCC = true;
    uint32_t Dd = Dst();
    if (isS(Dd)) {
      emit("s_cselect_b32", {D(Dd), U(SV), I(0)});
    } else {
      uint32_t R = newS();
      emit("s_cselect_b32", {D(R), U(SV), I(0)});
      emit("v_mov_b32", {D(Dd), U(R)});
    }
    return Finish();
  }
  case Opcode::WaveBallot: {
    uint32_t Tm = newMask();
    emit(m("s_and"), {D(Tm), ExecU(), U(useP(Idx, In.Rs1))});
    uint32_t Dd = Dst();
    int8_t Sub = T.WaveSize == 64 ? 0 : -1;
    emit(isS(Dd) ? "s_mov_b32" : "v_mov_b32", {D(Dd), U(Tm, Sub)});
    return Finish();
  }
  case Opcode::WaveAny:
  case Opcode::WaveAll: {
    uint32_t Tm = newMask(), R = newMask();
    uint32_t P = useP(Idx, In.Rs1);
    if (Op == Opcode::WaveAny) {
      emit(m("s_and"), {D(Tm), ExecU(), U(P)});
      emit(m("s_cselect"), {D(R), ExecU(), I(0)});
    } else {
      emit(m("s_andn2"), {D(Tm), ExecU(), U(P)});
      emit(m("s_cselect"), {D(R), I(0), ExecU()});
    }
    setPredicate(Idx, In.Rd, R);
    return Finish();
  }
  case Opcode::WavePrefixSum:
  case Opcode::WaveReduceAdd:
  case Opcode::WaveReduceMin:
  case Opcode::WaveReduceMax: {
    // A DPP scan with every lane enabled; lanes that are not active hold
    // the operation's identity, so they add nothing (AMD "CDNA3 ISA" and
    // "RDNA3 ISA", Data Parallel Processing).
    const char *Name = Op == Opcode::WaveReduceMin   ? "v_min_u32"
                       : Op == Opcode::WaveReduceMax ? "v_max_u32"
                                                     : T.VAddU32;
    int64_t Identity = Op == Opcode::WaveReduceMin ? -1 : 0;
    uint32_t Save = newMask();
    uint32_t Src = A();
    bool Full = execFull(Idx);
    if (!Full)
      emit(m("s_or_saveexec"), {D(Save), I(-1)});
    uint32_t Scan = inclusiveScan(Name, Identity, Src, Full ? 0 : Save);
    auto RestoreExec = [&]() {
      if (!Full)
        emit(m("s_mov"), {ExecD(), U(Save)});
    };
    uint32_t Dd = Dst();
    if (Op != Opcode::WavePrefixSum) {
      uint32_t Last = isS(Dd) ? Dd : newS();
      emit("v_readlane_b32", {D(Last), U(Scan), I(T.WaveSize - 1)});
      RestoreExec();
      if (Last != Dd)
        emit("v_mov_b32", {D(Dd), U(Last)});
      return Finish();
    }
    // Exclusive: the inclusive scan one lane up, 0 in lane 0. Written with
    // every lane enabled unless the other lanes' old values are still
    // needed.
    bool Merges = isS(Dd) || defMerges(Idx, In.Rd);
    uint32_t Excl = Merges ? newV() : Dd;
    if (T.DPPRowBroadcast) {
      emit("v_mov_b32_dpp", {D(Excl), U(Scan)},
           " wave_shr:1 row_mask:0xf bank_mask:0xf bound_ctrl:1");
    } else {
      // Within each row of 16 lanes, then lane 16 takes lane 15.
      emit("v_mov_b32_dpp", {D(Excl), U(Scan)},
           " row_shr:1 row_mask:0xf bank_mask:0xf bound_ctrl:1");
      uint32_t S15 = newS();
      emit("v_readlane_b32", {D(S15), U(Scan), I(15)});
      emit("v_writelane_b32", {D(Excl), U(S15), I(16)}).Ops[0].IsUse = true;
    }
    RestoreExec();
    if (Merges)
      emit("v_mov_b32", {D(Dd), U(Excl)});
    return Finish();
  }
  default:
    break;
  }

  // --- MMA (ISA.md §4.18): per-lane 4x4 f32 fragments kept in VGPRs.
  switch (Op) {
  case Opcode::MmaLoadA:
  case Opcode::MmaLoadB: {
    uint32_t Addr = toV(A()), Stride = toV(B());
    for (unsigned Row = 0; Row < 4; ++Row) {
      uint32_t RA = rowAddress(Addr, Stride, Row);
      for (unsigned Col = 0; Col < 4; ++Col)
        emit("ds_read_b32", {D(fragment(In.Rd, Row, Col)), U(RA)},
             Col ? (" offset:" + Twine(4 * Col)).str() : "");
    }
    return Finish();
  }
  case Opcode::MmaStoreC: {
    uint32_t Addr = toV(use(Idx, In.Rd)), Stride = toV(A());
    for (unsigned Row = 0; Row < 4; ++Row) {
      uint32_t RA = rowAddress(Addr, Stride, Row);
      for (unsigned Col = 0; Col < 4; ++Col)
        emit("ds_write_b32", {U(RA), U(fragment(In.Rs2, Row, Col))},
             Col ? (" offset:" + Twine(4 * Col)).str() : "");
    }
    return Finish();
  }
  case Opcode::MmaCompute: {
    for (unsigned Row = 0; Row < 4; ++Row)
      for (unsigned Col = 0; Col < 4; ++Col) {
        uint32_t Cc = fragment(In.Rs2, Row, Col);
        for (unsigned Kk = 0; Kk < 4; ++Kk) {
          uint32_t P = newV();
          emit("v_mul_f32", {D(P), U(fragment(In.Rd, Row, Kk)),
                             U(fragment(In.Rs1, Kk, Col))});
          emit("v_add_f32", {D(Cc), U(Cc), U(P)});
        }
      }
    return Finish();
  }
  default:
    break;
  }
  return Unsupported(In.desc().Mnemonic);
}

Error KernelLowering::lower(KernelDesc &Desc) {
  // Parameters: the PARAMS descriptors, else every register read before
  // it is written (the reference's --set-reg convention).
  if (K.Params) {
    NumParams = unsigned(K.Params->size());
  } else {
    NumParams = 0;
    for (unsigned R = 0; R < NumGPR && exists(R); ++R) {
      bool Used = false;
      for (unsigned Idx = 0; Idx < Ops.size() && !Used; ++Idx)
        for (auto &[UR, Ds] : OpUses[Idx])
          if ((UR & 0xFFFF) == R && is_contained(Ds, R) &&
              (!(UR & 0x10000) || defMerges(Idx, R)))
            Used = true;
      if (Used)
        NumParams = R + 1;
    }
  }
  // Fixed input registers (formats/amdgcn-abi.md "Initial state").
  KernargPtr = F.newVReg(RegClass::S64, 0);
  bool UsesSR[20] = {};
  for (const WOp &O : Ops)
    if (O.I.Op == Opcode::MovSr && O.I.Rs1 < 20)
      UsesSR[O.I.Rs1] = true;
  bool NeedTid = UsesSR[0] || UsesSR[1] || UsesSR[2] || UsesSR[3];
  // System SGPRs (the workgroup ids) follow the user SGPRs, padded to 16
  // on targets with the UserSGPRInit16Bug (formats/amdgcn-abi.md).
  unsigned NumIds = unsigned(UsesSR[5]) + UsesSR[6] + UsesSR[7];
  Desc.UserSGPRCount =
      T.UserSGPRInit16Bug && !T.ArchitectedSGPRs ? 16 - NumIds : 2;
  int NextS = int(Desc.UserSGPRCount);
  for (unsigned Dd = 0; Dd < 3; ++Dd)
    if (UsesSR[5 + Dd]) {
      Desc.WorkgroupIdEnable[Dd] = true;
      if (T.ArchitectedSGPRs) {
        WgId[Dd] = int(newS());
        MOperand Src = MOperand::text(Dd == 0 ? "ttmp9" : "ttmp7");
        Src.IsUse = true;
        if (Dd == 0)
          emit("s_mov_b32", {D(WgId[Dd]), Src});
        else if (Dd == 1)
          emit("s_and_b32", {D(WgId[Dd]), Src, I(0xFFFF)});
        else
          emit("s_lshr_b32", {D(WgId[Dd]), Src, I(16)});
      } else {
        WgId[Dd] = int(F.newVReg(RegClass::S32, NextS++));
      }
    }
  if (NeedTid)
    TidV = F.newVReg(RegClass::V32, 0);
  Desc.WorkitemIdVGPRs = NeedTid ? 3 : 1;
  EndLabel = F.newLabel();

  // Prologue: kernarg loads.
  if (UsesDeviceMemory) {
    Base = F.newVReg(RegClass::S64);
    emit("s_load_dwordx2", {D(Base), U(KernargPtr), I(0)});
  }
  unsigned H = hiddenBase();
  bool NeedGroup = K.WorkgroupSize[0] == 0 &&
                   (UsesSR[3] || UsesSR[8] || UsesSR[9] || UsesSR[10] ||
                    UsesSR[15]);
  if (NeedGroup) {
    GroupSize[0] = GroupSize[1] = int(hiddenLoad(H + 12));
    GroupSize[2] = int(hiddenLoad(H + 16));
  }
  for (unsigned Dd = 0; Dd < 3; ++Dd)
    if (UsesSR[11 + Dd])
      GridSize[Dd] = int(hiddenLoad(H + 4 * Dd));
  // Values on entry: those a use, or a partial definition, can observe.
  std::vector<char> EntryObserved(NumAnalysisRegs, 0);
  for (unsigned Idx = 0; Idx < Ops.size(); ++Idx)
    for (auto &[UR, Ds] : OpUses[Idx]) {
      if ((UR & 0x10000) && !defMerges(Idx, UR & 0xFFFF))
        continue;
      for (unsigned D2 : Ds)
        if (D2 < NumAnalysisRegs)
          EntryObserved[D2] = 1;
    }
  // Local memory is zero at the start of each workgroup (ISA.md §4.1):
  // every wave clears all of it, then a barrier.
  uint32_t LocalSize =
      K.LocalMemorySize ? K.LocalMemorySize : (UsesLocal ? DefaultLocalMemory : 0);
  if (LocalSize > T.MaxLDSBytes)
    return err(K.Name, 0, "local memory of " + Twine(LocalSize) +
                              " bytes exceeds the " + Twine(T.MaxLDSBytes) +
                              " bytes of LDS a workgroup has on " + T.Name);
  LocalSize = (LocalSize + 15) & ~15u;
  Desc.GroupSegmentSize = LocalSize;
  bool ClearLocal = UsesLocal && LocalSize;
  uint64_t GroupLanes = uint64_t(K.WorkgroupSize[0]) * K.WorkgroupSize[1] *
                        K.WorkgroupSize[2];
  WavesFull = GroupLanes > 0 && GroupLanes % T.WaveSize == 0 &&
              llvm::none_of(Ops, [](const WOp &O) {
                return O.Kind == WOpKind::Inst && O.I.Op == Opcode::Halt &&
                       (O.I.isPredicated() || O.Region >= 0);
              });
  // Lane ids, for sr_lane_id and the wave shuffles: computed once.
  bool NeedsLaneId = llvm::any_of(Ops, [](const WOp &O) {
    Opcode Op = O.I.Op;
    return O.Kind == WOpKind::Inst &&
           ((Op == Opcode::MovSr && O.I.Rs1 == 4) ||
            Op == Opcode::WaveShuffleUp || Op == Opcode::WaveShuffleDown ||
            Op == Opcode::WaveShuffleXor);
  });

  // The prologue runs with every lane enabled: initial values and lane ids
  // also reach lanes past the workgroup's end, which a wave_shuffle may
  // read (ISA.md §4.14), and the local memory clear covers all of it.
  bool VectorInitial = false;
  for (unsigned R = 0; R < PredBase; ++R)
    VectorInitial |= EntryObserved[R] && !isS(vregOfWeb(find(R)));
  uint32_t SavedExec = 0;
  if (VectorInitial || NeedsLaneId || ClearLocal) {
    SavedExec = newMask();
    emit(m("s_or_saveexec"), {D(SavedExec), I(-1)});
  }
  for (unsigned R = 0; R < NumAnalysisRegs; ++R) {
    unsigned Web = find(R);
    if (!EntryObserved[R])
      continue;
    uint32_t V = vregOfWeb(Web);
    if (R >= PredBase) {
      emit(m("s_mov"), {D(V), I(0)});
    } else if (R < NumParams && exists(R)) {
      if (isS(V)) {
        emit("s_load_dword", {D(V), U(KernargPtr), I(8 + 4 * R)});
      } else {
        uint32_t S = newS();
        emit("s_load_dword", {D(S), U(KernargPtr), I(8 + 4 * R)});
        emit("v_mov_b32", {D(V), U(S)});
      }
    } else {
      emit(isS(V) ? "s_mov_b32" : "v_mov_b32", {D(V), I(0)});
    }
  }
  // MMA fragments start as zeros (ISA.md §4.18).
  for (const WOp &O : Ops) {
    SmallVector<unsigned, 3> Ids;
    if (O.I.Op == Opcode::MmaLoadA || O.I.Op == Opcode::MmaLoadB)
      Ids.push_back(O.I.Rd);
    else if (O.I.Op == Opcode::MmaStoreC)
      Ids.push_back(O.I.Rs2);
    else if (O.I.Op == Opcode::MmaCompute)
      Ids = {O.I.Rd, O.I.Rs1, O.I.Rs2};
    for (unsigned Id : Ids)
      if (!Frags.count(Id)) {
        auto &Arr = Frags[Id];
        for (unsigned E = 0; E < 16; ++E) {
          Arr[E] = newV();
          emit("v_mov_b32", {D(Arr[E]), I(0)});
        }
      }
  }
  if (NeedsLaneId)
    LaneIdV = laneId();
  if (ClearLocal) {
    // Each lane clears 16 bytes per instruction from one zero VGPR pair
    // (ds_write2_b64, both halves from the pair: fewer live VGPRs than a
    // quad). Offsets are in 8-byte units, at most 255.
    uint32_t Zero = F.newVReg(RegClass::V64);
    for (unsigned E = 0; E < 2; ++E)
      emit("v_mov_b32", {D(Zero, int8_t(E)), I(0)});
    uint32_t Addr = newV();
    emit("v_lshlrev_b32", {D(Addr), I(4), U(laneId())});
    unsigned Step = 16 * T.WaveSize, Off = 0;
    for (unsigned Pos = 0; Pos < LocalSize; Pos += Step) {
      if ((Pos - Off) / 8 + 1 > 255) {
        emit(T.VAddU32, {D(Addr), I(int64_t(Pos - Off)), U(Addr)});
        Off = Pos;
      }
      unsigned Unit = (Pos - Off) / 8;
      emit("ds_write2_b64", {U(Addr), U(Zero), U(Zero)},
           (" offset0:" + Twine(Unit) + " offset1:" + Twine(Unit + 1)).str());
    }
    // Lanes past the end of the segment wrote nothing (LDS clamps), and the
    // writes past LocalSize land in the segment's rounding.
  }
  if (SavedExec)
    emit(m("s_mov"), {ExecD(), U(SavedExec)});
  if (ClearLocal)
    barrier();

  for (unsigned Idx = 0; Idx < Ops.size(); ++Idx)
    if (Error E = lowerOp(Idx))
      return E;
  label(EndLabel);
  emit("s_endpgm", {}).Kind = InstKind::Other;
  applyTupleParts();

  Desc.NumParams = NumParams;
  Desc.KernargSize = H + 24;
  Desc.UsesHidden = true;
  return Error::success();
}

/// Whether EXEC holds every lane of the wave at op \p Idx: the workgroup
/// size is fixed and a multiple of the wave size (no partial waves, no
/// lanes past the workgroup's end), no `halt` stops only some lanes, the op
/// is not predicated, and every region around it keeps all lanes together.
bool KernelLowering::execFull(unsigned Idx) const {
  return WavesFull && !Ops[Idx].I.isPredicated() &&
         regionsUniform(Ops[Idx].Region);
}

/// Whether every region from \p R up to its ancestor \p Stop (not
/// included; -1: the top level) keeps all its lanes together.
bool KernelLowering::regionsUniform(int R, int Stop) const {
  for (; R >= 0 && R != Stop; R = Regions[R].Parent)
    if (!Regions[R].Uniform)
      return false;
  return true;
}

/// The innermost loop region enclosing region \p R, or -1.
int KernelLowering::loopRegionOf(int R) const {
  while (R >= 0 && Regions[R].Kind != RegionKind::Loop)
    R = Regions[R].Parent;
  return R;
}

/// Whether the last instructions emitted are `s_cselect Mask, exec, 0`
/// (possibly followed by `s_mov Mask, X` of its result), so SCC still says
/// whether the uniform condition \p Mask holds.
bool KernelLowering::lastIsCselectOf(uint32_t Mask) const {
  auto Defines = [](const MInst &MI, StringRef Prefix, uint32_t R) {
    return StringRef(MI.Op).starts_with(Prefix) && !MI.Ops.empty() &&
           MI.Ops[0].K == MOperand::VReg && MI.Ops[0].Reg == R &&
           MI.Ops[0].Sub < 0;
  };
  for (auto It = F.Insts.rbegin(); It != F.Insts.rend(); ++It) {
    if (It->Kind == InstKind::Comment)
      continue;
    if (Defines(*It, "s_mov_b", Mask) && It->Ops[1].K == MOperand::VReg &&
        It->Ops[1].Sub < 0) {
      Mask = It->Ops[1].Reg;
      continue;
    }
    return Defines(*It, "s_cselect", Mask) && It->Ops.size() == 3 &&
           It->Ops[1].K == MOperand::Hw && It->Ops[1].H == HwReg::Exec &&
           It->Ops[2].K == MOperand::Imm && It->Ops[2].Value == 0;
  }
  return false;
}

/// The inclusive scan of \p Src under the VOP2 operation \p Name over a
/// whole wave, lanes outside \p Active holding \p Identity: Hillis-Steele
/// steps of 1, 2, 4 and 8 lanes within each row of 16 (DPP `row_shr`, a
/// lane with no source lane is not written), then across rows (GFX9
/// `row_bcast:15` and `row_bcast:31`; GFX10+ `v_permlanex16_b32`, which
/// gives each lane lane 15 of the other row). EXEC must be all lanes;
/// \p Active 0 says all of them are active. The result is a new VGPR; lane
/// W-1 holds the reduction.
uint32_t KernelLowering::inclusiveScan(StringRef Name, int64_t Identity,
                                       uint32_t Src, uint32_t Active) {
  uint32_t Scan = newV();
  if (Active)
    emit("v_cndmask_b32_e64", {D(Scan), I(Identity), U(Src), U(Active)});
  else
    emit("v_mov_b32", {D(Scan), U(Src)});
  std::string Dpp = (Name + "_dpp").str();
  auto Step = [&](uint32_t From, StringRef Ctrl) {
    MInst &MI = emit(Dpp, {D(Scan), U(From), U(Scan)},
                     (" " + Ctrl + " bank_mask:0xf").str());
    MI.Ops[0].IsUse = true; // lanes without a source keep their value
  };
  for (unsigned Shift : {1, 2, 4, 8})
    Step(Scan, ("row_shr:" + Twine(Shift) + " row_mask:0xf").str());
  if (T.DPPRowBroadcast) {
    Step(Scan, "row_bcast:15 row_mask:0xa");
    if (T.WaveSize == 64)
      Step(Scan, "row_bcast:31 row_mask:0xc");
    return Scan;
  }
  uint32_t Cross = newV();
  emit("v_permlanex16_b32", {D(Cross), U(Scan), I(-1), I(-1)});
  Step(Cross, "quad_perm:[0,1,2,3] row_mask:0xa");
  assert(T.WaveSize == 32 && "wave64 without row_bcast needs permlane64");
  return Scan;
}

/// Whether the 64- or 128-bit device load at op \p Idx may write one
/// register tuple (global_load_dwordx2/x4) that its destination webs then
/// live in: each destination register exists and its web has this load as
/// its only definition, so no other write needs the web elsewhere. Device
/// accesses need no alignment (ISA.md §4.12; ROCm runs these targets in
/// unaligned access mode, formats/amdgcn-abi.md).
bool KernelLowering::loadsIntoTuple(unsigned Idx) {
  const Inst &In = Ops[Idx].I;
  unsigned N = memRegs(In.Op);
  if (N < 2 || In.isPredicated())
    return false;
  for (unsigned K2 = 0; K2 < N; ++K2) {
    unsigned R = (In.Rd + K2) & 0xFF;
    if (!exists(R))
      return false;
    unsigned Web = webOfDef(Idx, R);
    if (WebNumDefs[Web] != 1 || WebScalar[Web])
      return false;
  }
  return true;
}

/// Rewrites every operand of a web that loadsIntoTuple() placed in a tuple
/// into that tuple's part.
void KernelLowering::applyTupleParts() {
  if (TupleParts.empty())
    return;
  for (MInst &MI : F.Insts)
    for (MOperand &O : MI.Ops) {
      if (O.K != MOperand::VReg)
        continue;
      auto It = TupleParts.find(O.Reg);
      if (It == TupleParts.end())
        continue;
      assert(O.Sub < 0 && "a 32-bit register has no parts");
      O.Reg = It->second.first;
      O.Sub = It->second.second;
    }
}

Error KernelLowering::run(KernelDesc &Desc) {
  if (Error E = flatten())
    return E;
  if (Error E = structure())
    return E;
  reachingDefs();
  buildWebs();
  uniformity();
  if (Error E = lower(Desc))
    return E;
  return Error::success();
}

/// VALU opcodes with a VOP1 or VOP2 encoding, which take a 32-bit literal
/// as their first source on every target.
bool hasShortEncoding(StringRef Op) {
  static const char *Names[] = {
      "v_mov_b32",      "v_add_u32",     "v_sub_u32",      "v_add_nc_u32",
      "v_sub_nc_u32",   "v_add_f32",     "v_sub_f32",      "v_mul_f32",
      "v_and_b32",      "v_or_b32",      "v_xor_b32",      "v_lshlrev_b32",
      "v_lshrrev_b32",  "v_ashrrev_i32", "v_min_i32",      "v_max_i32",
      "v_cvt_f32_u32",  "v_cvt_f32_i32", "v_cvt_u32_f32",  "v_cvt_i32_f32",
      "v_not_b32",      "v_bfrev_b32",   "v_ffbh_u32",     "v_trunc_f32",
      "v_floor_f32",    "v_ceil_f32",    "v_cvt_f32_f16",  "v_cvt_f16_f32"};
  for (const char *N : Names)
    if (Op == N)
      return true;
  return false;
}

/// Keeps the constant bus within the target's limit: VALU instructions may
/// read at most ConstantBusLimit distinct SGPRs or literals (one on GFX9,
/// where VOP3 encodings take no literal at all); the excess is copied to
/// VGPRs first.
void legalizeConstantBus(MFunction &F) {
  const GCNTarget &T = *F.T;
  std::vector<MInst> Out;
  Out.reserve(F.Insts.size());
  auto IsInline = [](int64_t V) {
    return (V >= -16 && V <= 64) || V == 0x3F000000 || V == 0xBF000000 ||
           V == 0x3F800000 || V == 0xBF800000 || V == 0x40000000 ||
           V == 0xC0000000 || V == 0x40800000 || V == 0xC0800000 ||
           V == 0x3FE0000000000000LL || V == 0x3FF0000000000000LL;
  };
  // Replaces operand \p O (an immediate or an SGPR) by a VGPR copy of it,
  // keeping its negation modifier.
  auto copyToVGPR = [&](MOperand &O) {
    uint32_t V = F.newVReg(RegClass::V32);
    MOperand Src = O;
    Src.Neg = false;
    MInst Mv;
    Mv.Kind = InstKind::VALU;
    Mv.Op = "v_mov_b32";
    Mv.Ops = {MOperand::def(V), Src};
    Out.push_back(std::move(Mv));
    bool Neg = O.Neg;
    O = MOperand::use(V);
    O.Neg = Neg;
  };
  for (MInst &MI : F.Insts) {
    if (MI.Kind != InstKind::VALU && MI.Kind != InstKind::VMEMLoad &&
        MI.Kind != InstKind::VMEMStore) {
      Out.push_back(std::move(MI));
      continue;
    }
    bool IsVALU = MI.Kind == InstKind::VALU;
    bool Lane = StringRef(MI.Op).starts_with("v_readlane") ||
                StringRef(MI.Op).starts_with("v_writelane");
    bool IsMov = MI.Op == "v_mov_b32";
    SmallVector<uint32_t, 4> Seen;
    unsigned Count = 0;
    bool HasLiteral = false;
    if (!IsVALU || Lane) { // lane ops take SGPR/M0 operands by design
      Out.push_back(std::move(MI));
      continue;
    }
    // Operands that must stay scalar first: lane masks and lane selects.
    auto MustStayScalar = [&](unsigned K2) {
      const MOperand &O = MI.Ops[K2];
      if (O.K == MOperand::Hw)
        return O.IsUse && O.H != HwReg::Exec;
      bool MaskOperand = StringRef(MI.Op).starts_with("v_cndmask") &&
                         K2 == MI.Ops.size() - 1;
      return O.K == MOperand::VReg && !isVector(F.VRegs[O.Reg].Class) &&
             (regWidth(F.VRegs[O.Reg].Class) > 1 || MaskOperand);
    };
    for (unsigned K2 = 0; K2 < MI.Ops.size(); ++K2) {
      const MOperand &O = MI.Ops[K2];
      if (O.IsDef || !O.IsUse || !MustStayScalar(K2))
        continue;
      uint32_t Key = O.K == MOperand::Hw ? 0x80000000u | unsigned(O.H) : O.Reg;
      if (!is_contained(Seen, Key)) {
        Seen.push_back(Key);
        ++Count;
      }
    }
    unsigned NumSrc = 0;
    for (const MOperand &O : MI.Ops)
      NumSrc += O.IsUse && !O.IsDef;
    for (unsigned K2 = 0; K2 < MI.Ops.size(); ++K2) {
      MOperand &O = MI.Ops[K2];
      if (!O.IsUse || O.IsDef || MustStayScalar(K2))
        continue;
      bool IsScalar = O.K == MOperand::VReg && !isVector(F.VRegs[O.Reg].Class);
      if (O.K == MOperand::Imm && !IsInline(O.Value)) {
        if (IsMov)
          continue;
        // A literal fits a VOP1/VOP2 encoding as the first source (the
        // second must then be a VGPR without modifiers), or any VOP3
        // encoding on targets that allow literals there.
        bool FirstSrc = K2 == 1;
        bool ShortForm =
            FirstSrc && NumSrc <= 2 && !O.Neg && hasShortEncoding(MI.Op);
        for (const MOperand &Other : MI.Ops)
          if (&Other != &O && Other.IsUse && !Other.IsDef &&
              (Other.Neg || Other.K != MOperand::VReg ||
               !isVector(F.VRegs[Other.Reg].Class)))
            ShortForm = false;
        bool Fits = !HasLiteral && Count < T.ConstantBusLimit &&
                    (T.VOP3Literal || ShortForm);
        if (Fits) {
          HasLiteral = true;
          ++Count;
          continue;
        }
        copyToVGPR(O);
        continue;
      }
      if (!IsScalar || is_contained(Seen, O.Reg))
        continue;
      if (Count < T.ConstantBusLimit) {
        Seen.push_back(O.Reg);
        ++Count;
        continue;
      }
      copyToVGPR(O);
    }
    Out.push_back(std::move(MI));
  }
  F.Insts = std::move(Out);
}

} // namespace

InstKind classify(StringRef Op) {
  if (Op.starts_with("s_load"))
    return InstKind::SMEM;
  if (Op.starts_with("global_load"))
    return InstKind::VMEMLoad;
  if (Op.starts_with("global_store"))
    return InstKind::VMEMStore;
  if (Op.starts_with("global_atomic"))
    return InstKind::VMEMStore; // returning ones are fixed up by the caller
  if (Op.starts_with("ds_"))
    return InstKind::DS;
  if (Op.starts_with("s_branch") || Op.starts_with("s_cbranch"))
    return InstKind::Branch;
  if (Op.starts_with("s_waitcnt") || Op.starts_with("s_wait_") ||
      Op == "wait_all")
    return InstKind::Wait;
  if (Op.starts_with("v_"))
    return InstKind::VALU;
  if (Op == "s_endpgm" || Op.starts_with("s_barrier") || Op == "s_nop" ||
      Op.starts_with("buffer_") || Op.starts_with("global_inv") ||
      Op.starts_with("global_wb"))
    return InstKind::Other;
  if (Op.starts_with("s_"))
    return InstKind::SALU;
  return InstKind::Other;
}

Expected<std::string> translateToAMDGCN(const WbinFile &File,
                                        const TranslateOptions &Opts) {
  assert(Opts.Target && "a target is required");
  if (File.Relocatable)
    return make_error<TranslateError>(
        "", 0, "relocatable object; link it with wave-link first");
  std::vector<KernelDesc> Descs;
  std::vector<MFunction> Funcs;
  for (const KernelInfo &K : File.Kernels) {
    KernelLowering L(File, K, *Opts.Target, Opts.Comments);
    KernelDesc Desc;
    Desc.Info = &K;
    if (Error E = L.run(Desc))
      return std::move(E);
    for (MInst &MI : L.F.Insts)
      if (StringRef(MI.Op).starts_with("global_atomic") && !MI.Ops.empty() &&
          MI.Ops[0].IsDef)
        MI.Kind = InstKind::VMEMLoad;
    runPeephole(L.F);
    legalizeConstantBus(L.F);
    if (Error E = allocateRegisters(L.F))
      return make_error<TranslateError>(K.Name, 0, toString(std::move(E)));
    removeIdentityCopies(L.F);
    insertWaitCounts(L.F);
    mitigateHazards(L.F);
    Descs.push_back(Desc);
    Funcs.push_back(std::move(L.F));
  }
  std::string Text;
  raw_string_ostream OS(Text);
  emitModule(OS, *Opts.Target, Funcs, Descs, Opts.SourceName);
  return Text;
}

} // namespace wave::amdgcn
