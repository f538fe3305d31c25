//===- InstPrinter.cpp - One WAVE instruction as assembly text ------------===//
//
// The operand list comes from the instruction's form (Forms.def); the only
// per-opcode knowledge is the `mov_sr` spelling of formats/isa.md §2.16.
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

void printInst(const Inst &I, raw_ostream &OS) {
  if (I.isPredicated())
    OS << (I.PredNeg ? "@!p" : "@p") << unsigned(I.PredReg) << ' ';
  OS << (I.Op == Opcode::MovSr ? StringRef("mov")
                               : StringRef(I.desc().Mnemonic));
  const FormDesc &F = I.form();
  bool First = true;
  for (unsigned K = 0; K != F.NumOperands; ++K) {
    const OperandDesc &O = F.Operands[K];
    uint32_t V = I.getField(O.Fld);
    // Non-returning atomics: rd == 0 (formats/isa.md §2.11).
    if (K == 0 && F.OptionalDest && V == 0)
      continue;
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
      StringRef Name = getSpecialRegName(V);
      if (Name.empty())
        OS << "sr_" << V;
      else
        OS << Name;
      break;
    }
    case OperandKind::Imm:
      if (V <= 9)
        OS << V;
      else
        OS << format("0x%X", V);
      break;
    case OperandKind::Scope:
      OS << '.' << getScopeName(V);
      break;
    case OperandKind::Label:
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
