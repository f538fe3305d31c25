// shared.cpp: __shared__ arrays (also after 'static') become SharedDecl with
// the element type and the unevaluated size expression.
// RUN: wave-fe --emit=ast %s | FileCheck %s

// CHECK-LABEL: kernel reduce(in: const f32[], out: f32[]) workgroup_size(256, 1, 1) {
// CHECK-NEXT:   shared tile: f32[256];
// CHECK-NEXT:   shared grid: u32[16 * 16];
// CHECK-NEXT:   shared h: f16[4];
// CHECK-NEXT:   var t: u32 = thread_id();
// CHECK-NEXT:   tile[t] = in[global_id()];
// CHECK-NEXT:   barrier();
[[wave::kernel, wave::workgroup_size(256)]]
void reduce(const float* in, float* out) {
  __shared__ float tile[256];
  static __shared__ unsigned grid[16 * 16];
  __shared__ half h[4];
  uint32_t t = thread_id();
  tile[t] = in[global_id()];
  barrier();
  for (uint32_t s = 128u; s > 0u; s >>= 1) {
    if (t < s) tile[t] += tile[t + s];
    barrier();
  }
  if (t == 0u) out[workgroup_id(0)] = tile[0];
}
// CHECK:      for (var s: u32 = 128u32; s > 0u32; s >>= 1) {
// CHECK-NEXT:   if (t < s) {
// CHECK-NEXT:     tile[t] += tile[t + s];
// CHECK-NEXT:   }
// CHECK-NEXT:   barrier();
// CHECK-NEXT: }
