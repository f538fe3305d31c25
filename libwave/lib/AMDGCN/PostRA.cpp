//===- PostRA.cpp - Wait counts and hazards -------------------------------===//
//
// After register allocation:
//  - insertWaitCounts: WaveASM's "ticketing". Every memory instruction
//    that will write registers (loads, returning atomics, s_load) gets a
//    ticket in its counter's queue; an instruction that reads or writes one
//    of those registers first waits until that ticket has retired, i.e.
//    until at most the number of younger tickets are outstanding (queues
//    retire in order, except scalar memory, which needs a count of 0).
//    States merge at control-flow joins and around loops until they stop
//    changing, then the waits are inserted. `wait_all` pseudos (fences,
//    barriers) become full waits.
//  - mitigateHazards: the waits the target's hazard rules require between a
//    producer and a consumer the hardware does not interlock: s_nop wait
//    states on GFX9 (CDNA3 ISA guide "Manually Inserted Wait States"),
//    s_waitcnt_depctr for GFX11's transcendental-use hazard, s_wait_alu for
//    GFX12's SGPR read hazards (the rules LLVM 22 applies). The state flows
//    over the CFG and merges at joins, like the wait counts.
//
//===----------------------------------------------------------------------===//
#include "GCNIR.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallSet.h"
#include "llvm/ADT/StringExtras.h"

#include <bitset>
#include <map>
#include <set>

using namespace llvm;

