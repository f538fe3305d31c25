// bad-input.cpp: Clang's own diagnostics, located in the kernel file with
// the source line and a caret, every error of the file in one run; no
// lowering once Clang found errors.
// RUN: not wave-fe --cpp-frontend=clang %s 2>&1 | FileCheck %s --implicit-check-not=error:
#include <cstdint>

__kernel void k(float* y, uint32_t n) {
  int x = (n + 1;
// CHECK: {{.*}}bad-input.cpp:[[@LINE-1]]:17: error: expected ')'
// CHECK-NEXT: {{^}}  int x = (n + 1;
// CHECK-NEXT: {{^}}                ^
// CHECK: {{.*}}bad-input.cpp:[[@LINE-4]]:11: note: to match this '('
  y[0] = undefined_thing;
// CHECK: {{.*}}bad-input.cpp:[[@LINE-1]]:10: error: use of undeclared identifier 'undefined_thing'
  static_assert(sizeof(int) == 8, "ints are 64-bit");
// CHECK: {{.*}}bad-input.cpp:[[@LINE-1]]:17: error: static assertion failed due to requirement 'sizeof(int) == 8': ints are 64-bit
}

template <int N> int fact() { return N * fact<N - 1>(); }
// CHECK: {{.*}}bad-input.cpp:[[@LINE-1]]:42: error: recursive template instantiation exceeded maximum depth of 256
__kernel void r(float* y) { y[1] = fact<3>(); }
