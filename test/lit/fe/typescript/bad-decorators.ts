// Decorators and class members outside the dialect (formats/kernel-languages.md
// §12, "Classes of static methods"): every misplaced decorator, every bad
// '@kernel' argument, every member other than a static method, 'this' in a
// method, wrong 'K.f(...)' and plain calls of static methods, and bad
// class names and heritage get one located error each, all reported in one
// run, and wave-fe exits 1.
// RUN: %python %utils/expect_exit.py 1 wave-fe %s 2>&1 | FileCheck %s --implicit-check-not=error:

@kernel
class OnClass {}
// CHECK: bad-decorators.ts:[[@LINE-2]]:1: error: decorators on classes are not supported in WAVE kernels; put '@kernel' on a static method of the class
// CHECK-NEXT: {{^}}@kernel{{$}}
// CHECK-NEXT: {{^}}^{{$}}

@kernel
function onFunction(): void {}
// CHECK: bad-decorators.ts:[[@LINE-2]]:1: error: decorators are not valid TypeScript on functions; mark a kernel with a '// @kernel' comment or decorate a static method of a class with '@kernel'

// @kernel
class Commented {}
// CHECK: bad-decorators.ts:[[@LINE-2]]:4: error: '// @kernel' and '// @export' comments mark functions; in a class, decorate a static method with '@kernel'

class Math {}
// CHECK: bad-decorators.ts:[[@LINE-1]]:7: error: a class named 'Math' would hide the 'Math.' qualifier of intrinsic calls; rename the class
class Twice {}
class Twice {}
// CHECK: bad-decorators.ts:[[@LINE-1]]:7: error: redefinition of class 'Twice'
// CHECK: bad-decorators.ts:[[@LINE-3]]:7: note: 'Twice' is first defined here
class Derived extends Twice {}
// CHECK: bad-decorators.ts:[[@LINE-1]]:15: error: 'extends' is not supported in WAVE kernels: a class is a namespace of static methods

class K {
  @kernel
  instance(a: Float32Array): void {}
// CHECK: bad-decorators.ts:[[@LINE-2]]:3: error: decorators are supported on static methods only in WAVE kernels, not on instance method 'instance'
  @kernel
  field: f32 = 1;
// CHECK: bad-decorators.ts:[[@LINE-2]]:3: error: decorators are supported on static methods only in WAVE kernels, not on field 'field'
// CHECK-NEXT: {{^}}  @kernel{{$}}
// CHECK-NEXT: {{^}}  ^{{$}}
  @kernel
  constructor() {}
// CHECK: bad-decorators.ts:[[@LINE-2]]:3: error: decorators are supported on static methods only in WAVE kernels, not on a constructor
  data = 2;
// CHECK: bad-decorators.ts:[[@LINE-1]]:3: error: fields are not supported in WAVE kernels: a class holds static methods only (a class with static members or decorators is not a class of plain data)
  static count: u32 = 0;
// CHECK: bad-decorators.ts:[[@LINE-1]]:10: error: static fields are not supported in WAVE kernels: a class holds static methods only (a class with static members or decorators is not a class of plain data)
  constructor(a: f32) {}
// CHECK: bad-decorators.ts:[[@LINE-1]]:3: error: constructors are not supported in WAVE kernels: a class holds static methods only (a class with static members or decorators is not a class of plain data)
  method(): void {}
// CHECK: bad-decorators.ts:[[@LINE-1]]:3: error: instance methods are not supported in WAVE kernels; make 'method' static (a class with static members or decorators is not a class of plain data)
  get size(): u32 { return 1; }
// CHECK: bad-decorators.ts:[[@LINE-1]]:7: error: accessors ('get') are not supported in WAVE kernels
  static {}
// CHECK: bad-decorators.ts:[[@LINE-1]]:3: error: static blocks are not supported in WAVE kernels
  @kernel({ workgroupSize: [0, 2000] })
  static tooBig(a: Float32Array): void {}
// CHECK: bad-decorators.ts:[[@LINE-2]]:29: error: workgroup size '0' must be an integer from 1 to 1024
// CHECK: bad-decorators.ts:[[@LINE-3]]:32: error: workgroup size '2000' must be an integer from 1 to 1024
  @kernel({ workgroupSize: [1, 2, 3, 4] })
  static tooMany(a: Float32Array): void {}
// CHECK: bad-decorators.ts:[[@LINE-2]]:38: error: workgroupSize takes at most 3 values
  @kernel({ workgroupSize: [] })
  static none(a: Float32Array): void {}
// CHECK: bad-decorators.ts:[[@LINE-2]]:28: error: workgroupSize takes 1 to 3 values
  @kernel({ workgroup_size: [64] })
  static badOption(a: Float32Array): void {}
// CHECK: bad-decorators.ts:[[@LINE-2]]:13: error: unknown option 'workgroup_size' of '@kernel': the only option is 'workgroupSize'
  @kernel(64)
  static notObject(a: Float32Array): void {}
// CHECK: bad-decorators.ts:[[@LINE-2]]:11: error: expected '{ workgroupSize: [x, y, z] }' as the argument of '@kernel', found '64'
  @kernel({ workgroupSize: [n] })
  static notConstant(a: Float32Array, n: u32): void {}
// CHECK: bad-decorators.ts:[[@LINE-2]]:29: error: expected an integer workgroup size, found 'n'
  @inline
  static unknown(a: Float32Array): void {}
// CHECK: bad-decorators.ts:[[@LINE-2]]:3: error: unknown decorator '@inline': WAVE kernels know only '@kernel'
  @kernel @kernel
  static twice(a: Float32Array): void {}
// CHECK: bad-decorators.ts:[[@LINE-2]]:11: error: duplicate '@kernel' decorator
  @kernel
  static usesThis(a: Float32Array): void {
    a[0] = this.helper();
// CHECK: bad-decorators.ts:[[@LINE-1]]:12: error: 'this' is not supported in WAVE kernels; call a static method as 'K.f(...)'
  }
  static helper(): f32 {
    return 1.0;
  }
  // @export
  static exported(): void {}
// CHECK: bad-decorators.ts:[[@LINE-2]]:6: error: '// @kernel' and '// @export' comments mark top-level functions; in a class, decorate a static method with '@kernel'
  @kernel
  static calls(a: Float32Array): void {
    a[0] = helper();
    a[1] = K.missing();
    a[2] = Nowhere.helper();
  }
}
// The calls are checked once the whole file is read, so their errors come
// last.
// CHECK: bad-decorators.ts:[[@LINE-6]]:14: error: class 'K' has no static method 'missing'
// CHECK: bad-decorators.ts:[[@LINE-70]]:7: note: 'K' is declared here
// CHECK: bad-decorators.ts:[[@LINE-7]]:19: error: property access is not supported in WAVE kernels; only calls qualified with 'Math.', 'wave.' or the name of a class of this file are
// CHECK: bad-decorators.ts:[[@LINE-10]]:12: error: 'helper' is a static method of class 'K'; call it as 'K.helper(...)'
