# Dataclasses with methods and dunder operators (issue 26, point 3): the
# Mandelbrot kernel of mandelbrot.rs in Python. Pixel i of a w x h image of
# [-2, 1] x [-1.5, 1.5] is c = (-2 + 3 (i % w) / w, -1.5 + 3 (i / w) / h);
# out[i] is the number of iterations z = z * z + c, from z = 0, before
# |z|^2 > 4, at most max_iter (every f32 operation rounded in the order the
# source gives it). Complex is a @dataclass with __add__, __mul__ and
# __iadd__; Orbit holds two of them and a counter, and its step() assigns
# fields of self, so it changes its receiver as in Python. The values are
# scalarised and the methods inlined (formats/kernel-languages.md §9,
# "Dataclasses"); fe_e2e.py computes the counts in Python (case mandel,
# shared with the Rust twin).
# RUN: %python %utils/fe_e2e.py %s --bindir %bindir --case mandel | FileCheck %s
# CHECK: OK -O0
# CHECK: OK -O2

from dataclasses import dataclass
from wave import *


@dataclass
class Complex:
    re: f32
    im: f32

    def norm2(self) -> f32:
        return self.re * self.re + self.im * self.im

    def __mul__(self, o: "Complex") -> "Complex":
        return Complex(self.re * o.re - self.im * o.im,
                       self.re * o.im + self.im * o.re)

    def __add__(self, o: "Complex") -> "Complex":
        return Complex(re=self.re + o.re, im=self.im + o.im)

    def __iadd__(self, o: "Complex") -> "Complex":
        self.re += o.re
        self.im += o.im
        return self


@dataclass
class Orbit:
    """The orbit of one point: dataclasses in a dataclass, and a counter."""
    z: Complex
    c: Complex
    n: u32 = 0

    def step(self):
        zz = self.z * self.z
        zz += self.c
        self.z = zz
        self.n += 1


def pixel(i: u32, w: u32, h: u32) -> Complex:
    """The point of pixel i (a dataclass returned by a device function)."""
    return Complex(-2.0 + 3.0 * f32(i % w) / f32(w),
                   -1.5 + 3.0 * f32(i // w) / f32(h))


def next_z(z: Complex, c: Complex) -> Complex:
    """z * z + c (dataclasses passed by value and returned)."""
    return z * z + c


@kernel(workgroup_size=(64, 1, 1))
def mandel(out: u32[:], w: u32, h: u32, max_iter: u32):
    i = global_id()
    if i >= w * h:
        return
    o = Orbit(Complex(0.0, 0.0), pixel(i, w, h))
    # Odd rows step through the method that changes self, even rows through
    # the by-value function: both compute z * z + c.
    odd = (i // w) % 2 == 1
    while o.n < max_iter:
        if o.z.norm2() > 4.0:
            break
        if odd:
            o.step()
        else:
            o.z = next_z(o.z, o.c)
            o.n += 1
    out[i] = o.n
