//===- PassPipeline.cpp - Pass registry, pipelines, pass manager ----------===//
//
// The registry expands Passes.def; optLevelPasses is the one place where the
// -O levels are written out (docs/conventions.md §10, QBE main.c's func());
// runPipeline is the pass manager with wave-opt's --print-*/--verify-each
// hooks.
//
//===----------------------------------------------------------------------===//
#include "wave/IR/MIRPrinter.h"
#include "wave/IR/Verifier.h"
#include "wave/Support/SourceDiagnostic.h"
#include "wave/Transforms/Pass.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Format.h"

using namespace llvm;

namespace wave::mir {

Pass::~Pass() = default;

bool Pass::runOnModule(Module &M, PassStats &Stats) {
  bool Changed = false;
  // A declaration has no body to transform (formats/mir.md
  // "Declarations"); its calls are opaque to every pass.
  for (const auto &F : M.functions())
    if (!F->isDeclaration())
      Changed |= runOnFunction(*F, Stats);
  return Changed;
}

uint64_t PassStats::get(StringRef Pass, StringRef Counter) const {
  auto It = Counters.find({Pass.str(), Counter.str()});
  return It == Counters.end() ? 0 : It->second;
}

void PassStats::print(raw_ostream &OS) const {
  OS << "===-------------------------------------------------------------===\n"
     << "                  ... Statistics Collected ...\n"
     << "===-------------------------------------------------------------===\n";
  for (const auto &[Key, N] : Counters)
    OS << format("%5llu", (unsigned long long)N) << ' ' << Key.first << " - "
       << Key.second << '\n';
}

static const PassInfo Registry[] = {
#define MIR_PASS(Name, Class, Summary) {Name, Summary, create##Class},
#include "wave/Transforms/Passes.def"
};

ArrayRef<PassInfo> registeredPasses() { return Registry; }

const PassInfo *lookupPass(StringRef Name) {
  for (const PassInfo &P : Registry)
    if (P.Name == Name)
      return &P;
  return nullptr;
}

Expected<Pipeline> parsePipeline(StringRef Spec) {
  Pipeline P;
  SmallVector<StringRef, 8> Names;
  Spec.split(Names, ',', /*MaxSplit=*/-1, /*KeepEmpty=*/true);
  for (StringRef N : Names) {
    N = N.trim();
    if (N.empty())
      return createStringError("empty pass name in pipeline '" + Spec + "'");
    const PassInfo *Info = lookupPass(N);
    if (!Info)
      return createStringError("unknown pass '" + N +
                               "'; 'wave-opt --print-passes' lists them");
    P.push_back(Info->Create());
  }
  return std::move(P);
}

std::vector<StringRef> optLevelPasses(unsigned Level) {
  // formats/mir.md "Passes and levels". simplifycfg runs first to drop
  // unreachable blocks and fold constant branches before the other passes, and
  // last to clean up the blocks they emptied; mem2reg turns the front end's
  // private variables into SSA values before anything else looks at them; sccp
  // runs before the rest so that they see its constants (strength-reduce needs
  // constant divisors); licm hoists before cse so that hoisted copies meet the
  // preheader's code; dce removes what the others left unused. -O3 inlines
  // first (so that mem2reg also promotes the inlined callees' slots and sccp
  // sees constant arguments), unrolls after licm (loops then have preheaders
  // and a smaller body), and runs sccp and simplifycfg again to fold the
  // unrolled induction variables and merge the copies.
  std::vector<StringRef> P;
  if (Level == 1)
    P = {"simplifycfg", "cse", "dce", "simplifycfg"};
  else if (Level == 2)
    P = {"simplifycfg", "mem2reg",         "sccp", "simplifycfg", "licm",
         "strength-reduce", "cse", "dce",  "simplifycfg"};
  else if (Level >= 3)
    P = {"simplifycfg", "inline",      "mem2reg", "sccp",
         "simplifycfg", "licm",        "loop-unroll", "sccp",
         "simplifycfg", "strength-reduce", "cse",  "dce",
         "simplifycfg"};
  return P;
}

Error runPipeline(Module &M, const Pipeline &P, const PipelineOptions &Opts,
                  PassStats &Stats) {
  for (const auto &Pass : P) {
    if (Opts.PrintOS && Opts.PrintBefore.contains(Pass->name())) {
      *Opts.PrintOS << "; *** IR Dump Before " << Pass->name() << " ***\n";
      printModule(M, *Opts.PrintOS);
    }
    Pass->runOnModule(M, Stats);
    if (Opts.PrintOS &&
        (Opts.PrintAfterAll || Opts.PrintAfter.contains(Pass->name()))) {
      *Opts.PrintOS << "; *** IR Dump After " << Pass->name() << " ***\n";
      printModule(M, *Opts.PrintOS);
    }
    if (Opts.VerifyEach) {
      Error E = verifyModule(M);
      if (E) {
        std::string Prefix = ("after pass '" + Pass->name() + "': ").str();
        Error Out = Error::success();
        handleAllErrors(
            std::move(E),
            [&](const SourceDiagError &D) {
              Out = joinErrors(std::move(Out),
                               make_error<SourceDiagError>(
                                   D.loc(), Prefix + D.text(), D.diagKind()));
            },
            [&](const ErrorInfoBase &EI) {
              Out = joinErrors(
                  std::move(Out),
                  make_error<SourceDiagError>(SMLoc(), Prefix + EI.message()));
            });
        return Out;
      }
    }
  }
  return Error::success();
}

} // namespace wave::mir