namespace wave::amdgcn {

std::string printOperand(const MFunction &F, const MOperand &O) {
  bool W64 = F.T->WaveSize == 64;
  switch (O.K) {
  case MOperand::Hw:
    switch (O.H) {
    case HwReg::Exec:
      return W64 ? "exec" : "exec_lo";
    case HwReg::Vcc:
      return W64 ? "vcc" : "vcc_lo";
    case HwReg::Scc:
      return "scc";
    case HwReg::M0:
      return "m0";
    case HwReg::Null:
      return "null";
    }
    return "";
  case MOperand::Imm: {
    int64_t V = O.Value;
    std::string S;
    switch (V) {
    case 0x3F000000:
    case 0x3FE0000000000000LL:
      S = "0.5";
      break;
    case 0x3F800000:
    case 0x3FF0000000000000LL:
      S = "1.0";
      break;
    case 0xBF800000:
      S = "-1.0";
      break;
    default:
      if (V >= -16 && V <= 64)
        S = std::to_string(V);
      else
        S = "0x" + utohexstr(uint64_t(V) & 0xFFFFFFFFu, /*LowerCase=*/true);
      break;
    }
    return O.Neg ? "-" + S : S;
  }
  case MOperand::Label:
    return ".LBB_" + F.Name + "_" + std::to_string(O.Value);
  case MOperand::Text:
    return O.Str;
  case MOperand::VReg: {
    const VRegInfo &VI = F.VRegs[O.Reg];
    int P = VI.Phys;
    if (VI.SpillSlot) { // an AGPR, or the address of a scratch dword
      if (F.spillsToAGPRs())
        return "a" + std::to_string(P);
      return P == 0 ? "off" : "off offset:" + std::to_string(4 * P);
    }
    char C = isVector(VI.Class) ? 'v' : 's';
    unsigned W = regWidth(VI.Class);
    std::string S;
    if (O.Sub >= 0 && O.Parts > 1)
      S = std::string(1, C) + "[" + std::to_string(P + O.Sub) + ":" +
          std::to_string(P + O.Sub + O.Parts - 1) + "]";
    else if (O.Sub >= 0)
      S = C + std::to_string(P + O.Sub);
    else if (W == 1)
      S = C + std::to_string(P);
    else
      S = std::string(1, C) + "[" + std::to_string(P) + ":" +
          std::to_string(P + W - 1) + "]";
    return O.Neg ? "-" + S : S;
  }
  }
  return "";
}

void removeIdentityCopies(MFunction &F) {
  llvm::erase_if(F.Insts, [&](const MInst &MI) {
    if (!isMov(MI) || MI.Ops.size() != 2)
      return false;
    const MOperand &D = MI.Ops[0], &S = MI.Ops[1];
    return D.K == MOperand::VReg && S.K == MOperand::VReg && !S.Neg &&
           printOperand(F, D) == printOperand(F, S);
  });
}

namespace {

/// Wait-count counters (CDNA3/RDNA3: vmcnt, vscnt, lgkmcnt; RDNA4:
/// loadcnt, storecnt, dscnt, kmcnt).
enum Counter { CntLoad, CntStore, CntDS, CntSMEM, NumCounters };

struct Ticket {
  SmallVector<unsigned, 4> Regs; ///< keys of registers written
  bool OutOfOrder = false;
};

struct WaitState {
  std::vector<Ticket> Q[NumCounters]; ///< oldest first
  bool operator==(const WaitState &O) const {
    for (unsigned C = 0; C < NumCounters; ++C) {
      if (Q[C].size() != O.Q[C].size())
        return false;
      for (unsigned I = 0; I < Q[C].size(); ++I)
        if (Q[C][I].Regs != O.Q[C][I].Regs ||
            Q[C][I].OutOfOrder != O.Q[C][I].OutOfOrder)
          return false;
    }
    return true;
  }
};

/// Hardware counter limits and which physical counter each logical one
/// uses on a generation.
struct CounterModel {
  unsigned Max[NumCounters];
  int Phys[NumCounters]; ///< logical counters sharing a hardware counter
};

CounterModel modelFor(GCNGen G) {
  switch (G) {
  case GCNGen::GFX9: // vmcnt counts loads and stores; lgkmcnt DS and SMEM
    return {{63, 63, 15, 15}, {CntLoad, CntLoad, CntDS, CntDS}};
  case GCNGen::GFX11:
    return {{63, 63, 63, 63}, {CntLoad, CntStore, CntDS, CntDS}};
  case GCNGen::GFX12:
    return {{63, 63, 63, 31}, {CntLoad, CntStore, CntDS, CntSMEM}};
  }
  return {};
}

/// Appends the keys of the 32-bit registers \p O names: VGPR n is n, SGPR n
/// 1000 + n, AGPR n 3000 + n, M0 5000.
void regKeys(const MFunction &F, const MOperand &O,
             SmallVectorImpl<unsigned> &Keys) {
  if (O.K == MOperand::Hw) {
    if (O.H == HwReg::M0)
      Keys.push_back(5000);
    return;
  }
  if (O.K != MOperand::VReg)
    return;
  const VRegInfo &VI = F.VRegs[O.Reg];
  if (VI.SpillSlot) {
    // AGPRs have keys of their own; scratch slots are memory, ordered by
    // the hardware within a lane.
    if (F.spillsToAGPRs())
      Keys.push_back(3000 + VI.Phys);
    return;
  }
  unsigned Base = isVector(VI.Class) ? 0 : 1000;
  unsigned W = regWidth(VI.Class);
  if (O.Sub >= 0)
    for (int K = 0; K < O.Parts; ++K)
      Keys.push_back(Base + VI.Phys + O.Sub + K);
  else
    for (unsigned K = 0; K < W; ++K)
      Keys.push_back(Base + VI.Phys + K);
}

class WaitCounter {
public:
  WaitCounter(MFunction &F) : F(F), M(modelFor(F.T->Gen)) {}
  void run();

private:
  MFunction &F;
  CounterModel M;

