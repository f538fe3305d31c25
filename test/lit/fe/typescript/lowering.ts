// Lowering of TypeScript control flow: short-circuit `||` in a condition,
// `===`, a `while` loop whose variable becomes a phi, a ternary, and a
// device function.
// RUN: wave-fe %s | FileCheck %s

function clampTo(x: u32, hi: u32): u32 {
  return x > hi ? hi : x;
}

// @kernel workgroup_size(128)
function k(p: Uint32Array, n: u32): void {
  const t = thread_id();
  let v: u32 = t;
  while (v < n || v === 7) {
    v = v + 3;
  }
  p[t] = clampTo(v, 100);
}

// CHECK-LABEL: func @clampTo(u32 %x, u32 %hi) -> u32 {
// CHECK: icmp gt u32 %x, %hi
// CHECK: phi u32 [%hi, ^cond.true], [%x, ^cond.false]
// CHECK-LABEL: kernel @k(ptr<device> writeonly elem(u32) %p, u32 %n) workgroup_size(128, 1, 1) {
// CHECK: ^while.cond:
// CHECK-NEXT: %v = phi u32 [%t, ^entry], [%v.1, ^while.body]
// CHECK-NEXT: [[A:%[0-9]+]] = icmp lt u32 %v, %n
// CHECK-NEXT: condbr [[A]], ^while.body, ^or.rhs
// CHECK: ^or.rhs:
// CHECK-NEXT: [[B:%[0-9]+]] = icmp eq u32 %v, 7
// CHECK-NEXT: condbr [[B]], ^while.body, ^while.end
// CHECK: ^while.end:
// CHECK: call u32 @clampTo(u32 %v, u32 100)
// CHECK: ^while.body:
// CHECK-NEXT: %v.1 = add u32 %v, 3
