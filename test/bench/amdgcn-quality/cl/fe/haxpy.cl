// haxpy.cl - OpenCL C twin of test/lit/fe/e2e/haxpy.py (see wave.h and
// saxpy.cl): out[i] = f16(a) * x[i] + y[i] for i < n on f16 buffers, a
// rounded to f16 (RNE), then an f16 multiply and an f16 add, each rounded
// (hmul, hadd; no fusion). Arguments: mem = device base; x, y, out = byte
// offsets, a = f32 bits, n = count (wave-fe's r0..r4).
#include "../wave.h"
#pragma OPENCL FP_CONTRACT OFF

__attribute__((reqd_work_group_size(256, 1, 1)))
kernel void haxpy(global uchar *mem, uint x, uint y, uint out, uint a, uint n) {
  uint i = sr_workgroup_id_x() * sr_workgroup_size_x() + sr_thread_id_x();
  if (i < n) {
    uint o = i << 1;
    half ha = (half)as_f32(a);
    half p = ha * *(global half *)(mem + (x + o));
    *(global half *)(mem + (out + o)) = p + *(global half *)(mem + (y + o));
  }
}
