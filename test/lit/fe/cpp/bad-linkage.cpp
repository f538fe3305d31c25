// Errors of C++ declarations and exports (formats/kernel-languages.md §1,
// §10): an exported or declared kernel, a prototype whose signature differs
// from the definition, an export with no definition, a shared array in an
// exported function, a call to a declaration with a wrong argument.
// RUN: not wave-fe --cpp-frontend=builtin %s 2>&1 | FileCheck %s --implicit-check-not=error:

[[wave::kernel, wave::export]] void k(float* a) { a[0] = 1.0f; }
// CHECK: bad-linkage.cpp:[[@LINE-1]]:17: error: kernel 'k' cannot be exported; only device functions can (kernels are entry points already)

__kernel void k2(float* a);
// CHECK: bad-linkage.cpp:[[@LINE-1]]:15: error: kernel 'k2' has no body; only device functions can be declared

[[wave::export]] float tile(uint32_t i) {
  __shared__ float t[4];
// CHECK: bad-linkage.cpp:[[@LINE-1]]:20: error: shared arrays are declared in kernels only; exported function 'tile' cannot use local memory
  return t[i];
}

float ext(float a, const float* b);
__kernel void caller(float* a) { a[0] = ext(a[1], 2.0f); }
// CHECK: bad-linkage.cpp:[[@LINE-1]]:51: error: expected a buffer of 'f32' for argument 2 ('b') of 'ext', found 'f32'
