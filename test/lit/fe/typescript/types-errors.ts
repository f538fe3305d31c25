// TypeScript errors: a number (f64) narrowed implicitly, mixed number
// types, assignment to a const, all reported in one run.
// RUN: not wave-fe %s 2>&1 | FileCheck %s --implicit-check-not=error:

export function k(p: f32[], q: u32[], n: u32): void {
  const d: number = 1.5;
// CHECK: types-errors.ts:[[@LINE+1]]:16: error: narrowing 'f64' to 'f32' must be explicit in the initial value of 'x'; write f32(...)
  let x: f32 = d;
// CHECK: types-errors.ts:[[@LINE+1]]:18: error: invalid operands to '*' ('f32' and 'u32'): TypeScript does not convert between number types implicitly; convert one side, for example f32(x)
  const y = p[0] * n;
  const z: u32 = 1;
// CHECK: types-errors.ts:[[@LINE+2]]:5: error: cannot assign to 'z': it is not mutable
// CHECK: types-errors.ts:[[@LINE-2]]:9: note: 'z' is declared here
  z = 2;
// CHECK: types-errors.ts:[[@LINE+1]]:11: error: cannot convert 'f32' to 'u32' implicitly in the store to 'q'; convert it explicitly: u32(x)
  q[0] = p[0];
  let w: f32 = p[1];
// CHECK: types-errors.ts:[[@LINE+1]]:5: error: invalid operands to '>>>=' ('f32' and 'integer literal')
  w >>>= 1;
  let v: number = 2.5;
// CHECK: types-errors.ts:[[@LINE+1]]:5: error: invalid operands to '%=' ('f64' and 'integer literal'): {{.*}}
  v %= 2;
}
