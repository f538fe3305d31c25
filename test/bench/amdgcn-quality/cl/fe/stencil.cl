// stencil.cl - OpenCL C twin of test/lit/fe/e2e/stencil.py (see wave.h and
// saxpy.cl): with signed i = global_id() < n, left = src[i - 1] and right
// = src[i + 1], either 0.0 outside [0, n) (signed compares), and dst[i] =
// left + (right - left) * t, three separately rounded operations; i +- 1
// wraps as WAVE's iadd/isub. The
// device functions are inlined on both sides. Arguments: mem = device base;
// src, dst = byte offsets, t = f32 bits, n = count (wave-fe's r0..r3).
#include "../wave.h"
#pragma OPENCL FP_CONTRACT OFF

static inline float lerp(float a, float b, float t) { return a + (b - a) * t; }

static inline float load_or_zero(global uchar *mem, uint buf, int i, int n) {
  if (i < 0 || i >= n)
    return 0.0f;
  return as_f32(dev_ld32(mem, buf + ((uint)i << 2)));
}

__attribute__((reqd_work_group_size(256, 1, 1)))
kernel void stencil(global uchar *mem, uint src, uint dst, uint t, uint n) {
  int i = (int)(sr_workgroup_id_x() * sr_workgroup_size_x() + sr_thread_id_x());
  if (i < (int)n) {
    float left = load_or_zero(mem, src, (int)((uint)i - 1u), (int)n);
    float right = load_or_zero(mem, src, (int)((uint)i + 1u), (int)n);
    dev_st32(mem, dst + ((uint)i << 2), as_u32(lerp(left, right, as_f32(t))));
  }
}
