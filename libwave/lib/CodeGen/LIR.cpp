//===- LIR.cpp - LIR operand queries and printing -------------------------===//
//
// Operand roles come from the instruction forms of Forms.def (formats/isa.md
// §2), so that the allocator, the printer and the assembler agree on which
// operand an instruction writes.
//
//===----------------------------------------------------------------------===//
#include "wave/CodeGen/LIR.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace wave::codegen {

/// Form operand index of LIR operand \p Idx: a non-returning atomic omits
/// its optional destination, shifting every operand by one.
static unsigned formIndex(const LInst &I, unsigned Idx) {
  const FormDesc &FD = getFormDesc(getInstDesc(I.Op).InstForm);
  if (FD.OptionalDest && I.Ops.size() + 1 == FD.NumOperands)
    return Idx + 1;
  return Idx;
}

bool isDefOperand(const LInst &I, unsigned Idx) {
  if (Idx >= I.Ops.size() || !I.Ops[Idx].isReg())
    return false;
  if (I.Pseudo != LPseudo::None)
    return Idx == 0;
  if (I.Op == Opcode::Call) // {label, results..., arguments...} (LInst)
    return Idx >= 1 && Idx <= I.CallResults;
  // mma_store_c: W0.rd holds the address (formats/isa.md §2.15).
  if (I.Op == Opcode::MmaStoreC)
    return false;
  unsigned FI = formIndex(I, Idx);
  const FormDesc &FD = getFormDesc(getInstDesc(I.Op).InstForm);
  if (FI >= FD.NumOperands)
    return false;
  const OperandDesc &OD = FD.Operands[FI];
  return FI == 0 && OD.Fld == Field::Rd &&
         (OD.Kind == OperandKind::Reg || OD.Kind == OperandKind::Pred);
}

bool writesVReg(const LInst &I, unsigned VReg) {
  for (unsigned Idx = 0; Idx != I.Ops.size(); ++Idx)
    if (I.Ops[Idx].isReg() && I.Ops[Idx].V == VReg && isDefOperand(I, Idx))
      return true;
  return false;
}

unsigned operandWidth(const LInst &I, unsigned Idx,
                      ArrayRef<VRegInfo> VRegs) {
  if (Idx >= I.Ops.size() || !I.Ops[Idx].isReg())
    return 0;
  if (I.Pseudo == LPseudo::Copy ||
      (I.Pseudo == LPseudo::None && I.Op == Opcode::Call))
    return VRegs[I.Ops[Idx].V].Size;
  if (I.Pseudo != LPseudo::None)
    return 1;
  // f64 pairs and the values of 64- and 128-bit loads and stores
  // (Opcodes.def columns Dst and Src).
  unsigned FI = formIndex(I, Idx);
  const FormDesc &FD = getFormDesc(getInstDesc(I.Op).InstForm);
  if (FI >= FD.NumOperands)
    return 1;
  return std::max(getOperandRegs(I.Op, FD.Operands[FI].Fld), 1u);
}

namespace {

/// Prints registers and whole instructions of one function.
class LPrinter {
public:
  LPrinter(const LFunction &F, raw_ostream &OS, bool Virtual,
           ArrayRef<std::string> FuncNames)
      : F(F), OS(OS), Virtual(Virtual || !F.isAllocated()),
        FuncNames(FuncNames) {}

  /// Prints \p I at \p Indent (no trailing newline handling for empty
  /// expansions: returns false when nothing was printed).
  bool print(const LInst &I, unsigned Indent);

private:
  void reg(const LOperand &Op, unsigned Width);
  void physReg(RegClass C, int Reg) { OS << (C == RegClass::Pred ? 'p' : 'r') << Reg; }
  void operand(const LInst &I, unsigned Idx);
  void comment(const LInst &I);
  void line(unsigned Indent) { OS.indent(2 * Indent); }
  bool printCopy(const LInst &I, unsigned Indent);

  const LFunction &F;
  raw_ostream &OS;
  bool Virtual;
  ArrayRef<std::string> FuncNames;
};

} // namespace

void LPrinter::reg(const LOperand &Op, unsigned Width) {
  const VRegInfo &VI = F.VRegs[Op.V];
  if (Virtual) {
    OS << '%' << (VI.Class == RegClass::Pred ? 'p' : 'r') << Op.V;
    if (VI.Size > 1)
      OS << (Width > 1 ? ":2" : Op.Sub ? ".hi" : ".lo");
    return;
  }
  physReg(VI.Class, F.Assignment[Op.V] + Op.Sub);
}

