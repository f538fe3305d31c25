// bad-match.rs: patterns outside the dialect (slices, structs, references,
// tuple structs, rest patterns, floats), non-exhaustive matches, bad ranges,
// bad constants and enums: each one located error with a caret, all in one
// run, and the rest of the file still checked.
// RUN: not wave-fe --emit=ast %s 2>&1 | FileCheck %s --implicit-check-not=error:

// Module items are parsed before the functions (enums, then constants), so
// their errors come first, in that order.
// CHECK-DAG: bad-match.rs:[[@LINE+1]]:29: error: constant 2147483648 does not fit in 'i32'
const BIG: i32 = 2147483647 + 1;
// CHECK-DAG: bad-match.rs:[[@LINE+1]]:15: error: expected ':' and a type after the constant name, found '='
const UNTYPED = 3;
// CHECK-DAG: bad-match.rs:[[@LINE+1]]:18: error: 'x' is not a constant; a constant's value may use literals and other constants only
const NOT: u32 = x + 1;
// CHECK-DAG: bad-match.rs:[[@LINE+1]]:7: error: constant 'LOOP' depends on itself
const LOOP: u32 = LOOP + 1;
// CHECK-DAG: bad-match.rs:[[@LINE+1]]:15: error: enum variants with fields are not supported in WAVE kernels (only C-like enums are)
enum Shape { P(f32), Q }
// CHECK-DAG: bad-match.rs:[[@LINE+1]]:19: error: discriminant 1 is already used by 'A'
enum Dup { A = 1, B = 1 }
enum Two { X, Y }

fn f(n: u32, m: i32, t: Two) -> u32 {
// CHECK: bad-match.rs:[[@LINE+3]]:5: error: non-exhaustive match: add an arm '_ => ...' (a match over integers needs an arm without a guard whose pattern is '_' or a name; a match over an enum or bool may list every value instead)
// CHECK-NEXT: match n {
// CHECK-NEXT: ^
    match n {
        0 => 1,
        k if k > 0 => 2,
    };
    match n {
// CHECK: bad-match.rs:[[@LINE+3]]:9: error: slice patterns are not supported in WAVE kernels
// CHECK-NEXT: [a, b] => 1,
// CHECK-NEXT: ^
        [a, b] => 1,
// CHECK: bad-match.rs:[[@LINE+1]]:9: error: struct patterns are not supported in WAVE kernels
        Point { x, y } => 2,
// CHECK: bad-match.rs:[[@LINE+1]]:9: error: reference patterns are not supported in WAVE kernels
        &r => 3,
// CHECK: bad-match.rs:[[@LINE+1]]:9: error: tuple-struct patterns ('Some(...)') are not supported in WAVE kernels
        Some(v) => 4,
// CHECK: bad-match.rs:[[@LINE+1]]:9: error: float patterns are not supported in WAVE kernels; compare in a guard
        1.5 => 5,
// CHECK: bad-match.rs:[[@LINE+1]]:10: error: lower range bound must be less than or equal to the upper bound
        9..=1 => 6,
// CHECK: bad-match.rs:[[@LINE+1]]:9: error: 'ref' patterns are not supported in WAVE kernels
        ref z => 7,
        _ => 8,
    };
// CHECK: bad-match.rs:[[@LINE+2]]:9: error: expected a tuple pattern of 2 elements: the scrutinee is a tuple
    let a = match (n, m) {
        0 => 1,
// CHECK: bad-match.rs:[[@LINE+1]]:13: error: rest patterns ('..') are not supported in WAVE kernels; write '_' for each element
        (1, ..) => 2,
// CHECK: bad-match.rs:[[@LINE+1]]:9: error: this pattern has 3 elements but the tuple has 2
        (1, 2, 3) => 3,
// CHECK: bad-match.rs:[[@LINE+1]]:9: error: binding a whole tuple scrutinee is not supported in WAVE kernels; bind its elements: '(a, b)'
        all => 4,
    };
// CHECK: bad-match.rs:[[@LINE+1]]:13: error: non-exhaustive match: add an arm
    let b = match t {
        Two::X => 1,
    };
// CHECK: bad-match.rs:[[@LINE+1]]:18: error: no variant 'Z' in enum 'Two'
    let c = Two::Z;
// CHECK: bad-match.rs:[[@LINE+1]]:12: error: bindings inside '|' alternatives are not supported in WAVE kernels; bind the whole pattern with '@'
    if let (x, 0) | (0, x) = (n, n) {}
// CHECK: bad-match.rs:[[@LINE+1]]:10: error: refutable pattern in 'let': use 'if let' or 'match'
    let (1, q) = (n, m);
    a + b
}
