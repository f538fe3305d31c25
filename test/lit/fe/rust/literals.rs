// literals.rs: number literals (decimal, hex, octal, binary, `_`
// separators, exponents, suffixes; `1..n` is a range, not `1.`), bools,
// and every comment form (nested block comments, doc comments).
// RUN: wave-fe --emit=ast %s | FileCheck %s

/* A block comment /* with a nested one */ still a comment. */
/// Doc comment.
//! Inner doc comment.

// CHECK-LABEL: kernel lits(n: u32) {
#[kernel]
fn lits(n: u32) {
    // CHECK-NEXT: const a = ((1000000 + 255) + 8) + 5;
    let a = 1_000_000 + 0xff + 0o10 + 0b101;
    // CHECK-NEXT: const b = ((((1u32 + 2i32) + 3u32) + 4i32) + 1.5f32) + 2.0f64;
    let b = 1u32 + 2_i32 + 3usize + 4isize + 1.5f32 + 2f64;
    // CHECK-NEXT: const c = ((1.0 + 0.25) + 1e+03) + 0.015;
    let c = 1. + 0.25 + 1e3 + 1.5E-2;
    // CHECK-NEXT: const d = 1.0f16;
    let d = 1.0_f16;
    // CHECK-NEXT: const e = -1;
    let e = -1;
    // CHECK-NEXT: const f = true && !false;
    let f = true && !false;
    // CHECK-NEXT: for i in range(1, n, 1) {
    for i in 1..n {}
    // CHECK-NEXT: }
    // CHECK-NEXT: const big = 18446744073709551615;
    let big = 18446744073709551615;
}
