//===- LowerControl.cpp - Structured control flow -------------------------===//
//
// Lowering of WAVE's structured control flow to EXEC-mask arithmetic with
// the reference emulator's default semantics (formats/isa.md §4.15 with D5, D6,
// D8, D9): if/else/endif, loop/break/continue/endloop with their control
// frames, `s_cbranch_execz` skips over regions no lane runs, halt and return,
// the markers of inlined calls (§4.16), barriers and fences (§4.17).
//
//===----------------------------------------------------------------------===//

#include "Lowering.h"

using namespace llvm;

namespace wave::amdgcn::detail {

void KernelLowering::fence(bool Acquire, bool Release, unsigned Scope) {
  auto Seq = [&](const char *Text) {
    StringRef S(Text);
    while (!S.empty()) {
      auto [Line, Rest] = S.split('\n');
      emit(Line, {});
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
    emit("s_barrier_signal", {I(-1)});
    emit("s_barrier_wait", {I(-1)});
  } else {
    emit("s_barrier", {});
  }
  if (*T.AcquireWorkgroup)
    emit(T.AcquireWorkgroup, {});
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
  if (Rg.Kind == RegionKind::Then && Fr.HasElse && !Fr.UniformIf)
    return int(Fr.Mid);
  return int(Fr.Exit);
}

/// After an instruction that may empty EXEC inside region \p R: skip to the
/// region's end when no lane is left (never over a barrier, which must be
/// reached by every wave, or a kernel `return`, which ends it even then:
/// isWholeWaveOp).
void KernelLowering::skipIfExecZero(int R) {
  if (R < 0 || Regions[R].HasWholeWaveOp)
    return;
  branch("s_cbranch_execz", unsigned(regionEndLabel(R)));
}

/// Removes \p Lanes from the saved masks of the frames above loop frame
/// \p LoopFrame (break/continue, formats/isa.md D5/D6), or of every frame
/// (halt, D8).
void KernelLowering::removeLanes(uint32_t Lanes, bool AllFrames,
                                 int LoopFrame) {
  for (auto It = FrameStack.rbegin(); It != FrameStack.rend(); ++It) {
    int Fi = *It;
    if (!AllFrames && Fi == LoopFrame)
      break;
    Frame &Fr = Frames[Fi];
    emit(m("s_andn2"), {D(Fr.Entry), U(Fr.Entry), U(Lanes)});
    if (!Fr.IsLoop && Fr.HasElse && !Fr.UniformIf)
      emit(m("s_andn2"), {D(Fr.Other), U(Fr.Other), U(Lanes)});
  }
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
    if (Regions[Ri].Uniform && !In.isPredicated()) {
      // Every active lane takes the same side: a scalar branch, EXEC left
      // as it is. Right after the uniform compare, SCC holds the
      // condition; otherwise it is whether any active lane has it. (A
      // uniform region holds no whole-wave op, so skipping it is exact.)
      Fr.UniformIf = true;
      if (!lastIsCselectOf(Cond)) {
        uint32_t Any = newMask();
        emit(m("s_and"), {D(Any), ExecU(), U(Cond)});
      }
      emit(m("s_mov"), {D(Fr.Entry), ExecU()}); // dead unless a halt needs it
      FrameStack.push_back(Regions[Ri].Frame);
      branch("s_cbranch_scc0", Fr.HasElse ? Fr.Mid : Fr.Exit);
      return Error::success();
    }
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
    if (!Regions[Ri].HasWholeWaveOp)
      branch("s_cbranch_execz", Fr.HasElse ? Fr.Mid : Fr.Exit);
    return Error::success();
  }
  case Opcode::Else: {
    Frame &Fr = Frames[FrameStack.back()];
    if (Fr.UniformIf) { // the then-part ran: go past the else-part
      branch("s_branch", Fr.Exit);
      label(Fr.Mid);
      return Error::success();
    }
    label(Fr.Mid);
    emit(m("s_mov"), {ExecD(), U(Fr.Other)});
    int Ri = RegionOpenedAt[Idx];
    if (!Regions[Ri].HasWholeWaveOp)
      branch("s_cbranch_execz", Fr.Exit);
    return Error::success();
  }
  case Opcode::Endif: {
    Frame &Fr = Frames[FrameStack.back()];
    label(Fr.Exit);
    if (!Fr.UniformIf)
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
    if (!Regions[Ri].HasWholeWaveOp && !execFull(Idx))
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
      if (needsDrain(Idx, Regions[LoopRegion])) {
        Fr.Drains.push_back({F.newLabel(), Idx, Target});
        Target = Fr.Drains.back().Label;
      }
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
    bool KeepsExec = loopKeepsExec(*Loop);
    if (KeepsExec) {
      // Every lane that entered is still here: round again. A uniform
      // break before this is then the loop's one exit branch (the
      // peephole folds `s_cbranch_scc1 exit; s_branch head`).
      branch("s_branch", Fr.Head);
    } else if (Loop->Uniform) {
      // No lane has left: go round while any lane is left (a halt may
      // have removed them all).
      branch("s_cbranch_execnz", Fr.Head);
    } else {
      emit(m("s_andn2"), {ExecD(), U(Fr.Entry), U(Fr.Other)});
      branch("s_cbranch_scc1", Fr.Head);
    }
    // The drains of uniform breaks and continues, out of the loop's path:
    // the rest of the body's unpredicated barriers, which a wave runs even
    // with no lane active (formats/isa.md §4.15, §4.17), then the break's
    // or continue's target; a kernel `return` on the way ends the wave.
    if (!Fr.Drains.empty() && !KeepsExec)
      branch("s_branch", Fr.Exit);
    for (const Frame::Drain &Dr : Fr.Drains) {
      label(Dr.Label);
      bool Ended = false;
      for (unsigned J = Dr.From + 1; J < Loop->End && !Ended; ++J) {
        const WOp &W = Ops[J];
        if (!isWholeWaveOp(W) || W.I.isPredicated())
          continue;
        if (W.I.Op == Opcode::Return) {
          NeedEndLabel = true;
          branch("s_branch", EndLabel);
          Ended = true;
        } else {
          barrier();
        }
      }
      if (!Ended)
        branch("s_branch", Dr.To);
    }
    label(Fr.Exit);
    if (!KeepsExec)
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
    emit("s_nop", {I(0)});
    return Error::success();
  default:
    return err(K.Name, O.PC, "unexpected control instruction");
  }
}

/// Calls are inlined (formats/isa.md §4.16); the markers around a body only
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
    emit("s_trap", {I(2)});
    return Error::success();
  case WOpKind::Inst:
    break;
  }
  return err(K.Name, O.PC, "unexpected call marker");
}

