// A loop with an early exit: per row, the first column above a threshold.
// RUN: %python %utils/fe_e2e.py %s --bindir %bindir --case first_above | FileCheck %s
// CHECK: OK -O0
// CHECK: OK -O2

export function first_above(data: f32[], out: Int32Array, rows: u32, cols: u32, threshold: f32): void {
  const row = global_id();
  if (row < rows) {
    let found: i32 = -1;
    for (let j = 0; j < cols; j++) {
      if (data[row * cols + j] > threshold) {
        found = i32(j);
        break;
      }
    }
    out[row] = found;
  }
}
