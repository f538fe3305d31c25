// wave_sum.cl - OpenCL C twin of test/lit/fe/e2e/wave_sum.py (see wave.h):
// v = src[i] (0 for i >= n), total = reduce_add(v) over the wave (every lane
// of the 256-thread workgroup is active there: wave.h's DPP reduction), and
// lane 0 writes out[i / wave_width()] = total. Arguments: mem = device base;
// src, out = byte offsets, n = count (wave-fe's r0..r2).
#include "../wave.h"

__attribute__((reqd_work_group_size(256, 1, 1)))
kernel void wave_sum(global uchar *mem, uint src, uint out, uint n) {
  uint i = sr_workgroup_id_x() * sr_workgroup_size_x() + sr_thread_id_x();
  uint v = 0;
  if (i < n)
    v = dev_ld32(mem, src + (i << 2));
  uint total = wave_reduce_add(v);
  if (sr_lane_id() == 0)
    dev_st32(mem, out + ((i / WAVE_W) << 2), total);
}
