//===- FrontendFuzzer.h - The body of the four frontend fuzzers -*- C++ -*-===//
//
// Each fe-<language>-fuzzer.cpp defines WAVE_FUZZ_LANGUAGE and includes
// this file: arbitrary bytes go through that language's parser and, when
// they parse, through Sema; a module Sema accepts is lowered and must pass
// the MIR verifier (lowering never makes invalid MIR from checked HIR), and
// printing must not fail. Never crashing, hanging or leaking on any input is
// the property under test (docs/conventions.md §5: no input may crash a tool).
// WAVE_FUZZ_PARSER, when defined, replaces fe::parseSource (the dialect's
// own C++ parser: fe-cpp-builtin-fuzzer.cpp; fe::parseSource takes C++
// through Clang). Run by
// test/lit/fuzz/fe-fuzz.test.
//
//===----------------------------------------------------------------------===//
#include "wave/Frontend/Frontend.h"
#include "wave/HIR/HIRPrinter.h"
#include "wave/HIR/Lowering.h"
#include "wave/HIR/Sema.h"
#include "wave/IR/MIRPrinter.h"
#include "wave/IR/Verifier.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  using namespace wave;
  llvm::StringRef Text(reinterpret_cast<const char *>(Data), Size);
  llvm::SourceMgr SM;
  unsigned ID = SM.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(Text, "fuzz"), llvm::SMLoc());
  hir::DiagnosticEngine Diags;
#ifdef WAVE_FUZZ_PARSER
  auto M = WAVE_FUZZ_PARSER(SM, ID, Diags);
#else
  auto M = fe::parseSource(hir::Language::WAVE_FUZZ_LANGUAGE, SM, ID, Diags);
#endif
  {
    std::string S;
    llvm::raw_string_ostream OS(S);
    hir::printModule(*M, OS); // The parsed tree prints, errors or not.
  }
  if (!Diags.hasErrors() && hir::checkModule(*M, Diags)) {
    auto MM = hir::lowerModule(*M, hir::LoweringOptions());
    if (llvm::Error E = mir::verifyModule(*MM)) {
      std::string S;
      llvm::raw_string_ostream OS(S);
      mir::printModule(*MM, OS);
      fprintf(stderr, "fe-fuzzer: lowered MIR does not verify: %s\n%s\n",
              llvm::toString(std::move(E)).c_str(), S.c_str());
      abort();
    }
  }
  llvm::consumeError(Diags.takeError());
  return 0;
}
