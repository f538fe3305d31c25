//===- PostRA.cpp - Wait counts and hazards -------------------------------===//
//
// After register allocation:
//  - insertWaitCounts: seed 004's "ticketing". Every memory instruction
//    that will write registers (loads, returning atomics, s_load) gets a
//    ticket in its counter's queue; an instruction that reads or writes one
//    of those registers first waits until that ticket has retired, i.e.
//    until at most the number of younger tickets are outstanding (queues
//    retire in order, except scalar memory, which needs a count of 0).
//    States merge at control-flow joins and around loops until they stop
//    changing, then the waits are inserted. `wait_all` pseudos (fences,
//    barriers) become full waits.
//  - mitigateHazards: s_nop where the target's hazard rules require wait
//    states between a producer and a consumer (CDNA3 ISA guide "Manually
//    Inserted Wait States"; RDNA3 ISA guide "Data Dependency Resolution").
//
//===----------------------------------------------------------------------===//
#include "GCNIR.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallSet.h"
#include "llvm/ADT/StringExtras.h"

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
    char C = isVector(VI.Class) ? 'v' : 's';
    int P = VI.Phys;
    unsigned W = regWidth(VI.Class);
    std::string S;
    if (O.Sub >= 0)
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
  unsigned Base = isVector(VI.Class) ? 0 : 1000;
  unsigned W = regWidth(VI.Class);
  if (O.Sub >= 0)
    Keys.push_back(Base + VI.Phys + O.Sub);
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
  if (MI.Op == "wait_all") {
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
  auto Add = [&](std::string Op, std::string Text) {
    MInst W;
    W.Kind = InstKind::Wait;
    W.Op = std::move(Op);
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
      Add("s_waitcnt", S);
    if (Hw[CntStore] >= 0)
      Add("s_waitcnt_vscnt", "null, " + std::to_string(Hw[CntStore]));
    break;
  }
  case GCNGen::GFX12: {
    static const char *Names[] = {"s_wait_loadcnt", "s_wait_storecnt",
                                  "s_wait_dscnt", "s_wait_kmcnt"};
    for (unsigned C = 0; C < NumCounters; ++C)
      if (Hw[C] >= 0)
        Add(Names[C], std::to_string(Hw[C]));
    break;
  }
  }
}

