// Syntax errors of C++ declarations and exports: a prototype conflicting
// with the definition, '[[wave::export]]' with arguments or on a prototype
// that is never defined, 'extern "C"'.
// RUN: not wave-fe --cpp-frontend=builtin --emit=ast %s 2>&1 | FileCheck %s --implicit-check-not=error:

float f(float x);
float f(int x) { return 1.0f; }
// CHECK: bad-linkage-syntax.cpp:[[@LINE-1]]:7: error: 'f' is declared with a different signature; overloads are not supported in WAVE kernels
// CHECK: bad-linkage-syntax.cpp:[[@LINE-3]]:7: note: the previous declaration is here

[[wave::export(1)]] float g(float x) { return x; }
// CHECK: bad-linkage-syntax.cpp:[[@LINE-1]]:15: error: 'wave::export' takes no arguments

extern "C" float c(float x);
// CHECK: bad-linkage-syntax.cpp:[[@LINE-1]]:1: error: linkage specifications ('extern "C"') are not supported in WAVE kernels; declare the function with a prototype

// Reported once the whole file is read (no definition came):
[[wave::export]] float h(float x);
// CHECK: bad-linkage-syntax.cpp:[[@LINE-1]]:3: error: 'wave::export' marks a definition; 'h' has no body in this file
