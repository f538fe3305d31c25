// Syntax errors of TypeScript declarations: a body after 'declare
// function', '// @export' on a declaration.
// RUN: not wave-fe --emit=ast %s 2>&1 | FileCheck %s --implicit-check-not=error:

declare function a(x: f32): f32 { return x; }
// CHECK: bad-linkage-syntax.ts:[[@LINE-1]]:33: error: a 'declare function' has no body; expected ';'

// @export
declare function b(x: f32): f32;
// CHECK: bad-linkage-syntax.ts:[[@LINE-2]]:4: error: '@export' marks a definition; 'b' is only declared
