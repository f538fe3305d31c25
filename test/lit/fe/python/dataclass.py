# dataclass.py: @dataclass plain-data structs (formats/kernel-languages.md
# §9, "Dataclasses"): annotated fields of scalars or other dataclasses,
# field defaults, a dataclass used before its definition and in quoted
# forward annotations, construction by position and by keyword (a struct
# literal; missing fields take their defaults), field reads and writes
# through nested fields, methods with self (by value, or referring to the
# receiver when the body assigns a field of self or calls such a method on
# self or a field of it), the dunder operators
# __add__ __sub__ __mul__ __neg__ and __iadd__ (Sema calls V2::add for
# a + b; `a -= b` without __isub__ is `a = a - b`), dataclasses passed to and returned from device functions, and a
# variable declared by assigning a dataclass. Lowering scalarises and
# inlines, as for Rust structs.
# RUN: wave-fe --emit=hir %s | FileCheck %s
# RUN: wave-fe %s | FileCheck %s --check-prefix=MIR
# RUN: wave-fe %s | wave-opt -O2 | wave-ra | wave-as -o %t.wbin

# CHECK: struct Line { a: V2, b: V2, id: u32 }
# CHECK: struct V2 { x: f32, y: f32 }
# A method that calls one changing self, on self or a field of it, changes
# self too.
# CHECK-LABEL: func Line::grow(self: &mut Line) {
# CHECK-NEXT:   V2::double(self.a);
# CHECK-LABEL: func V2::len2(self: V2) -> f32 {
# CHECK-NEXT:   return (self.x * self.x) + (self.y * self.y);
# CHECK-LABEL: func V2::scale(self: &mut V2, k: f32) {
# CHECK-NEXT:   self.x *= k;
# CHECK-NEXT:   self.y = self.y * k;
# CHECK-LABEL: func V2::double(self: &mut V2) {
# CHECK-NEXT:   V2::scale(self, 2.0);
# CHECK-LABEL: func V2::add(self: V2, o: V2) -> V2 {
# CHECK-NEXT:   return V2 { x: self.x + o.x, y: self.y + o.y };
# CHECK-LABEL: func V2::sub(self: V2, o: V2) -> V2 {
# CHECK-NEXT:   return V2 { x: self.x - o.x, y: self.y - o.y };
# CHECK-LABEL: func V2::mul(self: V2, k: f32) -> V2 {
# CHECK-LABEL: func V2::neg(self: V2) -> V2 {
# CHECK-NEXT:   return V2 { x: -self.x, y: -self.y };
# CHECK-LABEL: func V2::add_assign(self: &mut V2, o: V2) {
# CHECK-NEXT:   self.x += o.x;
# CHECK-NEXT:   self.y += o.y;
# CHECK-NEXT: }
# CHECK-LABEL: func mid(l: Line) -> V2 {
# CHECK-NEXT:   return V2::mul(V2::add(l.a, l.b), 0.5);
# CHECK-LABEL: kernel k(out: f32[], n: u32) {
# CHECK:   var v: V2 = V2 { x: 1.0, y: 2.0 };
# CHECK-NEXT:   var w: V2 = V2 { y: 3.0, x: cast<f32>(i) };
# CHECK-NEXT:   var u: V2 = V2 { x: 4.0, y: 0.0 };
# CHECK-NEXT:   V2::scale(v, 2.0);
# CHECK-NEXT:   V2::add_assign(v, w);
# CHECK-NEXT:   var d: V2 = V2::add(V2::neg(V2::sub(v, w)), u);
# CHECK-NEXT:   var l: Line = Line { a: v, b: d, id: 7 };
# CHECK-NEXT:   l.a.x = 5.0;
# CHECK-NEXT:   Line::grow(l);
# CHECK-NEXT:   var m: V2 = mid(l);
# Without __isub__, `m -= w` is `m = m - w`, as in Python.
# CHECK-NEXT:   m = V2::sub(m, w);
# CHECK-NEXT:   out[i] = (V2::len2(m) + d.x) + cast<f32>(l.id);

# Only the kernel is a MIR function: every method and every function taking
# or returning a dataclass is inlined, one SSA value per field.
# MIR-NOT: func
# MIR: kernel @k(
# MIR: %w.x = cvt u32 %i to f32
# MIR: %neg.x = fneg f32 %sub.x
# MIR: %len2 = fadd f32
# MIR-NOT: call

from dataclasses import dataclass
from wave import *


@dataclass
class Line:
    a: "V2"
    b: V2
    id: u32 = 7

    def grow(self):
        self.a.double()


@dataclass
class V2:
    """A 2-D vector."""
    x: f32
    y: f32 = 0.0

    def len2(self) -> f32:
        return self.x * self.x + self.y * self.y

    def scale(self, k: f32):
        self.x *= k
        self.y = self.y * k

    def double(self):
        self.scale(2.0)

    def __add__(self, o: "V2") -> "V2":
        return V2(self.x + o.x, self.y + o.y)

    def __sub__(self, o: V2) -> V2:
        return V2(x=self.x - o.x, y=self.y - o.y)

    def __mul__(self, k: f32) -> V2:
        return V2(self.x * k, self.y * k)

    def __neg__(self) -> V2:
        return V2(-self.x, -self.y)

    def __iadd__(self, o: V2) -> V2:
        self.x += o.x
        self.y += o.y
        return self


def mid(l: Line) -> V2:
    return (l.a + l.b) * 0.5


@kernel
def k(out: f32[:], n: u32):
    i = global_id()
    v = V2(1.0, 2.0)
    w: V2 = V2(y=3.0, x=f32(i))
    u = V2(4.0)
    v.scale(2.0)
    v += w
    d = -(v - w) + u
    l = Line(v, d)
    l.a.x = 5.0
    l.grow()
    m = mid(l)
    m -= w
    out[i] = m.len2() + d.x + f32(l.id)
