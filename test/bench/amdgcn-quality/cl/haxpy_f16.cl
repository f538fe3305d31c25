// haxpy_f16.cl - OpenCL C twin of examples/haxpy_f16.wave (see wave.h):
// packed f16 Y = alpha * X + Y with `hma2`, two halves per u32 word.
// Arguments: mem = device base; x, y = byte offsets, alpha2 = alpha's f16
// bits twice, npairs = words (WAVE r0..r3).
#include "wave.h"

__attribute__((reqd_work_group_size(64, 1, 1)))
kernel void haxpy_f16(global uchar *mem, uint x, uint y, uint alpha2, uint npairs) {
  uint i = sr_workgroup_id_x() * sr_workgroup_size_x() + sr_thread_id_x();
  if (i < npairs) {
    uint o = i << 2;
    uint xv = dev_ld32(mem, x + o);
    uint yv = dev_ld32(mem, y + o);
    dev_st32(mem, y + o, wave_hma2(alpha2, xv, yv));
  }
}
