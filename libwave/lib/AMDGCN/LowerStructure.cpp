//===- LowerStructure.cpp - Flatten and structure -------------------------===//
//
// Step 1 of the lowering: flatten() decodes a kernel and inlines its
// `call`s (WAVE has no stack, so a call is a jump whose callee's body can be
// copied), marking the inlined calls (WOpKind); structure() checks that the
// control flow is structured (formats/isa.md §4.15) and builds its regions (the
// then- and else-parts of an `if`, loop bodies) and control frames.
//
//===----------------------------------------------------------------------===//

#include "Lowering.h"

using namespace llvm;

namespace wave::amdgcn::detail {

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
        // when it gets here (formats/isa.md §4.16, "stack overflow: call").
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
    if (getAddressSpace(O.I.Op) == AddressSpace::Local)
      UsesLocal = true;
    if (getAddressSpace(O.I.Op) == AddressSpace::Device)
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
    default:
      break;
    }
    if (isWholeWaveOp(O))
      for (int R = Cur; R >= 0; R = Regions[R].Parent)
        Regions[R].HasWholeWaveOp = true;
    if (O.I.Op == Opcode::If || O.I.Op == Opcode::Loop)
      O.Region = Cur;
  }
  if (!RStack.empty())
    return err(K.Name, Ops.back().PC, "unterminated if or loop");
  return Error::success();
}

} // namespace wave::amdgcn::detail
