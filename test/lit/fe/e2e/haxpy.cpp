// f16 buffers and f16 arithmetic: out = f16(a) * x + y, rounded per operation.
// RUN: %python %utils/fe_e2e.py %s --bindir %bindir --case haxpy | FileCheck %s
// CHECK: OK -O0
// CHECK: OK -O2

__kernel void haxpy(const half* x, const half* y, half* out, float a, uint32_t n) {
    uint32_t i = global_id();
    if (i < n) {
        out[i] = (half)a * x[i] + y[i];
    }
}
