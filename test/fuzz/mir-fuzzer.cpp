//===- mir-fuzzer.cpp - libFuzzer target for the MIR parser and verifier --===//
//
// Feeds arbitrary bytes to the MIR parser and, when they parse, to the
// verifier. Any input that also verifies is optimised with the -O3 pipeline
// under --verify-each, and its printed form must read back to the same text
// (formats/mir.md, "Printing"); a violation of either is a bug and aborts.
// Never crashing on bad input is the property under test (docs/conventions.md
// §5: no input may crash a tool). Run by test/lit/fuzz/mir-fuzz.test.
//
//===----------------------------------------------------------------------===//
#include "wave/IR/MIRParser.h"
#include "wave/IR/MIRPrinter.h"
#include "wave/IR/Verifier.h"
#include "wave/Transforms/Pass.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>

using namespace llvm;
using namespace wave::mir;

static std::string printed(const Module &M) {
  std::string S;
  raw_string_ostream OS(S);
  printModule(M, OS);
  return S;
}

static void bug(const char *What, const std::string &Detail) {
  fprintf(stderr, "mir-fuzzer: %s\n%s\n", What, Detail.c_str());
  abort();
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
  std::string Before = printed(**M);
  {
    SourceMgr SM2;
    auto Again = parseMIRString(Before, SM2, "printed");
    if (!Again)
      bug("printed MIR does not parse", toString(Again.takeError()));
    if (printed(**Again) != Before)
      bug("printed MIR does not read back identically", Before);
  }
  auto P = parsePipeline(join(optLevelPasses(3), ","));
  if (!P)
    bug("bad -O3 pipeline", toString(P.takeError()));
  PipelineOptions Opts;
  Opts.VerifyEach = true;
  PassStats Stats;
  if (Error E = runPipeline(**M, *P, Opts, Stats))
    bug("a pass broke valid MIR", toString(std::move(E)) + "\n" + Before);
  return 0;
}
