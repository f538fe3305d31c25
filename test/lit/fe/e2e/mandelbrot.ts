// Classes of plain data (formats/kernel-languages.md §12, "Classes of
// plain data"; issue 26, point 4): the Mandelbrot kernel of
// test/lit/fe/e2e/mandelbrot.rs on a Complex class. Pixel i of a w x h
// image of [-2, 1] x [-1.5, 1.5] is c = (-2 + 3 (i % w) / w,
// -1.5 + 3 (i / w) / h); out[i] is the number of iterations z = z * z + c,
// from z = 0, before |z|^2 > 4, at most maxIter (every f32 operation
// rounded in the order the source gives it). TypeScript has no operator
// overloading, so the arithmetic is method calls; literals next to f32
// operands are f32. fe_e2e.py computes the counts in Python.
// RUN: %python %utils/fe_e2e.py %s --bindir %bindir --case mandel | FileCheck %s
// CHECK: OK -O0
// CHECK: OK -O2

class Complex {
  re: f32;
  im: f32;
  constructor(re: f32, im: f32) {
    this.re = re;
    this.im = im;
  }
  add(o: Complex): Complex {
    return new Complex(this.re + o.re, this.im + o.im);
  }
  mul(o: Complex): Complex {
    return new Complex(this.re * o.re - this.im * o.im,
                       this.re * o.im + this.im * o.re);
  }
  norm2(): f32 {
    return this.re * this.re + this.im * this.im;
  }
}

/** The orbit of one point: a class of classes and a counter. */
class Orbit {
  z: Complex;
  c: Complex;
  n: u32;
  constructor(c: Complex) {
    this.z = new Complex(f32(0), f32(0));
    this.c = c;
    this.n = 0;
  }
  // Assigns fields of `this`: takes `this` by reference.
  step(): void {
    this.z = this.z.mul(this.z).add(this.c);
    this.n++;
  }
}

/** The point of pixel i (a class value returned by a device function). */
function pixel(i: u32, w: u32, h: u32): Complex {
  return new Complex(-2.0 + 3.0 * f32(i % w) / f32(w),
                     -1.5 + 3.0 * f32(i / w) / f32(h));
}

/** z * z + c (class values passed by value and returned). */
function next(z: Complex, c: Complex): Complex {
  return z.mul(z).add(c);
}

// @kernel workgroup_size(64, 1, 1)
export function mandel(out: u32[], w: u32, h: u32, maxIter: u32): void {
  const i = global_id();
  if (i >= w * h) {
    return;
  }
  let o = new Orbit(pixel(i, w, h));
  // Odd rows step through the method that assigns `this`, even rows
  // through the by-value function: both compute z * z + c.
  const odd = (i / w) % 2 == 1;
  while (o.n < maxIter) {
    if (o.z.norm2() > 4.0) {
      break;
    }
    if (odd) {
      o.step();
    } else {
      o.z = next(o.z, o.c);
      o.n += 1;
    }
  }
  out[i] = o.n;
}
