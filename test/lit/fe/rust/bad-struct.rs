// bad-struct.rs: struct errors Sema reports, each one located error (with
// a note where useful), all in one run, exit 1: self-containing and
// malformed structs, structs crossing an export or kernel boundary,
// literals with missing, unknown or repeated fields, fields of non-structs,
// '&mut self' on immutable or temporary receivers, assignment to fields of
// immutable values, missing operator traits, conditionals mixing a struct and a number,
// mismatched struct and scalar types, struct comparisons and casts.
// RUN: not wave-fe %s 2>&1 | FileCheck %s --implicit-check-not=error:
struct V2 { x: f32, y: f32 }
// CHECK: bad-struct.rs:[[@LINE+1]]:8: error: struct 'Ring' contains itself; it would have no size
struct Ring { next: Ring2 }
// CHECK: bad-struct.rs:[[@LINE+1]]:8: error: struct 'Ring2' contains itself; it would have no size
struct Ring2 { back: Ring }
// CHECK: bad-struct.rs:[[@LINE+1]]:22: error: duplicate field 'x' in struct 'Dup'
struct Dup { x: f32, x: i32 }
impl std::ops::Add for V2 { type Output = V2; fn add(self, o: V2) -> V2 { V2 { x: self.x + o.x, y: self.y + o.y } } }
impl std::ops::Mul for V2 { type Output = V2; fn mul(self, o: V2) -> V2 { V2 { x: self.x * o.x, y: self.y * o.y } } }
fn take(v: V2) -> f32 { v.x }
#[export]
// CHECK: bad-struct.rs:[[@LINE+1]]:7: error: parameter 'v' of exported function 'ex' is a struct; structs pass only between functions of one file (they are inlined)
fn ex(v: V2) -> f32 { v.x }
#[export]
// CHECK: bad-struct.rs:[[@LINE+1]]:4: error: exported function 'ex2' returns a struct; structs pass only between functions of one file (they are inlined)
fn ex2(x: f32) -> V2 { V2 { x, y: x } }
#[kernel]
// CHECK: bad-struct.rs:[[@LINE+1]]:23: error: kernel parameter 'p' has type 'V2'; kernel parameters are buffers or bool, i32, u32, f16, f32 scalars (one 32-bit register each, formats/kernel-abi.md)
fn k(out: &mut [f32], p: V2) {
    let v = V2 { x: 1.0, y: 2.0 };
// CHECK: bad-struct.rs:[[@LINE+1]]:13: error: missing field(s) 'y' in the literal of 'V2'
    let a = V2 { x: 1.0 };
// CHECK: bad-struct.rs:[[@LINE+1]]:34: error: struct 'V2' has no field 'z'
    let b = V2 { x: 1.0, y: 2.0, z: 3.0 };
// CHECK: bad-struct.rs:[[@LINE+1]]:29: error: cannot convert 'bool' to 'f32' implicitly in field 'y' of 'V2'; convert it explicitly: x as f32
    let c = V2 { x: 1.0, y: true };
// CHECK: bad-struct.rs:[[@LINE+1]]:27: error: field 'x' is given twice
    let c2 = V2 { x: 1.0, x: 2.0, y: 0.0 };
// CHECK: bad-struct.rs:[[@LINE+1]]:15: error: struct 'V2' has no field 'z'
    let d = v.z;
// CHECK: bad-struct.rs:[[@LINE+1]]:20: error: field access '.x' on 'f32', which is not a struct
    let e = out[0].x;
// CHECK: bad-struct.rs:[[@LINE+1]]:5: error: 'V2::set' takes '&mut self': 'v' is not mutable (declare it with 'mut')
    v.set(2.0);
// CHECK: bad-struct.rs:[[@LINE+2]]:9: error: cannot assign to a field of 'v': it is not mutable (declare it with 'mut')
// CHECK: bad-struct.rs:[[@LINE-16]]:9: note: 'v' is declared here
    v.x = 3.0;
// CHECK: bad-struct.rs:[[@LINE+1]]:15: error: no operator '-' for 'V2' and 'V2'; implement it: impl Sub for V2 { ... }
    let f = v - v;
// CHECK: bad-struct.rs:[[@LINE+1]]:17: error: expected 'V2' in argument 2 ('o') of 'V2::mul', found 'float literal'
    let g = v * 2.0;
// CHECK: bad-struct.rs:[[@LINE+1]]:13: error: no operator '-' for 'V2'; implement it: impl Neg for V2 { ... }
    let h = -v;
// CHECK: bad-struct.rs:[[@LINE+1]]:13: error: the branches of a conditional value have different types ('V2' and 'float literal')
    let w = if out[0] > 0.0 { v } else { 1.0 };
// CHECK: bad-struct.rs:[[@LINE+1]]:18: error: expected 'f32' in the initial value of 'n', found 'V2'
    let n: f32 = v;
// CHECK: bad-struct.rs:[[@LINE+1]]:18: error: expected 'V2' in argument 1 ('v') of 'take', found 'float literal'
    let o = take(1.0);
    let mut r;
// CHECK: bad-struct.rs:[[@LINE+1]]:7: error: 'r' holds a 'V2': declare it with its type ('r: V2') or an initial value
    r = v;
// CHECK: bad-struct.rs:[[@LINE+1]]:15: error: no operator '==' for 'V2' and 'V2'
    let s = v == v;
// CHECK: bad-struct.rs:[[@LINE+1]]:12: error: cannot assign a 'V2' to a 'f32'
    out[0] = v;
// CHECK: bad-struct.rs:[[@LINE+1]]:5: error: 'V2::set' takes '&mut self': call it on a variable
    V2 { x: 1.0, y: 2.0 }.set(1.0);
// CHECK: bad-struct.rs:[[@LINE+1]]:17: error: invalid operands to '+' ('float literal' and 'V2'): a struct operator takes the struct on the left
    let t = 2.0 + v;
// CHECK: bad-struct.rs:[[@LINE+1]]:17: error: no method 'len' on type 'float literal'
    let u = 1.0.len();
// CHECK: bad-struct.rs:[[@LINE+1]]:15: error: cannot convert 'V2' to 'f32'
    let q = v as f32;
    let mut z = v;
// CHECK: bad-struct.rs:[[@LINE+1]]:7: error: no operator '-=' for 'V2'; implement it: impl SubAssign for V2 { ... }
    z -= v;
}
impl V2 {
    fn len(&self) -> f32 { self.x + self.y }
    fn set(&mut self, v: f32) { self.x = v; }
// CHECK: bad-struct.rs:[[@LINE+2]]:28: error: cannot assign to a field of 'self': it is not mutable (the method takes '&self'; take '&mut self')
// CHECK: bad-struct.rs:[[@LINE+1]]:13: note: 'self' is declared here
    fn bad(&self) { self.x = 1.0; }
    fn half(&self) -> V2 { if self.x > 0.0 { return V2 { x: 1.0, y: 1.0 }; } ; }
}
