// Elementwise kernel with a bounds check over several workgroups.
// RUN: %python %utils/fe_e2e.py %s --bindir %bindir --case saxpy | FileCheck %s
// CHECK: OK -O0
// CHECK: OK -O2

#[kernel]
fn saxpy(x: &[f32], y: &[f32], out: &mut [f32], a: f32, n: u32) {
    let i = global_id();
    if i < n {
        out[i] = a * x[i] + y[i];
    }
}
