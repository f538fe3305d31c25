// bad-match-types.rs: patterns are checked with the dialect's types: a
// pattern of another type than the scrutinee, and a match whose arms have
// different types, are located errors (from the checker, after parsing).
// RUN: not wave-fe %s 2>&1 | FileCheck %s --implicit-check-not=error:
enum E { A }
fn f(n: u32, e: E) -> u32 {
// CHECK: bad-match-types.rs:[[@LINE+2]]:9: error: invalid operands to '==' ('u32' and 'i32')
    match n {
        E::A => 1,
        _ => 2,
    }
}
fn g(n: u32) -> u32 {
// CHECK: bad-match-types.rs:[[@LINE+2]]:9: error: invalid operands to '?:' ('u32' and 'f32')
    let x = match n {
        0 => 1u32,
        _ => 2.0f32,
    };
    x
}
