// Classes of plain data (formats/kernel-languages.md §12, "Classes of
// plain data"): what Sema rejects, one located error each, all in one run.
// TypeScript has no operator overloading; class-typed parameters are
// read-only copies; a method that assigns fields of `this` needs a mutable
// receiver; the constructor assigns every field once.
// RUN: not wave-fe %s 2>&1 | FileCheck %s --implicit-check-not=error:

// CHECK: bad-plain-classes.ts:[[@LINE+1]]:7: error: struct 'Ring' contains itself; it would have no size
class Ring {
  r: Ring;
  constructor(r: Ring) {
    this.r = r;
  }
}

// CHECK: bad-plain-classes.ts:[[@LINE+1]]:32: error: kernel parameter 'p' has type 'V2'; kernel parameters are buffers or bool, i32, u32, f16, f32 scalars (one 32-bit register each, formats/kernel-abi.md)
export function kp(out: f32[], p: V2): void {
  out[0] = p.x;
}

class V2 {
  x: f32;
  y: f32;
  constructor(x: f32, y: f32) {
    this.x = x;
    this.y = y;
  }
  shift(d: f32): void {
    this.x += d;
  }
  len2(): f32 {
    return this.x * this.x + this.y * this.y;
  }
}

class Half {
  a: f32;
  b: f32;
  // CHECK: bad-plain-classes.ts:[[@LINE+1]]:3: error: missing field(s) 'b' in the literal of 'Half'
  constructor(a: f32) {
    this.a = a;
  }
}

class Twice {
  t: f32;
  constructor(t: f32) {
    this.t = t;
    // CHECK: bad-plain-classes.ts:[[@LINE+1]]:10: error: field 't' is given twice
    this.t = t;
  }
}

function bump(o: V2): f32 {
  // CHECK: bad-plain-classes.ts:[[@LINE+1]]:7: error: cannot assign to a field of 'o': it is not mutable
  o.x = 1.0;
  // CHECK: bad-plain-classes.ts:[[@LINE-3]]:15: note: 'o' is declared here
  return o.x;
}

export function k(out: f32[]): void {
  const a = new V2(1.0, 2.0);
  let b = new V2(3.0, 4.0);
  // CHECK: bad-plain-classes.ts:[[@LINE+1]]:13: error: no operator '+' for 'V2' and 'V2'; TypeScript has no operator overloading: call a method
  let c = a + b;
  // CHECK: bad-plain-classes.ts:[[@LINE+1]]:3: error: 'V2::shift' assigns fields of 'this': 'a' is not mutable (declare it with 'let')
  a.shift(1.0);
  // CHECK: bad-plain-classes.ts:[[@LINE+1]]:7: error: cannot assign to a field of 'a': it is not mutable (declare it with 'let')
  a.y = 2.0;
  // CHECK: bad-plain-classes.ts:{{[0-9]+}}:9: note: 'a' is declared here
  // CHECK: bad-plain-classes.ts:[[@LINE+1]]:22: error: cannot assign to a field of a temporary value
  new V2(1.0, 2.0).x = 1.0;
  // CHECK: bad-plain-classes.ts:[[@LINE+1]]:15: error: 'V2::constructor' takes 2 argument(s), not 1
  let d = new V2(1.0);
  // CHECK: bad-plain-classes.ts:{{[0-9]+}}:3: note: 'V2::constructor' is declared here
  // CHECK: bad-plain-classes.ts:[[@LINE+1]]:19: error: expected 'V2' in argument 1 ('o') of 'bump', found 'f32'
  out[0] = bump(b.x) + bump(b);
  // CHECK: bad-plain-classes.ts:[[@LINE+1]]:10: error: cannot assign a 'V2' to a 'f32'
  out[1] = b;
}
