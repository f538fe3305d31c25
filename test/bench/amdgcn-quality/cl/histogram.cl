// histogram.cl - OpenCL C twin of examples/histogram.wave (see wave.h):
// BINS[v mod nbins] += 1 with a non-returning device-scope atomic add, in a
// grid-stride loop that a lane leaves once i >= n. Arguments: mem = device
// base; data, bins = byte offsets, n = count, nbins (WAVE r0..r3).
#include "wave.h"

__attribute__((reqd_work_group_size(64, 1, 1)))
kernel void histogram(global uchar *mem, uint data, uint bins, uint n, uint nbins) {
  uint wgsize = sr_workgroup_size_x();
  uint i = sr_workgroup_id_x() * wgsize + sr_thread_id_x();
  uint stride = sr_grid_size_x() * wgsize;
  WAVE_LOOP
  while (i < n) {                       // a lane leaves once n <= i
    uint v = dev_ld32(mem, data + (i << 2));
    uint bin = wave_imod(v, nbins);
    dev_atomic_add(mem, bins + (bin << 2), 1u);
    i += stride;
  }
}