void LPrinter::operand(const LInst &I, unsigned Idx) {
  const LOperand &Op = I.Ops[Idx];
  switch (Op.K) {
  case LOperand::Kind::None:
    break;
  case LOperand::Kind::Reg:
    reg(Op, operandWidth(I, Idx, F.VRegs));
    break;
  case LOperand::Kind::Imm:
    if (Op.V < 65536)
      OS << Op.V;
    else
      OS << format("0x%08X", Op.V);
    break;
  case LOperand::Kind::Special:
    OS << getSpecialRegName(Op.V);
    break;
  case LOperand::Kind::Scope:
    OS << '.' << getScopeName(Op.V);
    break;
  case LOperand::Kind::Label:
    if (Op.V < FuncNames.size())
      OS << FuncNames[Op.V];
    else if (FuncNames.empty() && Op.V < F.Callees.size())
      OS << F.Callees[Op.V];
    else
      OS << "func" << Op.V;
    break;
  case LOperand::Kind::Frag:
    OS << 'r' << Op.V;
    break;
  }
}

void LPrinter::comment(const LInst &I) {
  if (!I.Comment.empty())
    OS << "  ; " << I.Comment;
  OS << '\n';
}

bool LPrinter::printCopy(const LInst &I, unsigned Indent) {
  const LOperand &D = I.Ops[0], &S = I.Ops[1];
  const VRegInfo &VI = F.VRegs[D.V];
  int DR = F.Assignment[D.V] + D.Sub, SR = F.Assignment[S.V] + S.Sub;
  if (DR == SR)
    return false;
  if (VI.Class == RegClass::Pred) {
    // No predicate move exists: set the destination under each half of the
    // source (formats/isa.md §2.13, §4.15).
    line(Indent);
    OS << "if p" << SR;
    comment(I);
    line(Indent + 1);
    OS << "icmp_eq p" << DR << ", r0, r0\n";
    line(Indent);
    OS << "else\n";
    line(Indent + 1);
    OS << "icmp_ne p" << DR << ", r0, r0\n";
    line(Indent);
    OS << "endif\n";
    return true;
  }
  unsigned Width = VI.Size;
  // Order the word moves so that an overlapping pair copy reads each source
  // register before it is overwritten.
  bool Backward = DR > SR;
  for (unsigned K = 0; K != Width; ++K) {
    unsigned W = Backward ? Width - 1 - K : K;
    line(Indent);
    OS << "mov r" << DR + W << ", r" << SR + W;
    if (K == 0)
      comment(I);
    else
      OS << '\n';
  }
  return true;
}

bool LPrinter::print(const LInst &I, unsigned Indent) {
  if (I.Pseudo == LPseudo::Copy && !Virtual)
    return printCopy(I, Indent);
  line(Indent);
  if (I.Pseudo == LPseudo::PSet && !Virtual) {
    OS << (I.Ops[1].V ? "icmp_eq " : "icmp_ne ");
    operand(I, 0);
    OS << ", r0, r0";
    comment(I);
    return true;
  }
  if (I.Pseudo == LPseudo::Copy)
    OS << "copy";
  else if (I.Pseudo == LPseudo::PSet)
    OS << "pset";
  else
    OS << getInstDesc(I.Op).Mnemonic;
  // After allocation a call's slot registers are implicit: r(B)...
  // (formats/wave-asm.md §9).
  unsigned NumOps = I.Ops.size();
  if (!Virtual && I.Pseudo == LPseudo::None && I.Op == Opcode::Call)
    NumOps = std::min(NumOps, 1u);
  for (unsigned Idx = 0; Idx != NumOps; ++Idx) {
    OS << (Idx ? ", " : " ");
    operand(I, Idx);
  }
  comment(I);
  return true;
}

/// Change of structured-control-flow depth before / after \p I.
static void depthChange(const LInst &I, int &Before, int &After) {
  Before = After = 0;
  if (I.Pseudo != LPseudo::None)
    return;
  switch (I.Op) {
  case Opcode::If:
  case Opcode::Loop:
    After = 1;
    break;
  case Opcode::Else:
    Before = -1;
    After = 1;
    break;
  case Opcode::Endif:
  case Opcode::Endloop:
    Before = -1;
    break;
  default:
    break;
  }
}

