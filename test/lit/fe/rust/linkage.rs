// Declarations and exports in Rust (formats/kernel-languages.md §1, §11):
// 'extern "C" { ... }' and 'extern { ... }' blocks declare functions (calls
// need no 'unsafe'); #[export] / #[wave::export] export a definition. A
// '&[T]' parameter is readonly anyway; a '&mut [T]' one passed to a
// declaration is read and written.
// RUN: wave-fe %s | FileCheck %s
// RUN: wave-fe --emit=hir %s | FileCheck %s --check-prefix=HIR

// CHECK: declare func @ext(f32 %a, f32 %b) -> f32
// CHECK: declare func @sum(ptr<device> readonly elem(f32) %v, u32 %n) -> f32
// HIR: declare func ext(a: f32, b: f32) -> f32{{$}}
extern "C" {
    fn ext(a: f32, b: f32) -> f32;
    pub fn sum(v: &[f32], n: u32) -> f32;
}
// CHECK: declare func @fill(ptr<device> elem(i32) %dst, u32 %i)
extern {
    fn fill(dst: &mut [i32], i: u32);
}

// CHECK: export func @lerp(f32 %a, f32 %b, f32 %t) -> f32 {
#[export]
fn lerp(a: f32, b: f32, t: f32) -> f32 {
    a + (b - a) * t
}

// CHECK: export func @scale(ptr<device> elem(f32) %v, u32 %i) {
#[inline]
#[wave::export]
pub fn scale(v: &mut [f32], i: u32) {
    v[i as usize] *= 2.0;
}

// CHECK: kernel @k(ptr<device> readonly elem(f32) %x, ptr<device> elem(i32) %z, ptr<device> writeonly elem(f32) %w, u32 %n)
// CHECK: call f32 @sum(ptr<device> %x, u32 %n)
// CHECK: call void @fill(ptr<device> %z, u32 %{{.*}})
// CHECK: call f32 @ext(
// CHECK: call f32 @lerp(
#[kernel]
fn k(x: &[f32], z: &mut [i32], w: &mut [f32], n: u32) {
    let i = global_id(0);
    let s = sum(x, n);
    fill(z, i);
    w[i as usize] = lerp(ext(x[i as usize], s), 1.0, 0.5);
}
