// Elementwise kernel with a bounds check over several workgroups.
// RUN: %python %utils/fe_e2e.py %s --bindir %bindir --case saxpy | FileCheck %s
// CHECK: OK -O0
// CHECK: OK -O2

export function saxpy(x: f32[], y: f32[], out: f32[], a: f32, n: u32): void {
  const i = global_id();
  if (i < n) {
    out[i] = a * x[i] + y[i];
  }
}
