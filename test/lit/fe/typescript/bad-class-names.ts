// Static methods keep their own names in HIR and MIR (formats/
// kernel-languages.md §12, "Classes of static methods"), so the methods of
// all classes and the top-level functions share one namespace: a method
// named like another class's method or a top-level function is a
// redefinition, and a method cannot take an intrinsic's name. One run,
// exit 1.
// RUN: %python %utils/expect_exit.py 1 wave-fe %s 2>&1 | FileCheck %s --implicit-check-not=error:

class A {
  static scale(v: f32): f32 { return v * 2.0; }
  @kernel
  static run(p: Float32Array): void { p[0] = A.scale(p[0]) + B.scale(p[1]); }
}

class B {
  static scale(v: f32): f32 { return v * 3.0; }
// CHECK: bad-class-names.ts:[[@LINE-1]]:10: error: redefinition of 'scale'
// CHECK: bad-class-names.ts:[[@LINE-8]]:10: note: 'scale' is first defined here
  static sqrt(v: f32): f32 { return v; }
// CHECK: bad-class-names.ts:[[@LINE-1]]:10: error: 'sqrt' is the name of an intrinsic; rename the function
}

function run(): void {}
// CHECK: bad-class-names.ts:[[@LINE-1]]:10: error: redefinition of 'run'
// CHECK: bad-class-names.ts:[[@LINE-13]]:10: note: 'run' is first defined here
