//===- InstPrinter.cpp - One WAVE instruction as assembly text ------------===//
//
// The operand list comes from the instruction's form (Forms.def); the only
// per-opcode knowledge is the `mov_sr` spelling of formats/isa.md §2.16 and
// the reference trace's three quirks (formats/isa.md §7.4).
//
//===----------------------------------------------------------------------===//
#include "wave/ISA/InstPrinter.h"

#include "llvm/Support/Format.h"

using namespace llvm;

namespace wave {

std::string getLocLabel(uint32_t Offset) {
  std::string S;
  raw_string_ostream OS(S);
  OS << "loc_" << format_hex_no_prefix(Offset, 4, /*Upper=*/true);
  return S;
}

/// The reference emulator prints the f16, bf16 and f64 arithmetic ops
/// (primary opcodes 0x1C-0x1F, 0x2D, 0x2E) with its generic four-register
/// form, the fourth only when it is not r0 (formats/isa.md §7.4).
static bool traceAsRegisterQuad(const Inst &I) {
  switch (I.desc().PrimaryOpcode) {
  case 0x1C: case 0x1D: case 0x1E: case 0x1F: case 0x2D: case 0x2E:
    return true;
  default:
    return false;
  }
}

void printInst(const Inst &I, raw_ostream &OS, InstSyntax Syntax) {
  bool Trace = Syntax == InstSyntax::ReferenceTrace;
  if (I.isPredicated())
    OS << (I.PredNeg ? "@!p" : "@p") << unsigned(I.PredReg) << ' ';
  OS << (I.Op == Opcode::MovSr ? StringRef("mov")
                               : StringRef(I.desc().Mnemonic));
  if (Trace) { // the reference printer's own cases (formats/isa.md §7.4)
    if (I.desc().PrimaryOpcode == 0x27)
      return; // bit-field ops: the mnemonic only
    if (I.Op == Opcode::Dsqrt) {
      OS << " r" << unsigned(I.Rd) << ", r" << unsigned(I.Rs1) << ", r0";
      return;
    }
    if (traceAsRegisterQuad(I)) {
      OS << " r" << unsigned(I.Rd) << ", r" << unsigned(I.Rs1) << ", r"
         << unsigned(I.Rs2);
      if (I.Rs3)
        OS << ", r" << unsigned(I.Rs3);
      return;
    }
  }
  const FormDesc &F = I.form();
  bool First = true;
  for (unsigned K = 0; K != F.NumOperands; ++K) {
    const OperandDesc &O = F.Operands[K];
    uint32_t V = I.getField(O.Fld);
    // Non-returning atomics: rd == 0 (formats/isa.md §2.11).
    if (K == 0 && F.OptionalDest && V == 0)
      continue;
    if (Trace && O.Kind == OperandKind::Scope)
      continue; // the trace prints atomics and fences without their scope
    OS << (First ? " " : ", ");
    First = false;
    switch (O.Kind) {
    case OperandKind::Reg:
    case OperandKind::Frag:
      OS << 'r' << V;
      break;
    case OperandKind::Pred:
      OS << 'p' << V;
      break;
    case OperandKind::Special: {
      StringRef Name = Trace ? StringRef() : getSpecialRegName(V);
      if (Name.empty())
        OS << "sr_" << V;
      else
        OS << Name;
      break;
    }
    case OperandKind::Imm:
      if (Trace)
        OS << format("0x%08x", V);
      else if (V <= 9)
        OS << V;
      else
        OS << format("0x%X", V);
      break;
    case OperandKind::Scope:
      OS << '.' << getScopeName(V);
      break;
    case OperandKind::Label:
      if (Trace)
        OS << format("0x%08x", V);
      else
        OS << getLocLabel(V);
      break;
    case OperandKind::None:
      break;
    }
  }
}

std::string formatInst(const Inst &I) {
  std::string S;
  raw_string_ostream OS(S);
  printInst(I, OS);
  return S;
}

} // namespace wave
