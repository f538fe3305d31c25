// Device-function calls: a clamped 3-point blend through two helpers.
// RUN: %python %utils/fe_e2e.py %s --bindir %bindir --case stencil | FileCheck %s
// CHECK: OK -O0
// CHECK: OK -O2

fn lerp(a: f32, b: f32, t: f32) -> f32 {
    a + (b - a) * t
}

fn load_or_zero(buf: &[f32], i: i32, n: i32) -> f32 {
    if i < 0 || i >= n {
        return 0.0;
    }
    buf[i]
}

#[kernel]
fn stencil(src: &[f32], dst: &mut [f32], t: f32, n: u32) {
    let i = global_id() as i32;
    if i < n as i32 {
        let left = load_or_zero(src, i - 1, n as i32);
        let right = load_or_zero(src, i + 1, n as i32);
        dst[i] = lerp(left, right, t);
    }
}
