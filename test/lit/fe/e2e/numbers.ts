// A decorated TypeScript kernel that computes in JavaScript numbers (issue
// 26, point 4): `@kernel({ workgroupSize: [64, 1, 1] })` on a static method,
// device functions called as `Cubic.value(v)` and `Util.clampUnit(v)` (the
// class Util is declared after its use), `number` (f64) arithmetic, and
// every narrowing written out. For each i < n, with v = f64(x[i]):
//   * p = ((v * v - 5 / 2) * v) / 3 in f64 (`5 / 2` is 2.5: JavaScript
//     division of numbers), then acc = 0 + p * 0.1 (`let acc = 0` becomes
//     a number at its first typed use, the `+=` of an f64);
//   * c = acc clamped to [-1, 1] in f64 (by f64 comparisons);
//   * bucket = u32(v * 4 + 8): f64 to f32 (nearest even), then truncated
//     (formats/kernel-languages.md §2, "Conversions");
//   * out[i] = f32(c) + f32(bucket % 5), an f32 addition.
// Threads i >= n leave out[i] alone. fe_e2e.py ("numbers") computes the same
// in Python from this comment. wave-compiler writes the same .wbin as the
// checked pipe at -O2.
// RUN: %python %utils/fe_e2e.py %s --bindir %bindir --case numbers --keep %t.d | FileCheck %s
// RUN: wave-compiler %s -o %t.wbin
// RUN: cmp %t.wbin %t.d/O2.wbin
// CHECK: OK -O0
// CHECK: OK -O2

class Cubic {
  static value(v: number): number {
    return ((v * v - 5 / 2) * v) / 3;
  }
}

export class Kernels {
  @kernel({ workgroupSize: [64, 1, 1] })
  static numbers(x: Float32Array, out: Float32Array, n: u32): void {
    const i = global_id();
    if (i < n) {
      const v = f64(x[i]);
      const scale = 0.1;
      let acc = 0;
      acc += Cubic.value(v) * scale;
      const c = Util.clampUnit(acc);
      const bucket = u32(v * 4 + 8);
      out[i] = f32(c) + f32(bucket % 5);
    }
  }
}

class Util {
  static clampUnit(v: number): number {
    if (v < -1) {
      return -1;
    }
    return v > 1 ? 1 : v;
  }
}
