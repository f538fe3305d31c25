// mandelbrot.cpp: a plain-data class with members, constructors, member
// functions and operator overloads (issue 26: "a C++ struct Complex with
// operator* used in a Mandelbrot kernel"), through Clang's front end. Class
// objects become one variable per member and their functions are inlined
// (formats/kernel-languages.md, "Through Clang"); the escape counts are
// checked by fe_e2e.py's `mandel` case, which computes them in Python with
// every f32 operation rounded as WAVE does (the Rust, Python and TypeScript
// twins are test/lit/fe/e2e/mandelbrot.*).
// RUN: %python %utils/fe_e2e.py %s --bindir %bindir --case mandel | FileCheck %s --check-prefix=E2E
// E2E: OK -O0
// E2E: OK -O2
// RUN: wave-fe --emit=ast %s | FileCheck %s
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
