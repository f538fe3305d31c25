// Parameter properties of classes of plain data (formats/kernel-languages.md
// §12, "Classes of plain data"): `constructor(public x: f32, readonly y:
// f32)` declares the fields x and y and assigns them from their
// parameters, before the statements of the body; such fields mix with
// declared ones (in member order) and hold classes too.
// RUN: wave-fe --emit=hir %s | FileCheck %s
// RUN: wave-fe %s | wave-opt -O2 | FileCheck %s --check-prefix=MIR

// CHECK: struct P2 { x: f32, y: f32 }
// CHECK: struct Q { k: u32, p: P2 }
// CHECK-LABEL: func P2::constructor(x: f32, y: f32) -> P2 {
// CHECK-NEXT:   return P2 { x: x, y: y };
// CHECK-LABEL: func Q::constructor(p: P2, k: u32) -> Q {
// CHECK-NEXT:   return Q { p: p, k: k + 1 };
// CHECK-LABEL: kernel pp(out: f32[]) {
// CHECK-NEXT:   const q: Q = Q::constructor(P2::constructor(1.0, 2.0), 3);
// CHECK-NEXT:   out[0] = (P2::sum(q.p) + cast<f32>(q.k)) + q.p.x;

// MIR-LABEL: kernel @pp(
// MIR:         %sum = fadd f32 1.0, 2.0
// MIR-NEXT:    %1 = cvt u32 4 to f32
// MIR-NEXT:    %2 = fadd f32 %sum, %1
// MIR-NEXT:    %3 = fadd f32 %2, 1.0
// MIR-NEXT:    store f32 %3

class P2 {
  constructor(public x: f32, readonly y: f32) {}
  sum(): f32 {
    return this.x + this.y;
  }
}
class Q {
  k: u32;
  constructor(private p: P2, k: u32) {
    this.k = k + 1;
  }
}
export function pp(out: f32[]): void {
  const q = new Q(new P2(1.0, 2.0), 3);
  out[0] = q.p.sum() + f32(q.k) + q.p.x;
}
