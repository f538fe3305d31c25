// wave_reduce.cl - OpenCL C twin of examples/wave_reduce.wave (see wave.h):
// per wave, SUM = f32 sum by a wave_shuffle_xor butterfly over masks
// W/2..1 and COUNT = wave_reduce_add of (v > 0.0 ? 1 : 0); lane 0 writes
// both at the global wave index. Arguments: mem = device base; input, sum,
// count = byte offsets (WAVE r0..r2).
#include "wave.h"

__attribute__((reqd_work_group_size(64, 1, 1)))
kernel void wave_reduce(global uchar *mem, uint input, uint sum, uint count) {
  uint wg = sr_workgroup_id_x();
  uint g = wg * 64u + sr_thread_id_x();
  uint v = dev_ld32(mem, input + (g << 2));
  uint positive = wave_reduce_add(as_f32(v) > 0.0f ? 1u : 0u);
  uint m = WAVE_W >> 1;
  WAVE_LOOP
  do {
    uint partner = wave_shuffle_xor(v, m);
    v = as_u32(as_f32(v) + as_f32(partner));
    m >>= 1;
  } while (m != 0);                     // uniform exit when m reaches 0
  if (sr_lane_id() == 0) {
    uint w = wg * SR_NUM_WAVES(64u) + sr_wave_id();
    uint o = w << 2;
    dev_st32(mem, sum + o, v);
    dev_st32(mem, count + o, positive);
  }
}
