//===- LowerMemory.cpp - Loads, stores and atomics ------------------------===//
//
// Lowering of WAVE memory accesses (formats/isa.md §4.12, §4.13): local memory
// to LDS (ds_*), device memory to global_* with the buffer base in SGPRs and a
// 32-bit offset in a VGPR. Wide accesses are 32-bit pieces, except device loads
// whose destination webs can live in one register tuple
// (global_load_dwordx2/x4; loadsIntoTuple, applyTupleParts).
//
//===----------------------------------------------------------------------===//

#include "Lowering.h"

using namespace llvm;

namespace wave::amdgcn::detail {

/// The AMDGCN instruction of one 8-, 16- or 32-bit piece of a WAVE load or
/// store (wider accesses are several 32-bit pieces).
static const char *memMnemonic(Opcode Op) {
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
  bool Local = getAddressSpace(Op) == AddressSpace::Local;
  if (isLoad(Op))
    return Local ? "ds_read_b32" : "global_load_dword";
  return Local ? "ds_write_b32" : "global_store_dword";
}

/// Loads, stores and atomics, local and device (formats/isa.md §4.12, §4.13).
Error KernelLowering::lowerMemory(unsigned Idx) {
  const Inst &In = Ops[Idx].I;
  Opcode Op = In.Op;
  // --- Memory (formats/isa.md §4.12): device = base + 32-bit offset. Accesses
  // wider than 32 bits are split into dwords at offsets 4, 8 and 12, which
  // needs no alignment and writes the registers' webs directly.
  bool Load = isLoad(Op), Store = isStore(Op);
  bool Device = getAddressSpace(Op) == AddressSpace::Device;
  if (Load || Store) {
    uint32_t Addr = vaddr(Idx, In.Rs1);
    if (Load && Device && loadsIntoTuple(Idx)) {
      unsigned N = memRegs(Op);
      uint32_t Tuple = F.newVReg(N == 4 ? RegClass::V128 : RegClass::V64);
      emit(N == 4 ? "global_load_dwordx4" : "global_load_dwordx2",
           {D(Tuple), U(Addr), U(Base)});
      for (unsigned K2 = 0; K2 < N; ++K2)
        TupleParts[def(Idx, In.Rd + K2)] = {Tuple, int8_t(K2)};
      return finish();
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
    return finish();
  }
  // The modifier of an atomic is its operation (formats/isa.md §2.11).
  if (isAtomic(Op) && Device) {
    static const char *Names[] = {
        "global_atomic_add", "global_atomic_sub", "global_atomic_umin",
        "global_atomic_umax", "global_atomic_and", "global_atomic_or",
        "global_atomic_xor", "global_atomic_swap", "global_atomic_cmpswap"};
    unsigned K2 = unsigned(In.desc().Mod);
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
    return finish();
  }
  if (isAtomic(Op)) {
    static const char *Names[] = {"ds_add",    "ds_sub",   "ds_min",
                                  "ds_max",    "ds_and",   "ds_or",
                                  "ds_xor",    "ds_wrxchg", ""};
    static const char *Sfx[] = {"_u32", "_u32", "_u32", "_u32", "_b32",
                                "_b32", "_b32", "_b32", ""};
    unsigned K2 = unsigned(In.desc().Mod);
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
    return finish();
  }
  return unsupported(In.desc().Mnemonic);
}

/// Whether the 64- or 128-bit device load at op \p Idx may write one
/// register tuple (global_load_dwordx2/x4) that its destination webs then
/// live in: each destination register exists and its web has this load as
/// its only definition, so no other write needs the web elsewhere. Device
/// accesses need no alignment (formats/isa.md §4.12; ROCm runs these targets in
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

} // namespace wave::amdgcn::detail
