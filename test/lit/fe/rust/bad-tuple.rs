// bad-tuple.rs: what tuples cannot do, one located error each, in one run:
// be a kernel parameter, mismatch the tuple they initialise (elements or
// their number), name an element they lack, compare, hold a buffer, or
// take a field number on a scalar. Buffers and shared arrays of tuples,
// the unit type and a match taking a tuple value apart after its first arm
// are the parser's errors (Inputs/bad-tuple-syntax.rs).
// RUN: not wave-fe %s 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: not wave-fe --emit=ast %S/Inputs/bad-tuple-syntax.rs 2>&1 | FileCheck %S/Inputs/bad-tuple-syntax.rs --check-prefix=SYNTAX --implicit-check-not=error:

fn first(p: (f32, u32)) -> f32 {
    p.0
}

// CHECK: bad-tuple.rs:[[@LINE+2]]:6: error: kernel parameter 't' has type '(f32, u32)'; kernel parameters are buffers or bool, i32, u32, f16, f32 scalars
#[kernel]
fn k(t: (f32, u32), out: &mut [f32], n: u32) {
// CHECK: bad-tuple.rs:[[@LINE+1]]:30: error: expected '(f32, f32, f32)' in the initial value of 'a', found '(f64, f64)'
    let a: (f32, f32, f32) = (1.0, 2.0);
// CHECK: bad-tuple.rs:[[@LINE+1]]:20: error: cannot convert 'u32' to 'f32' implicitly in element 0 of '(f32, u32)'; convert it explicitly: x as f32
    let b = first((n, n));
    let c = (1, 2.5);
// CHECK: bad-tuple.rs:[[@LINE+1]]:15: error: tuple '(i32, f64)' has no element 2 (it has 2)
    let d = c.2;
// CHECK: bad-tuple.rs:[[@LINE+1]]:15: error: no operator '==' for '(i32, f64)' and '(i32, f64)'
    let e = c == c;
// CHECK: bad-tuple.rs:[[@LINE+1]]:14: error: a tuple holds numbers, bools, structs and tuples, not 'f32[]'
    let f = (out, 1);
// CHECK: bad-tuple.rs:[[@LINE+1]]:15: error: field access '.0' on 'u32', which is not a tuple
    let g = n.0;
}
