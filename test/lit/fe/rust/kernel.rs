// kernel.rs: what marks a kernel (#[kernel], #[wave::kernel]), the
// workgroup_size argument (1 to 3 values, missing = 1), visibility and
// skipped attributes, and parameter types (slices, scalars, usize/isize
// aliases, `mut` parameters).
// RUN: wave-fe --emit=ast %s | FileCheck %s

//! Inner doc comment.
#![allow(dead_code)]

// CHECK: kernel plain(a: const f32[], b: f64[], n: u32, m: i32, f: bool, h: const f16[])
#[kernel]
fn plain(a: &[f32], b: &mut [f64], n: usize, m: isize, f: bool, h: &[f16]) {}

// CHECK: kernel qualified(x: const i32[], y: u32[]) workgroup_size(64, 1, 1)
/// Doc comment on a kernel.
#[inline]
#[wave::kernel(workgroup_size = (64))]
#[allow(unused_variables)]
pub fn qualified(x: &[i32], y: &mut [u32]) {}

// CHECK: kernel two_d(n: u32, k: i32) workgroup_size(16, 8, 1)
#[kernel(workgroup_size = (16, 8))]
pub(crate) fn two_d(mut n: u32, k: i32) {
    // CHECK-NEXT: n = k;
    n = k;
}

// CHECK: kernel three_d() workgroup_size(4, 4, 4)
#[wave::kernel(workgroup_size = (4, 4, 4,))]
fn three_d() -> () {}

// CHECK: kernel bare_size() workgroup_size(256, 1, 1)
#[kernel(workgroup_size = 256)]
fn bare_size() {}

// CHECK: func helper(x: f32) -> f32 {
fn helper(x: f32) -> f32 { x }
