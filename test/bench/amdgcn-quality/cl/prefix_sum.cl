// prefix_sum.cl - OpenCL C twin of examples/prefix_sum.wave (see wave.h):
// exclusive u32 scan of each 256-element block: wave_prefix_sum and
// wave_reduce_add per wave, lane 0 stores the wave total at local[4*wave];
// wave 0 scans the totals into local[128 + 4*lane]; every lane adds its
// wave's offset. Arguments: mem = device base; input, output = byte
// offsets, n = count (WAVE r0..r2).
#include "wave.h"

__attribute__((reqd_work_group_size(256, 1, 1)))
kernel void prefix_sum(global uchar *mem, uint input, uint output, uint n) {
  local uchar lds[512];
  uint t = sr_thread_id_x();
  uint g = sr_workgroup_id_x() * 256u + t;
  uint o = g << 2;
  uint v = 0;                           // value, 0 beyond n
  bool in_range = g < n;
  if (in_range)
    v = dev_ld32(mem, input + o);
  // step 1: scan inside the wave
  uint scan = wave_prefix_sum(v);
  uint total = wave_reduce_add(v);
  uint wave = sr_wave_id();
  uint lane = sr_lane_id();
  uint wa = wave << 2;                  // 4*wave_id
  if (lane == 0)
    lds_st32(lds, wa, total);
  wave_barrier();
  // step 2: wave 0 scans the totals
  uint nw = SR_NUM_WAVES(256u);
  if (wave == 0) {
    if (lane < nw) {
      uint a = lane << 2;
      uint x = lds_ld32(lds, a);
      uint s = wave_prefix_sum(x);
      lds_st32(lds, a + 128u, s);
    }
  }
  wave_barrier();
  // step 3: add the wave's offset
  scan += lds_ld32(lds, wa + 128u);
  if (in_range)
    dev_st32(mem, output + o, scan);
}
