//===- fe-typescript-fuzzer.cpp - libFuzzer target for the TypeScript frontend ---===//
//
// Parser, Sema and lowering of the TypeScript dialect on arbitrary bytes; see
// FrontendFuzzer.h.
//
//===----------------------------------------------------------------------===//
#define WAVE_FUZZ_LANGUAGE TypeScript
#include "FrontendFuzzer.h"
