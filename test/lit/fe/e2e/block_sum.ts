// A workgroup reduction through shared memory and barriers.
// RUN: %python %utils/fe_e2e.py %s --bindir %bindir --case block_sum | FileCheck %s
// CHECK: OK -O0
// CHECK: OK -O2

// @kernel workgroup_size(256, 1, 1)
function block_sum(src: f32[], out: f32[], n: u32): void {
  const tile = shared(f32, 256);
  const t = thread_id();
  const i = global_id();
  let v: f32 = 0.0;
  if (i < n) {
    v = src[i];
  }
  tile[t] = v;
  barrier();
  let s: u32 = 128;
  while (s > 0) {
    if (t < s) {
      tile[t] += tile[t + s];
    }
    barrier();
    s = s >> 1;
  }
  if (t === 0) {
    out[workgroup_id()] = tile[0];
  }
}
