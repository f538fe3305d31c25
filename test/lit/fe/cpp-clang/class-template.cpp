// class-template.cpp: a class template instantiated for f32 (the struct is
// named by its argument), a default member initializer the constructor
// keeps, a static member function, a unary operator, a const member
// function on a reference parameter and one that changes the object.
// Worked by hand: v = (x 1, y 3); scale(2) gives (2, 6); w = -v is V2(-6),
// (1, -6); v.dot(w) + w.x = 2 - 36 + 1 = -33.
// RUN: wave-fe --emit=hir %s | FileCheck %s
// RUN: wave-fe %s | wave-opt -O2 | wave-ra | wave-as -o %t.wbin
// RUN: wave-run %t.wbin --arg out=zeros:1 --print 'out[0:1]' | FileCheck %s --check-prefix=OUT
// OUT: -33.0
// CHECK: struct V2.f32 { x: f32, y: f32 }
// CHECK: kernel k(out: f32[]) {
// CHECK-NEXT:   var v: V2.f32 = V2.f32::ctor.f32(3.0f32);
// CHECK-NEXT:   V2.f32::scale(v, V2.f32::two());
// CHECK-NEXT:   var w: V2.f32 = V2.f32::neg(v);
// CHECK-NEXT:   out[0] = V2.f32::dot(v, w) + w.x;
// CHECK: func V2.f32::ctor.f32(a: f32) -> V2.f32 {
// CHECK-NEXT:   var this: V2.f32 = V2.f32 { x: 0, y: 0 };
// CHECK-NEXT:   this.x = cast<f32>(1);
// CHECK-NEXT:   this.y = a;
// CHECK-NEXT:   return this;
// CHECK: func V2.f32::scale(this: &mut V2.f32, k: f32) {
// CHECK: func V2.f32::two() -> f32 {
// CHECK: func V2.f32::neg(this: V2.f32) -> V2.f32 {
// CHECK: func V2.f32::dot(this: V2.f32, o: V2.f32) -> f32 {
#include <cstdint>
template <typename T> struct V2 {
  T x = T(1), y;
  V2(T a) : y(a) {}
  V2 operator-() const { return V2(-y); }
  static T two() { return T(2); }
  T dot(const V2& o) const { return x * o.x + y * o.y; }
  void scale(T k) { x *= k; y *= k; }
};
__kernel void k(float* out) {
  V2<float> v(3.0f);
  v.scale(V2<float>::two());
  V2<float> w = -v;
  out[0] = v.dot(w) + w.x;
}
