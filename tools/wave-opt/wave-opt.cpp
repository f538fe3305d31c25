//===- wave-opt.cpp - The MIR optimizer -----------------------------------===//
//
// wave-opt [-O0..-O3 | --passes=p1,p2,...] [FILE|-] [-o FILE]: reads MIR text
// (formats/mir.md), verifies it, runs a pass pipeline and prints MIR text.
// -O2 is the default; -O0 is the identity on printed MIR. The pipeline,
// verifier and printer live in libwave (IR/, Transforms/); this file maps
// options and results to exit codes (0 ok, 1 bad input or unknown pass,
// 2 usage or I/O error).
//
//===----------------------------------------------------------------------===//
#include "wave/IR/MIRParser.h"
#include "wave/IR/MIRPrinter.h"
#include "wave/IR/Verifier.h"
#include "wave/Support/SourceDiagnostic.h"
#include "wave/Tool/Tool.h"
#include "wave/Transforms/Pass.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <tuple>

using namespace wave;
using namespace wave::mir;
using namespace wave::tool;

static constexpr const char *ToolName = "wave-opt";

int main(int Argc, char **Argv) {
  auto App = makeApp(ToolName, "Optimize MIR (textual SSA IR) with a pass "
                               "pipeline");
  int OptLevel = -1;
  std::string Passes, Output = "-", Input = "-";
  std::vector<std::string> PrintBefore, PrintAfter;
  bool PrintAfterAll = false, VerifyEach = false, Stats = false,
       PrintPasses = false, VerifyRoundTrip = false;
  App->add_option("-O", OptLevel,
                  "Optimization level 0-3 (default 2); -O0 runs no pass")
      ->check(CLI::Range(0, 3).description(""))
      ->type_name("N");
  App->add_option("--passes", Passes,
                  "Run these passes in order instead of an -O level")
      ->type_name("P1,P2,...");
  App->add_flag("--print-after-all", PrintAfterAll,
                "Print the IR to stderr after every pass");
  App->add_option("--print-before", PrintBefore,
                  "Print the IR to stderr before each run of PASS")
      ->type_name("PASS")
      ->delimiter(',');
  App->add_option("--print-after", PrintAfter,
                  "Print the IR to stderr after each run of PASS")
      ->type_name("PASS")
      ->delimiter(',');
  App->add_flag("--verify-each", VerifyEach, "Verify the IR after every pass");
  App->add_flag("--verify-roundtrip", VerifyRoundTrip,
                "Check that the output parses back to the same text");
  App->add_flag("--stats", Stats, "Print pass statistics to stderr");
  App->add_flag("--print-passes", PrintPasses,
                "List the available passes and exit");
  App->add_option("-o,--output", Output, "Write to FILE ('-' for stdout)")
      ->type_name("FILE");
  App->add_option("input", Input, "Input MIR file ('-' for stdin)")
      ->type_name("FILE");

  return runMain(*App, Argc, Argv, [&]() -> int {
    if (PrintPasses) {
      for (const PassInfo &P : registeredPasses())
        llvm::outs() << P.Name << " - " << P.Summary << "\n";
      return ExitSuccess;
    }
    // `--passes=` (an empty list) is a pipeline of no pass, as in LLVM's
    // opt; only without --passes does the -O level choose.
    bool GivenPasses = App->count("--passes") > 0;
    if (OptLevel >= 0 && GivenPasses) {
      llvm::errs() << ToolName << ": -O" << OptLevel
                   << " and --passes cannot be used together\n"
                   << "Try '" << ToolName << " --help' for more information.\n";
      return ExitUsage;
    }
    // The pipeline first: a bad pass name is reported before any input.
    if (!GivenPasses)
      Passes = llvm::join(optLevelPasses(OptLevel < 0 ? 2 : OptLevel), ",");
    llvm::Expected<Pipeline> P =
        Passes.empty() ? Pipeline() : parsePipeline(Passes);
    if (!P) {
      printError(ToolName, llvm::toString(P.takeError()));
      return ExitInvalidInput;
    }
    PipelineOptions Opts;
    Opts.VerifyEach = VerifyEach;
    Opts.PrintAfterAll = PrintAfterAll;
    Opts.PrintOS = &llvm::errs();
    for (auto [Names, Flag, Set] :
         {std::tuple(&PrintBefore, "--print-before", &Opts.PrintBefore),
          std::tuple(&PrintAfter, "--print-after", &Opts.PrintAfter)})
      for (const std::string &Name : *Names) {
        if (!lookupPass(Name)) {
          printError(ToolName, "unknown pass '" + Name + "' in " + Flag +
                                   "; '" + ToolName +
                                   " --print-passes' lists them");
          return ExitInvalidInput;
        }
        Set->insert(Name);
      }

    auto Buf = readInput(Input);
    if (!Buf) {
      printFileError(ToolName, Input, Buf.takeError());
      return ExitUsage;
    }
    if (rejectEmptyInput(ToolName, Input, (*Buf)->getBuffer()))
      return ExitInvalidInput;
    llvm::SourceMgr SM;
    std::unique_ptr<llvm::MemoryBuffer> Named =
        llvm::MemoryBuffer::getMemBuffer((*Buf)->getBuffer(),
                                         displayName(Input));
    unsigned ID = SM.AddNewSourceBuffer(std::move(Named), llvm::SMLoc());
    auto M = parseMIR(SM, ID);
    if (!M) {
      printSourceDiagnostics(M.takeError(), SM, ToolName, llvm::errs());
      return ExitInvalidInput;
    }
    if (llvm::Error E = verifyModule(**M)) {
      printSourceDiagnostics(std::move(E), SM, ToolName, llvm::errs());
      return ExitInvalidInput;
    }
    PassStats S;
    if (llvm::Error E = runPipeline(**M, *P, Opts, S)) {
      printSourceDiagnostics(std::move(E), SM, ToolName, llvm::errs());
      return ExitInvalidInput;
    }
    if (Stats)
      S.print(llvm::errs());
    std::string Text;
    llvm::raw_string_ostream OS(Text);
    printModule(**M, OS);
    if (VerifyRoundTrip) {
      llvm::SourceMgr SM2;
      std::string Again;
      llvm::raw_string_ostream OS2(Again);
      auto M2 = parseMIRString(Text, SM2, "<round trip>");
      if (!M2) {
        printSourceDiagnostics(M2.takeError(), SM2, ToolName, llvm::errs(),
                               "round trip: ");
        return ExitInvalidInput;
      }
      printModule(**M2, OS2);
      if (Again != Text) {
        printError(ToolName, "round trip: the printed MIR reads back "
                             "differently");
        return ExitInvalidInput;
      }
    }
    return exitCodeFor(writeOutput(ToolName, Output, /*Binary=*/false,
                                   /*Force=*/false, [&](llvm::raw_ostream &O) {
                                     O << Text;
                                     return llvm::Error::success();
                                   }));
  });
}