  /// Simulates \p MI on \p S; appends the needed wait (logical counter ->
  /// count) to \p Need.
  void step(const MInst &MI, WaitState &S, int Need[NumCounters]);
  void applyWait(WaitState &S, const int Need[NumCounters]);
  void emitWait(std::vector<MInst> &Out, const int Need[NumCounters]);
  static void merge(WaitState &Into, const WaitState &From);
};

void WaitCounter::merge(WaitState &Into, const WaitState &From) {
  for (unsigned C = 0; C < NumCounters; ++C) {
    auto &A = Into.Q[C];
    const auto &B = From.Q[C];
    if (B.size() > A.size())
      A.insert(A.begin(), B.size() - A.size(), Ticket());
    // Align from the newest ticket.
    for (unsigned I = 0; I < B.size(); ++I) {
      Ticket &TA = A[A.size() - 1 - I];
      const Ticket &TB = B[B.size() - 1 - I];
      for (unsigned R : TB.Regs)
        if (!is_contained(TA.Regs, R))
          TA.Regs.push_back(R);
      llvm::sort(TA.Regs);
      TA.OutOfOrder |= TB.OutOfOrder;
    }
  }
}

void WaitCounter::step(const MInst &MI, WaitState &S, int Need[NumCounters]) {
  for (unsigned C = 0; C < NumCounters; ++C)
    Need[C] = -1;
  if (MI.is(GCNOp::WAIT_ALL)) {
    for (unsigned C = 0; C < NumCounters; ++C)
      if (!S.Q[C].empty())
        Need[C] = 0;
    return;
  }
  // Registers this instruction touches.
  SmallVector<unsigned, 8> Keys;
  for (const MOperand &O : MI.Ops)
    regKeys(F, O, Keys);
  for (unsigned C = 0; C < NumCounters; ++C) {
    auto &Q = S.Q[C];
    bool AnyOOO = false;
    // Hardware counters shared by several logical ones count all of them.
    for (unsigned C2 = 0; C2 < NumCounters; ++C2)
      if (M.Phys[C2] == M.Phys[C])
        for (const Ticket &Tk : S.Q[C2])
          AnyOOO |= Tk.OutOfOrder;
    for (unsigned I = unsigned(Q.size()); I-- > 0;) {
      bool Hit = false;
      for (unsigned K : Keys)
        if (is_contained(Q[I].Regs, K))
          Hit = true;
      if (!Hit)
        continue;
      // Younger tickets of the same hardware counter.
      unsigned Younger = 0;
      for (unsigned C2 = 0; C2 < NumCounters; ++C2)
        if (M.Phys[C2] == M.Phys[C])
          Younger += C2 == C ? unsigned(Q.size()) - 1 - I : 0;
      int N = AnyOOO ? 0 : int(std::min(Younger, M.Max[C]));
      // Other logical counters on the same hardware counter are younger
      // too, in an unknown interleaving: be exact only when alone.
      for (unsigned C2 = 0; C2 < NumCounters; ++C2)
        if (C2 != C && M.Phys[C2] == M.Phys[C] && !S.Q[C2].empty())
          N = 0;
      Need[C] = Need[C] < 0 ? N : std::min(Need[C], N);
      break;
    }
  }
}

void WaitCounter::applyWait(WaitState &S, const int Need[NumCounters]) {
  for (unsigned C = 0; C < NumCounters; ++C) {
    if (Need[C] < 0)
      continue;
    // A wait on a hardware counter shared by several logical ones.
    for (unsigned C2 = 0; C2 < NumCounters; ++C2) {
      if (M.Phys[C2] != M.Phys[C])
        continue;
      auto &Q = S.Q[C2];
      unsigned Keep = C2 == C ? unsigned(Need[C]) : (Need[C] == 0 ? 0 : ~0u);
      if (Keep < Q.size())
        Q.erase(Q.begin(), Q.end() - Keep);
    }
  }
}

void WaitCounter::emitWait(std::vector<MInst> &Out,
                           const int Need[NumCounters]) {
  auto Add = [&](GCNOp Op, std::string Text) {
    MInst W;
    W.setOp(Op);
    if (!Text.empty())
      W.Ops.push_back(MOperand::text(std::move(Text)));
    Out.push_back(std::move(W));
  };
  int Hw[NumCounters] = {-1, -1, -1, -1};
  for (unsigned C = 0; C < NumCounters; ++C) {
    if (Need[C] < 0)
      continue;
    int P = M.Phys[C];
    Hw[P] = Hw[P] < 0 ? Need[C] : std::min(Hw[P], Need[C]);
  }
  switch (F.T->Gen) {
  case GCNGen::GFX9:
  case GCNGen::GFX11: {
    std::string S;
    if (Hw[CntLoad] >= 0)
      S += "vmcnt(" + std::to_string(Hw[CntLoad]) + ")";
    if (Hw[CntDS] >= 0)
      S += std::string(S.empty() ? "" : " ") + "lgkmcnt(" +
           std::to_string(Hw[CntDS]) + ")";
    if (!S.empty())
      Add(GCNOp::S_WAITCNT, S);
    if (Hw[CntStore] >= 0)
      Add(GCNOp::S_WAITCNT_VSCNT, "null, " + std::to_string(Hw[CntStore]));
    break;
  }
  case GCNGen::GFX12: {
    static const GCNOp Names[] = {GCNOp::S_WAIT_LOADCNT, GCNOp::S_WAIT_STORECNT,
                                  GCNOp::S_WAIT_DSCNT, GCNOp::S_WAIT_KMCNT};
    for (unsigned C = 0; C < NumCounters; ++C)
      if (Hw[C] >= 0)
        Add(Names[C], std::to_string(Hw[C]));
    break;
  }
  }
}

void WaitCounter::run() {
  std::vector<CFGBlock> Bs = buildCFG(F);
  auto Counter = [&](const MInst &MI) -> int {
    switch (MI.Kind) {
    case InstKind::VMEMLoad:
      return CntLoad;
    case InstKind::VMEMStore:
      return CntStore;
    case InstKind::DS:
      return CntDS;
    case InstKind::SMEM:
      return CntSMEM;
    default:
      return -1;
    }
  };
  auto Simulate = [&](unsigned K, WaitState S, std::vector<MInst> *Out) {
    for (unsigned I = Bs[K].Begin; I < Bs[K].End; ++I) {
      const MInst &MI = F.Insts[I];
      int Need[NumCounters];
      step(MI, S, Need);
      applyWait(S, Need);
      if (Out)
        emitWait(*Out, Need);
      int C = Counter(MI);
      if (C >= 0) {
        Ticket Tk;
        Tk.OutOfOrder = C == CntSMEM;
        for (const MOperand &O : MI.Ops)
          if (O.IsDef)
            regKeys(F, O, Tk.Regs);
        llvm::sort(Tk.Regs);
        S.Q[C].push_back(std::move(Tk));
        if (S.Q[C].size() > M.Max[C])
          S.Q[C].erase(S.Q[C].begin());
      }
      if (Out && !MI.is(GCNOp::WAIT_ALL))
        Out->push_back(MI);
    }
    return S;
  };
  std::vector<WaitState> In(Bs.size()), OutS(Bs.size());
  std::vector<char> Seen(Bs.size(), 0);
  Seen[0] = 1;
  bool Changed = true;
  unsigned Rounds = 0;
  while (Changed && Rounds++ < 100) {
    Changed = false;
    for (unsigned K = 0; K < Bs.size(); ++K) {
      if (!Seen[K])
        continue;
      WaitState S = Simulate(K, In[K], nullptr);
      OutS[K] = S;
      for (unsigned Su : Bs[K].Succs) {
        WaitState M2 = In[Su];
        merge(M2, S);
        if (!Seen[Su] || !(M2 == In[Su])) {
          In[Su] = std::move(M2);
          Seen[Su] = 1;
          Changed = true;
        }
      }
    }
  }
  std::vector<MInst> Out;
  for (unsigned K = 0; K < Bs.size(); ++K)
    Simulate(K, In[K], &Out);
  F.Insts = std::move(Out);
}

// --- Hazards ---------------------------------------------------------------

/// Register keys (regKeys) of SGPRs: 1000 + n; VCC is SGPR 106 here, as in
/// the GFX12 hardware numbering the SGPR hazard rules use.
constexpr unsigned SGPRKey = 1000, VCCNumber = 106;

/// One instruction of the recent history the GFX9 wait-state rules look at.
struct HazardRec {
  SmallVector<unsigned, 4> Writes; ///< register keys.
  bool VALU = false, Trans = false, WritesVcc = false;
  /// A packed (VOP3P) result whose sources op_sel swizzles.
  bool OpSel = false;
  bool operator==(const HazardRec &O) const {
    return Writes == O.Writes && VALU == O.VALU && Trans == O.Trans &&
           WritesVcc == O.WritesVcc && OpSel == O.OpSel;
  }
  void merge(const HazardRec &O) {
    for (unsigned K : O.Writes)
      if (!is_contained(Writes, K))
        Writes.push_back(K);
    llvm::sort(Writes);
    VALU |= O.VALU, Trans |= O.Trans, WritesVcc |= O.WritesVcc;
    OpSel |= O.OpSel;
  }
};

/// VGPRs a transcendental wrote, with the VALUs and transcendentals issued
/// since (GFX11 VALUTransUseHazard: 5 VALUs / 1 transcendental).
struct TransWrite {
  SmallVector<unsigned, 2> Regs;
  unsigned VALUs = 0, Trans = 0;
  bool operator==(const TransWrite &O) const {
    return Regs == O.Regs && VALUs == O.VALUs && Trans == O.Trans;
  }
};

/// Everything the hazard rules remember at a point of the program.
struct HazardState {
  static constexpr unsigned MaxRecent = 6;
  std::vector<HazardRec> Recent; ///< newest last.
  std::vector<TransWrite> TransWrites;
  // GFX12 (AMDGPUWaitSGPRHazards): SGPR pairs a VALU has read, and SGPRs
  // with a SALU or VALU write the hardware may not have committed.
  std::bitset<64> Tracked;
  std::bitset<128> SALUWrites, VALUWrites;
  bool VccSALU = false, VccVALU = false;

