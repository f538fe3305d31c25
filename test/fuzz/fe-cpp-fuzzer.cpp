//===- fe-cpp-fuzzer.cpp - libFuzzer target for the Cpp frontend ---===//
//
// Parser, Sema and lowering of the Cpp dialect on arbitrary bytes; see
// FrontendFuzzer.h.
//
//===----------------------------------------------------------------------===//
#define WAVE_FUZZ_LANGUAGE Cpp
#include "FrontendFuzzer.h"
