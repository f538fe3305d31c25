// block_sum.cl - OpenCL C twin of test/lit/fe/e2e/block_sum.py (see
// wave.h): per 256-thread workgroup, tile[t] = src[i] (0.0 for i >= n) in
// local memory, then a tree sum (while s > 0: tile[t] += tile[t + s] for
// t < s, barrier, s >>= 1) and out[workgroup_id] = tile[0]. Arguments:
// mem = device base; src, out = byte offsets, n = count (wave-fe's r0..r2).
#include "../wave.h"

__attribute__((reqd_work_group_size(256, 1, 1)))
kernel void block_sum(global uchar *mem, uint src, uint out, uint n) {
  local uchar tile[1024];
  uint t = sr_thread_id_x();
  uint wg = sr_workgroup_id_x();
  uint i = wg * sr_workgroup_size_x() + t;
  uint v = 0;                           // 0.0
  if (i < n)
    v = dev_ld32(mem, src + (i << 2));
  lds_st32(tile, t << 2, v);
  wave_barrier();
  uint s = 128;
  WAVE_LOOP
  while (s > 0) {
    if (t < s) {
      float mine = as_f32(lds_ld32(tile, t << 2));
      float other = as_f32(lds_ld32(tile, (t + s) << 2));
      lds_st32(tile, t << 2, as_u32(mine + other));
    }
    wave_barrier();
    s >>= 1;
  }
  if (t == 0)
    dev_st32(mem, out + (wg << 2), lds_ld32(tile, 0));
}
