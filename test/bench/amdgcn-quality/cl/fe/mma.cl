// mma.cl - OpenCL C twin of test/lit/fe/e2e/mma.py (kernel `mma16`; see
// wave.h): a 16x16 f32 product C = A B. A and B are staged in local memory
// (sa at byte 0, sb at 1024, sc at 2048: wave-fe's layout), lane t < 16 with
// (bi, bj) = (t / 4, t % 4) accumulates block (bi, bj) of C over the four
// k-blocks, and after a barrier every thread copies one element of sc out.
// WAVE's MMA (formats/isa.md §4.18) is per lane: mma_load_a / mma_load_b
// read a 4x4 fragment from local memory (row stride in bytes), mma_compute
// does C[i][j] = C[i][j] + A[i][k] * B[k][j] for k = 0..3 with a separate
// f32 multiply and add (FP_CONTRACT OFF), and fragment 2 starts at zeros.
// The fragments are private arrays here, the 4x4x4 product fully unrolled
// (it is one instruction in WAVE); the k-block loop stays a loop.
// Arguments: mem = device base; a, b, c = byte offsets (wave-fe's r0..r2).
// cl/fe/mma_mfma.cl is the same tile product on the matrix cores.
#include "../wave.h"
#pragma OPENCL FP_CONTRACT OFF

static inline float lds_f32(local uchar *lds, uint a) { return as_f32(lds_ld32(lds, a)); }

__attribute__((reqd_work_group_size(256, 1, 1)))
kernel void mma16(global uchar *mem, uint a, uint b, uint c) {
  local uchar lds[3072];                // sa, sb, sc: 256 f32 each
  uint t = sr_thread_id_x();
  uint o = t << 2;
  lds_st32(lds, o, dev_ld32(mem, a + o));
  lds_st32(lds, 1024u + o, dev_ld32(mem, b + o));
  wave_barrier();
  if (t < 16) {
    uint bi = t / 4, bj = t % 4;
    float fc[4][4];                     // fragment 2: zeros until computed
#pragma unroll
    for (uint i = 0; i < 4; ++i)
#pragma unroll
      for (uint j = 0; j < 4; ++j)
        fc[i][j] = 0.0f;
    WAVE_LOOP
    for (uint bk = 0; bk < 4; ++bk) {
      uint pa = (bi * 64u + bk * 4u) << 2;          // mma_load_a 0, pa, 64
      uint pb = 1024u + ((bk * 64u + bj * 4u) << 2); // mma_load_b 1, pb, 64
      float fa[4][4], fb[4][4];
#pragma unroll
      for (uint i = 0; i < 4; ++i)
#pragma unroll
        for (uint k = 0; k < 4; ++k)
          fa[i][k] = lds_f32(lds, pa + i * 64u + 4u * k);
#pragma unroll
      for (uint k = 0; k < 4; ++k)
#pragma unroll
        for (uint j = 0; j < 4; ++j)
          fb[k][j] = lds_f32(lds, pb + k * 64u + 4u * j);
#pragma unroll                          // mma_compute 0, 1, 2
      for (uint i = 0; i < 4; ++i)
#pragma unroll
        for (uint j = 0; j < 4; ++j)
#pragma unroll
          for (uint k = 0; k < 4; ++k)
            fc[i][j] = fc[i][j] + fa[i][k] * fb[k][j];
    }
    uint pc = 2048u + ((bi * 64u + bj * 4u) << 2);  // mma_store_c pc, 64, 2
#pragma unroll
    for (uint i = 0; i < 4; ++i)
#pragma unroll
      for (uint j = 0; j < 4; ++j)
        lds_st32(lds, pc + i * 64u + 4u * j, as_u32(fc[i][j]));
  }
  wave_barrier();
  dev_st32(mem, c + o, lds_ld32(lds, 2048u + o));
}
