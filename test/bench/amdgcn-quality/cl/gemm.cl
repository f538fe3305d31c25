// gemm.cl - OpenCL C twin of examples/gemm.wave (see wave.h): register-
// blocked f32 C = A x B, row-major; each thread of a 16x16 workgroup owns a
// 4x4 tile of C; per 4 k-steps eight 16-byte loads (4 rows of A, 4 rows of
// B) and 64 fma in the same order as the WAVE kernel (kk, then i, then j).
// Arguments: mem = device base; a, b, c = byte offsets, m, n, k = sizes
// (WAVE r0..r5).
#include "wave.h"

__attribute__((reqd_work_group_size(16, 16, 1)))
kernel void gemm(global uchar *mem, uint a, uint b, uint c, uint m, uint n, uint k) {
  uint col0 = (sr_workgroup_id_x() * 16u + sr_thread_id_x()) << 2;
  uint row0 = (sr_workgroup_id_y() * 16u + sr_thread_id_y()) << 2;
  if (row0 < m) {
    if (col0 < n) {
      uint ka = k << 2;                 // 4K: A row stride in bytes
      uint nb = n << 2;                 // 4N: B and C row stride in bytes
      uint pa0 = a + row0 * ka;
      uint pa1 = pa0 + ka;
      uint pa2 = pa1 + ka;
      uint pa3 = pa2 + ka;
      uint pb = b + (col0 << 2);
      uint b4 = nb << 2;                // 4 rows of B
      float acc[4][4];
#pragma unroll
      for (int i = 0; i < 4; ++i)
#pragma unroll
        for (int j = 0; j < 4; ++j)
          acc[i][j] = 0.0f;
      WAVE_LOOP
      for (uint kk0 = 0; kk0 < k; kk0 += 4) {
        float4 at[4], bt[4];
        at[0] = as_float4(dev_ld128(mem, pa0));
        at[1] = as_float4(dev_ld128(mem, pa1));
        at[2] = as_float4(dev_ld128(mem, pa2));
        at[3] = as_float4(dev_ld128(mem, pa3));
        uint p = pb;
        bt[0] = as_float4(dev_ld128(mem, p));
        p += nb;
        bt[1] = as_float4(dev_ld128(mem, p));
        p += nb;
        bt[2] = as_float4(dev_ld128(mem, p));
        p += nb;
        bt[3] = as_float4(dev_ld128(mem, p));
#pragma unroll
        for (int kk = 0; kk < 4; ++kk)
#pragma unroll
          for (int i = 0; i < 4; ++i)
#pragma unroll
            for (int j = 0; j < 4; ++j)
              acc[i][j] = __builtin_fmaf(at[i][kk], bt[kk][j], acc[i][j]);
        pa0 += 16u;
        pa1 += 16u;
        pa2 += 16u;
        pa3 += 16u;
        pb += b4;
      }
      uint pc = c + (row0 * nb + (col0 << 2));
#pragma unroll
      for (int i = 0; i < 4; ++i) {
        float4 row = (float4)(acc[i][0], acc[i][1], acc[i][2], acc[i][3]);
        dev_st128(mem, pc, as_uint4(row));
        pc += nb;
      }
    }
  }
}
