// transpose.cl - OpenCL C twin of test/lit/fe/e2e/transpose.py (see
// wave.h): 16x16 workgroups, x = workgroup_id(0) * 16 + thread_id(0),
// y = global_id(1); where x < w and y < h, dst[x * h + y] = src[y * w + x]
// (a 32-bit copy). Arguments: mem = device base; src, dst = byte offsets,
// w, h (wave-fe's r0..r3).
#include "../wave.h"

__attribute__((reqd_work_group_size(16, 16, 1)))
kernel void transpose(global uchar *mem, uint src, uint dst, uint w, uint h) {
  uint x = sr_workgroup_id_x() * sr_workgroup_size_x() + sr_thread_id_x();
  uint y = sr_workgroup_id_y() * __builtin_amdgcn_workgroup_size_y() +
           sr_thread_id_y();
  if (x < w && y < h)
    dev_st32(mem, dst + ((x * h + y) << 2), dev_ld32(mem, src + ((y * w + x) << 2)));
}
