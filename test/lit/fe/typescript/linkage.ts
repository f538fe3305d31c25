// Declarations and exports in TypeScript (formats/kernel-languages.md §1,
// §12): 'declare function' declares a device function of another object; a
// '// @export' line comment exports a device function ('export function'
// is a kernel). Buffer parameters get elem(T) and readonly / writeonly.
// RUN: wave-fe %s | FileCheck %s
// RUN: wave-fe --kernel k %s | FileCheck %s --check-prefix=ONLY --implicit-check-not=@lerp

// CHECK: declare func @ext(f32 %a, f32 %b) -> f32
declare function ext(a: f32, b: f32): f32;
// CHECK: declare func @fill(ptr<device> elem(i32) %dst, u32 %i)
declare function fill(dst: Int32Array, i: u32): void

// CHECK: export func @lerp(f32 %a, f32 %b, f32 %t) -> f32 {
// @export
function lerp(a: f32, b: f32, t: f32): f32 {
  return a + (b - a) * t;
}

// Not exported: an ordinary comment.
// CHECK: func @twice(f32 %x) -> f32 {
// exported elsewhere
function twice(x: f32): f32 {
  return x * 2.0;
}

// CHECK: kernel @k(ptr<device> readonly elem(f32) %x, ptr<device> elem(i32) %z, ptr<device> writeonly elem(f32) %w)
// CHECK: call void @fill(ptr<device> %z, u32 %{{.*}})
// CHECK: call f32 @ext(
// ONLY: declare func @ext(
// ONLY: declare func @fill(
// ONLY: func @twice(
// ONLY: kernel @k(
export function k(x: Float32Array, z: Int32Array, w: Float32Array): void {
  const i = global_id(0);
  fill(z, i);
  w[i] = twice(ext(x[i], 1.0));
}
