// errors-unsupported.rs: Rust constructs outside the WAVE dialect (items,
// generics (of structs and impls too), non-WAVE types, macros, closures,
// references, strings, the unit value, bad tuple fields, arrays, ?, paths,
// unknown methods, labels, other iterators,
// unsafe, Option patterns) each get one located error, all in one run.
// (`const` items, `let (a, b) = ...` and `match` are part of the dialect:
// bad-match.rs has the errors of patterns.)
// RUN: not wave-fe --emit=ast %s 2>&1 | FileCheck %s --implicit-check-not=error:

// CHECK: errors-unsupported.rs:[[@LINE+1]]:5: error: only 'use wave::...' and 'use std::ops::...' imports are supported in WAVE kernels
use std::io;
// CHECK: errors-unsupported.rs:[[@LINE+1]]:9: error: generic structs are not supported in WAVE kernels
struct P<T> { x: T }
// CHECK: errors-unsupported.rs:[[@LINE+1]]:1: error: 'extern crate' is not supported in WAVE kernels
extern crate foo;
// CHECK: errors-unsupported.rs:[[@LINE+1]]:1: error: modules are not supported in WAVE kernels
mod m { fn a() {} }
// CHECK: errors-unsupported.rs:[[@LINE+1]]:5: error: generic impls are not supported in WAVE kernels
impl<T> P { fn f(&self) {} }
// A constant is fine (no error).
const N: u32 = 4;
// CHECK: errors-unsupported.rs:[[@LINE+1]]:1: error: 'static' items are not supported in WAVE kernels
static S: u32 = 1;
// CHECK: errors-unsupported.rs:[[@LINE+1]]:1: error: macros ('macro_rules!') are not supported in WAVE kernels
macro_rules! mac { () => {} }
// CHECK: errors-unsupported.rs:[[@LINE+1]]:1: error: 'unsafe' items are not supported in WAVE kernels
unsafe fn u() {}
// CHECK: errors-unsupported.rs:[[@LINE+1]]:1: error: 'async' functions are not supported in WAVE kernels
async fn v() {}
// CHECK: errors-unsupported.rs:[[@LINE+1]]:5: error: generic functions are not supported in WAVE kernels
fn g<T>(x: T) {}
// CHECK: errors-unsupported.rs:[[@LINE+5]]:11: error: type 'u64' is not supported in WAVE kernels (scalars are f32, f64, f16, i32, u32 and bool)
// CHECK: errors-unsupported.rs:[[@LINE+4]]:19: error: only slices ('&[T]' and '&mut [T]') can be passed by reference in WAVE kernels
// CHECK: errors-unsupported.rs:[[@LINE+3]]:33: error: raw pointers are not supported in WAVE kernels; use '&[T]' or '&mut [T]'
// CHECK: errors-unsupported.rs:[[@LINE+2]]:46: error: array and slice types are only supported as buffer parameters ('&[T]', '&mut [T]')
// CHECK: errors-unsupported.rs:[[@LINE+1]]:59: error: type 'String' is not supported in WAVE kernels (scalars are f32, f64, f16, i32, u32 and bool)
fn bad(a: u64, b: &Vec<f32>, c: *mut f32, d: [f32; 4], e: String) {}
fn body(n: u32, x: f32) {
// Tuple destructuring and match are fine (no error).
    let (a, b) = (1, 2);
// (no error)
    let y = match n { 0 => 1, _ => 2 };
// CHECK: errors-unsupported.rs:[[@LINE+1]]:5: error: macros ('println!') are not supported in WAVE kernels
    println!("hi {}", n);
// CHECK: errors-unsupported.rs:[[@LINE+1]]:13: error: macros ('vec!') are not supported in WAVE kernels
    let v = vec![1, 2];
// CHECK: errors-unsupported.rs:[[@LINE+1]]:13: error: closures are not supported in WAVE kernels
    let c = |x| x + 1;
// CHECK: errors-unsupported.rs:[[@LINE+1]]:13: error: references ('&') are not supported in WAVE kernel expressions
    let r = &n;
// CHECK: errors-unsupported.rs:[[@LINE+1]]:13: error: dereferencing ('*') is not supported in WAVE kernels
    let d = *r;
// CHECK: errors-unsupported.rs:[[@LINE+1]]:13: error: string literals are not supported in WAVE kernels
    let s = "str";
// CHECK: errors-unsupported.rs:[[@LINE+1]]:14: error: character literals are not supported in WAVE kernels
    let ch = 'c';
// CHECK: errors-unsupported.rs:[[@LINE+1]]:13: error: the unit value '()' is not supported in WAVE kernel expressions
    let t = ();
// CHECK: errors-unsupported.rs:[[@LINE+1]]:15: error: array expressions are not supported in WAVE kernels
    let arr = [1, 2, 3];
// CHECK: errors-unsupported.rs:[[@LINE+1]]:14: error: the '?' operator is not supported in WAVE kernels
    let q = n?;
// CHECK: errors-unsupported.rs:[[@LINE+1]]:13: error: path 'std::f32::consts::PI' is not supported in WAVE kernels (only 'wave::' calls are)
    let p = std::f32::consts::PI;
// CHECK: errors-unsupported.rs:[[@LINE+1]]:15: error: method 'powf' is not supported in WAVE kernels
    let z = x.powf(2.0);
// CHECK: errors-unsupported.rs:[[@LINE+1]]:13: error: literal suffix 'u64' is not supported in WAVE kernels (scalars are f32, f64, f16, i32, u32 and bool)
    let w = 1u64;
// CHECK: errors-unsupported.rs:[[@LINE+1]]:13: error: invalid suffix 'u32' on a float literal
    let y = 1.0u32;
// CHECK: errors-unsupported.rs:[[@LINE+1]]:15: error: expected a tuple element number after '.', found '0x1'
    let f = x.0x1;
// CHECK: errors-unsupported.rs:[[@LINE+2]]:5: error: loop labels are not supported in WAVE kernels
// CHECK: errors-unsupported.rs:[[@LINE+1]]:26: error: loop labels are not supported in WAVE kernels
    'outer: loop { break 'outer; }
// CHECK: errors-unsupported.rs:[[@LINE+1]]:18: error: 'break' with a value is not supported in WAVE kernels
    loop { break 5; }
// CHECK: errors-unsupported.rs:[[@LINE+1]]:14: error: only ranges ('a..b', 'a..=b', '(a..b).step_by(s)') can be iterated in WAVE kernels
    for i in arr {}
// CHECK: errors-unsupported.rs:[[@LINE+1]]:21: error: only '.step_by(s)' can follow a range in WAVE kernels (found 'rev')
    for i in (0..n).rev() {}
// CHECK: errors-unsupported.rs:[[@LINE+1]]:5: error: 'unsafe' blocks are not supported in WAVE kernels
    unsafe { foo(); }
// CHECK: errors-unsupported.rs:[[@LINE+1]]:12: error: tuple-struct patterns ('Some(...)') are not supported in WAVE kernels
    if let Some(x) = y {}
// CHECK: errors-unsupported.rs:[[@LINE+1]]:15: error: tuple-struct patterns ('Some(...)') are not supported in WAVE kernels
    while let Some(x) = y {}
// CHECK: errors-unsupported.rs:[[@LINE+1]]:5: error: 'fn' items inside functions are not supported in WAVE kernels
    fn inner() {}
}
