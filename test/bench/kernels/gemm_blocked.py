# gemm_blocked.py - a GEMM C = A x B (N x N, row-major f32) with the shape
# of the reference toolchain's local-memory CI kernel, for the emulator's
# scaling benchmark (test/bench/emu_scaling.sh, issue 28): one workgroup of
# 256 threads (8 waves) per 128 x 128 tile of C; for each slice of 8 along
# k it stages the 128 x 8 tile of A and the 8 x 128 tile of B in workgroup
# memory between barriers, and each thread accumulates its 8 x 8 block of
# the tile as four 4 x 4 MMA fragments. N must be a multiple of 128; the
# grid is (N / 128, N / 128). At N = 2048 each workgroup reads 2 MiB of A
# and B, all of it shared with the other workgroups of its row or column.
#
#   wave-compiler test/bench/kernels/gemm_blocked.py -o gemm_blocked.wbin
#   wave-run gemm_blocked.wbin --grid 16,16 --arg a=random:f32:65536 \
#     --arg b=random:f32:65536 --arg c=zeros:f32:65536 --arg N=256


@kernel(workgroup_size=(256, 1, 1))
def gemm_blocked(a: f32[N, N], b: f32[N, N], c: f32[N, N], N: u32):
    sa = shared(f32, 1024)  # A tile, 128 rows x 8
    sb = shared(f32, 1024)  # B tile, 8 rows x 128
    sc = shared(f32, 4096)  # one 4 x 4 fragment per thread, on the way out
    t = thread_id()
    m0 = workgroup_id(1) * 128
    n0 = workgroup_id(0) * 128
    ti = t / 16  # the thread's block: rows m0 + 8 ti .., columns n0 + 8 tj ..
    tj = t % 16
    for k0 in range(0, N, 8):
        for r in range(4):
            sa[t + 256 * r] = a[m0 + t / 8 + 32 * r, k0 + t % 8]
            sb[t + 256 * r] = b[k0 + t / 128 + 2 * r, n0 + t % 128]
        barrier()
        for kk in range(0, 8, 4):
            mma_load_a(0, sa, ti * 64 + kk, 8)
            mma_load_a(1, sa, ti * 64 + 32 + kk, 8)
            mma_load_b(2, sb, kk * 128 + tj * 8, 128)
            mma_load_b(3, sb, kk * 128 + tj * 8 + 4, 128)
            mma_compute(0, 2, 4)
            mma_compute(0, 3, 5)
            mma_compute(1, 2, 6)
            mma_compute(1, 3, 7)
        barrier()
    i0 = m0 + ti * 8
    j0 = n0 + tj * 8
    mma_store_c(sc, t * 16, 4, 4)
    for e in range(16):
        c[i0 + e / 4, j0 + e % 4] = sc[t * 16 + e]
    mma_store_c(sc, t * 16, 4, 5)
    for e in range(16):
        c[i0 + e / 4, j0 + 4 + e % 4] = sc[t * 16 + e]
    mma_store_c(sc, t * 16, 4, 6)
    for e in range(16):
        c[i0 + 4 + e / 4, j0 + e % 4] = sc[t * 16 + e]
    mma_store_c(sc, t * 16, 4, 7)
    for e in range(16):
        c[i0 + 4 + e / 4, j0 + 4 + e % 4] = sc[t * 16 + e]
