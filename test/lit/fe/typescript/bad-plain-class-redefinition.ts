// bad-plain-class-redefinition.ts: a second class of the same name is one
// error with a note; its members still parse (for their own errors) into a
// struct the module owns, so printing the parsed module is safe (a fuzzer
// found the methods pointing at a struct on the parser's stack).
// RUN: not wave-fe --emit=ast %s 2>&1 | FileCheck %s --implicit-check-not=error:
class A { x: f32; constructor(x: f32) { this.x = x; } f(): f32 { return this.x; } }
class A { y: f32; constructor(y: f32) { this.y = y; } g(): f32 { return this.y; } }
// CHECK: bad-plain-class-redefinition.ts:[[@LINE-1]]:7: error: redefinition of class 'A'
// CHECK: bad-plain-class-redefinition.ts:[[@LINE-3]]:7: note: 'A' is first defined here
export function k(o: Float32Array) { o[0] = 1; }
