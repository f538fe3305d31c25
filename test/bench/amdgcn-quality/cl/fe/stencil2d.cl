// stencil2d.cl - OpenCL C twin of test/lit/fe/e2e/stencil2d.py (see
// wave.h): a: f32[M, N] row-major, 8x8 workgroups, j = global_id(0), i =
// global_id(1); outside the M x N grid a thread returns. up, down, left,
// right are the four neighbours of a[i, j], wrapping at the edges (a[-1, j]
// is row M - 1, a[i, -1] column N - 1); b[i, j] = a[i, j], then b[i, j] +=
// 0.25 * (((up + down) + left) + right) - a[i, j], each operation rounded
// (FP_CONTRACT OFF). Thread (0, 0) also writes corners[0..3] = a[0, 0],
// a[0, -1], a[-1, 0], a[-1, -1], then corners[-2] += f32(N). b is read back
// after the store and a re-read, as in the source (one `mem`, so clang must
// assume they may alias, as wave-opt does). Arguments: mem = device base;
// a, b, corners = byte offsets, M, N (wave-fe's r0..r4).
#include "../wave.h"
#pragma OPENCL FP_CONTRACT OFF

#define LD(buf, idx) as_f32(dev_ld32(mem, (buf) + ((idx) << 2)))
#define ST(buf, idx, v) dev_st32(mem, (buf) + ((idx) << 2), as_u32(v))

__attribute__((reqd_work_group_size(8, 8, 1)))
kernel void stencil2d(global uchar *mem, uint a, uint b, uint corners, uint M,
                      uint N) {
  uint j = sr_workgroup_id_x() * sr_workgroup_size_x() + sr_thread_id_x();
  uint i = sr_workgroup_id_y() * __builtin_amdgcn_workgroup_size_y() +
           sr_thread_id_y();
  if (i >= M || j >= N)
    return;
  float up = i == 0 ? LD(a, (M - 1u) * N + j) : LD(a, (i - 1u) * N + j);
  float down = i == M - 1u ? LD(a, j) : LD(a, (i + 1u) * N + j);
  float left = j == 0 ? LD(a, i * N + (N - 1u)) : LD(a, i * N + (j - 1u));
  float right = j == N - 1u ? LD(a, i * N) : LD(a, i * N + (j + 1u));
  uint ij = i * N + j;
  ST(b, ij, LD(a, ij));
  float bij = LD(b, ij);                // `+=` reads its target first
  float rhs = 0.25f * (up + down + left + right) - LD(a, ij);
  ST(b, ij, bij + rhs);
  if (i == 0 && j == 0) {
    ST(corners, 0u, LD(a, 0u));
    ST(corners, 1u, LD(a, N - 1u));
    ST(corners, 2u, LD(a, (M - 1u) * N));
    ST(corners, 3u, LD(a, (M - 1u) * N + (N - 1u)));
    ST(corners, 2u, LD(corners, 2u) + (float)N);
  }
}
