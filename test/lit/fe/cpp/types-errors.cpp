// Type and GPU-rule errors in C++, all reported in one run.
// RUN: not wave-fe --cpp-frontend=builtin %s 2>&1 | FileCheck %s --implicit-check-not=error:

// Signatures are checked before bodies.
// CHECK: types-errors.cpp:[[@LINE+1]]:25: error: kernel parameter 'x' has type 'f64'
__kernel void k2(double x) {
}

float twice(float x) { return x * 2; }

__kernel void k(const float* p, float* q, int n) {
// CHECK: types-errors.cpp:[[@LINE+2]]:10: error: cannot store to read-only buffer 'p'
// CHECK: types-errors.cpp:11:30: note: 'p' is declared here
    p[0] = 1.0f;
    const int c = 1;
// CHECK: types-errors.cpp:[[@LINE+2]]:7: error: cannot assign to 'c': it is not mutable
// CHECK: types-errors.cpp:[[@LINE-2]]:15: note: 'c' is declared here
    c = 2;
// CHECK: types-errors.cpp:[[@LINE+2]]:12: error: 'twice' takes 1 argument(s), not 2
// CHECK: types-errors.cpp:9:7: note: 'twice' is declared here
    q[0] = twice(1.0f, 2.0f);
// CHECK: types-errors.cpp:[[@LINE+1]]:22: error: the dimension of 'thread_id' must be the constant 0, 1 or 2
    q[1] = thread_id(n);
    double d = 1.0;
    // f64 compares are built from dsub and cvt (kernel-languages.md §3).
    if (d < 2.0) {
    }
// CHECK: types-errors.cpp:[[@LINE+1]]:11: error: invalid operands to '%' ('f64' and 'float literal'): not supported on f64 (WAVE's f64 operations are add, sub, mul, fma, div and sqrt: formats/isa.md §2.6)
    d = d % 2.0;
    // Compound assignments are checked like their operator (a fuzzer find:
    // this lowered to an f64 ftrunc, which MIR does not have).
// CHECK: types-errors.cpp:[[@LINE+1]]:10: error: invalid operands to '%=' ('f32' and 'f64'): not supported on f64 (WAVE's f64 operations are add, sub, mul, fma, div and sqrt: formats/isa.md §2.6)
    q[0] %= (double)1.1f;
// CHECK: types-errors.cpp:[[@LINE+1]]:7: error: invalid operands to '%=' ('f64' and 'float literal'): {{.*}}
    d %= 2.0;
}
