// Plain-data structs with impl methods and operator traits (issue 26, point
// 2): a Mandelbrot kernel on a Complex struct. Pixel i of a w x h image of
// [-2, 1] x [-1.5, 1.5] is c = (-2 + 3 (i % w) / w, -1.5 + 3 (i / w) / h);
// out[i] is the number of iterations z = z * z + c, from z = 0, before
// |z|^2 > 4, at most max_iter (every f32 operation rounded in the order the
// source gives it). The Complex values are scalarised into one variable
// per field and the methods, operators and struct-passing device function
// are inlined (formats/kernel-languages.md §8). fe_e2e.py computes the
// counts in Python from this comment; the C++ twin is
// test/lit/fe/cpp-clang/mandelbrot.cpp.
// RUN: %python %utils/fe_e2e.py %s --bindir %bindir --case mandel | FileCheck %s
// CHECK: OK -O0
// CHECK: OK -O2

use std::ops::{Add, AddAssign, Mul};
use wave::*;

#[derive(Clone, Copy)]
struct Complex {
    re: f32,
    im: f32,
}

impl Complex {
    fn new(re: f32, im: f32) -> Self {
        Self { re, im }
    }
    fn norm2(&self) -> f32 {
        self.re * self.re + self.im * self.im
    }
}

impl Mul for Complex {
    type Output = Complex;
    fn mul(self, o: Complex) -> Complex {
        Complex {
            re: self.re * o.re - self.im * o.im,
            im: self.re * o.im + self.im * o.re,
        }
    }
}

impl Add for Complex {
    type Output = Complex;
    fn add(self, o: Complex) -> Complex {
        Complex::new(self.re + o.re, self.im + o.im)
    }
}

impl AddAssign for Complex {
    fn add_assign(&mut self, o: Complex) {
        self.re += o.re;
        self.im += o.im;
    }
}

/// The orbit of one point: a struct of structs and a counter.
struct Orbit {
    z: Complex,
    c: Complex,
    n: u32,
}

impl Orbit {
    fn step(&mut self) {
        let mut zz = self.z * self.z;
        zz += self.c;
        self.z = zz;
        self.n += 1;
    }
}

/// The point of pixel i (a struct returned by a device function).
fn pixel(i: u32, w: u32, h: u32) -> Complex {
    Complex::new(-2.0 + 3.0 * (i % w) as f32 / w as f32,
                 -1.5 + 3.0 * (i / w) as f32 / h as f32)
}

/// z * z + c (structs passed by value and returned).
fn next(z: Complex, c: Complex) -> Complex {
    z * z + c
}

#[kernel(workgroup_size = (64, 1, 1))]
fn mandel(out: &mut [u32], w: u32, h: u32, max_iter: u32) {
    let i = global_id();
    if i >= w * h {
        return;
    }
    let mut o = Orbit { z: Complex::new(0.0, 0.0), c: pixel(i, w, h), n: 0 };
    // Odd rows step through the &mut self method, even rows through the
    // by-value function: both compute z * z + c.
    let odd = (i / w) % 2 == 1;
    while o.n < max_iter {
        if o.z.norm2() > 4.0 {
            break;
        }
        if odd {
            o.step();
        } else {
            o.z = next(o.z, o.c);
            o.n += 1;
        }
    }
    out[i] = o.n;
}
