// histogram.cl - OpenCL C twin of test/lit/fe/e2e/histogram.py (see
// wave.h): for i < n, v = data[i]; bins[v % 16] += 1 and bins[16] =
// max(bins[16], v) (unsigned), both non-returning relaxed device-scope
// atomics as WAVE's atomic_add / atomic_max. Arguments: mem = device base;
// data, bins = byte offsets, n = count (wave-fe's r0..r2).
#include "../wave.h"

// `atomic_max addr, v, .device` without a result (unsigned).
static inline void dev_atomic_max(global uchar *mem, uint a, uint v) {
  __opencl_atomic_fetch_max((volatile global atomic_uint *)(mem + a), v,
                            __ATOMIC_RELAXED, __OPENCL_MEMORY_SCOPE_DEVICE);
}

__attribute__((reqd_work_group_size(256, 1, 1)))
kernel void histogram(global uchar *mem, uint data, uint bins, uint n) {
  uint i = sr_workgroup_id_x() * sr_workgroup_size_x() + sr_thread_id_x();
  if (i < n) {
    uint v = dev_ld32(mem, data + (i << 2));
    dev_atomic_add(mem, bins + ((v % 16u) << 2), 1u);
    dev_atomic_max(mem, bins + 64u, v);
  }
}
