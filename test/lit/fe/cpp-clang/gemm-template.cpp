// gemm-template.cpp: one function template instantiated for f32 and for f16
// (issue 26: "a templated C++ GEMM instantiated for f32 and f16"), through
// Clang's front end, run on the emulator and compared with a Python
// reference. Inputs are small integers so every product and sum is exact in
// f16 too (the largest sum is 8 * 7 * 7 = 392 < 2048).
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/gemm_ref.py %t
// RUN: wave-fe --cpp-frontend=clang %s | wave-opt -O2 | wave-ra | wave-as -o %t/k.wbin
// RUN: wave-run %t/k.wbin --kernel gemm_f32 --arg a=@%t/a.f32 --arg b=@%t/b.f32 --arg c=zeros:64 --arg n=8 --print 'c[0:64]' > %t/f32.txt
// RUN: diff %t/want.txt %t/f32.txt
// RUN: wave-run %t/k.wbin --kernel gemm_f16 --arg a=@%t/a.f16 --arg b=@%t/b.f16 --arg c=zeros:64 --arg n=8 --print 'c[0:64]' > %t/f16.txt
// RUN: diff %t/want.txt %t/f16.txt
// RUN: wave-fe --cpp-frontend=clang --emit=ast %s | FileCheck %s
// CHECK: kernel gemm_f32(a: const f32[], b: const f32[], c: f32[], n: u32) workgroup_size(64, 1, 1) {
// CHECK-NEXT:   gemm_tile.f32(a, b, c, n);
// CHECK: kernel gemm_f16(a: const f16[], b: const f16[], c: f16[], n: u32) workgroup_size(64, 1, 1) {
// CHECK-NEXT:   gemm_tile.f16(a, b, c, n);
// CHECK: func gemm_tile.f32(a: const f32[], b: const f32[], c: f32[], n: u32) {
// CHECK: func gemm_tile.f16(a: const f16[], b: const f16[], c: f16[], n: u32) {
#include <cstdint>

// c = a * b for n x n row-major matrices; thread t computes c[t].
template <typename T>
void gemm_tile(const T* a, const T* b, T* c, uint32_t n) {
  uint32_t t = thread_id();
  uint32_t row = t / n, col = t % n;
  T acc = T(0);
  for (uint32_t k = 0; k < n; ++k)
    acc += a[row * n + k] * b[k * n + col];
  c[t] = acc;
}

[[wave::kernel, wave::workgroup_size(64)]]
void gemm_f32(const float* a, const float* b, float* c, uint32_t n) {
  gemm_tile(a, b, c, n);
}

[[wave::kernel, wave::workgroup_size(64)]]
void gemm_f16(const half* a, const half* b, half* c, uint32_t n) {
  gemm_tile<half>(a, b, c, n);
}
