//===- fe-cpp-builtin-fuzzer.cpp - libFuzzer target for the C++ parser ----===//
//
// The dialect's own C++ parser (wave-fe --cpp-frontend=builtin), Sema and
// lowering on arbitrary bytes; fe-cpp-fuzzer covers the default, Clang's
// front end. See FrontendFuzzer.h.
//
//===----------------------------------------------------------------------===//
#define WAVE_FUZZ_LANGUAGE Cpp
#define WAVE_FUZZ_PARSER fe::parseCpp
#include "FrontendFuzzer.h"
