// Workgroup-shared arrays: `const`/`let` with `shared(T, N)` or
// `wave.shared(T, N)` become SharedDecl; several declarators mix with
// ordinary variables.
// RUN: wave-fe --emit=ast %s | FileCheck %s

import * as wave from "wave";

// @kernel workgroup_size(256)
export function reduce(input: f32[], out: f32[]) {
  const tile = shared(f32, 256)
  let counts = wave.shared(u32, 16 * 4);
  const a = shared(i32, 8), b = 3, c = shared(f16, 2)
  const d = shared(f64, 1);
  tile[thread_id()] = input[global_id()]
}

// CHECK:      kernel reduce(input: f32[], out: f32[]) workgroup_size(256, 1, 1) {
// CHECK-NEXT:   shared tile: f32[256];
// CHECK-NEXT:   shared counts: u32[16 * 4];
// CHECK-NEXT:   shared a: i32[8];
// CHECK-NEXT:   const b = 3;
// CHECK-NEXT:   shared c: f16[2];
// CHECK-NEXT:   shared d: f64[1];
// CHECK-NEXT:   tile[thread_id()] = input[global_id()];
// CHECK-NEXT: }
