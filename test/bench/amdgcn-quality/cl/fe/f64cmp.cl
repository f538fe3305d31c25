// f64cmp.cl - OpenCL C twin of test/lit/fe/e2e/f64cmp.py (see wave.h): for
// i < n, x = a[i], y = b[i] (f64), out[4i] = min(x, y) and out[4i + 1] =
// max(x, y) with Python's rule (y when x is NaN or y < x, resp. y > x;
// else x), out[4i + 2] = f64 of the mask of x < y, <=, >, >=, ==, !=
// (bits 0..5), out[4i + 3] = 1.0 if x < y <= 1.0 else 0.0. WAVE has no f64
// compare, so wave-fe builds each from dsub, dmul, cvt_f32_f64 and fcmp
// (formats/kernel-languages.md §3); the twin uses gfx942's v_cmp_*_f64,
// which is what an OpenCL programmer gets: the same results, not the same
// operations. Arguments: mem = device base; a, b, out = byte offsets, n =
// count (wave-fe's r0..r3).
#include "../wave.h"
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

static inline double dev_ldf64(global uchar *mem, uint a) { return *(global double *)(mem + a); }
static inline void dev_stf64(global uchar *mem, uint a, double v) { *(global double *)(mem + a) = v; }

__attribute__((reqd_work_group_size(256, 1, 1)))
kernel void f64cmp(global uchar *mem, uint a, uint b, uint out, uint n) {
  uint i = sr_workgroup_id_x() * sr_workgroup_size_x() + sr_thread_id_x();
  if (i < n) {
    double x = dev_ldf64(mem, a + (i << 3));
    double y = dev_ldf64(mem, b + (i << 3));
    bool xnan = x != x;
    dev_stf64(mem, out + ((4u * i) << 3), xnan || y < x ? y : x);
    dev_stf64(mem, out + ((4u * i + 1u) << 3), xnan || y > x ? y : x);
    uint m = 0;
    if (x < y)
      m |= 1u;
    if (x <= y)
      m |= 2u;
    if (x > y)
      m |= 4u;
    if (x >= y)
      m |= 8u;
    if (x == y)
      m |= 16u;
    if (x != y)
      m |= 32u;
    dev_stf64(mem, out + ((4u * i + 2u) << 3), (double)m);
    dev_stf64(mem, out + ((4u * i + 3u) << 3), x < y && y <= 1.0 ? 1.0 : 0.0);
  }
}
