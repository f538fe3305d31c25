// saxpy.cl - OpenCL C twin of test/lit/fe/e2e/saxpy.py (the frontend
// kernels of compare.py --set fe; conventions in wave.h): out[i] =
// a * x[i] + y[i] for i < n, a separately rounded multiply and add (the
// frontend does not contract; FP_CONTRACT OFF keeps clang from fusing).
// Arguments: mem = device base; x, y, out = byte offsets, a = f32 bits,
// n = count (wave-fe's r0..r4).
#include "../wave.h"
#pragma OPENCL FP_CONTRACT OFF

__attribute__((reqd_work_group_size(256, 1, 1)))
kernel void saxpy(global uchar *mem, uint x, uint y, uint out, uint a, uint n) {
  uint i = sr_workgroup_id_x() * sr_workgroup_size_x() + sr_thread_id_x();
  if (i < n) {
    uint o = i << 2;
    float p = as_f32(a) * as_f32(dev_ld32(mem, x + o));
    dev_st32(mem, out + o, as_u32(p + as_f32(dev_ld32(mem, y + o))));
  }
}