void WaitCounter::run() {
  // Blocks and successors.
  struct Blk {
    unsigned B, E;
    SmallVector<unsigned, 2> Succ;
  };
  std::vector<Blk> Bs;
  std::map<int64_t, unsigned> LabelBlk;
  unsigned Start = 0;
  for (unsigned I = 0; I <= F.Insts.size(); ++I) {
    bool Split = I == F.Insts.size() ||
                 (F.Insts[I].Kind == InstKind::Label && I != Start);
    if (Split) {
      Bs.push_back({Start, I, {}});
      Start = I;
    }
    if (I < F.Insts.size() && F.Insts[I].Kind == InstKind::Label)
      LabelBlk[F.Insts[I].Ops[0].Value] = unsigned(Bs.size());
    if (I < F.Insts.size() && (F.Insts[I].Kind == InstKind::Branch ||
                               F.Insts[I].Op == "s_endpgm")) {
      Bs.push_back({Start, I + 1, {}});
      Start = I + 1;
    }
  }
  for (unsigned K = 0; K < Bs.size(); ++K) {
    Blk &B = Bs[K];
    const MInst *Last = B.E > B.B ? &F.Insts[B.E - 1] : nullptr;
    if (Last && Last->Kind == InstKind::Branch)
      B.Succ.push_back(LabelBlk[Last->Ops[0].Value]);
    if ((!Last || (Last->Op != "s_branch" && Last->Op != "s_endpgm")) &&
        K + 1 < Bs.size())
      B.Succ.push_back(K + 1);
  }
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
    for (unsigned I = Bs[K].B; I < Bs[K].E; ++I) {
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
      if (Out && MI.Op != "wait_all")
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
      for (unsigned Su : Bs[K].Succ) {
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

bool isTrans(StringRef Op) {
  return Op.starts_with("v_rcp") || Op.starts_with("v_rsq") ||
         Op.starts_with("v_sqrt") || Op.starts_with("v_exp") ||
         Op.starts_with("v_log") || Op.starts_with("v_sin") ||
         Op.starts_with("v_cos");
}

} // namespace

void insertWaitCounts(MFunction &F) { WaitCounter(F).run(); }

void mitigateHazards(MFunction &F) {
  const GCNTarget &T = *F.T;
  std::vector<MInst> Out;
  // For each recent instruction: which register keys it wrote and its kind.
  struct Rec {
    SmallVector<unsigned, 4> Writes;
    bool VALU = false, Trans = false, WritesVcc = false;
    bool DsWrite128 = false;
    SmallVector<unsigned, 4> DataRegs;
  };
  std::vector<Rec> Recent; // newest last; at most 6
  auto WaitStates = [&](const MInst &MI) {
    if (MI.Op == "s_nop" && !MI.Ops.empty() && MI.Ops[0].K == MOperand::Imm)
      return unsigned(MI.Ops[0].Value) + 1;
    return 1u;
  };
  (void)WaitStates;
  for (MInst &MI : F.Insts) {
    if (MI.Kind == InstKind::Label || MI.Kind == InstKind::Comment) {
      Out.push_back(MI);
      continue;
    }
    unsigned Need = 0;
    StringRef Op = MI.Op;
    SmallVector<unsigned, 8> Reads;
    for (const MOperand &O : MI.Ops)
      if (O.IsUse)
        regKeys(F, O, Reads);
    bool Lane = Op.starts_with("v_readlane") || Op.starts_with("v_writelane");
    if (T.Gen == GCNGen::GFX9) {
      for (unsigned D = 0; D < Recent.size(); ++D) {
        const Rec &R = Recent[Recent.size() - 1 - D];
        unsigned Dist = D; // instructions in between
        auto Hit = [&](ArrayRef<unsigned> Keys) {
          for (unsigned K : Keys)
            if (is_contained(R.Writes, K))
              return true;
          return false;
        };
        if (!R.VALU)
          continue;
        // VALU writes SGPR -> VMEM reads that SGPR: 5 wait states.
        SmallVector<unsigned, 4> SReads;
        for (unsigned K : Reads)
          if (K >= 1000)
            SReads.push_back(K);
        if ((MI.Kind == InstKind::VMEMLoad || MI.Kind == InstKind::VMEMStore) &&
            Hit(SReads) && Dist < 5)
          Need = std::max(Need, 5 - Dist);
        // VALU writes SGPR -> v_readlane/v_writelane lane select: 4.
        if (Lane && !MI.Ops.empty()) {
          SmallVector<unsigned, 2> Sel;
          regKeys(F, MI.Ops.back(), Sel);
          if (Hit(Sel) && Dist < 4)
            Need = std::max(Need, 4 - Dist);
        }
        // VALU writes VCC -> v_div_fmas: 4.
        if (MI.ReadsVCC && R.WritesVcc && Dist < 4)
          Need = std::max(Need, 4 - Dist);
        // Transcendental result -> VALU use: 1.
        if (R.Trans && MI.Kind == InstKind::VALU && Hit(Reads) && Dist < 1)
          Need = std::max(Need, 1 - Dist);
        // VALU writes VGPR -> v_readlane reads it: 1 (gfx90a+).
        if (Lane && Op.starts_with("v_readlane") && Hit(Reads) && Dist < 1)
          Need = std::max(Need, 1 - Dist);
      }
    } else {
      for (unsigned D = 0; D < Recent.size(); ++D) {
        const Rec &R = Recent[Recent.size() - 1 - D];
        bool HitR = false;
        for (unsigned K : Reads)
          if (is_contained(R.Writes, K))
            HitR = true;
        // RDNA3/4: a transcendental result read by a VALU soon after.
        if (R.Trans && MI.Kind == InstKind::VALU && HitR && D < 1)
          Need = std::max(Need, 1u);
        if (MI.ReadsVCC && R.WritesVcc && D < 4)
          Need = std::max(Need, 4 - D);
      }
    }
    if (Need) {
      MInst Nop;
      Nop.Kind = InstKind::Other;
      Nop.Op = "s_nop";
      Nop.Ops.push_back(MOperand::imm(Need - 1));
      Out.push_back(std::move(Nop));
      for (unsigned K = 0; K < Need; ++K)
        Recent.push_back({});
    }
    Rec R;
    R.VALU = MI.Kind == InstKind::VALU;
    R.Trans = isTrans(Op);
    for (const MOperand &O : MI.Ops) {
      if (O.IsDef)
        regKeys(F, O, R.Writes);
      if (O.IsDef && O.K == MOperand::Hw && O.H == HwReg::Vcc)
        R.WritesVcc = true;
    }
    Recent.push_back(std::move(R));
    if (Recent.size() > 6)
      Recent.erase(Recent.begin());
    Out.push_back(std::move(MI));
  }
  F.Insts = std::move(Out);
}

} // namespace wave::amdgcn
