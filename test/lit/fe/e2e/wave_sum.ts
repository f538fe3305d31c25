// A wave-operation reduction: every wave sums its lanes with reduce_add.
// RUN: %python %utils/fe_e2e.py %s --bindir %bindir --case wave_sum | FileCheck %s
// CHECK: OK -O0
// CHECK: OK -O2

export function wave_sum(src: Uint32Array, out: Uint32Array, n: u32): void {
  const i = global_id();
  let v: u32 = 0;
  if (i < n) {
    v = src[i];
  }
  const total = reduce_add(v);
  if (lane_id() === 0) {
    out[i / wave_width()] = total;
  }
}
