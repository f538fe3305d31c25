// bad-struct-syntax.rs: struct and impl forms outside the dialect, each
// one located error, all in one run: generic, tuple, unit, empty structs
// and reference fields; generic impls, impls of unknown types and of
// unsupported traits, methods of marker traits, methods not of the trait,
// associated constants, kernels as methods, typed or misplaced `self`,
// `self` outside an impl, structs passed by reference, struct update
// syntax, literals of unknown structs.
// RUN: not wave-fe --emit=ast %s 2>&1 | FileCheck %s --implicit-check-not=error:
// CHECK: bad-struct-syntax.rs:[[@LINE+1]]:9: error: generic structs are not supported in WAVE kernels
struct G<T> { x: T }
// CHECK: bad-struct-syntax.rs:[[@LINE+1]]:10: error: tuple structs are not supported in WAVE kernels; name the fields: struct T2 { ... }
struct T2(f32, f32);
// CHECK: bad-struct-syntax.rs:[[@LINE+1]]:8: error: struct 'U' has no fields; WAVE structs hold at least one
struct U;
// CHECK: bad-struct-syntax.rs:[[@LINE+1]]:8: error: struct 'E' has no fields; WAVE structs hold at least one
struct E {}
// CHECK: bad-struct-syntax.rs:[[@LINE+1]]:15: error: references are only supported as buffer parameters ('&[T]', '&mut [T]')
struct R { r: &f32 }
struct V2 { x: f32, y: f32 }
// CHECK: bad-struct-syntax.rs:[[@LINE+1]]:5: error: generic impls are not supported in WAVE kernels
impl<T> V2 {}
// CHECK: bad-struct-syntax.rs:[[@LINE+1]]:6: error: 'impl' blocks are only supported for the structs of the file; 'Unknown' is not one
impl Unknown {}
// CHECK: bad-struct-syntax.rs:[[@LINE+1]]:16: error: trait 'Display' is not supported in WAVE kernels (the operator traits Add, Sub, Mul, Div, Rem, Neg and their *Assign forms are)
impl std::fmt::Display for V2 {}
// CHECK: bad-struct-syntax.rs:[[@LINE+1]]:20: error: 'Copy' needs no methods in WAVE kernels (structs are copied by value); derive it instead
impl Copy for V2 { fn copy(&self) {} }
// CHECK: bad-struct-syntax.rs:[[@LINE+1]]:32: error: method 'plus' is not a member of trait 'Add' (its method is 'add')
impl std::ops::Add for V2 { fn plus(self, o: V2) -> V2 { o } }
impl V2 {
// CHECK: bad-struct-syntax.rs:[[@LINE+1]]:5: error: associated constants are not supported in WAVE kernels; use a module 'const'
    const ZERO: f32 = 0.0;
// CHECK: bad-struct-syntax.rs:[[@LINE+1]]:7: error: a kernel cannot be a method; declare it outside the impl block
    #[kernel]
    fn k2(&self) {}
// CHECK: bad-struct-syntax.rs:[[@LINE+1]]:18: error: typed 'self' parameters are not supported in WAVE kernels; write self, &self or &mut self
    fn typed(self: V2) {}
// CHECK: bad-struct-syntax.rs:[[@LINE+1]]:23: error: 'self' must be the first parameter
    fn second(x: f32, &self) {}
}
// CHECK: bad-struct-syntax.rs:[[@LINE+1]]:9: error: 'self' parameters are only allowed in the methods of an 'impl' block
fn free(&self) {}
// CHECK: bad-struct-syntax.rs:[[@LINE+1]]:9: error: structs are passed by value in WAVE kernels; write 'v: V2'
fn f(v: &V2) {}
fn g() {
// CHECK: bad-struct-syntax.rs:[[@LINE+1]]:26: error: struct update syntax ('..base') is not supported in WAVE kernels
    let a = V2 { x: 1.0, ..b };
// CHECK: bad-struct-syntax.rs:[[@LINE+1]]:17: error: associated constants are not supported in WAVE kernels; only associated functions are
    let c = V2::ZERO;
// CHECK: bad-struct-syntax.rs:[[@LINE+1]]:13: error: unknown struct 'Nope'
    let d = Nope { x: 1.0 };
}