  bool operator==(const HazardState &O) const {
    return Recent == O.Recent && TransWrites == O.TransWrites &&
           Tracked == O.Tracked && SALUWrites == O.SALUWrites &&
           VALUWrites == O.VALUWrites && VccSALU == O.VccSALU &&
           VccVALU == O.VccVALU;
  }
  /// Joins the state of another predecessor: anything either may hold.
  void merge(const HazardState &O) {
    if (O.Recent.size() > Recent.size())
      Recent.insert(Recent.begin(), O.Recent.size() - Recent.size(), {});
    for (size_t I = 1; I <= O.Recent.size(); ++I)
      Recent[Recent.size() - I].merge(O.Recent[O.Recent.size() - I]);
    for (const TransWrite &W : O.TransWrites) {
      auto It = llvm::find_if(TransWrites, [&](const TransWrite &X) {
        return X.Regs == W.Regs;
      });
      if (It == TransWrites.end()) {
        TransWrites.push_back(W);
      } else {
        It->VALUs = std::min(It->VALUs, W.VALUs);
        It->Trans = std::min(It->Trans, W.Trans);
      }
    }
    Tracked |= O.Tracked;
    SALUWrites |= O.SALUWrites;
    VALUWrites |= O.VALUWrites;
    VccSALU |= O.VccSALU;
    VccVALU |= O.VccVALU;
  }
};

class HazardMitigator {
public:
  explicit HazardMitigator(MFunction &F) : F(F), T(*F.T) {}
  void run();

private:
  MFunction &F;
  const GCNTarget &T;

