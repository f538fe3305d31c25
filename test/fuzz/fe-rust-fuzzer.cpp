//===- fe-rust-fuzzer.cpp - libFuzzer target for the Rust frontend ---===//
//
// Parser, Sema and lowering of the Rust dialect on arbitrary bytes; see
// FrontendFuzzer.h.
//
//===----------------------------------------------------------------------===//
#define WAVE_FUZZ_LANGUAGE Rust
#include "FrontendFuzzer.h"
