// Implicit narrowing of a JavaScript number (formats/kernel-languages.md
// §12, "Numbers"): an f64 value assigned to an f32 (or f16, i32, u32)
// variable or element, passed as an f32 argument, returned from an f32
// function or combined with an f32 is an error with the conversion to
// write; widening is written too (f64(x)), as every TypeScript conversion.
// A float literal '%' in f64 is an error (WAVE has no f64 remainder). All
// errors of the file come in one run and wave-fe exits 1.
// RUN: %python %utils/expect_exit.py 1 wave-fe %s 2>&1 | FileCheck %s --implicit-check-not=error:

function scale(v: f32): f32 {
  return v * 2.0;
}

function toF32(v: number): f32 {
  return v;
// CHECK: bad-narrowing.ts:[[@LINE-1]]:10: error: narrowing 'f64' to 'f32' must be explicit in the return value of 'toF32'; write f32(...)
// CHECK-NEXT: {{^}}  return v;{{$}}
// CHECK-NEXT: {{^}}         ^{{$}}
}

export function k(p: Float32Array, q: Uint32Array, h: Float16Array): void {
  const i = global_id();
  const d: number = 0.25;
  const e = f64(p[i]) * 3;
  let x: f32 = d;
// CHECK: bad-narrowing.ts:[[@LINE-1]]:16: error: narrowing 'f64' to 'f32' must be explicit in the initial value of 'x'; write f32(...)
  x = e;
// CHECK: bad-narrowing.ts:[[@LINE-1]]:7: error: narrowing 'f64' to 'f32' must be explicit in the assignment to 'x'; write f32(...)
  p[i] = e;
// CHECK: bad-narrowing.ts:[[@LINE-1]]:10: error: narrowing 'f64' to 'f32' must be explicit in the store to 'p'; write f32(...)
  p[i] = scale(d);
// CHECK: bad-narrowing.ts:[[@LINE-1]]:16: error: narrowing 'f64' to 'f32' must be explicit in argument 1 ('v') of 'scale'; write f32(...)
  q[i] = d * 4;
// CHECK: bad-narrowing.ts:[[@LINE-1]]:12: error: narrowing 'f64' to 'u32' must be explicit in the store to 'q'; write u32(...)
  h[i] = Math.sqrt(2.0);
// CHECK: bad-narrowing.ts:[[@LINE-1]]:15: error: narrowing 'f64' to 'f16' must be explicit in the store to 'h'; write f16(...)
  let n: i32 = 1.5 * d;
// CHECK: bad-narrowing.ts:[[@LINE-1]]:20: error: narrowing 'f64' to 'i32' must be explicit in the initial value of 'n'; write i32(...)
  const mixed = p[i] + d;
// CHECK: bad-narrowing.ts:[[@LINE-1]]:22: error: invalid operands to '+' ('f32' and 'f64'): TypeScript does not convert between number types implicitly; convert one side, for example f64(x)
  const wide: number = p[i];
// CHECK: bad-narrowing.ts:[[@LINE-1]]:25: error: cannot convert 'f32' to 'f64' implicitly in the initial value of 'wide'; convert it explicitly: f64(x)
  const rem = 7.5 % 2;
// CHECK: bad-narrowing.ts:[[@LINE-1]]:19: error: '%' of a float literal is an f64 remainder, which WAVE lacks (formats/isa.md §2.6); convert an operand to f32: f32(x)
  p[i] = f32(d) + f32(e) + f32(toF32(d)) + f32(rem);
}
