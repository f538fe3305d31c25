// A loop with an early exit: per row, the first column above a threshold.
// RUN: %python %utils/fe_e2e.py %s --bindir %bindir --case first_above | FileCheck %s
// CHECK: OK -O0
// CHECK: OK -O2

#[kernel]
fn first_above(data: &[f32], out: &mut [i32], rows: u32, cols: u32, threshold: f32) {
    let row = global_id();
    if row < rows {
        let mut found: i32 = -1;
        for j in 0..cols {
            if data[row * cols + j] > threshold {
                found = j as i32;
                break;
            }
        }
        out[row] = found;
    }
}
