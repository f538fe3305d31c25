// bad-class-param.cpp: a class is not a kernel parameter (kernel
// parameters are one 32-bit register each, formats/kernel-abi.md).
// RUN: not wave-fe %s 2>&1 | FileCheck %s --implicit-check-not=error:
struct V {
  float x, y;
};
__kernel void by_value(V v, float* out) { out[0] = v.x; }
// CHECK: {{.*}}bad-class-param.cpp:[[@LINE-1]]:26: error: kernel parameter 'v' has type 'V'; kernel parameters are buffers or bool, i32, u32, f16, f32 scalars (one 32-bit register each, formats/kernel-abi.md)
