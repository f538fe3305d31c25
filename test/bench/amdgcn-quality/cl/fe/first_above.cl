// first_above.cl - OpenCL C twin of test/lit/fe/e2e/first_above.py (see
// wave.h): for row = global_id() < rows, out[row] = the first j < cols with
// data[row * cols + j] > threshold (an ordered compare), else -1; the loop
// leaves early. Arguments: mem = device base; data, out = byte offsets,
// rows, cols, threshold = f32 bits (wave-fe's r0..r4).
#include "../wave.h"

__attribute__((reqd_work_group_size(256, 1, 1)))
kernel void first_above(global uchar *mem, uint data, uint out, uint rows,
                        uint cols, uint threshold) {
  uint row = sr_workgroup_id_x() * sr_workgroup_size_x() + sr_thread_id_x();
  if (row < rows) {
    int found = -1;
    WAVE_LOOP
    for (uint j = 0; j < cols; ++j) {
      if (as_f32(dev_ld32(mem, data + ((row * cols + j) << 2))) > as_f32(threshold)) {
        found = (int)j;
        break;
      }
    }
    dev_st32(mem, out + (row << 2), (uint)found);
  }
}
