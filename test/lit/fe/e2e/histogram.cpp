// Device atomics: a 16-bin histogram and the maximum value.
// RUN: %python %utils/fe_e2e.py %s --bindir %bindir --case histogram | FileCheck %s
// CHECK: OK -O0
// CHECK: OK -O2

__kernel void histogram(const uint32_t* data, uint32_t* bins, uint32_t n) {
    uint32_t i = global_id();
    if (i < n) {
        uint32_t v = data[i];
        atomic_add(bins, v % 16, 1);
        atomic_max(bins, 16, v);
    }
}
