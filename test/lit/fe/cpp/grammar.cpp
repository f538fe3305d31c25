// grammar.cpp: every statement form of the C++ dialect and the C++ operator
// precedence/associativity, checked on the parsed tree (--emit=ast; the
// printer parenthesises nested binary expressions).
// RUN: wave-fe --cpp-frontend=builtin --emit=ast %s | FileCheck %s

#include <cstdint>
#pragma once
using namespace wave;
using namespace std;

// CHECK-LABEL: kernel prec(a: f32[], n: i32)
__kernel void prec(float* a, int n) {
  // CHECK-NEXT: var x: i32 = (1 + (2 * 3)) - (4 / 5);
  int x = 1 + 2 * 3 - 4 / 5;
  // CHECK-NEXT: x = ((((1 << 2) < 3) == 4) & 5) ^ (6 | 7);
  x = 1 << 2 < 3 == 4 & 5 ^ (6 | 7);
  // CHECK-NEXT: x = ((1 | (2 ^ (3 & 4))) || (5 && 6)) || 7;
  x = 1 | 2 ^ 3 & 4 || 5 && 6 || 7;
  // CHECK-NEXT: x = (a < b) ? c : (d ? e : f);
  x = a < b ? c : d ? e : f;
  // CHECK-NEXT: x = ((-x * +x) % ~x) >> !x;
  x = -x * +x % ~x >> !x;
  // CHECK-NEXT: x = (x - 1) - 2;
  x = x - 1 - 2;
  // CHECK-NEXT: x = -(x + 1) * (x != 2);
  x = -(x + 1) * (x != 2);
  // CHECK-NEXT: x = ((x <= 1) >= (x > 2)) == (x >= 3);
  x = (x <= 1 >= (x > 2)) == (x >= 3);
  // CHECK-NEXT: x = a[b[x + 1]][2];
  x = a[b[x + 1]][2];
  // CHECK-NEXT: x = cast<f32>(x) + cast<i32>(-x);
  x = (float)x + (int)-x;
  // CHECK-NEXT: x = (cast<u32>(x) + cast<f32>(x)) + cast<i32>(x * 2);
  x = static_cast<unsigned>(x) + float(x) + std::int32_t(x * 2);
  // CHECK-NEXT: x = (f32(x) + sqrt(x)) + thread_id(0);
  x = f32(x) + std::sqrt(x) + wave::thread_id(0);
  // CHECK-NEXT: x = cast<f16>(x) + cast<u32>(x);
  x = (const half)x + (std::uint32_t)x;
}

// CHECK-LABEL: kernel stmts(a: f32[], n: u32)
__kernel void stmts(float* a, unsigned n) {
  // CHECK-NEXT: var i: i32 = 0;
  // CHECK-NEXT: var j: i32;
  // CHECK-NEXT: var k: i32 = i + 1;
  int i = 0, j, k = i + 1;
  // CHECK-NEXT: var t = 1.5;
  auto t = 1.5;
  // CHECK-NEXT: const c: f32 = 2.0f32;
  const float c = 2.0f;
  // CHECK-NEXT: const d: u32 = 4u32;
  constexpr uint d = 4u;
  // CHECK-NEXT: var e: f32 = 1.0f32;
  float e{1.0f};
  // CHECK-NEXT: i = 1;
  // CHECK-NEXT: i += 1;
  // CHECK-NEXT: i -= 1;
  // CHECK-NEXT: i *= 2;
  // CHECK-NEXT: i /= 2;
  // CHECK-NEXT: i %= 2;
  // CHECK-NEXT: i &= 1;
  // CHECK-NEXT: i |= 1;
  // CHECK-NEXT: i ^= 1;
  // CHECK-NEXT: i <<= 1;
  // CHECK-NEXT: i >>= 1;
  i = 1; i += 1; i -= 1; i *= 2; i /= 2; i %= 2;
  i &= 1; i |= 1; i ^= 1; i <<= 1; i >>= 1;
  // CHECK-NEXT: i += 1;
  // CHECK-NEXT: i += 1;
  // CHECK-NEXT: a[i] -= 1;
  // CHECK-NEXT: j -= 1;
  i++; ++i; a[i]--; --j;
  // CHECK-NEXT: barrier();
  barrier();
  ;
  // CHECK-NEXT: if (i < 1) {
  // CHECK-NEXT:   i = 2;
  // CHECK-NEXT: } else if (i < 2) {
  // CHECK-NEXT:   i = 3;
  // CHECK-NEXT: } else {
  // CHECK-NEXT:   i = 4;
  // CHECK-NEXT: }
  if (i < 1) i = 2; else if (i < 2) { i = 3; } else i = 4;
  // CHECK-NEXT: while (i) {
  // CHECK-NEXT:   break;
  // CHECK-NEXT: }
  while (i) break;
  // CHECK-NEXT: do {
  // CHECK-NEXT:   continue;
  // CHECK-NEXT: } while (false);
  do { continue; } while (false);
  // CHECK-NEXT: for (var q: u32 = 0u32; q < n; q += 1) {
  // CHECK-NEXT: }
  for (uint32_t q = 0u; q < n; q++) {}
  // CHECK-NEXT: for (i = 0; ; i += 2) {
  // CHECK-NEXT:   a[i] = 0.0;
  // CHECK-NEXT: }
  for (i = 0; ; i += 2) a[i] = 0.0;
  // CHECK-NEXT: for (; ; ) {
  // CHECK-NEXT:   return;
  // CHECK-NEXT: }
  for (;;) { return; }
  // CHECK-NEXT: {
  // CHECK-NEXT:   var i: i32 = 1;
  // CHECK-NEXT: }
  { int i = 1; }
  // CHECK-NEXT: return;
  return;
}

// Literals: values, suffixes, separators, octal and hex.
// CHECK-LABEL: kernel lits(a: f32[])
__kernel void lits(float* a) {
  // CHECK-NEXT: a[0] = (((1000000 + 31u32) + 8) + 5) + 0;
  a[0] = 1'000'000 + 0x1Fu + 010 + 0b101 + 0;
  // CHECK-NEXT: a[1] = ((1.0f32 + 0.5) + 1e+10f32) + 0.25f16;
  a[1] = 1.f + .5 + 1e10F + 0.25h;
  // CHECK-NEXT: a[2] = (true && !false) ? -1 : -2.5;
  a[2] = true && !false ? -1 : -2.5;
}
