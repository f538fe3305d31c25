// A 16x16 f32 matrix product C = A B with the 4x4 MMA intrinsics
// (formats/kernel-languages.md §4): A and B are staged in shared memory,
// lane (bi, bj) of the first 16 threads accumulates block (bi, bj) of C over
// the four k-blocks in fragment 2, stores it to shared memory, and every
// thread copies one element of C out. Launched as one workgroup.
// RUN: %python %utils/fe_e2e.py %s --bindir %bindir --case mma | FileCheck %s
// CHECK: OK -O0
// CHECK: OK -O2

// @kernel workgroup_size(256, 1, 1)
export function mma16(a: readonly f32[], b: readonly f32[], c: f32[]): void {
  const sa = shared(f32, 256);
  const sb = shared(f32, 256);
  const sc = shared(f32, 256);
  const t = thread_id();
  sa[t] = a[t];
  sb[t] = b[t];
  barrier();
  if (t < 16) {
    const bi = t / 4;
    const bj = t % 4;
    for (let bk: u32 = 0; bk < 4; bk++) {
      wave.mma_load_a(0, sa, bi * 64 + bk * 4, 16);
      wave.mma_load_b(1, sb, bk * 64 + bj * 4, 16);
      wave.mma_compute(0, 1, 2);
    }
    wave.mma_store_c(sc, bi * 64 + bj * 4, 16, 2);
  }
  barrier();
  c[t] = sc[t];
}
