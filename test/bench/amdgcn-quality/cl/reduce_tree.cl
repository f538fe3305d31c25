// reduce_tree.cl - OpenCL C twin of examples/reduce_tree.wave (see wave.h):
// per-workgroup f32 sum of 256 elements by a tree in local memory, with a
// barrier per level; thread 0 writes OUT[wg]. Arguments: mem = device base;
// input, output = byte offsets, n = count (WAVE r0..r2).
#include "wave.h"

__attribute__((reqd_work_group_size(256, 1, 1)))
kernel void reduce_tree(global uchar *mem, uint input, uint output, uint n) {
  local uchar lds[1024];
  uint t = sr_thread_id_x();
  uint wg = sr_workgroup_id_x();
  uint g = wg * 256u + t;
  uint la = t << 2;                     // local address 4t
  uint v = 0;                           // 0.0 for g >= n
  if (g < n)
    v = dev_ld32(mem, input + (g << 2));
  lds_st32(lds, la, v);
  wave_barrier();
  uint s = 128;
  WAVE_LOOP
  do {
    if (t < s) {
      uint other = lds_ld32(lds, la + (s << 2));
      uint mine = lds_ld32(lds, la);
      lds_st32(lds, la, as_u32(as_f32(mine) + as_f32(other)));
    }
    wave_barrier();
    s >>= 1;                            // s /= 2
  } while (s != 0);                     // uniform: all lanes leave together
  if (t == 0) {
    uint sum = lds_ld32(lds, 0);
    dev_st32(mem, output + (wg << 2), sum);
  }
}
