// Source locations in TypeScript (formats/kernel-languages.md §8): calls at
// their callee, a conditional expression's phi and branch at its '?', the
// implicit return at the closing '}'.
// RUN: wave-fe %s | FileCheck %s

function pick(c: boolean, a: f32, b: f32): f32 {
  return c ? a : b;
}
// CHECK-LABEL: func @pick(
// CHECK: condbr %c, ^cond.true, ^cond.false !loc(7, 12)
// CHECK: phi f32 {{.*}} !loc(7, 12)
// CHECK-NEXT: ret f32 %{{.*}} !loc(7, 3)

export function k(a: Float32Array, n: u32): void {
  const i = thread_id();
  a[i] = pick(i < n, a[i], 0.0);
    }
// CHECK-LABEL: kernel @k(
// CHECK: sreg thread_id_x !loc(15, 13)
// CHECK: icmp lt u32 %{{.*}}, %n !loc(16, 17)
// CHECK: load f32, ptr<device> %{{.*}} !loc(16, 23)
// CHECK: call f32 @pick(i1 %{{.*}}, f32 %{{.*}}, f32 0.0) !loc(16, 10)
// CHECK: store f32 %{{.*}}, ptr<device> %{{.*}} !loc(16, 8)
// CHECK-NEXT: ret !loc(17, 5)