/// Whether EXEC at every point of uniform loop \p Loop is EXEC at its
/// `loop`, never empty: no lane leaves (the breaks and continues are
/// branches), no `halt` inside removes lanes, and the wave enters with a
/// lane (the `s_cbranch_execz` at the `loop` skips it otherwise; a loop
/// around a barrier is uniform only where EXEC is full at its `loop`).
bool KernelLowering::loopKeepsExec(const Region &Loop) const {
  if (Loop.Kind != RegionKind::Loop || !Loop.Uniform)
    return false;
  for (unsigned Idx = Loop.Begin + 1; Idx < Loop.End; ++Idx)
    if (Ops[Idx].Kind == WOpKind::Inst && Ops[Idx].I.Op == Opcode::Halt)
      return false;
  return true;
}

/// Whether a uniform break or continue at op \p From of \p Loop must run
/// what follows it in the body before it leaves: an unpredicated barrier or
/// kernel `return` (isWholeWaveOp) that a wave whose lanes all left would
/// still meet on its way to `endloop`.
bool KernelLowering::needsDrain(unsigned From, const Region &Loop) const {
  for (unsigned J = From + 1; J < Loop.End; ++J)
    if (isWholeWaveOp(Ops[J]) && !Ops[J].I.isPredicated())
      return true;
  return false;
}

/// Whether the last instructions emitted are `s_cselect Mask, exec, 0`
/// (possibly followed by `s_mov Mask, X` of its result), so SCC still says
/// whether the uniform condition \p Mask holds.
/// The value \p R holds wherever it is read, when the code so far gives it
/// one definition, a move of an immediate or of a register that has one
/// (`mov_sr r5, sr_wave_width`: a copy of `s_mov 64`); else nothing.
std::optional<int64_t> KernelLowering::constantOf(uint32_t R) const {
  for (unsigned Hops = 0; Hops < 8; ++Hops) {
    const MInst *Def = nullptr;
    unsigned N = 0;
    for (const MInst &MI : F.Insts)
      for (const MOperand &O : MI.Ops)
        if (O.K == MOperand::VReg && O.Reg == R && O.IsDef) {
          Def = &MI;
          ++N;
        }
    if (N != 1 || F.VRegs[R].Fixed >= 0 || !isMov(*Def) ||
        Def->Ops.size() != 2 || Def->Ops[0].Sub >= 0 || Def->Ops[0].IsUse)
      return std::nullopt;
    const MOperand &Src = Def->Ops[1];
    if (Src.K == MOperand::Imm)
      return Src.Value;
    if (Src.K != MOperand::VReg || Src.Sub >= 0)
      return std::nullopt;
    R = Src.Reg;
  }
  return std::nullopt;
}

bool KernelLowering::lastIsCselectOf(uint32_t Mask) const {
  auto Defines = [](const MInst &MI, GCNOp B32, GCNOp B64, uint32_t R) {
    return (MI.is(B32) || MI.is(B64)) && !MI.Ops.empty() &&
           MI.Ops[0].K == MOperand::VReg && MI.Ops[0].Reg == R &&
           MI.Ops[0].Sub < 0;
  };
  for (auto It = F.Insts.rbegin(); It != F.Insts.rend(); ++It) {
    if (It->Kind == InstKind::Comment)
      continue;
    if (Defines(*It, GCNOp::S_MOV_B32, GCNOp::S_MOV_B64, Mask) && It->Ops[1].K == MOperand::VReg &&
        It->Ops[1].Sub < 0) {
      Mask = It->Ops[1].Reg;
      continue;
    }
    return Defines(*It, GCNOp::S_CSELECT_B32, GCNOp::S_CSELECT_B64, Mask) && It->Ops.size() == 3 &&
           It->Ops[1].K == MOperand::Hw && It->Ops[1].H == HwReg::Exec &&
           It->Ops[2].K == MOperand::Imm && It->Ops[2].Value == 0;
  }
  return false;
}

} // namespace wave::amdgcn::detail