void emitLinearThreadId(std::vector<LInst> &Out, unsigned Dst,
                        const std::array<uint32_t, 3> &WG,
                        function_ref<unsigned()> NewTemp, StringRef Comment) {
  // Special registers sr_thread_id_x/y/z (SpecialRegs.def).
  static constexpr unsigned SrThreadId[3] = {0, 1, 2};
  bool Started = false;
  for (int D = 2; D >= 0; --D) {
    if (WG[D] <= 1 && !(D == 0 && !Started))
      continue;
    if (!Started) {
      Out.push_back(LInst::make(
          Opcode::MovSr, {LOperand::reg(Dst), LOperand::special(SrThreadId[D])},
          Comment));
      Started = true;
      continue;
    }
    // Dst = Dst * WG[D] + tid_D.
    unsigned T = NewTemp();
    Out.push_back(
        LInst::make(Opcode::MovImm, {LOperand::reg(T), LOperand::imm(WG[D])}));
    Out.push_back(
        LInst::make(Opcode::Imul, {LOperand::reg(Dst), LOperand::reg(Dst),
                                   LOperand::reg(T)}));
    unsigned S = NewTemp();
    Out.push_back(LInst::make(
        Opcode::MovSr, {LOperand::reg(S), LOperand::special(SrThreadId[D])}));
    Out.push_back(
        LInst::make(Opcode::Iadd, {LOperand::reg(Dst), LOperand::reg(Dst),
                                   LOperand::reg(S)}));
  }
}

void printLInst(const LFunction &F, const LInst &I, raw_ostream &OS,
                bool Virtual, ArrayRef<std::string> FuncNames) {
  LPrinter(F, OS, Virtual, FuncNames).print(I, 0);
}

void printLFunction(const LFunction &F, raw_ostream &OS, bool Virtual,
                    ArrayRef<std::string> FuncNames) {
  bool Phys = !Virtual && F.isAllocated();
  // A device function is visible to other objects (`.global`) and called
  // with the ABI of formats/wave-asm.md §9.
  if (F.IsKernel)
    OS << ".kernel " << F.Name << '\n';
  else
    OS << ".global " << F.Name << "\n.func " << F.Name << '\n';
  if (Phys)
    OS << ".registers " << F.RegistersUsed << '\n';
  if (Phys && !F.Callees.empty())
    OS << ".call_base " << F.CallBase << '\n';
  if (F.WorkgroupSize)
    OS << ".workgroup_size " << (*F.WorkgroupSize)[0] << ", "
       << (*F.WorkgroupSize)[1] << ", " << (*F.WorkgroupSize)[2] << '\n';
  if (F.LocalMemory)
    OS << ".local_memory " << F.LocalMemory << '\n';
  for (const std::string &P : F.ParamLines)
    OS << ".param " << P << '\n';
  if (!Phys && F.NumParams) {
    OS << "; parameters:";
    for (unsigned P = 0; P != F.NumParams; ++P)
      OS << (P ? ", " : " ") << "%r" << P << " = r" << P
         << (F.VRegs[P].Name.empty() ? "" : " (%" + F.VRegs[P].Name + ")");
    OS << '\n';
  }
  std::string Line;
  raw_string_ostream LineOS(Line);
  LPrinter P(F, LineOS, Virtual, FuncNames);
  int Depth = 1;
  // The source position printed last; an instruction without one (Line 0:
  // allocator and structurizer code) keeps it.
  uint32_t CurLine = 0, CurCol = 0;
  for (const LInst &I : F.Insts) {
    int Before, After;
    depthChange(I, Before, After);
    Depth = std::max(1, Depth + Before);
    Line.clear();
    P.print(I, unsigned(Depth));
    Depth += After;
    if (Line.empty())
      continue; // a copy between identical registers prints nothing
    if (F.EmitLocs && I.Line && (I.Line != CurLine || I.Col != CurCol)) {
      OS << ".loc 1 " << I.Line << ' ' << I.Col << '\n';
      CurLine = I.Line;
      CurCol = I.Col;
    }
    OS << Line;
  }
  OS << ".end\n";
}

} // namespace wave::codegen
