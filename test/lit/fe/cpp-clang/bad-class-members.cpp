// bad-class-members.cpp: a class member that is not a number, a bool or
// such a class is one located error; lowering stops there, as a parser
// error does.
// RUN: not wave-fe %s 2>&1 | FileCheck %s --implicit-check-not=error:
#include <cstdint>

struct Holder {
  float* p;
// CHECK: {{.*}}bad-class-members.cpp:[[@LINE-1]]:10: error: a member of type 'float *' is not supported in WAVE kernels (members are numbers, bools or classes of them)
};

__kernel void k(float* out) {
  Holder h;
  out[0] = 1.0f;
}
