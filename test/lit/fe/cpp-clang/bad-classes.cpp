// bad-classes.cpp: the checker's whole-module rules see through member
// functions, which are calls of `Class::name` functions: recursion through
// one is an error located at the call, with a note at the definition.
// RUN: not wave-fe %s 2>&1 | FileCheck %s --implicit-check-not=error:
#include <cstdint>

struct V {
  float x, y;
  float forever() const { return forever(); }
// CHECK: {{.*}}bad-classes.cpp:[[@LINE-1]]:34: error: recursive call to 'V::forever': recursion is not supported in WAVE kernels (device-function calls are inlined)
// CHECK: {{.*}}bad-classes.cpp:[[@LINE-2]]:9: note: 'V::forever' is defined here
};

__kernel void k(float* out, uint32_t n) {
  V v{1.0f, 2.0f};
  out[2] = v.forever();
}
