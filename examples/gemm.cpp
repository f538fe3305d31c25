// C = A x B for n x n row-major f32 matrices, one thread per element of C,
// 16x16 threads per workgroup. The C++ twin of examples/gemm.py: both give
// the same MIR after wave-opt -O2.
//
//   wave-fe gemm.cpp | wave-opt -O2 | wave-ra | wave-as -o gemm.wbin

[[wave::kernel, wave::workgroup_size(16, 16, 1)]]
void gemm(const float* a, const float* b, float* c, uint32_t n) {
    uint32_t col = global_id(0);
    uint32_t row = global_id(1);
    if (row < n && col < n) {
        float acc = 0.0f;
        for (uint32_t k = 0; k < n; k++) {
            acc = fma(a[row * n + k], b[k * n + col], acc);
        }
        c[row * n + col] = acc;
    }
}
