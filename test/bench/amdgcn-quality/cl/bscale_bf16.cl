// bscale_bf16.cl - OpenCL C twin of examples/bscale_bf16.wave (see wave.h):
// packed bf16 OUT = X * scale + Y with `bmul2` then `badd2`, each truncating.
// Arguments: mem = device base; x, y, out = byte offsets, scale2 = scale's
// bf16 bits twice, npairs = words (WAVE r0..r4).
#include "wave.h"

__attribute__((reqd_work_group_size(64, 1, 1)))
kernel void bscale_bf16(global uchar *mem, uint x, uint y, uint out, uint scale2,
                        uint npairs) {
  uint i = sr_workgroup_id_x() * sr_workgroup_size_x() + sr_thread_id_x();
  if (i < npairs) {
    uint o = i << 2;
    uint xv = dev_ld32(mem, x + o);
    uint yv = dev_ld32(mem, y + o);
    uint r = wave_badd2(wave_bmul2(xv, scale2), yv);
    dev_st32(mem, out + o, r);
  }
}
