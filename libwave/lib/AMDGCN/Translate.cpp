//===- Translate.cpp - WAVE to AMDGCN assembly ----------------------------===//
//
// The front half of the AMDGCN stage (formats/amdgcn-abi.md), one kernel at
// a time by KernelLowering (Lowering.h):
//
//  1. Flatten: decode a kernel, inline its `call`s, check that the control
//     flow is structured (formats/isa.md §4.15) (LowerStructure.cpp).
//  2. Webs: reaching definitions of every WAVE register and predicate over
//     the structured program; partial definitions merge webs (Webs.cpp).
//  3. Uniformity: uniform webs and regions; uniform integer webs live in
//     SGPRs and use SALU instructions (Uniformity.cpp).
//  4. Lowering: every WAVE instruction becomes AMDGCN instructions over
//     virtual registers (GCNIR.h). This file holds the prologue (kernel
//     arguments, special registers, initial values, the local memory clear)
//     and lowerOp(), which hands each instruction to the lowering of its
//     class: LowerControl.cpp, LowerALU.cpp, LowerMemory.cpp, LowerWave.cpp,
//     LowerMMA.cpp.
//
// Then: peephole (Peephole.cpp), scoped CSE and fusion of integer pairs
// (Combine.cpp), legalization of the constant bus (ConstantBus.cpp),
// register allocation, wait counts, hazards and emission (Emitter.cpp).
//
//===----------------------------------------------------------------------===//

#include "Lowering.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/bit.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace wave::amdgcn {

namespace detail {

//===----------------------------------------------------------------------===//
// 4. Lowering: special registers, the dispatch of instructions, the prologue
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
    // v0 packs x, y and z (10 bits each, AMDGPUUsage "VGPR register
    // initial state"); with y and z fixed at 1 their fields are 0.
    if (yzFixedOne())
      return TidV;
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
    uint32_t X = S, Y = newS(), Z = newS();
    if (!yzFixedOne()) {
      X = newS();
      emit("s_and_b32", {D(X), U(S), I(0x3FF)});
    }
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

/// Lowers op \p Idx: a call marker or a control instruction by itself;
/// any other instruction runs under EXEC & P when predicated and goes to
/// the lowering of its class, which ends with finish().
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

  // Predicated instructions run with EXEC & P (formats/isa.md §4.4).
  CurIdx = Idx;
  CurSavedExec = 0;
  if (In.isPredicated()) {
    CurSavedExec = newMask();
    emit(m("s_mov"), {D(CurSavedExec), ExecU()});
    emit(m(In.PredNeg ? "s_andn2" : "s_and"),
         {ExecD(), ExecU(), U(useP(Idx, In.PredReg))});
  }

