// unsupported.cpp: C++ that Clang accepts but WAVE cannot run is one
// located error each, all in one run (formats/kernel-languages.md, "C++").
// RUN: not wave-fe --cpp-frontend=clang %s 2>&1 | FileCheck %s --implicit-check-not=error:
#include <cstdint>

struct Shape {
  virtual float area() const { return 0.0f; }
// CHECK: {{.*}}unsupported.cpp:[[@LINE-1]]:17: error: virtual functions are not supported in WAVE kernels (WAVE has no indirect calls)
};

__kernel void k(float* y, uint32_t n) {
  float* p = y;
// CHECK: {{.*}}unsupported.cpp:[[@LINE-1]]:10: error: a variable of type 'float *' is not supported in WAVE kernels
  y[2] = *y;
// CHECK: {{.*}}unsupported.cpp:[[@LINE-1]]:10: error: pointer dereference is not supported in WAVE kernels
  float local[4];
// CHECK: {{.*}}unsupported.cpp:[[@LINE-1]]:9: error: local arrays are not supported in WAVE kernels; use __shared__ for workgroup memory
}

__global__ void cuda(float* y) {}
// CHECK: {{.*}}unsupported.cpp:[[@LINE-1]]:17: error: '__global__' is CUDA's; mark WAVE kernels with __kernel
