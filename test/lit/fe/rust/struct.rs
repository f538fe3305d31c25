// struct.rs: plain-data structs (formats/kernel-languages.md §8, §11):
// struct items (fields of scalars or structs; derive attributes and `pub`
// ignored), struct literals (shorthand, any field order), field reads and
// writes through nested fields, impl blocks with `Self`, associated
// functions (`V2::new`), `&self`, `&mut self` and by-value `self` methods,
// the operator traits Add, Sub, Mul<f32>, Neg and AddAssign (`a + b` is a
// call of `V2::add`), structs passed to and returned from device functions.
// Lowering inlines every function that takes or returns a struct and every
// method, and gives each leaf of a struct its own SSA variable ("v.x");
// scalar device functions stay MIR calls.
// RUN: wave-fe --emit=hir %s | FileCheck %s
// RUN: wave-fe %s | FileCheck %s --check-prefix=MIR
// RUN: wave-fe %s | wave-opt -O2 | wave-ra | wave-as -o %t.wbin

// CHECK: struct V2 { x: f32, y: f32 }
// CHECK: struct Line { a: V2, b: V2, id: u32 }
// CHECK-LABEL: func V2::new(x: f32, y: f32) -> V2 {
// CHECK-NEXT:   return V2 { x: x, y: y };
// CHECK-LABEL: func V2::len2(self: &V2) -> f32 {
// CHECK-NEXT:   return (self.x * self.x) + (self.y * self.y);
// CHECK-LABEL: func V2::scale(self: &mut V2, k: f32) {
// CHECK-NEXT:   self.x *= k;
// CHECK-LABEL: func V2::swapped(self: V2) -> V2 {
// CHECK-LABEL: func V2::add(self: V2, o: V2) -> V2 {
// CHECK-LABEL: func V2::sub(self: V2, o: V2) -> V2 {
// CHECK-NEXT:   return V2 { y: self.y - o.y, x: self.x - o.x };
// CHECK-LABEL: func V2::mul(self: V2, k: f32) -> V2 {
// CHECK-LABEL: func V2::neg(self: V2) -> V2 {
// CHECK-LABEL: func V2::add_assign(self: &mut V2, o: V2) {
// CHECK-LABEL: func mid(l: Line) -> V2 {
// CHECK-NEXT:   return V2::mul(V2::add(l.a, l.b), 0.5);
// CHECK-LABEL: kernel structs(out: f32[], s: f32) {
// CHECK-NEXT:   const i: u32 = global_id();
// CHECK-NEXT:   var v: V2 = V2::new(1.0, 2.0);
// CHECK-NEXT:   const w: V2 = V2 { x: s, y: 3.0 };
// CHECK-NEXT:   V2::scale(v, 2.0);
// CHECK-NEXT:   V2::add_assign(v, w);
// CHECK-NEXT:   v.y = v.x - 1.0;
// CHECK-NEXT:   var l: Line = Line { a: v, b: V2::neg(w), id: 7 };
// CHECK-NEXT:   l.b.x = dot(l.a.x, s);
// CHECK-NEXT:   const m: V2 = mid(l);
// CHECK-NEXT:   const p: V2 = pick(V2::sub(v, w), V2::swapped(m), s > 0.0);
// CHECK-NEXT:   out[i] = (V2::len2(p) + V2::new(s, s).x) + cast<f32>(l.id);

