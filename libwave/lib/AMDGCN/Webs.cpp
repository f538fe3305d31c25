//===- Webs.cpp - Reaching definitions and webs ---------------------------===//
//
// Step 2: reaching definitions of every WAVE register and predicate over
// the structured program, along the paths a single lane can take; a
// definition made while some lanes may be inactive, whose old value can
// still be observed, is a *partial* definition and joins the web of the
// values it merges with. A web is one virtual register of the lowering.
//
//===----------------------------------------------------------------------===//

#include "Lowering.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <numeric>

using namespace llvm;

namespace wave::amdgcn::detail {

/// The registers (analysis ids) \p I reads and writes. The instruction
/// predicate is a read. An atomic with rd = 0 writes nothing (formats/isa.md
/// §2.11).
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
  if (isLoad(Op)) {
    R(I.Rs1), W(I.Rd, getDestRegs(Op));
    return;
  }
  if (isStore(Op)) {
    R(I.Rs1), R(I.Rs2, getSourceRegs(Op));
    return;
  }
  if (isAtomic(Op)) {
    R(I.Rs1), R(I.Rs2);
    if (Op == Opcode::LocalAtomicCas || Op == Opcode::AtomicCas)
      R(I.Rs3);
    if (I.Rd != 0)
      W(I.Rd);
    return;
  }
  if (isControl(Op))
    return;
  // Generic register forms: the first operand is the destination. f64 pairs
  // span two registers (getOperandRegs).
  for (unsigned K = 0; K < F.NumOperands; ++K) {
    const OperandDesc &O = F.Operands[K];
    if (O.Kind != OperandKind::Reg)
      continue;
    unsigned N = I.getField(O.Fld);
    if (K == 0)
      W(N, getOperandRegs(Op, O.Fld));
    else
      R(N, getOperandRegs(Op, O.Fld));
  }
}

static void mergeInto(SmallVector<unsigned, 2> &Dst,
                      const SmallVector<unsigned, 2> &Src) {
  for (unsigned D : Src)
    if (!is_contained(Dst, D))
      Dst.push_back(D);
  llvm::sort(Dst);
}

/// Reaching definitions over the paths a single lane can take (formats/isa.md
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

} // namespace wave::amdgcn::detail
