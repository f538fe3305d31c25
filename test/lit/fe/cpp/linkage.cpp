// Declarations and exports in C++ (formats/kernel-languages.md §1, §10):
// a prototype (optionally 'extern') is a 'declare func' unless the file
// defines the function with the same signature; [[wave::export]] makes an
// 'export func' (also when only the prototype carries it). A buffer passed
// to a declaration is read and written unless the declared parameter is
// 'const T*'; elem(T), readonly and writeonly come from the accesses.
// RUN: wave-fe %s | FileCheck %s
// RUN: wave-fe --kernel k %s | FileCheck %s --check-prefix=ONLY --implicit-check-not=@scale --implicit-check-not=@later

// CHECK: declare func @ext(f32 %a, f32 %b) -> f32
float ext(float a, float b);
// CHECK: declare func @sum(ptr<device> readonly elem(f32) %v, u32 %n) -> f32
extern float sum(const float* v, uint32_t n);
// CHECK: declare func @fill(ptr<device> elem(i32) %dst, u32 %i)
extern void fill(int* dst, unsigned i);

// The prototype and the definition are one (exported) function, emitted
// where the body is.
[[wave::export]] float later(float x);

// CHECK: export func @lerp(f32 %a, f32 %b, f32 %t) -> f32 {
[[wave::export]] float lerp(float a, float b, float t) {
  return a + (b - a) * t;
}

// CHECK: export func @scale(ptr<device> elem(f32) %v, u32 %i) {
[[wave::export, nodiscard]] void scale(float* v, uint32_t i) { v[i] *= 2.0f; }

// CHECK: export func @later(f32 %y) -> f32 {
float later(float y) { return y + 1.0f; }

// x: read directly and passed to a const parameter; y: never touched;
// z: passed to fill() (a writable declared parameter); w: only stored.
// CHECK: kernel @k(ptr<device> readonly elem(f32) %x, ptr<device> readonly elem(f32) %y, ptr<device> elem(i32) %z, ptr<device> writeonly elem(f32) %w, u32 %n)
// CHECK: call f32 @sum(ptr<device> %x, u32 %n)
// CHECK: call void @fill(ptr<device> %z, u32 %{{.*}})
// CHECK: call f32 @ext(
__kernel void k(const float* x, float* y, int* z, float* w, uint32_t n) {
  uint32_t i = global_id(0);
  float s = sum(x, n);
  fill(z, i);
  w[i] = ext(x[i], s);
}

// ONLY: declare func @ext(
// ONLY: declare func @sum(
// ONLY: declare func @fill(
// ONLY: kernel @k(
