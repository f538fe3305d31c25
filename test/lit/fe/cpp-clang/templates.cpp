// templates.cpp: through Clang's front end, templates are instantiated by
// deduction and explicitly (each instantiation a function named by its
// template arguments), overloads are resolved (each overload named by its
// parameter types), namespaces, constexpr values, static_assert, T x(e) and
// brace initialisation, hex floats and #include of the user's header (next
// to the source) all work; the prelude's <cstdint> is an empty header.
// RUN: wave-fe --cpp-frontend=clang --emit=ast %s | FileCheck %s
// RUN: wave-fe --cpp-frontend=clang %s | wave-opt -O2 | FileCheck %s --check-prefix=MIR
#include <cstdint>
#include "Inputs/helpers.h"

namespace util {
constexpr uint32_t Tile = 8;
template <typename T> T square(T x) { return x * x; }
float twice(float x) { return x + x; }
uint32_t twice(uint32_t x) { return x << 1; }
template <typename T, int N> T sumN(const T* p, uint32_t base) {
  if constexpr (N == 0)
    return T(0);
  T acc = T(0);
  for (int k = 0; k < N; ++k)
    acc += p[base + k];
  return acc;
}
} // namespace util
static_assert(util::Tile * 2 == 16);

// The header's function comes first, then the file's in source order; the
// instantiations follow in the order the kernel needs them.
// CHECK:      func helper(v: f32) -> f32 {
// CHECK:      func twice.f32(x: f32) -> f32 {
// CHECK-NEXT:   return x + x;
// CHECK:      func twice.u32(x: u32) -> u32 {
// CHECK-NEXT:   return x << 1;
// CHECK:      kernel k(x: const f32[], h: const f16[], y: f32[], n: u32) workgroup_size(8, 1, 1) {
// CHECK-NEXT:   var i: u32 = global_id();
// CHECK-NEXT:   var a: f32 = x[i];
// CHECK-NEXT:   var b: f32 = square.f32(a);
// CHECK-NEXT:   var c: f16 = square.f16(h[i]);
// 0x1.8p1f is 1.5 * 2 = 3.
// CHECK-NEXT:   y[i] = ((((twice.f32(b) + cast<f32>(twice.u32(i))) + sumN.f32.4(x, i)) + helper(a)) + cast<f32>(c)) + 3.0f32;
// CHECK:      func square.f32(x: f32) -> f32 {
// CHECK:      func square.f16(x: f16) -> f16 {
// CHECK:      func sumN.f32.4(p: const f32[], base: u32) -> f32 {
// CHECK-NEXT:   var acc: f32 = cast<f32>(0);
// CHECK-NEXT:   for (var k: i32 = 0; k < 4; k += 1) {
// CHECK-NEXT:     acc += p[base + k];
[[wave::kernel, wave::workgroup_size(util::Tile)]]
void k(const float* x, const half* h, float* y, uint32_t n) {
  uint32_t i = global_id();
  float a(x[i]);
  float b{util::square(a)};
  half c = util::square(h[i]);
  y[i] = util::twice(b) + float(util::twice(i)) + util::sumN<float, 4>(x, i) +
         helper(a) + float(c) + 0x1.8p1f;
}

// MIR: kernel @k(
// MIR: %c = call f16 @square.f16(
// MIR: fadd f32 %{{[0-9a-z.]+}}, 3.0
// MIR: func @square.f16(f16 %x) -> f16 {
// MIR: fmul f16 %x, %x
