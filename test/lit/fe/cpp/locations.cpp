// Source locations in C++ (formats/kernel-languages.md §8): the path as
// given becomes source_filename; expressions get their operator or callee,
// stores their '=', branches the 'if'/'for' keyword, the implicit return
// the closing '}'.
// RUN: cd %S && wave-fe locations.cpp | FileCheck %s
// CHECK: source_filename = "locations.cpp"

__kernel void k(float* a, uint32_t n) {
  for (uint32_t i = 0; i < n; i++) {
    if (a[i] > 0.0f)
      a[i] = -a[i];
  }
}
// CHECK-LABEL: kernel @k(
// CHECK: br ^for.cond !loc(9, 3)
// CHECK: icmp lt u32 %{{.*}}, %n !loc(9, 26)
// CHECK: condbr %{{.*}}, ^for.body, ^for.end !loc(9, 3)
// CHECK: ^for.end:
// CHECK-NEXT: ret !loc(13, 1)
// CHECK: ^for.body:
// CHECK: load f32, ptr<device> %{{.*}} !loc(10, 10)
// CHECK: fcmp gt f32 %{{.*}}, 0.0 !loc(10, 14)
// CHECK: condbr %{{.*}}, ^if.then, ^if.end !loc(10, 5)
// CHECK: ^if.then:
// CHECK: load f32, ptr<device> %{{.*}} !loc(11, 16)
// CHECK: fneg f32 %{{.*}} !loc(11, 14)
// CHECK: store f32 %{{.*}}, ptr<device> %{{.*}} !loc(11, 12)
// CHECK: ^for.step:
// CHECK: add u32 %{{.*}}, 1 !loc(9, 32)
// CHECK: br ^for.cond !loc(9, 3)
