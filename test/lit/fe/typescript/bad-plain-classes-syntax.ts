// Classes of plain data (formats/kernel-languages.md §12, "Classes of
// plain data"): what the parser rejects, one located error each, all in
// one run. A class with a static member or a decorator is a class of
// static methods, so its fields, constructor and instance methods are
// rejected (one class is never both).
// RUN: not wave-fe %s 2>&1 | FileCheck %s --implicit-check-not=error:

class Base {
  b: f32;
  constructor(b: f32) {
    this.b = b;
  }
}

// CHECK: bad-plain-classes-syntax.ts:[[@LINE+1]]:11: error: 'extends' is not supported in WAVE kernels: a class of plain data has no base
class Sub extends Base {
  s: f32;
  constructor(s: f32) {
    this.s = s;
  }
}

class V2 {
  x: f32;
  y: f32;
  // CHECK: bad-plain-classes-syntax.ts:[[@LINE+1]]:4: error: optional members are not supported in WAVE kernels
  o?: f32;
  // CHECK: bad-plain-classes-syntax.ts:[[@LINE+1]]:3: error: field 'u' needs a type in WAVE kernels (a scalar type or a class of plain data)
  u;
  // CHECK: bad-plain-classes-syntax.ts:[[@LINE+1]]:10: error: field initializers are not supported in WAVE kernels; assign 'w' in the constructor
  w: f32 = 0;
  // CHECK: bad-plain-classes-syntax.ts:[[@LINE+1]]:3: error: private names are not supported in WAVE kernels
  #p: f32;
  // CHECK: bad-plain-classes-syntax.ts:[[@LINE+1]]:3: error: field 'arr' has type 'f32[]'; fields of a class of plain data have a scalar type or the type of a class of plain data
  arr: f32[];
  constructor(x: f32, y: f32) {
    this.x = x;
    // CHECK: bad-plain-classes-syntax.ts:[[@LINE+1]]:14: error: 'this' is only assigned fields in a constructor in WAVE kernels; its fields cannot be read before it is built
    this.y = this.x + y;
    // CHECK: bad-plain-classes-syntax.ts:[[@LINE+1]]:5: error: a constructor of a class of plain data only assigns fields in WAVE kernels ('this.x = ...;')
    if (x > y) {
      this.x = y;
    }
  }
  // CHECK: bad-plain-classes-syntax.ts:[[@LINE+1]]:3: error: accessors ('get') are not supported in WAVE kernels
  get len(): f32 {
    return this.x;
  }
  self(): V2 {
    // CHECK: bad-plain-classes-syntax.ts:[[@LINE+1]]:12: error: 'this' is only used as 'this.field' or 'this.method(...)' in WAVE kernels; it cannot escape
    return this;
  }
  // CHECK: bad-plain-classes-syntax.ts:[[@LINE+1]]:3: error: 'async' members are not supported in WAVE kernels
  async later(): f32 {
    return this.y;
  }
}

// CHECK: bad-plain-classes-syntax.ts:[[@LINE+1]]:10: error: generic classes are not supported in WAVE kernels
class Box<T> {
  v: f32;
  constructor(v: f32) {
    this.v = v;
  }
}

// CHECK: bad-plain-classes-syntax.ts:[[@LINE+1]]:7: error: class 'NoCtor' has no constructor; WAVE kernels need one that assigns every field
class NoCtor {
  n: f32;
}

class Mixed {
  // CHECK: bad-plain-classes-syntax.ts:[[@LINE+1]]:3: error: fields are not supported in WAVE kernels: a class holds static methods only (a class with static members or decorators is not a class of plain data)
  m: f32;
  static f(): f32 {
    return 1.0;
  }
}

class Util {
  static g(): f32 {
    return 2.0;
  }
}

export function k(out: f32[]): void {
  // CHECK: bad-plain-classes-syntax.ts:[[@LINE+1]]:12: error: class 'Util' is a namespace of static methods in WAVE kernels; only classes of plain data have instances
  out[0] = new Util().g();
  // CHECK: bad-plain-classes-syntax.ts:[[@LINE+1]]:7: error: variable 'q' of class 'V2' must be initialized (= new V2(...))
  let q: V2;
  // CHECK: bad-plain-classes-syntax.ts:[[@LINE+1]]:12: error: arrays of classes are not supported in WAVE kernels
  let r: V2[] = 1;
}