  /// Emits into \p Out (when given) the waits \p MI needs in state \p S,
  /// then advances \p S past them and \p MI.
  void step(const MInst &MI, HazardState &S, std::vector<MInst> *Out);
  unsigned gfx9WaitStates(const MInst &MI, const HazardState &S,
                          ArrayRef<unsigned> Reads, bool ReadsVcc);
  std::string sgprReadWait(const MInst &MI, HazardState &S,
                           ArrayRef<unsigned> Reads, bool ReadsVcc);
  static void emitWait(std::vector<MInst> *Out, GCNOp Op,
                       std::string Fields);
};

void HazardMitigator::emitWait(std::vector<MInst> *Out, GCNOp Op,
                               std::string Fields) {
  if (!Out)
    return;
  MInst W;
  W.setOp(Op);
  W.Suffix = std::move(Fields);
  Out->push_back(std::move(W));
}

/// Wait states \p MI needs after the instructions in \p S.Recent (GFX9).
unsigned HazardMitigator::gfx9WaitStates(const MInst &MI,
                                         const HazardState &S,
                                         ArrayRef<unsigned> Reads,
                                         bool ReadsVcc) {
  bool IsVALU = MI.Kind == InstKind::VALU;
  bool Lane = MI.has(OF_Lane);
  SmallVector<unsigned, 4> SReads;
  for (unsigned K : Reads)
    if (K >= SGPRKey && K < SGPRKey + 128)
      SReads.push_back(K);
  SmallVector<unsigned, 4> VReads;
  for (unsigned K : Reads)
    if (K < SGPRKey)
      VReads.push_back(K);
  SmallVector<unsigned, 2> LaneSelect;
  if (Lane && !MI.Ops.empty())
    regKeys(F, MI.Ops.back(), LaneSelect);
  unsigned Need = 0;
  auto Require = [&](unsigned States, unsigned Dist) {
    if (Dist < States)
      Need = std::max(Need, States - Dist);
  };
  for (unsigned Dist = 0; Dist < S.Recent.size(); ++Dist) {
    const HazardRec &R = S.Recent[S.Recent.size() - 1 - Dist];
    if (!R.VALU)
      continue;
    auto Hit = [&](ArrayRef<unsigned> Keys) {
      return llvm::any_of(Keys,
                          [&](unsigned K) { return is_contained(R.Writes, K); });
    };
    // VALU writes SGPR -> VMEM reads that SGPR: 5.
    if ((MI.Kind == InstKind::VMEMLoad || MI.Kind == InstKind::VMEMStore) &&
        Hit(SReads))
      Require(5, Dist);
    // VALU writes SGPR -> v_readlane/v_writelane lane select: 4.
    if (Hit(LaneSelect))
      Require(4, Dist);
    // VALU writes VCC -> v_div_fmas: 4.
    if (MI.readsVCC() && R.WritesVcc)
      Require(4, Dist);
    // VALU writes SGPR or VCC -> VALU reads it (gfx940 family: 2).
    if (IsVALU && T.VALUWriteSGPRReadWaitStates &&
        (Hit(SReads) || (ReadsVcc && R.WritesVcc)))
      Require(T.VALUWriteSGPRReadWaitStates, Dist);
    // Transcendental result -> VALU use: 1.
    if (R.Trans && IsVALU && Hit(Reads))
      Require(1, Dist);
    // VALU writes VGPR -> v_readlane/v_readfirstlane reads it: 1 (gfx940
    // family; kept on gfx90a too). This covers a v_readlane of a spill VGPR
    // right after a v_writelane of it (RegAlloc.cpp).
    if (MI.has(OF_ReadLane) && Hit(Reads))
      Require(1, Dist);
    // VALU writes VGPR -> DPP reads it: 2.
    if (MI.enc() == GCNEnc::DPP && Hit(VReads))
      Require(2, Dist);
    // A packed f32 result built with op_sel -> VALU reads it: 1 (what
    // clang -O3 emits for gfx942, an s_nop 0 between `v_pk_mul_f32 ...
    // op_sel:[1,0]` and the v_pk_add_f32 reading it, and none after
    // op_sel:[0,0]; kept on every GFX9 target).
    if (R.OpSel && IsVALU && Hit(VReads))
      Require(1, Dist);
  }
  return Need;
}

/// The s_wait_alu fields \p MI needs for the GFX12 SGPR read hazards ("" if
/// none), with \p S updated for the reads and the wait.
std::string HazardMitigator::sgprReadWait(const MInst &MI, HazardState &S,
                                          ArrayRef<unsigned> Reads,
                                          bool ReadsVcc) {
  bool IsVALU = MI.Kind == InstKind::VALU, IsSALU = MI.Kind == InstKind::SALU;
  bool WaitSALU = false, WaitVALU = false, WaitVcc = false;
  SmallVector<unsigned, 4> Numbers;
  for (unsigned K : Reads)
    if (K >= SGPRKey && K < SGPRKey + VCCNumber)
      Numbers.push_back(K - SGPRKey);
  if (ReadsVcc)
    Numbers.push_back(VCCNumber);
  for (unsigned N : Numbers) {
    unsigned Pair = N >> 1;
    if (!S.Tracked[Pair]) { // never read by a VALU: no hazard yet
      if (IsVALU)
        S.Tracked.set(Pair);
      continue;
    }
    if (N == VCCNumber) {
      if (IsSALU)
        S.VccVALU = false; // a SALU read waits for VALU writes itself
      WaitSALU |= S.VccSALU;
      WaitVcc |= S.VccVALU;
      continue;
    }
    if (IsSALU)
      S.VALUWrites.reset();
    WaitSALU |= S.SALUWrites[N];
    WaitVALU |= IsVALU && S.VALUWrites[N];
  }
  std::string Fields;
  if (WaitVcc) {
    S.VccVALU = false;
    Fields += " depctr_va_vcc(0)";
  }
  if (WaitSALU) {
    S.SALUWrites.reset();
    S.VccSALU = false;
    Fields += " depctr_sa_sdst(0)";
  }
  if (WaitVALU) {
    S.VALUWrites.reset();
    Fields += " depctr_va_sdst(0)";
  }
  return Fields;
}

void HazardMitigator::step(const MInst &MI, HazardState &S,
                           std::vector<MInst> *Out) {
  if (MI.Kind == InstKind::Label || MI.Kind == InstKind::Comment) {
    if (Out)
      Out->push_back(MI);
    return;
  }
  bool IsVALU = MI.Kind == InstKind::VALU;
  SmallVector<unsigned, 8> Reads, Writes;
  bool ReadsVcc = MI.readsVCC(), WritesVcc = false;
  for (const MOperand &O : MI.Ops) {
    if (O.IsUse)
      regKeys(F, O, Reads);
    if (O.IsDef)
      regKeys(F, O, Writes);
    if (O.K == MOperand::Hw && O.H == HwReg::Vcc) {
      ReadsVcc |= O.IsUse;
      WritesVcc |= O.IsDef;
    }
  }

  // GFX9: wait states.
  unsigned Nops = T.Gen == GCNGen::GFX9 ? gfx9WaitStates(MI, S, Reads, ReadsVcc)
                                        : 0;
  // RDNA: v_div_fmas reads VCC a VALU wrote (4 wait states).
  if (T.Gen != GCNGen::GFX9 && MI.readsVCC())
    for (unsigned D = 0; D < S.Recent.size() && D < 4; ++D)
      if (S.Recent[S.Recent.size() - 1 - D].WritesVcc)
        Nops = std::max(Nops, 4 - D);
  if (Nops) {
    if (Out) {
      MInst Nop;
      Nop.setOp(GCNOp::S_NOP);
      Nop.Ops.push_back(MOperand::imm(Nops - 1));
      Out->push_back(std::move(Nop));
    }
    S.Recent.insert(S.Recent.end(), Nops, HazardRec());
  }

  // GFX11: a VALU reading a recent transcendental result.
  if (T.VALUTransUseHazard) {
    if (MI.Kind == InstKind::VMEMLoad || MI.Kind == InstKind::VMEMStore ||
        MI.Kind == InstKind::DS)
      S.TransWrites.clear(); // memory instructions wait for va_vdst
    bool Hazard = IsVALU && llvm::any_of(S.TransWrites, [&](auto &W) {
      return llvm::any_of(W.Regs, [&](unsigned K) {
        return is_contained(Reads, K);
      });
    });
    if (Hazard) {
      emitWait(Out, GCNOp::S_WAITCNT_DEPCTR, " depctr_va_vdst(0)");
      S.TransWrites.clear();
    }
  }

  // GFX12: SGPR read hazards.
  if (T.SGPRReadHazards) {
    if (MI.Kind == InstKind::SMEM) {
      S.SALUWrites.reset();
      S.VALUWrites.reset();
      S.VccSALU = S.VccVALU = false;
    }
    if (IsVALU || MI.Kind == InstKind::SALU) {
      std::string Fields = sgprReadWait(MI, S, Reads, ReadsVcc);
      if (!Fields.empty())
        emitWait(Out, GCNOp::S_WAIT_ALU, Fields);
      for (unsigned K : Writes) {
        if (K < SGPRKey || K >= SGPRKey + VCCNumber ||
            !S.Tracked[(K - SGPRKey) >> 1])
          continue;
        (IsVALU ? S.VALUWrites : S.SALUWrites).set(K - SGPRKey);
      }
      if (WritesVcc && S.Tracked[VCCNumber >> 1]) {
        S.VccSALU = !IsVALU;
        S.VccVALU = IsVALU;
      }
    }
  }

  // Advance the history.
  HazardRec R;
  R.VALU = IsVALU;
  R.Trans = MI.has(OF_Trans);
  R.OpSel = MI.enc() == GCNEnc::VOP3P &&
            StringRef(MI.Suffix).contains("op_sel:[1");
  // Only VALU writes matter to the rules (gfx9WaitStates skips the other
  // records); keeping an SALU's writes out also keeps them out of a VALU
  // record they are merged with at a join.
  if (IsVALU) {
    R.Writes.assign(Writes.begin(), Writes.end());
    llvm::sort(R.Writes);
    R.WritesVcc = WritesVcc;
  }
  S.Recent.push_back(std::move(R));
  if (S.Recent.size() > HazardState::MaxRecent)
    S.Recent.erase(S.Recent.begin(),
                   S.Recent.end() - HazardState::MaxRecent);
  if (T.VALUTransUseHazard && IsVALU) {
    for (TransWrite &W : S.TransWrites) {
      ++W.VALUs;
      W.Trans += MI.has(OF_Trans);
    }
    llvm::erase_if(S.TransWrites, [](const TransWrite &W) {
      return W.VALUs > 5 || W.Trans > 1;
    });
    if (MI.has(OF_Trans)) {
      TransWrite W;
      for (unsigned K : Writes)
        if (K < SGPRKey)
          W.Regs.push_back(K);
      S.TransWrites.push_back(std::move(W));
    }
  }
  if (Out)
    Out->push_back(MI);
}

void HazardMitigator::run() {
  std::vector<CFGBlock> Bs = buildCFG(F);
  std::vector<HazardState> In(Bs.size());
  std::vector<char> Seen(Bs.size(), 0);
  Seen[0] = 1;
  bool Changed = true;
  for (unsigned Rounds = 0; Changed && Rounds < 100; ++Rounds) {
    Changed = false;
    for (unsigned K = 0; K < Bs.size(); ++K) {
      if (!Seen[K])
        continue;
      HazardState S = In[K];
      for (unsigned I = Bs[K].Begin; I < Bs[K].End; ++I)
        step(F.Insts[I], S, nullptr);
      for (unsigned Su : Bs[K].Succs) {
        HazardState M = In[Su];
        M.merge(S);
        if (!Seen[Su] || !(M == In[Su])) {
          In[Su] = std::move(M);
          Seen[Su] = 1;
          Changed = true;
        }
      }
    }
  }
  std::vector<MInst> Out;
  for (unsigned K = 0; K < Bs.size(); ++K) {
    HazardState S = In[K];
    for (unsigned I = Bs[K].Begin; I < Bs[K].End; ++I)
      step(F.Insts[I], S, &Out);
  }
  F.Insts = std::move(Out);
}

} // namespace

void insertWaitCounts(MFunction &F) { WaitCounter(F).run(); }

void mitigateHazards(MFunction &F) { HazardMitigator(F).run(); }

} // namespace wave::amdgcn
