// references.cpp: scalar (and class) references through Clang. A device
// function's `float& v` parameter is the caller's variable (HIR's
// by-reference parameter, as `&mut self`: the function is inlined and
// assigns the caller's variable), `const float&` a copy; a reference local
// `float& r = x;` has no variable of its own: each use of r is x (a member
// `float& px = p.x;`, a reference to a reference, a class `V& q = p;`); a
// `const float&` bound to a temporary is a constant copy.
//
// Worked by hand for in[i] = i: x = i + 1 (through r), + 1 (inc through
// rr) = i + 2; bump: inc, then * 3: 3i + 9; p = (3i + 9, 1), scale(q, 2)
// through the reference q: (6i + 18, 2); qy (p.y) += twice(x + 1) =
// 2(3i + 10): p.y = 6i + 22; c is x, and x += 1 makes it 3i + 10;
// out[i] = c + p.x + qy = 15i + 50: 50 65 80 95 110 125 140 155.
// RUN: wave-fe --emit=hir %s | FileCheck %s
// RUN: rm -rf %t && mkdir %t
// RUN: wave-compiler -O0 %s -o %t/o0.wbin
// RUN: wave-compiler -O2 %s -o %t/o2.wbin
// RUN: wave-run %t/o0.wbin --fill-iota 0:f32:8 --set-reg 0:0 --set-reg 1:1024 \
// RUN:   --set-reg 2:8 --dump-f32 1024:8 | FileCheck %s --check-prefix=OUT
// RUN: wave-run %t/o2.wbin --fill-iota 0:f32:8 --set-reg 0:0 --set-reg 1:1024 \
// RUN:   --set-reg 2:8 --dump-f32 1024:8 | FileCheck %s --check-prefix=OUT
// RUN: wave-fe %s | FileCheck %s --check-prefix=MIR

// CHECK:      func inc(v: &mut f32) {
// CHECK-NEXT:   v += 1.0f32;
// CHECK:      func bump(v: &mut f32, by: f32) {
// CHECK-NEXT:   inc(v);
// CHECK-NEXT:   v *= by;
// CHECK:      func scale(p: &mut V, k: f32) {
// CHECK-NEXT:   p.x *= k;
// CHECK-NEXT:   p.y *= k;
// CHECK:      func twice(a: f32) -> f32 {
// CHECK:      kernel refs(in: const f32[], out: f32[], n: u32) {
// CHECK:          var x: f32 = in[i];
// CHECK-NEXT:     x += 1.0f32;
// CHECK-NEXT:     inc(x);
// CHECK-NEXT:     bump(x, 3.0f32);
// CHECK-NEXT:     var p: V = V { x: x, y: 1.0f32 };
// CHECK-NEXT:     scale(p, 2.0f32);
// CHECK-NEXT:     p.y += twice(x + 1.0f32);
// CHECK-NEXT:     const t: f32 = x * 2.0f32;
// CHECK-NEXT:     x += 1.0f32;
// CHECK-NEXT:     out[i] = ((x + p.x) + p.y) + (t - t);

// Functions with a reference parameter are inlined; twice (a copy) stays.
// MIR-NOT: func @inc
// MIR-NOT: func @bump
// MIR-NOT: func @scale
// MIR:     func @twice(f32 %a) -> f32

// OUT:      50.0
// OUT-NEXT: 65.0
// OUT-NEXT: 80.0
// OUT-NEXT: 95.0
// OUT-NEXT: 110.0
// OUT-NEXT: 125.0
// OUT-NEXT: 140.0
// OUT-NEXT: 155.0

#include <cstdint>

struct V {
  float x, y;
};

void inc(float& v) { v += 1.0f; }
void bump(float& v, const float& by) {
  inc(v);
  v *= by;
}
void scale(V& p, float k) {
  float& px = p.x;
  px *= k;
  p.y *= k;
}
float twice(const float& a) { return a * 2.0f; }

__kernel void refs(const float* in, float* out, uint32_t n) {
  uint32_t i = thread_id();
  if (i < n) {
    float x = in[i];
    float& r = x;
    r += 1.0f;
    float& rr = r;
    inc(rr);
    bump(x, 3.0f);
    V p{x, 1.0f};
    V& q = p;
    scale(q, 2.0f);
    float& qy = q.y;
    qy += twice(x + 1.0f);
    const float& t = x * 2.0f;
    const float& c = x;
    x += 1.0f;
    out[i] = c + p.x + qy + (t - t);
  }
}
