// Classes of plain data (formats/kernel-languages.md §12, "Classes of
// plain data"): fields of scalar and class types (`public` and `readonly`
// accepted), a constructor that assigns every field, `new C(...)` (a call
// of the inlined "C::constructor" that returns the struct literal), methods
// with `this` by value, and by reference when they assign a field of
// `this`, method calls and chains, field reads and writes through nested
// fields, class-typed locals and parameters, a class used before it is
// declared. Lowering inlines the constructor, the methods and every
// function taking or returning a class value (one SSA value per field);
// scalar device functions stay MIR calls, next to a class of static
// methods.
// RUN: wave-fe --emit=hir %s | FileCheck %s
// RUN: wave-fe %s | FileCheck %s --check-prefix=MIR
// RUN: wave-fe %s | wave-opt -O2 | wave-ra | wave-as -o %t.wbin

// CHECK: struct Seg { p: V2, q: V2, id: u32 }
// CHECK: struct V2 { x: f32, y: f32 }
// CHECK-LABEL: func mid(a: Seg) -> V2 {
// CHECK-NEXT:   return V2::scale(V2::add(a.p, a.q), 0.5);
// CHECK-LABEL: func V2::constructor(x: f32, y: f32) -> V2 {
// CHECK-NEXT:   return V2 { x: x, y: y };
// CHECK-LABEL: func V2::add(this: V2, o: V2) -> V2 {
// CHECK-NEXT:   return V2::constructor(this.x + o.x, this.y + o.y);
// CHECK-LABEL: func V2::dot(this: V2, o: V2) -> f32 {
// CHECK-LABEL: func V2::shift(this: &mut V2, d: f32) {
// CHECK-NEXT:   this.x += d;
// CHECK-NEXT:   this.y = this.y + d;
// CHECK-LABEL: func Seg::constructor(p: V2, q: V2, id: u32) -> Seg {
// CHECK-NEXT:   return Seg { p: p, q: q, id: id };
// CHECK-LABEL: func Seg::len2(this: Seg) -> f32 {
// CHECK-NEXT:   const d: V2 = V2::add(this.q, V2::scale(this.p, -1.0));
// CHECK-NEXT:   return V2::dot(d, d);
// CHECK-LABEL: func sq(v: f32) -> f32 {
// CHECK-LABEL: kernel plain(out: f32[], n: u32) {
// CHECK:        var a: V2 = V2::constructor(cast<f32>(i), 2.0);
// CHECK-NEXT:   V2::shift(a, 1.0);
// CHECK-NEXT:   var s: Seg = Seg::constructor(V2::constructor(cast<f32>(i), 2.0), V2::constructor(1.0, cast<f32>(i) * 3.0), i);
// CHECK-NEXT:   V2::shift(s.p, sq(0.5));
// CHECK-NEXT:   var m: V2 = mid(s);
// CHECK-NEXT:   m.x = m.x + s.q.y;
// CHECK-NEXT:   out[i] = (V2::dot(m, a) + Seg::len2(s)) + V2::constructor(4.0, 0.0).x;

// Only the scalar device function and the kernel are MIR functions; each
// field of a local is its own SSA value.
// MIR-NOT: V2
// MIR-LABEL: func @sq(f32 %v) -> f32 {
// MIR-LABEL: kernel @plain(
// MIR:         %a.x = fadd f32 %x, 1.0
// MIR-NEXT:    %a.y = fadd f32 2.0, 1.0
// MIR:         %d = call f32 @sq(f32 0.5)
// MIR-NEXT:    %s.p.x = fadd f32 %x.1, %d
// MIR-NEXT:    %s.p.y = fadd f32 2.0, %d
// MIR:         %m.x = fadd f32 %x.3, %y
// MIR:         %8 = fmul f32 %m.x, %a.x
// MIR:         %13 = fadd f32 %12, 4.0
// MIR-NEXT:    store f32 %13, ptr<device> %7
// MIR-NOT:     call
// MIR-NOT: V2

function mid(a: Seg): V2 {
  return a.p.add(a.q).scale(0.5);
}

export class V2 {
  public x: f32;
  readonly y: f32;
  constructor(x: f32, y: f32) {
    this.x = x;
    this.y = y;
  }
  add(o: V2): V2 {
    return new V2(this.x + o.x, this.y + o.y);
  }
  scale(k: f32): V2 {
    return new V2(this.x * k, this.y * k);
  }
  dot(o: V2): f32 {
    return this.x * o.x + this.y * o.y;
  }
  // Assigns a field of `this`: `this` by reference.
  shift(d: f32): void {
    this.x += d;
    this.y = this.y + d;
  }
}

class Seg {
  p: V2;
  q: V2;
  id: u32;
  constructor(p: V2, q: V2, id: u32) {
    this.p = p;
    this.q = q;
    this.id = id;
  }
  len2(): f32 {
    const d = this.q.add(this.p.scale(-1.0));
    return d.dot(d);
  }
}

class Util {
  static sq(v: f32): f32 {
    return v * v;
  }
}

export function plain(out: f32[], n: u32): void {
  const i = global_id();
  if (i >= n) {
    return;
  }
  let a: V2 = new V2(f32(i), 2.0);
  a.shift(1.0);
  let s = new Seg(new V2(f32(i), 2.0), new V2(1.0, f32(i) * 3.0), i);
  s.p.shift(Util.sq(0.5));
  let m = mid(s);
  m.x = m.x + s.q.y;
  out[i] = m.dot(a) + s.len2() + new V2(4.0, 0.0).x;
}
