//===- ra-fuzzer.cpp - libFuzzer target for wave-ra's code generator ------===//
//
// Feeds arbitrary bytes to the MIR parser; whatever parses and verifies goes
// through wave-ra's whole code generator (wave/CodeGen/CodeGen.h) twice, with
// 32 general registers and with 6, optimized by -O2 in between for variety.
// compileModule may refuse a module (unsupported operations, irreducible
// control flow, too few registers) but must never crash, and whatever it
// writes must assemble, as a relocatable object (calls of declarations
// stay relocations), without a single diagnostic: wave-ra's output is
// ordinary assembly (formats/wave-asm.md §9). Run by
// test/lit/fuzz/ra-fuzz.test.
//
//===----------------------------------------------------------------------===//
#include "wave/Asm/AsmParser.h"
#include "wave/CodeGen/CodeGen.h"
#include "wave/IR/MIRParser.h"
#include "wave/IR/Verifier.h"
#include "wave/Transforms/Pass.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>

using namespace llvm;
using namespace wave;
using namespace wave::mir;

static void compileAndAssemble(Module &M, unsigned MaxRegisters) {
  codegen::CodeGenOptions Opts;
  Opts.MaxRegisters = MaxRegisters;
  std::string Asm;
  raw_string_ostream OS(Asm);
  if (Error E = codegen::compileModule(M, Opts, OS)) {
    consumeError(std::move(E));
    return;
  }
  std::string Diags;
  // As an object: calls of declared functions stay relocations that only
  // wave-link resolves (formats/wave-asm.md §9).
  AsmOptions AsOpts;
  AsOpts.Relocatable = true;
  Expected<WbinFile> W =
      assembleString(Asm, "wave-ra output", &Diags, AsOpts);
  if (!W || !Diags.empty()) {
    fprintf(stderr, "ra-fuzzer: wave-ra output does not assemble cleanly\n"
                    "%s\n%s\n",
            W ? "" : toString(W.takeError()).c_str(), Diags.c_str());
    fprintf(stderr, "%s\n", Asm.c_str());
    abort();
  }
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  StringRef Text(reinterpret_cast<const char *>(Data), Size);
  SourceMgr SM;
  auto M = parseMIRString(Text, SM, "fuzz");
  if (!M) {
    consumeError(M.takeError());
    return 0;
  }
  if (Error E = verifyModule(**M)) {
    consumeError(std::move(E));
    return 0;
  }
  compileAndAssemble(**M, 32);
  auto P = parsePipeline(join(optLevelPasses(2), ","));
  if (!P) {
    consumeError(P.takeError());
    return 0;
  }
  PassStats Stats;
  if (Error E = runPipeline(**M, *P, PipelineOptions(), Stats)) {
    consumeError(std::move(E));
    return 0;
  }
  compileAndAssemble(**M, 6);
  return 0;
}
