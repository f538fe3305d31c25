// vector_add.cl - OpenCL C twin of examples/vector_add.wave (wave.h says how
// the twins are written): C[i] = A[i] + B[i] over n f32, one thread per
// element, tail check. Arguments: mem = device base; a, b, c = byte offsets,
// n = count (WAVE r0..r3).
#include "wave.h"

__attribute__((reqd_work_group_size(64, 1, 1)))
kernel void vector_add(global uchar *mem, uint a, uint b, uint c, uint n) {
  uint i = sr_workgroup_id_x() * sr_workgroup_size_x() + sr_thread_id_x();
  if (i < n) {
    uint o = i << 2;
    float x = as_f32(dev_ld32(mem, a + o));
    float y = as_f32(dev_ld32(mem, b + o));
    dev_st32(mem, c + o, as_u32(x + y));
  }
}
