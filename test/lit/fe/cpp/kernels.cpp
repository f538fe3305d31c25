// kernels.cpp: kernel marking (__kernel, [[wave::kernel]]), workgroup sizes
// (own attribute list or in the same list, 1 to 3 values), ignored
// attributes and qualifiers, and parameter types (buffers, read-only
// buffers, scalars of every spelling).
// RUN: wave-fe --emit=ast %s | FileCheck %s

// CHECK: kernel k1(a: f32[], b: const f32[], c: const f32[], d: f32[], e: const i32[]) {
__kernel void k1(float* a, const float* b, float const* __restrict__ c,
                 __global float* __restrict d, const int e[]) {}

// CHECK: kernel k2(n: i32, m: u32, s: i32, t: i32, u: u32, v: u32, w: u32, x: u32) workgroup_size(16, 16, 1) {
[[wave::kernel]] [[wave::workgroup_size(16, 16)]]
void k2(int n, unsigned m, signed s, signed int t, unsigned int u, uint v,
        std::uint32_t w, uint32_t x) {}

// CHECK: kernel k3(a: f64, b: f16, c: f16, d: bool, e: i32, f: f32, g: f16, h: f64, i: i32, j: u32) workgroup_size(64, 1, 1) {
[[nodiscard, wave::kernel, wave::workgroup_size(64)]]
void k3(double a, half b, _Float16 c, bool d, std::int32_t e, f32 f, f16 g,
        f64 h, i32 i, const u32 j) {}

// CHECK: kernel k4() workgroup_size(8, 4, 2) {
__kernel [[wave::workgroup_size(8, 4u, 2)]] void k4(void) {}

// CHECK: func dev(x: f32) -> f32 {
// CHECK: func flag() -> bool {
static inline __device__ float dev(float x) { return x; }
constexpr bool flag() { return true; }
