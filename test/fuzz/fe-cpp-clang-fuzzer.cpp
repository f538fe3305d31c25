//===- fe-cpp-clang-fuzzer.cpp - libFuzzer target for C++ through Clang ---===//
//
// Clang's front end, the lowering of its AST to HIR, Sema and lowering to
// MIR on arbitrary bytes; see FrontendFuzzer.h.
//
//===----------------------------------------------------------------------===//
#define WAVE_FUZZ_LANGUAGE Cpp
#define WAVE_FUZZ_PARSER fe::parseCppWithClang
#include "FrontendFuzzer.h"
