//===- fe-python-fuzzer.cpp - libFuzzer target for the Python frontend ---===//
//
// Parser, Sema and lowering of the Python dialect on arbitrary bytes; see
// FrontendFuzzer.h.
//
//===----------------------------------------------------------------------===//
#define WAVE_FUZZ_LANGUAGE Python
#include "FrontendFuzzer.h"