  // Scalar (SGPR) forms of uniform integer operations.
  bool Scalar = false;
  for (unsigned Dd : OpDefs[Idx])
    if (Defs[Dd].Reg < PredBase && WebScalar[find(Dd)])
      Scalar = true;
  if (Scalar && lowerScalarALU(Idx))
    return finish();
  if (isMemoryAccess(Op))
    return lowerMemory(Idx);
  if (In.desc().Class == InstClass::Wave)
    return lowerWaveOp(Idx);
  if (isMMA(Op))
    return lowerMMA(Idx);
  return lowerALU(Idx);
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
  if (NeedTid) {
    TidV = F.newVReg(RegClass::V32, 0);
    if (yzFixedOne()) // x alone, below the fixed size x (AMDGPUUsage)
      F.VRegs[TidV].InputBits =
          uint8_t(32 - countl_zero(K.WorkgroupSize[0] - 1));
  }
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
  // Local memory is zero at the start of each workgroup (formats/isa.md §4.1):
  // every wave clears all of it, then a barrier; unless the kernel writes
  // every byte before it reads any (localWrittenBeforeRead).
  uint32_t LocalSize =
      K.LocalMemorySize ? K.LocalMemorySize : (UsesLocal ? DefaultLocalMemory : 0);
  if (LocalSize > T.MaxLDSBytes)
    return err(K.Name, 0, "local memory of " + Twine(LocalSize) +
                              " bytes exceeds the " + Twine(T.MaxLDSBytes) +
                              " bytes of LDS a workgroup has on " + T.Name);
  // A fixed workgroup size is the kernel's reqd_workgroup_size and bounds its
  // max_flat_workgroup_size, which AMDGPUUsage ("amdgpu-flat-work-group-size")
  // limits to 1024 work-items on every target.
  if (K.WorkgroupSize[0] > 0) {
    constexpr uint64_t MaxFlatWorkgroupSize = 1024;
    uint64_t Items = uint64_t(K.WorkgroupSize[0]) *
                     std::max(K.WorkgroupSize[1], 1u) *
                     std::max(K.WorkgroupSize[2], 1u);
    if (Items > MaxFlatWorkgroupSize)
      return err(K.Name, 0,
                 "workgroup size " + Twine(K.WorkgroupSize[0]) + " x " +
                     Twine(std::max(K.WorkgroupSize[1], 1u)) + " x " +
                     Twine(std::max(K.WorkgroupSize[2], 1u)) + " (" +
                     Twine(Items) + " work-items) exceeds the " +
                     Twine(MaxFlatWorkgroupSize) +
                     " work-items of a workgroup on " + T.Name);
  }
  bool ClearLocal = UsesLocal && LocalSize && !localWrittenBeforeRead(LocalSize);
  LocalSize = (LocalSize + 15) & ~15u;
  Desc.GroupSegmentSize = LocalSize;
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
  // read (formats/isa.md §4.14), and the local memory clear covers all of it.
  bool VectorInitial = false;
  for (unsigned R = 0; R < PredBase; ++R)
    VectorInitial |= EntryObserved[R] && !isS(vregOfWeb(find(R)));
  // (Where every wave starts with all of its lanes, EXEC already is.)
  uint32_t SavedExec = 0;
  if (!WavesFull && (VectorInitial || NeedsLaneId || ClearLocal)) {
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
  // MMA fragments start as zeros (formats/isa.md §4.18). A, B and C are
  // three tables: fragment 1 of A is not fragment 1 of C. An A or B
  // fragment that every mma_compute reads after an unpredicated load of it
  // in its own region or one around it (every lane active at the compute
  // was active at the load) needs no zeros.
  // One pass: the regions each fragment has been loaded in so far, and the
  // A and B fragments some compute may read before such a load.
  DenseMap<unsigned, SmallVector<int, 2>> LoadedIn;
  DenseSet<unsigned> ReadBeforeLoad;
  for (const WOp &O : Ops) {
    if (O.Kind != WOpKind::Inst)
      continue;
    if ((O.I.Op == Opcode::MmaLoadA || O.I.Op == Opcode::MmaLoadB) &&
        !O.I.isPredicated()) {
      auto &Rs = LoadedIn[fragKey(O.I.Op == Opcode::MmaLoadA ? FragA : FragB,
                                  O.I.Rd)];
      if (!is_contained(Rs, O.Region))
        Rs.push_back(O.Region);
    } else if (O.I.Op == Opcode::MmaCompute) {
      for (unsigned Key : {fragKey(FragA, O.I.Rd), fragKey(FragB, O.I.Rs1)}) {
        auto It = LoadedIn.find(Key);
        bool Loaded = false;
        for (int R = O.Region; It != LoadedIn.end(); R = Regions[R].Parent) {
          Loaded = is_contained(It->second, R);
          if (Loaded || R < 0)
            break;
        }
        if (!Loaded)
          ReadBeforeLoad.insert(Key);
      }
    }
  }
  for (const WOp &O : Ops) {
    SmallVector<unsigned, 3> Keys;
    if (O.I.Op == Opcode::MmaLoadA)
      Keys.push_back(fragKey(FragA, O.I.Rd));
    else if (O.I.Op == Opcode::MmaLoadB)
      Keys.push_back(fragKey(FragB, O.I.Rd));
    else if (O.I.Op == Opcode::MmaStoreC)
      Keys.push_back(fragKey(FragC, O.I.Rs2));
    else if (O.I.Op == Opcode::MmaCompute)
      Keys = {fragKey(FragA, O.I.Rd), fragKey(FragB, O.I.Rs1),
              fragKey(FragC, O.I.Rs2)};
    for (unsigned Key : Keys)
      if (!Frags.count(Key)) {
        auto &Arr = Frags[Key];
        if (T.PackedF32) {
          auto &Pairs = FragPairs[Key];
          for (unsigned P = 0; P < 8; ++P)
            Pairs[P] = F.newVReg(RegClass::V64);
        }
        bool Zero = Key / 256 == FragC || ReadBeforeLoad.contains(Key);
        for (unsigned E = 0; E < 16; ++E) {
          Arr[E] = newV();
          if (T.PackedF32)
            TupleParts[Arr[E]] = {FragPairs[Key][E / 2], int8_t(E % 2)};
          if (Zero)
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

  std::vector<std::pair<size_t, size_t>> OpInsts(Ops.size());
  for (unsigned Idx = 0; Idx < Ops.size(); ++Idx) {
    size_t Begin = F.Insts.size();
    if (Error E = lowerOp(Idx))
      return E;
    OpInsts[Idx] = {Begin, F.Insts.size()};
  }
  label(EndLabel);
  emit("s_endpgm", {}).Kind = InstKind::Other;
  applyTupleParts();
  markMergingDefs(OpInsts);

  Desc.NumParams = NumParams;
  Desc.KernargSize = H + 24;
  Desc.UsesHidden = true;
  return Error::success();
}

void KernelLowering::markMergingDefs(
    ArrayRef<std::pair<size_t, size_t>> OpInsts) {
  for (unsigned Idx = 0; Idx < Ops.size(); ++Idx) {
    SmallVector<uint32_t, 4> Merging;
    for (unsigned D : OpDefs[Idx]) {
      if (!DefMerges[D] || Defs[D].Reg >= PredBase || WebScalar[find(D)])
        continue;
      auto It = WebVReg.find(find(D));
      if (It == WebVReg.end())
        continue;
      Merging.push_back(It->second);
      auto Part = TupleParts.find(It->second);
      if (Part != TupleParts.end())
        Merging.push_back(Part->second.first);
    }
    if (Merging.empty())
      continue;
    for (size_t I = OpInsts[Idx].first; I < OpInsts[Idx].second; ++I)
      for (MOperand &O : F.Insts[I].Ops)
        if (O.K == MOperand::VReg && O.IsDef && is_contained(Merging, O.Reg))
          O.IsUse = true;
  }
}

/// Whether every byte of local memory [0, \p Bytes) is written before any
/// lane can read one, so that the zeros of formats/isa.md §4.1 are never
/// seen and the prologue need not clear local memory: no local load or
/// atomic precedes the kernel's first barrier, which is unpredicated and at
/// the top level, and the unpredicated top-level stores before it (every
/// work-item of a fixed-size workgroup runs them: no halt or return comes
/// first) cover the range with addresses `A * sr_thread_id_x + C` the
/// straight-line code computes (mov_imm, mov, shl, iadd, imul, imad). A
/// kernel that never reads local memory needs no clear either.
bool KernelLowering::localWrittenBeforeRead(uint32_t Bytes) const {
  auto Reads = [](const WOp &O) {
    return O.Kind == WOpKind::Inst &&
           getAddressSpace(O.I.Op) == AddressSpace::Local && !isStore(O.I.Op);
  };
  if (llvm::none_of(Ops, Reads))
    return true;
  uint64_t Threads = K.WorkgroupSize[0];
  if (Threads == 0)
    return false;
  // Register values as A * sr_thread_id_x + C, where known.
  struct Affine {
    bool Known = false;
    int64_t A = 0, C = 0;
  };
  std::array<Affine, PredBase> Val{};
  auto Get = [&](unsigned R) { return R < PredBase ? Val[R] : Affine(); };
  auto Make = [](int64_t A, int64_t C) {
    // Only values that stay in [0, 2^31) for every thread id: no wrap.
    bool Ok = A >= 0 && C >= 0 && A < (int64_t(1) << 20) &&
              C < (int64_t(1) << 31);
    return Ok ? Affine{true, A, C} : Affine();
  };
  std::vector<std::pair<uint64_t, uint64_t>> Written; // [begin, end)
  for (unsigned Idx = 0; Idx < Ops.size(); ++Idx) {
    const WOp &O = Ops[Idx];
    if (O.Kind != WOpKind::Inst)
      return false;
    const Inst &In = O.I;
    bool Straight = O.Region < 0 && !In.isPredicated();
    if (In.Op == Opcode::Barrier) {
      if (!Straight)
        return false;
      break;
    }
    if (Reads(O) || In.Op == Opcode::Halt || In.Op == Opcode::Return)
      return false;
    if (Straight && In.Op != Opcode::MovImm &&
        getAddressSpace(In.Op) == AddressSpace::Local && isStore(In.Op)) {
      Affine Addr = Get(In.Rs1);
      uint64_t W = getAccessBytes(In.Op);
      if (Addr.Known && (Addr.A == 0 || uint64_t(Addr.A) == W))
        Written.push_back({uint64_t(Addr.C),
                           uint64_t(Addr.C) + W + uint64_t(Addr.A) *
                                                      (Threads - 1)});
    }
    Affine New;
    if (Straight) {
      Affine X = Get(In.Rs1), Y = Get(In.Rs2), Z = Get(In.Rs3);
      switch (In.Op) {
      case Opcode::MovImm:
        New = Make(0, int64_t(In.Word1));
        break;
      case Opcode::MovSr:
        if (In.Rs1 == 0) // sr_thread_id_x (formats/isa.md §3)
          New = Make(1, 0);
        break;
      case Opcode::Mov:
        New = X;
        break;
      case Opcode::Iadd:
        if (X.Known && Y.Known)
          New = Make(X.A + Y.A, X.C + Y.C);
        break;
      case Opcode::Shl:
        if (X.Known && Y.Known && Y.A == 0 && Y.C < 20)
          New = Make(X.A << Y.C, X.C << Y.C);
        break;
      case Opcode::Imul:
      case Opcode::Imad: {
        if (!X.Known || !Y.Known || (X.A != 0 && Y.A != 0) ||
            X.C >= (1 << 20) || Y.C >= (1 << 20))
          break;
        Affine P = Make(X.A * Y.C + Y.A * X.C, X.C * Y.C);
        if (In.Op == Opcode::Imul)
          New = P;
        else if (P.Known && Z.Known)
          New = Make(P.A + Z.A, P.C + Z.C);
        break;
      }
      default:
        break;
      }
    }
    for (unsigned D : OpDefs[Idx])
      if (Defs[D].Reg < PredBase)
        Val[Defs[D].Reg] = Affine();
    if (New.Known)
      Val[In.Rd] = New;
  }
  // Did the stores before the barrier cover [0, Bytes)?
  llvm::sort(Written);
  uint64_t Covered = 0;
  for (auto [Begin, End] : Written)
    if (Begin <= Covered)
      Covered = std::max(Covered, End);
  return Covered >= Bytes;
}

Error KernelLowering::run(KernelDesc &Desc) {
  if (Error E = flatten())
    return E;
  if (Error E = structure())
    return E;
  reachingDefs();
  buildWebs();
  uint64_t GroupLanes = uint64_t(K.WorkgroupSize[0]) * K.WorkgroupSize[1] *
                        K.WorkgroupSize[2];
  WavesFull = GroupLanes > 0 && GroupLanes % T.WaveSize == 0 &&
              llvm::none_of(Ops, [](const WOp &O) {
                return O.Kind == WOpKind::Inst && O.I.Op == Opcode::Halt &&
                       (O.I.isPredicated() || O.Region >= 0);
              });
  uniformity();
  if (Error E = lower(Desc))
    return E;
  return Error::success();
}

} // namespace detail

GCNOp lookupGCNOp(StringRef Spelling) {
  static const StringMap<GCNOp> Map = [] {
    StringMap<GCNOp> M;
    for (size_t I = 1; I < size_t(GCNOp::NumOps); ++I)
      M[GCNOpTable[I].Spelling] = GCNOp(I);
    return M;
  }();
  auto It = Map.find(Spelling);
  return It == Map.end() ? GCNOp::None : It->second;
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
    detail::KernelLowering L(File, K, *Opts.Target, Opts.Comments);
    KernelDesc Desc;
    Desc.Info = &K;
    if (Error E = L.run(Desc))
      return std::move(E);
    for (MInst &MI : L.F.Insts)
      if (MI.has(OF_Atomic) && !MI.Ops.empty() && MI.Ops[0].IsDef)
        MI.Kind = InstKind::VMEMLoad;
    runPeephole(L.F);
    if (runRangeFold(L.F))
      runPeephole(L.F);
    // Before fusion, which would merge the add into a shift instead.
    runDSOffsetFold(L.F);
    // Fusion first: CSE would give a shared intermediate (a shift both
    // sides of a loop) uses in two blocks, which fusion leaves alone.
    runFusion(L.F);
    runCSE(L.F);
    runFusion(L.F);
    runLICM(L.F);
    runPackF32(L.F);
    runSCCFold(L.F);
    runKernargMerge(L.F);
    detail::legalizeConstantBus(L.F);
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
