// mma_mfma.cl - the tile product of cl/fe/mma.cl (test/lit/fe/e2e/mma.py)
// on gfx942's matrix cores: NOT a twin of the WAVE kernel and NOT
// bit-identical to it. compare.py shows it as a clang-only row, to say what
// an MFMA lowering of WAVE's MMA could reach. The staging in local memory,
// the barriers and the copy-out are mma16's; instead of 16 lanes each
// accumulating one 4x4 block with separate multiplies and adds, wave 0
// (lanes 0..63) computes the whole 16x16 block with four
// v_mfma_f32_16x16x4_f32 (one per k-block of 4), whose products and sums
// are not rounded as WAVE's mma_compute rounds them (the results agree
// exactly only where every product and partial sum is exact, as in
// fe_e2e.py's integer-valued case). Operand layout of the 16x16x4 f32 MFMA
// (one block): lane l gives A[l % 16][k0 + l / 16] and B[k0 + l / 16][l % 16];
// it gets D[4 (l / 16) + r][l % 16] in element r. Arguments: mem = device
// base; a, b, c = byte offsets.
#include "../wave.h"

static inline float lds_f32(local uchar *lds, uint a) { return as_f32(lds_ld32(lds, a)); }

__attribute__((reqd_work_group_size(256, 1, 1)))
kernel void mma_mfma(global uchar *mem, uint a, uint b, uint c) {
  local uchar lds[3072];                // sa, sb, sc: 256 f32 each
  uint t = sr_thread_id_x();
  uint o = t << 2;
  lds_st32(lds, o, dev_ld32(mem, a + o));
  lds_st32(lds, 1024u + o, dev_ld32(mem, b + o));
  wave_barrier();
  if (t < 64) {                         // wave 0, all lanes
    uint r = t % 16, q = t / 16;
    float4 acc = (float4)(0.0f);
    WAVE_LOOP
    for (uint bk = 0; bk < 4; ++bk) {
      float av = lds_f32(lds, (r * 16u + bk * 4u + q) << 2);
      float bv = lds_f32(lds, 1024u + (((bk * 4u + q) * 16u + r) << 2));
      acc = __builtin_amdgcn_mfma_f32_16x16x4f32(av, bv, acc, 0, 0, 0);
    }
    uint pc = 2048u + (((4u * q) * 16u + r) << 2);
    lds_st32(lds, pc, as_u32(acc.x));
    lds_st32(lds, pc + 64u, as_u32(acc.y));
    lds_st32(lds, pc + 128u, as_u32(acc.z));
    lds_st32(lds, pc + 192u, as_u32(acc.w));
  }
  wave_barrier();
  dev_st32(mem, c + o, lds_ld32(lds, 2048u + o));
}
