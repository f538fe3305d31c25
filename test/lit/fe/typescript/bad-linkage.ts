// Errors of TypeScript declarations and exports (formats/kernel-languages.md
// §1, §12): '// @export' on a kernel, a declaration and a definition of one
// name, a call to a declaration with a wrong argument type.
// RUN: not wave-fe %s 2>&1 | FileCheck %s --implicit-check-not=error:

// @export
export function k(a: Float32Array): void { a[0] = 1.0; }
// CHECK: bad-linkage.ts:[[@LINE-2]]:4: error: kernel 'k' cannot be exported; only device functions can (kernels are entry points already)

declare function twice(x: f32): f32;
function twice(x: f32): f32 { return x * 2.0; }
// CHECK: bad-linkage.ts:[[@LINE-1]]:10: error: redefinition of 'twice'
// CHECK: bad-linkage.ts:[[@LINE-3]]:18: note: 'twice' is first declared here

// @kernel
declare function k2(a: Float32Array): void;
// CHECK: bad-linkage.ts:[[@LINE-1]]:18: error: kernel 'k2' has no body; only device functions can be declared
