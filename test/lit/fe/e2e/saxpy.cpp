// Elementwise kernel with a bounds check over several workgroups.
// RUN: %python %utils/fe_e2e.py %s --bindir %bindir --case saxpy | FileCheck %s
// CHECK: OK -O0
// CHECK: OK -O2

__kernel void saxpy(const float* x, const float* y, float* out, float a, uint32_t n) {
    uint32_t i = global_id();
    if (i < n) {
        out[i] = a * x[i] + y[i];
    }
}
