//===- wave-ra.cpp - MIR to WAVE assembly ---------------------------------===//
//
// wave-ra [--max-registers N] [--emit=lir|asm] [--print-interference]
//         [--stats] [-o FILE] [FILE|-]
// reads MIR text (formats/mir.md), verifies it, and writes WAVE assembly
// (formats/wave-asm.md) that wave-as accepts: instruction selection,
// structurization and Chaitin-Briggs register allocation live in libwave's
// CodeGen area (wave/CodeGen/CodeGen.h). Exit codes: 0 ok, 1 bad input
// (syntax, verifier, unsupported operation, irreducible control flow, too
// few registers), 2 usage or I/O error.
//
//===----------------------------------------------------------------------===//
#include "wave/CodeGen/CodeGen.h"
#include "wave/IR/MIRParser.h"
#include "wave/IR/Verifier.h"
#include "wave/Support/SourceDiagnostic.h"
#include "wave/Tool/Tool.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

using namespace wave;
using namespace wave::codegen;
using namespace wave::tool;

static constexpr const char *ToolName = "wave-ra";

/// Writes the --stats report of every kernel to \p OS.
static void printStats(llvm::ArrayRef<KernelReport> Reports,
                       unsigned MaxRegisters, llvm::raw_ostream &OS) {
  for (const KernelReport &R : Reports) {
    const RegAllocStats &S = R.Stats;
    OS << "=== wave-ra: kernel '" << R.Name << "' (--max-registers "
       << MaxRegisters << ") ===\n";
    auto Row = [&](uint64_t V, llvm::StringRef What) {
      OS << llvm::format("%8llu", (unsigned long long)V) << "  " << What
         << '\n';
    };
    Row(R.Instructions, "instructions");
    Row(S.RegistersUsed, "registers used (.registers)");
    Row(S.PredicatesUsed, "predicate registers used");
    Row(S.SpilledVRegs, "values spilled to local memory");
    Row(S.SpilledPreds, "predicates spilled to general registers");
    Row(S.Rematerialized, "constants rematerialized");
    Row(S.SpillStores, "spill stores");
    Row(S.SpillReloads, "spill reloads");
    Row(S.SpillSlots, "spill slots per thread");
    Row(S.CoalescedCopies, "copies coalesced");
    Row(S.Rounds, "allocation rounds");
    Row(S.InterferenceEdges, "interference edges (largest graph)");
  }
}

int main(int Argc, char **Argv) {
  auto App = makeApp(ToolName, "Lower MIR to WAVE assembly: instruction "
                               "selection, structurization, register "
                               "allocation");
  unsigned MaxRegisters = 32;
  std::string Emit = "asm", Output = "-", Input = "-";
  bool PrintInterference = false, Stats = false;
  App->add_option("--max-registers", MaxRegisters,
                  "General registers per kernel, 1-256 (default 32)")
      ->check(CLI::Range(1, 256).description(""))
      ->type_name("N");
  App->add_option("--emit", Emit,
                  "asm: allocated WAVE assembly (default); lir: structured "
                  "code with virtual registers")
      ->check(CLI::IsMember({"asm", "lir"}).description(""))
      ->type_name("asm|lir");
  App->add_flag("--print-interference", PrintInterference,
                "Print each kernel's final interference graph to stderr");
  App->add_flag("--stats", Stats,
                "Print registers used, spills and coalesced copies to "
                "stderr");
  App->add_option("-o,--output", Output, "Write to FILE ('-' for stdout)")
      ->type_name("FILE");
  App->add_option("input", Input, "Input MIR file ('-' for stdin)")
      ->type_name("FILE");

  return runMain(*App, Argc, Argv, [&]() -> int {
    auto Buf = readInput(Input);
    if (!Buf) {
      printFileError(ToolName, Input, Buf.takeError());
      return ExitUsage;
    }
    if (rejectEmptyInput(ToolName, Input, (*Buf)->getBuffer()))
      return ExitInvalidInput;
    llvm::SourceMgr SM;
    unsigned ID = SM.AddNewSourceBuffer(
        llvm::MemoryBuffer::getMemBuffer((*Buf)->getBuffer(),
                                         displayName(Input)),
        llvm::SMLoc());
    auto M = mir::parseMIR(SM, ID);
    if (!M) {
      printSourceDiagnostics(M.takeError(), SM, ToolName, llvm::errs());
      return ExitInvalidInput;
    }
    if (llvm::Error E = mir::verifyModule(**M)) {
      printSourceDiagnostics(std::move(E), SM, ToolName, llvm::errs());
      return ExitInvalidInput;
    }
    CodeGenOptions Opts;
    Opts.MaxRegisters = MaxRegisters;
    Opts.Emit = Emit == "lir" ? EmitKind::LIR : EmitKind::Asm;
    if (PrintInterference)
      Opts.InterferenceOut = &llvm::errs();
    std::vector<KernelReport> Reports;
    std::string Text;
    llvm::raw_string_ostream OS(Text);
    if (llvm::Error E = compileModule(**M, Opts, OS, &Reports)) {
      printSourceDiagnostics(std::move(E), SM, ToolName, llvm::errs());
      return ExitInvalidInput;
    }
    if (Stats)
      printStats(Reports, MaxRegisters, llvm::errs());
    return exitCodeFor(writeOutput(ToolName, Output, /*Binary=*/false,
                                   /*Force=*/false, [&](llvm::raw_ostream &O) {
                                     O << Text;
                                     return llvm::Error::success();
                                   }));
  });
}
