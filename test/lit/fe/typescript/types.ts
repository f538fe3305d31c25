// TypeScript's numeric rules (formats/kernel-languages.md §2): number
// literals narrow to the type their context asks for, a `let` initialised
// by a literal takes the type of its first typed use, operands of
// different types are an error, `>>>` is a logical shift with a u32
// result, and `number` is f64.
// RUN: wave-fe --emit=hir %s | FileCheck %s

function twice(d: number): number {
  const e = d * 2;
  return e;
}

export function k(p: Float32Array, q: Uint32Array, n: u32, s: i32): void {
  const i = thread_id();
  let acc = 0;
  for (let j = 0; j < n; j++) {
    acc += p[j];
  }
  p[i] = acc * 2;
  q[i] = s >>> 1;
}

// CHECK-LABEL: func twice(d: f64) -> f64
// CHECK-NEXT: const e: f64 = d * 2;
// CHECK-LABEL: kernel k(p: f32[], q: u32[], n: u32, s: i32)
// CHECK-NEXT: const i: u32 = thread_id();
// CHECK-NEXT: var acc: f32 = 0;
// CHECK-NEXT: for (var j: u32 = 0; j < n; j += 1) {
// CHECK-NEXT: acc += p[j];
// CHECK: p[i] = acc * 2;
// CHECK-NEXT: q[i] = convert<u32>(s) >>> 1;
