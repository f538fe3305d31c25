// Source locations in Rust (formats/kernel-languages.md §8): a tail
// expression's ret has the expression's position, the implicit return the
// closing '}', a branch its 'if' keyword, a store its '='.
// RUN: wave-fe %s | FileCheck %s

fn half(x: f32) -> f32 {
    x * 0.5
}
// CHECK-LABEL: func @half(
// CHECK: fmul f32 %x, 0.5 !loc(7, 7)
// CHECK-NEXT: ret f32 %{{.*}} !loc(7, 7)

#[kernel]
fn k(a: &mut [f32], n: u32) {
    let i = global_id(0);
    if i < n {
        a[i as usize] = half(a[i as usize]);
    }
  }
// CHECK-LABEL: kernel @k(
// CHECK: icmp lt u32 %{{.*}}, %n !loc(16, 10)
// CHECK: condbr %{{.*}}, ^if.then, ^if.end !loc(16, 5)
// CHECK: call f32 @half(f32 %{{.*}}) !loc(17, 25)
// CHECK: store f32 %{{.*}}, ptr<device> %{{.*}} !loc(17, 23)
// CHECK: ^if.end:
// CHECK-NEXT: ret !loc(19, 3)
