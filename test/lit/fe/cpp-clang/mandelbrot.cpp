// mandelbrot.cpp: a plain-data class with members, constructors, member
// functions and operator overloads (issue 26: "a C++ struct Complex with
// operator* used in a Mandelbrot kernel"), through Clang's front end. Class
// objects become one variable per member and their functions are inlined
// (formats/kernel-languages.md, "Classes"); the escape counts are compared
// with a Python reference that rounds every f32 operation as WAVE does.
// RUN: rm -rf %t && mkdir -p %t
// RUN: wave-fe --cpp-frontend=clang %s | wave-opt -O2 | wave-ra | wave-as -o %t/k.wbin
// RUN: wave-run %t/k.wbin --grid 4 --arg out=zeros:256 --arg w=16 --arg h=16 --arg max_iter=40 --print 'out[0:256]' > %t/got.txt
// RUN: %python %S/Inputs/mandel_ref.py 16 16 40 > %t/want.txt
// RUN: diff %t/want.txt %t/got.txt
// RUN: wave-fe --cpp-frontend=clang --emit=ast %s | FileCheck %s
// The members of c and z are variables, set by the inlined constructor;
// `z = zz` is one assignment per member.
// CHECK:      var c.re: f32 = inl{{[0-9]+}}.this.re;
// CHECK-NEXT: var c.im: f32 = inl{{[0-9]+}}.this.im;
// CHECK:      var z.re: f32 = inl{{[0-9]+}}.this.re;
// CHECK-NEXT: var z.im: f32 = inl{{[0-9]+}}.this.im;
// CHECK:        inl{{[0-9]+}}.ret = (z.re * z.re) + (z.im * z.im);
// CHECK:      z.re = zz.re;
// CHECK-NEXT: z.im = zz.im;
#include <cstdint>

struct Complex {
  float re = 0.0f, im = 0.0f;
  Complex() = default;
  Complex(float r, float i) : re(r), im(i) {}
  Complex operator*(const Complex& o) const {
    return {re * o.re - im * o.im, re * o.im + im * o.re};
  }
  Complex operator+(Complex o) const { return Complex(re + o.re, im + o.im); }
  Complex& operator+=(const Complex& o) {
    re += o.re;
    im += o.im;
    return *this;
  }
  float norm2() const { return re * re + im * im; }
};

// Pixel i of a w x h image of [-2, 1] x [-1.5, 1.5]: the iterations of
// z = z * z + c before |z|^2 > 4, at most max_iter.
[[wave::kernel, wave::workgroup_size(64)]]
void mandel(uint32_t* out, uint32_t w, uint32_t h, uint32_t max_iter) {
  uint32_t i = global_id();
  if (i >= w * h)
    return;
  Complex c(-2.0f + 3.0f * float(i % w) / float(w),
            -1.5f + 3.0f * float(i / w) / float(h));
  Complex z{0.0f, 0.0f};
  uint32_t n = 0;
  while (n < max_iter) {
    if (z.norm2() > 4.0f)
      break;
    Complex zz = z * z;
    zz += c;
    z = zz;
    n++;
  }
  out[i] = n;
}
