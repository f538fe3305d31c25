// bad-classes.cpp: what the scalarisation of classes and the inlining of
// their functions cannot do is one located error each, all in one run.
// RUN: not wave-fe --cpp-frontend=clang %s 2>&1 | FileCheck %s --implicit-check-not=error:
#include <cstdint>

struct Holder {
  float* p;
// CHECK: {{.*}}bad-classes.cpp:[[@LINE-1]]:10: error: a member of type 'float *' is not supported in WAVE kernels (members are numbers, bools or classes of them)
};

struct V {
  float x, y;
  float pick(bool first) const {
    if (first)
      return x;
// CHECK: {{.*}}bad-classes.cpp:[[@LINE-2]]:5: error: 'V::pick' is inlined (it is a member function or takes or returns a class) and may return only at its end
    return y;
  }
  float len2() const { return x * x + y * y; }
  float forever() const { return forever(); }
};

__kernel void k(float* out, uint32_t n) {
  Holder h;
  V v{1.0f, 2.0f};
  out[0] = v.pick(true);
  while (v.len2() < 100.0f)
// CHECK: {{.*}}bad-classes.cpp:[[@LINE-1]]:12: error: calling 'len2' (a member function, or a function that takes or returns a class, is inlined) in a loop condition, on the right of && or ||, or in an arm of ?: is not supported in WAVE kernels
    v.x += 1.0f;
  out[1] = n > 0 && v.len2() > 1.0f ? 1.0f : 0.0f;
// CHECK: {{.*}}bad-classes.cpp:[[@LINE-1]]:23: error: calling 'len2' {{.*}} is not supported in WAVE kernels
  out[2] = v.forever();
// CHECK: {{.*}}bad-classes.cpp:[[@LINE-13]]:34: error: inlining 'V::forever' goes deeper than 32 calls; recursion is not supported in WAVE kernels
}

__kernel void by_value(V v, float* out) { out[0] = v.x; }
// CHECK: {{.*}}bad-classes.cpp:[[@LINE-1]]:26: error: parameter type 'V' is not supported in WAVE kernels
