// A workgroup reduction through shared memory and barriers.
// RUN: %python %utils/fe_e2e.py %s --bindir %bindir --case block_sum | FileCheck %s
// CHECK: OK -O0
// CHECK: OK -O2

[[wave::kernel, wave::workgroup_size(256, 1, 1)]]
void block_sum(const float* src, float* out, uint32_t n) {
    __shared__ float tile[256];
    uint32_t t = thread_id();
    uint32_t i = global_id();
    float v = 0.0f;
    if (i < n) {
        v = src[i];
    }
    tile[t] = v;
    barrier();
    uint32_t s = 128;
    while (s > 0) {
        if (t < s) {
            tile[t] += tile[t + s];
        }
        barrier();
        s = s >> 1;
    }
    if (t == 0) {
        out[workgroup_id()] = tile[0];
    }
}
