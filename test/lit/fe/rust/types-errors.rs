// Rust makes no implicit conversion: every mismatch below is an error, and
// all of them are reported in one run.
// RUN: not wave-fe %s 2>&1 | FileCheck %s --implicit-check-not=error:

fn scale(x: f32, k: f32) -> f32 {
    x * k
}

#[kernel]
fn k(p: &[f32], q: &mut [i32], n: u32) {
    let i = thread_id();
// CHECK: types-errors.rs:[[@LINE+1]]:12: error: cannot convert 'u32' to 'i32' implicitly in the store to 'q'; convert it explicitly: x as i32
    q[i] = n;
// CHECK: types-errors.rs:[[@LINE+1]]:18: error: invalid operands to '+' ('i32' and 'u32'): Rust does not convert between number types implicitly; convert one side, for example x as u32
    let m = q[0] + n;
// CHECK: types-errors.rs:[[@LINE+1]]:8: error: expected a bool in the condition of 'if', found 'u32'
    if n {
    }
// CHECK: types-errors.rs:[[@LINE+1]]:25: error: cannot convert 'u32' to 'f32' implicitly in argument 2 ('k') of 'scale'
    let y = scale(p[0], n);
    let c = 1;
// CHECK: types-errors.rs:[[@LINE+2]]:7: error: cannot assign to 'c': it is not mutable (declare it with 'mut')
// CHECK: types-errors.rs:[[@LINE-2]]:9: note: 'c' is declared here
    c = 2;
// CHECK: types-errors.rs:[[@LINE+2]]:10: error: cannot store to read-only buffer 'p'
// CHECK: types-errors.rs:10:6: note: 'p' is declared here
    p[0] = 1.0;
}
