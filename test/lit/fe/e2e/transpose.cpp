// 2D indexing with workgroup ids: a 40x24 transpose in 16x16 workgroups.
// RUN: %python %utils/fe_e2e.py %s --bindir %bindir --case transpose | FileCheck %s
// CHECK: OK -O0
// CHECK: OK -O2

[[wave::kernel, wave::workgroup_size(16, 16, 1)]]
void transpose(const float* src, float* dst, uint32_t w, uint32_t h) {
    uint32_t x = workgroup_id(0) * workgroup_size(0) + thread_id(0);
    uint32_t y = global_id(1);
    if (x < w && y < h) {
        dst[x * h + y] = src[y * w + x];
    }
}
