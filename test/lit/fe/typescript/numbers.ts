// JavaScript numbers (formats/kernel-languages.md §12, "Numbers"): a
// literal that nothing gives a type is an f64, and so is a `let`/`const`
// initialised by one when no use types it; a literal next to a typed
// operand, and a variable at its first typed use, still take that type
// (as the kernels of test/lit/fe/e2e rely on). Two integer literals
// compare as i32; float literals compare, and stand as conditions, as f64.
// Bitwise operators and shifts on literals compute in i32 (`>>>` in u32)
// and convert; `%` of integer literals likewise. An explicit conversion
// does not type the variable it converts. Math on bare float literals is
// f64. Widening is written (f64(x)), as every TypeScript conversion.
// RUN: wave-fe --emit=hir %s | FileCheck %s
// RUN: wave-fe %s | FileCheck %s --check-prefix=MIR

function half(v: number): number {
  return v / 2;
}

export function k(p: Float32Array, q: Uint32Array, n: u32): void {
  const i = global_id();
  const c = 3;
  const h = 7 / 2;
  let t = 0.5;
  if (t < 1.5) {
    t = t * 2;
  }
  const m = 1 << 4;
  const z = ~0 >>> 1;
  const r = 7 % 3;
  let w = 0.25;
  p[i] = f32(w) + p[i] * 0.5;
  const d = f64(p[i]) * t + c + h + m + z + r + w;
  p[i] = f32(half(d)) + f32(Math.sqrt(2.0));
  let cnt = 0;
  cnt += 1;
  q[i] = cnt;
  for (let j = 0; j < 10; j++) {
    q[j] = u32(j);
  }
  if (0.5) {
    p[0] = 1;
  }
}

// CHECK-LABEL: func half(v: f64) -> f64 {
// CHECK-NEXT: return v / 2;
// CHECK-LABEL: kernel k(p: f32[], q: u32[], n: u32) {
// CHECK: const c: f64 = 3;
// CHECK-NEXT: const h: f64 = 7 / 2;
// CHECK-NEXT: var t: f64 = 0.5;
// CHECK-NEXT: if (t < 1.5) {
// CHECK-NEXT: t = t * 2;
// CHECK: const m: f64 = convert<f64>(1 << 4);
// CHECK-NEXT: const z: f64 = convert<f64>(~0 >>> 1);
// CHECK-NEXT: const r: f64 = convert<f64>(7 % 3);
// CHECK-NEXT: var w: f64 = 0.25;
// CHECK-NEXT: p[i] = cast<f32>(w) + (p[i] * 0.5);
// CHECK-NEXT: const d: f64 = ((((((cast<f64>(p[i]) * t) + c) + h) + m) + z) + r) + w;
// CHECK-NEXT: p[i] = cast<f32>(half(d)) + cast<f32>(sqrt(2.0));
// CHECK-NEXT: var cnt: u32 = 0;
// CHECK-NEXT: cnt += 1;
// CHECK-NEXT: q[i] = cnt;
// CHECK-NEXT: for (var j: i32 = 0; j < 10; j += 1) {
// CHECK-NEXT: q[j] = cast<u32>(j);
// CHECK: if (convert<bool>(0.5)) {

// `7 / 2` is an f64 division (3.5), `t` an f64 variable, the shifts and
// `%` i32 and u32 operations converted to f64 (through f32:
// formats/kernel-languages.md §2, "Conversions").
// MIR-LABEL: kernel @k(
// MIR: %h = fdiv f64 7.0, 2.0
// MIR: %t.1 = phi f64 [0.5, ^entry], [%t, ^if.then]
// MIR-NEXT: [[M:%[0-9]+]] = shl i32 1, 4
// MIR-NEXT: [[MF:%[0-9]+]] = cvt i32 [[M]] to f32
// MIR-NEXT: %m = cvt f32 [[MF]] to f64
// MIR-NEXT: [[NOT:%[0-9]+]] = not u32 0
// MIR-NEXT: [[Z:%[0-9]+]] = lshr u32 [[NOT]], 1
// MIR-NEXT: [[ZF:%[0-9]+]] = cvt u32 [[Z]] to f32
// MIR-NEXT: %z = cvt f32 [[ZF]] to f64
// MIR-NEXT: [[R:%[0-9]+]] = rem i32 7, 3
// MIR: fsqrt f64 2.0
