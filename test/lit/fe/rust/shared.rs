// shared.rs: workgroup-shared arrays, `let [mut] name = shared(T, N);` and
// `wave::shared(T, N)`, with any element type spelling and a constant size
// expression (folded later by Sema).
// RUN: wave-fe --emit=ast %s | FileCheck %s

use wave::*;

// CHECK-LABEL: kernel reduce(inp: const f32[], out: f32[]) workgroup_size(256, 1, 1) {
#[kernel(workgroup_size = (256, 1, 1))]
fn reduce(inp: &[f32], out: &mut [f32]) {
    // CHECK-NEXT: shared tile: f32[256];
    let mut tile = shared(f32, 256);
    // CHECK-NEXT: shared flags: u32[2 * 64];
    let flags = wave::shared(u32, 2 * 64);
    // CHECK-NEXT: shared idx: u32[8];
    let idx = shared(usize, 8,);
    // CHECK-NEXT: shared h: f16[4];
    // CHECK-NEXT: shared d: f64[4];
    // CHECK-NEXT: shared s: i32[4];
    let h = shared(f16, 4);
    let d = shared(f64, 4);
    let s = shared(i32, 4);
    // CHECK-NEXT: const lid = thread_id(0);
    let lid = thread_id(0);
    // CHECK-NEXT: tile[lid] = inp[global_id(0)];
    tile[lid] = inp[global_id(0)];
    // CHECK-NEXT: barrier();
    barrier();
    // CHECK-NEXT: for s2 in range(0, 8, 1) {
    for s2 in 0..8 {
        // CHECK-NEXT: if (lid < (128 >> s2)) {
        // CHECK-NEXT: tile[lid] += tile[lid + (128 >> s2)];
        if lid < 128 >> s2 {
            tile[lid] += tile[lid + (128 >> s2)];
        }
        barrier();
    }
}
