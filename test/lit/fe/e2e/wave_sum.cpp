// A wave-operation reduction: every wave sums its lanes with reduce_add.
// RUN: %python %utils/fe_e2e.py %s --bindir %bindir --case wave_sum | FileCheck %s
// CHECK: OK -O0
// CHECK: OK -O2

__kernel void wave_sum(const uint32_t* src, uint32_t* out, uint32_t n) {
    uint32_t i = global_id();
    uint32_t v = 0;
    if (i < n) {
        v = src[i];
    }
    uint32_t total = reduce_add(v);
    if (lane_id() == 0) {
        out[i / wave_width()] = total;
    }
}
