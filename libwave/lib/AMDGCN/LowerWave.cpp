//===- LowerWave.cpp - Wave operations ------------------------------------===//
//
// Lowering of the wave operations (formats/isa.md §4.14): shuffles and
// broadcast through ds_bpermute with every lane enabled (source lanes are read
// whether or not they are active), ballot, any and all from compare masks, and
// prefix sums and reductions as DPP scans (inclusiveScan).
//
//===----------------------------------------------------------------------===//

#include "Lowering.h"

using namespace llvm;

namespace wave::amdgcn::detail {

/// Wave operations (formats/isa.md §4.14): shuffles, broadcast, ballot,
/// any/all, prefix sums and reductions.
Error KernelLowering::lowerWaveOp(unsigned Idx) {
  const Inst &In = Ops[Idx].I;
  Opcode Op = In.Op;
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
      emit("s_cmp_lt_u32", {U(Sel), I(T.WaveSize)});
      emit(m("s_cselect"), {D(Valid), I(-1), I(0)});
    } else if (Op == Opcode::WaveShuffleUp) {
      emit("v_cmp_le_u32_e64", {D(Valid), U(Sel), U(Lane)});
    } else {
      emit("v_cmp_gt_u32_e64", {D(Valid), I(T.WaveSize), U(SL)});
    }
    emit("v_cndmask_b32_e64", {D(Dst()), I(0), U(Tmp), U(Valid)});
    return finish();
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
    emit("s_cmp_lt_u32", {U(SI), I(T.WaveSize)});
    uint32_t Dd = Dst();
    if (isS(Dd)) {
      emit("s_cselect_b32", {D(Dd), U(SV), I(0)});
    } else {
      uint32_t R = newS();
      emit("s_cselect_b32", {D(R), U(SV), I(0)});
      emit("v_mov_b32", {D(Dd), U(R)});
    }
    return finish();
  }
  case Opcode::WaveBallot: {
    uint32_t Tm = newMask();
    emit(m("s_and"), {D(Tm), ExecU(), U(useP(Idx, In.Rs1))});
    uint32_t Dd = Dst();
    int8_t Sub = T.WaveSize == 64 ? 0 : -1;
    emit(isS(Dd) ? "s_mov_b32" : "v_mov_b32", {D(Dd), U(Tm, Sub)});
    return finish();
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
    return finish();
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
    uint32_t Scan = Full ? sharedScan(Name, Src) : 0;
    if (!Scan)
      Scan = inclusiveScan(Name, Identity, Src, Full ? 0 : Save);
    if (Full)
      LastScan = {Src, Scan, Name, F.Insts.size()};
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
      return finish();
    }
    // Exclusive: the inclusive scan one lane up, 0 in lane 0. Written with
    // every lane enabled unless the other lanes' old values are still
    // needed.
    // (A def that is not merging may still share its web with values
    // other lanes hold: a then-part's scan whose result the then-part
    // overwrites before any read.)
    unsigned Web = webOfDef(Idx, In.Rd & 0xFF);
    bool Merges = isS(Dd) || defMerges(Idx, In.Rd) ||
                  (Web != ~0u && WebNumDefs[Web] > 1);
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
    return finish();
  }
  default:
    return unsupported(In.desc().Mnemonic);
  }
}

/// The scan LastScan made, where it is the inclusive scan of \p Src under
/// \p Name with every lane enabled and still holds it: nothing since
/// writes \p Src, the scan or EXEC, and no label or branch lies in
/// between (one block, so it ran). 0 otherwise. (`wave_prefix_sum` and
/// `wave_reduce_add` of one value share a scan: the reduction is its
/// last lane.)
uint32_t KernelLowering::sharedScan(StringRef Name, uint32_t Src) const {
  if (!LastScan.Scan || LastScan.Src != Src || LastScan.Name != Name)
    return 0;
  for (size_t I = LastScan.End; I < F.Insts.size(); ++I) {
    const MInst &MI = F.Insts[I];
    if (MI.Kind == InstKind::Label || MI.Kind == InstKind::Branch ||
        writesExec(MI))
      return 0;
    for (const MOperand &O : MI.Ops)
      if (O.K == MOperand::VReg && O.IsDef &&
          (O.Reg == Src || O.Reg == LastScan.Scan))
        return 0;
  }
  return LastScan.Scan;
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
  std::string Dpp = (Name + "_dpp").str();
  auto Step = [&](uint32_t From, StringRef Ctrl) {
    MInst &MI = emit(Dpp, {D(Scan), U(From), U(Scan)},
                     (" " + Ctrl + " bank_mask:0xf").str());
    MI.Ops[0].IsUse = true; // lanes without a source keep their value
  };
  // With identity 0, the first step can read Src itself: bound_ctrl:1
  // gives a lane without a source lane 0 (AMD "CDNA3 ISA" DPP), so it
  // computes Src + 0 there instead of keeping a copy of Src.
  bool FirstFromSrc = !Active && Identity == 0 && !isS(Src);
  if (Active)
    emit("v_cndmask_b32_e64", {D(Scan), I(Identity), U(Src), U(Active)});
  else if (FirstFromSrc)
    emit(Dpp, {D(Scan), U(Src), U(Src)},
         " row_shr:1 row_mask:0xf bank_mask:0xf bound_ctrl:1");
  else
    emit("v_mov_b32", {D(Scan), U(Src)});
  for (unsigned Shift : {1, 2, 4, 8})
    if (Shift > 1 || !FirstFromSrc)
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

} // namespace wave::amdgcn::detail
