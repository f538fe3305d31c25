// saxpy.cl - OpenCL C twin of examples/saxpy.wave (see wave.h): Y[i] =
// alpha * X[i] + Y[i] with one fused fma, in place. Arguments: mem = device
// base; x, y = byte offsets, alpha = f32 bits, n = count (WAVE r0..r3).
#include "wave.h"

__attribute__((reqd_work_group_size(128, 1, 1)))
kernel void saxpy(global uchar *mem, uint x, uint y, uint alpha, uint n) {
  uint i = sr_workgroup_id_x() * sr_workgroup_size_x() + sr_thread_id_x();
  if (i < n) {
    uint o = i << 2;
    float xv = as_f32(dev_ld32(mem, x + o));
    float yv = as_f32(dev_ld32(mem, y + o));
    dev_st32(mem, y + o, as_u32(__builtin_fmaf(as_f32(alpha), xv, yv)));
  }
}
