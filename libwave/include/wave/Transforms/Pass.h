//===- Pass.h - MIR passes, pipelines and the pass manager ------*- C++ -*-===//
//
// A Pass transforms a Module in place. Passes are listed in Passes.def; a
// pipeline is a comma-separated list of their names (`--passes=dce,cse`) or
// one of the named levels -O0..-O3 (optLevelPipeline), as in LLVM's
// `opt -passes=` and binaryen's addDefaultFunctionOptimizationPasses
// (docs/conventions.md §10). runPipeline runs a pipeline with the debugging
// hooks of wave-opt: printing before/after passes, verifying after each,
// statistics.
//
//===----------------------------------------------------------------------===//
#ifndef WAVE_TRANSFORMS_PASS_H
#define WAVE_TRANSFORMS_PASS_H

#include "wave/IR/MIR.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace wave::mir {

/// Counters that passes bump ("dce", "instructions removed") and wave-opt
/// prints with --stats. Printed in (pass, counter) order, so the output is
/// deterministic.
class PassStats {
public:
  void add(llvm::StringRef Pass, llvm::StringRef Counter, uint64_t N = 1) {
    if (N)
      Counters[{Pass.str(), Counter.str()}] += N;
  }
  uint64_t get(llvm::StringRef Pass, llvm::StringRef Counter) const;
  bool empty() const { return Counters.empty(); }
  /// One line per counter: "  <N> <pass> - <counter>", after a header.
  void print(llvm::raw_ostream &OS) const;

private:
  std::map<std::pair<std::string, std::string>, uint64_t> Counters;
};

/// A transformation of MIR. Passes must keep the IR valid (Verifier.h).
class Pass {
public:
  virtual ~Pass();
  /// The Passes.def name.
  virtual llvm::StringRef name() const = 0;
  /// Transforms one function; returns whether anything changed.
  virtual bool runOnFunction(Function &F, PassStats &Stats) = 0;
  /// Transforms the module; by default every function in order.
  virtual bool runOnModule(Module &M, PassStats &Stats);
};

/// Factories, one per Passes.def row.
#define MIR_PASS(Name, Class, Summary) std::unique_ptr<Pass> create##Class();
#include "wave/Transforms/Passes.def"

/// A registered pass (one Passes.def row).
struct PassInfo {
  llvm::StringRef Name;
  llvm::StringRef Summary;
  std::unique_ptr<Pass> (*Create)();
};

/// Every registered pass, sorted by name.
llvm::ArrayRef<PassInfo> registeredPasses();
/// The registered pass \p Name, or null.
const PassInfo *lookupPass(llvm::StringRef Name);

using Pipeline = std::vector<std::unique_ptr<Pass>>;

/// Parses "p1,p2,..." into passes. Errors (llvm::StringError): an empty
/// name ("empty pass name in pipeline '...'") or an unknown one ("unknown
/// pass 'x'; 'wave-opt --print-passes' lists them").
llvm::Expected<Pipeline> parsePipeline(llvm::StringRef Spec);

/// Inlines every call to a device function that is on no call-graph cycle,
/// into every function of \p M, with no size limit: the `inline` pass
/// (Inline.cpp) without its thresholds. wave-ra runs it first because
/// WAVE's `call`/`return` act on whole waves (formats/isa.md §4.16) while MIR
/// calls are per lane. Calls to recursive functions cannot be inlined and
/// remain.
void inlineAllCalls(Module &M);

/// The pass names of optimisation level \p Level (0..3):
/// O1 = DCE, CSE, CFG simplification; O2 adds SCCP, LICM, strength
/// reduction, mem2reg; O3 adds loop unrolling and inlining (formats/mir.md,
/// "Passes and levels", has the lists). Empty for level 0.
std::vector<llvm::StringRef> optLevelPasses(unsigned Level);

/// Debugging hooks of runPipeline.
struct PipelineOptions {
  /// Verify the module after every pass; a failure stops the pipeline.
  bool VerifyEach = false;
  /// Print the module after every pass.
  bool PrintAfterAll = false;
  /// Print the module before each pass whose name is in the set.
  llvm::StringSet<> PrintBefore;
  /// Print the module after each pass whose name is in the set.
  llvm::StringSet<> PrintAfter;
  /// Where the printing goes (wave-opt: stderr). Must be set when printing.
  llvm::raw_ostream *PrintOS = nullptr;
};

/// Runs \p P over \p M in order. Errors: with VerifyEach, the verifier's
/// SourceDiagErrors, each message prefixed "after pass 'NAME': ".
llvm::Error runPipeline(Module &M, const Pipeline &P,
                        const PipelineOptions &Opts, PassStats &Stats);

} // namespace wave::mir

#endif // WAVE_TRANSFORMS_PASS_H
