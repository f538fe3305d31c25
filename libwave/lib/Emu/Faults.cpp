//===- Faults.cpp - Instruction text, run faults and --trace lines --------===//
//
// The text of a decoded instruction (EmulatorImpl::instText), and the
// workgroup runner's faults and --trace output. These are out of line and
// take only plain arguments, so that the multiversioned execution loop
// (Interpreter.cpp) needs no string code.
//
//===----------------------------------------------------------------------===//
#include "EmulatorImpl.h"

#include "wave/ISA/InstPrinter.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"

#include <string>

using namespace llvm;

namespace wave::emu {

//===----------------------------------------------------------------------===//
// Instruction text (for faults and --trace)
//===----------------------------------------------------------------------===//

std::string EmulatorImpl::instText(uint32_t Idx, bool RefTrace) const {
  const DInst &I = Code[Idx];
  if (I.Op == OpEnd)
    return "end of kernel";
  if (I.Op == OpInvalid)
    return formatv("word {0:x8}", I.Imm).str();
  std::string S;
  raw_string_ostream OS(S);
  printInst(Orig[Idx], OS,
            RefTrace ? InstSyntax::ReferenceTrace : InstSyntax::Assembly);
  return S;
}

std::string WorkgroupRunner::where(const Wave &Wv, const DInst &I,
                                   int Lane) const {
  std::string S;
  raw_string_ostream OS(S);
  OS << "at pc " << format("0x%04x", I.PC) << " ("
     << E.instText(uint32_t(&I - Code.data())) << "), workgroup (" << WgId[0]
     << ',' << WgId[1] << ',' << WgId[2] << ") wave " << Wv.Id;
  if (Lane >= 0)
    OS << " lane " << Lane;
  return S;
}

bool WorkgroupRunner::fault(const Wave &Wv, const DInst &I, int Lane,
                         const char *What, const char *Detail) {
  std::string Msg = "kernel '" + Name + "': " + What + " " + where(Wv, I, Lane);
  if (Detail && *Detail)
    Msg += std::string(": ") + Detail;
  Fault.emplace(EmuErrorKind::Fault, std::move(Msg), I.PC);
  return false;
}

bool WorkgroupRunner::callTargetFault(const Wave &Wv, const DInst &I) {
  std::string D = "offset " + std::to_string(E.Orig[&I - Code.data()].Word1) +
                  " is not an instruction boundary of the kernel";
  return fault(Wv, I, -1, "invalid call target", D.c_str());
}

bool WorkgroupRunner::pastEndFault(const Wave &Wv, const DInst &I) {
  std::string Msg;
  raw_string_ostream OS(Msg);
  OS << "kernel '" << Name << "': workgroup (" << WgId[0] << ',' << WgId[1]
     << ',' << WgId[2] << ") wave " << Wv.Id << " ran past the end of kernel '"
     << Name << "' (pc " << format("0x%04x", I.PC)
     << "; a kernel must end in halt)";
  Fault.emplace(EmuErrorKind::Fault, std::move(Msg));
  return false;
}

bool WorkgroupRunner::deadlockFault() {
  std::string Msg;
  raw_string_ostream OS(Msg);
  OS << "kernel '" << Name << "': deadlock detected: workgroup (" << WgId[0]
     << ',' << WgId[1] << ',' << WgId[2]
     << ") deadlocked - waves waiting at different barriers (";
  for (unsigned K = 0; K != NumWaves; ++K) {
    const Wave &X = Waves[K];
    OS << (K ? ", " : "") << "wave " << K;
    if (X.St == WaveStatus::Halted)
      OS << " halted";
    else
      OS << " at barrier pc " << format("0x%04x", Code[X.PC].PC);
  }
  OS << ")";
  Fault.emplace(EmuErrorKind::Fault, std::move(Msg));
  return false;
}

bool WorkgroupRunner::limitFault(uint64_t Steps, const DInst &I) {
  std::string Msg;
  raw_string_ostream OS(Msg);
  // The reference's text (formats/isa.md §4.20), then where, as faults say.
  OS << "instruction limit exceeded: " << Steps
     << " instructions (limit: " << Cfg.MaxInstructions << ") at PC "
     << format("0x%08x", I.PC) << " in kernel '" << Name << "', workgroup ("
     << WgId[0] << ',' << WgId[1] << ',' << WgId[2] << ")";
  Fault.emplace(EmuErrorKind::Limit, std::move(Msg), I.PC);
  return false;
}

void WorkgroupRunner::traceStep(const Wave &Wv, uint32_t Idx) {
  *Trace << "wg(" << WgId[0] << ',' << WgId[1] << ',' << WgId[2] << ") wave["
         << Wv.Id << "] pc=" << format("0x%04x", Code[Idx].PC) << ": "
         << E.instText(Idx, /*RefTrace=*/true) << "\n";
}

void WorkgroupRunner::traceBreak(uint64_t Old, uint64_t Pred, unsigned Reg,
                              uint64_t New) {
  *Trace << "  BREAK: active_mask=" << format("0x%llx", (unsigned long long)Old)
         << ", pred_mask=" << format("0x%llx", (unsigned long long)Pred)
         << ", pred_reg=p" << Reg << "\n"
         << "  BREAK: new_active_mask="
         << format("0x%llx", (unsigned long long)New) << ", jump=None\n";
}

void WorkgroupRunner::traceEndloop(uint64_t Old, uint64_t New, bool Jump,
                                uint32_t Target) {
  *Trace << "  ENDLOOP: active_mask="
         << format("0x%llx", (unsigned long long)Old)
         << "\n  ENDLOOP: new_active_mask="
         << format("0x%llx", (unsigned long long)New) << ", jump=";
  if (Jump)
    *Trace << "Some(" << Code[Target].PC << ")\n";
  else
    *Trace << "None\n";
}

bool WorkgroupRunner::memFault(const Wave &Wv, const DInst &I, int Lane,
                            bool IsLocal, uint64_t Addr, unsigned N) {
  std::string D;
  raw_string_ostream OS(D);
  OS << "address " << format("0x%08llx", (unsigned long long)Addr) << ", " << N
     << (N == 1 ? " byte, " : " bytes, ")
     << (IsLocal ? "local memory is " : "device memory is ")
     << (IsLocal ? Local.size() : E.Device.size()) << " bytes";
  return fault(Wv, I, Lane, "memory access out of bounds", D.c_str());
}

} // namespace wave::emu