// Only the scalar device function is a MIR function.
// MIR-NOT: @new
// MIR-LABEL: func @dot(f32 %a, f32 %b) -> f32 {
// MIR-NOT: func
// MIR-LABEL: kernel @structs(
// The inlined scale and add_assign update v's leaves in place.
// MIR:        %v.x = fmul f32 1.0, 2.0
// MIR-NEXT:   %v.y = fmul f32 2.0, 2.0
// MIR-NEXT:   %v.x.1 = fadd f32 %v.x, %s
// MIR-NEXT:   %v.y.1 = fadd f32 %v.y, 3.0
// MIR-NEXT:   %v.y.2 = fsub f32 %v.x.1, 1.0
// MIR-NEXT:   %neg.x = fneg f32 %s
// MIR-NEXT:   %neg.y = fneg f32 3.0
// l.b.x is written with the result of the call; l.a is v.
// MIR-NEXT:   %l.b.x = call f32 @dot(f32 %v.x.1, f32 %s)
// MIR-NEXT:   %add.x = fadd f32 %v.x.1, %l.b.x
// MIR-NEXT:   %add.y = fadd f32 %v.y.2, %neg.y
// MIR-NEXT:   %x = fmul f32 %add.x, 0.5
// MIR-NEXT:   %y = fmul f32 %add.y, 0.5
// A literal's fields are evaluated in source order (y first).
// MIR-NEXT:   %sub.y = fsub f32 %v.y.2, 3.0
// MIR-NEXT:   %sub.x = fsub f32 %v.x.1, %s
// A function with a return before its end gets an exit block, where each
// leaf of the result is a phi; swapped exchanged m's leaves.
// MIR:      ^pick.end:
// MIR-NEXT:   %pick.y = phi f32 [%sub.y, ^if.then], [%x, ^if.end]
// MIR-NEXT:   %pick.x = phi f32 [%sub.x, ^if.then], [%y, ^if.end]
// MIR:        %len2 = fadd f32
// MIR-NEXT:   %8 = fadd f32 %len2, %s
// MIR-NEXT:   %9 = cvt u32 7 to f32

use std::ops::{Add, AddAssign, Mul, Neg, Sub};
use wave::*;

#[derive(Clone, Copy, Debug)]
pub struct V2 {
    pub x: f32,
    y: f32,
}

struct Line {
    a: V2,
    b: V2,
    id: u32,
}

impl V2 {
    pub fn new(x: f32, y: f32) -> Self {
        Self { x, y }
    }
    fn len2(&self) -> f32 {
        self.x * self.x + self.y * self.y
    }
    fn scale(&mut self, k: f32) {
        self.x *= k;
        self.y = self.y * k;
    }
    fn swapped(self) -> V2 {
        V2::new(self.y, self.x)
    }
}

impl Add for V2 {
    type Output = V2;
    fn add(self, o: V2) -> V2 {
        V2 { x: self.x + o.x, y: self.y + o.y }
    }
}

impl Sub for V2 {
    type Output = Self;
    fn sub(self, o: Self) -> Self {
        V2 { y: self.y - o.y, x: self.x - o.x }
    }
}

impl Mul<f32> for V2 {
    type Output = V2;
    fn mul(self, k: f32) -> V2 {
        V2::new(self.x * k, self.y * k)
    }
}

impl Neg for V2 {
    type Output = V2;
    fn neg(self) -> V2 {
        V2 { x: -self.x, y: -self.y }
    }
}

impl AddAssign for V2 {
    fn add_assign(&mut self, o: V2) {
        self.x += o.x;
        self.y += o.y;
    }
}

fn mid(l: Line) -> V2 {
    (l.a + l.b) * 0.5
}

fn dot(a: f32, b: f32) -> f32 {
    a * b
}

fn pick(a: V2, b: V2, first: bool) -> V2 {
    if first {
        return a;
    }
    b
}

#[kernel]
fn structs(out: &mut [f32], s: f32) {
    let i = global_id();
    let mut v = V2::new(1.0, 2.0);
    let w: V2 = V2 { x: s, y: 3.0 };
    v.scale(2.0);
    v += w;
    v.y = v.x - 1.0;
    let mut l = Line { a: v, b: -w, id: 7 };
    l.b.x = dot(l.a.x, s);
    let m = mid(l);
    let p = pick(v - w, m.swapped(), s > 0.0);
    out[i] = p.len2() + V2::new(s, s).x + l.id as f32;
}
