// mandelbrot.cpp: a plain-data class with members, constructors, member
// functions and operator overloads (issue 26: "a C++ struct Complex with
// operator* used in a Mandelbrot kernel"), through Clang's front end. The
// class becomes a HIR struct (formats/kernel-languages.md §8, "Plain-data
// structs"; "Through Clang"); the escape counts are
// checked by fe_e2e.py's `mandel` case, which computes them in Python with
// every f32 operation rounded as WAVE does (the Rust, Python and TypeScript
// twins are test/lit/fe/e2e/mandelbrot.*).
// RUN: %python %utils/fe_e2e.py %s --bindir %bindir --case mandel | FileCheck %s --check-prefix=E2E
// E2E: OK -O0
// E2E: OK -O2
// RUN: wave-fe --emit=ast %s | FileCheck %s
// The class is a HIR struct; its constructor, member functions and
// operators are functions `Complex::name` with the object first (by
// reference where they change it), which lowering inlines.
// CHECK:      struct Complex { re: f32, im: f32 }
// CHECK:      var c: Complex = Complex::ctor.f32.f32(
// CHECK-NEXT: var z: Complex = Complex::ctor.f32.f32(0.0f32, 0.0f32);
// CHECK:        if (Complex::norm2(z) > 4.0f32) {
// CHECK:        var zz: Complex = Complex::mul(z, z);
// CHECK-NEXT:   Complex::add_assign(zz, c);
// CHECK-NEXT:   z = zz;
// CHECK:      func Complex::ctor.f32.f32(r: f32, i: f32) -> Complex {
// CHECK-NEXT:   var this: Complex = Complex { re: 0, im: 0 };
// CHECK-NEXT:   this.re = r;
// CHECK-NEXT:   this.im = i;
// CHECK-NEXT:   return this;
// CHECK:      func Complex::add_assign(this: &mut Complex, o: Complex) {
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
