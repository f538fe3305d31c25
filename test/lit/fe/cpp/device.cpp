// device.cpp: device functions (any return type, ignored specifiers) and
// calls to them and to intrinsics, with and without the wave:: / std::
// qualifiers.
// RUN: wave-fe --cpp-frontend=builtin --emit=ast %s | FileCheck %s

// CHECK: func square(x: f32) -> f32 {
// CHECK-NEXT:   return x * x;
// CHECK-NEXT: }
__device__ inline float square(float x) { return x * x; }

// CHECK: func clamp01(x: f32) -> f32 {
// CHECK-NEXT:   return std_max(0.0f32, min(x, 1.0f32));
static float clamp01(float x) { return wave::std_max(0.0f, std::min(x, 1.0f)); }

// CHECK: func count(a: const u32[], n: u32) -> u32 {
// CHECK-NEXT:   var c: u32 = 0u32;
unsigned count(const unsigned* a, uint32_t n) {
  uint32_t c = 0u;
  for (uint32_t i = 0u; i < n; ++i)
    c += a[i] != 0u;
  return c;
}

// CHECK: func noop() {
// CHECK-NEXT:   return;
void noop() { return; }

// CHECK: kernel main_kernel(a: f32[]) {
// CHECK-NEXT:   a[thread_id()] = square(clamp01(a[thread_id()]));
// CHECK-NEXT:   noop();
__kernel void main_kernel(float* a) {
  a[thread_id()] = square(clamp01(a[wave::thread_id()]));
  noop();
}
