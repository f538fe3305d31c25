// C++'s conversion rules (formats/kernel-languages.md §2): the usual
// arithmetic conversions promote mixed operands, any arithmetic conversion
// is implicit in an initialisation, an unsuffixed float literal alone is a
// double, and a number may be a condition.
// RUN: wave-fe --emit=hir %s | FileCheck %s

__kernel void k(float* p, uint32_t* q, uint32_t n, int s) {
    uint32_t i = thread_id();
    auto m = s + n;
    int t = p[i];
    auto d = 1.5;
    float f = d * 2;
    float g = p[0] * 2.0f + 1;
    if (n) {
        q[i] = t;
    }
}

// CHECK-LABEL: kernel k(p: f32[], q: u32[], n: u32, s: i32)
// CHECK-NEXT: var i: u32 = thread_id();
// int + unsigned is unsigned.
// CHECK-NEXT: var m: u32 = convert<u32>(s) + n;
// float to int narrows implicitly in C++.
// CHECK-NEXT: var t: i32 = convert<i32>(p[i]);
// CHECK-NEXT: var d: f64 = 1.5;
// CHECK-NEXT: var f: f32 = convert<f32>(d * 2);
// CHECK-NEXT: var g: f32 = (p[0] * 2.0f32) + 1;
// CHECK-NEXT: if (convert<bool>(n)) {
// CHECK-NEXT: q[i] = convert<u32>(t);
