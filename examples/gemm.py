# C = A x B for n x n row-major f32 matrices, one thread per element of C,
# 16x16 threads per workgroup. The Python twin of examples/gemm.cpp: both
# give the same MIR after wave-opt -O2.
#
#   wave-fe gemm.py | wave-opt -O2 | wave-ra | wave-as -o gemm.wbin

@kernel(workgroup_size=(16, 16, 1))
def gemm(a: f32[:], b: f32[:], c: f32[:], n: u32):
    col = global_id(0)
    row = global_id(1)
    if row < n and col < n:
        acc: f32 = 0.0
        for k in range(n):
            acc = fma(a[row * n + k], b[k * n + col], acc)
        c[row * n + col] = acc
