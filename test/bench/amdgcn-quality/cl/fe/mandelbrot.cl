// mandelbrot.cl - OpenCL C twin of test/lit/fe/e2e/mandelbrot.py (kernel
// `mandel`; see wave.h): pixel i < w * h of a w x h image is c =
// (-2 + 3 f32(i % w) / f32(w), -1.5 + 3 f32(i / w) / f32(h)); out[i] is the
// number of steps z = z * z + c from z = 0 before |z|^2 > 4, at most
// max_iter. Every f32 operation is rounded in source order (FP_CONTRACT
// OFF); the division must be IEEE's, so compare.py compiles the frontend
// twins with -cl-fp32-correctly-rounded-divide-sqrt (w, h > 0 here, so
// WAVE's fdiv-by-zero rule never applies). Odd rows step through the method
// (Orbit.step), even rows through next_z, as the source does; both compute
// the same values. Arguments: mem = device base; out = byte offset, w, h,
// max_iter (wave-fe's r0..r3).
#include "../wave.h"
#pragma OPENCL FP_CONTRACT OFF

__attribute__((reqd_work_group_size(64, 1, 1)))
kernel void mandel(global uchar *mem, uint out, uint w, uint h, uint max_iter) {
  uint i = sr_workgroup_id_x() * sr_workgroup_size_x() + sr_thread_id_x();
  if (i >= w * h)
    return;
  float cre = -2.0f + 3.0f * (float)(i % w) / (float)w;
  float cim = -1.5f + 3.0f * (float)(i / w) / (float)h;
  float zre = 0.0f, zim = 0.0f;
  uint n = 0;
  bool odd = (i / w) % 2u == 1u;
  WAVE_LOOP
  while (n < max_iter) {
    if (zre * zre + zim * zim > 4.0f)
      break;
    if (odd) {                          // o.step(): zz = z * z; zz += c
      float re = zre * zre - zim * zim;
      float im = zre * zim + zim * zre;
      zre = re + cre;
      zim = im + cim;
      n += 1;
    } else {                            // o.z = next_z(o.z, o.c); o.n += 1
      float re = zre * zre - zim * zim;
      float im = zre * zim + zim * zre;
      zre = re + cre;
      zim = im + cim;
      n += 1;
    }
  }
  dev_st32(mem, out + (i << 2), n);
}
