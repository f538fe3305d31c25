// Lowering of C++ control flow: a do-while loop, a C-style for whose
// `continue` runs the step, a ternary (only one arm runs), a device
// function call, and a __shared__ array as a constant local-memory offset.
// RUN: wave-fe %s | FileCheck %s

float half_of(float x) { return x * 0.5f; }

[[wave::kernel, wave::workgroup_size(32)]]
void k(float* p, uint32_t n) {
    __shared__ float tmp[64];
    __shared__ uint32_t flags[8];
    uint32_t t = thread_id();
    uint32_t i = 0;
    do {
        i += 2;
    } while (i < n);
    for (uint32_t j = 0; j < n; ++j) {
        if (j == t) continue;
        tmp[t] = half_of(p[j]);
    }
    flags[1] = t < 4 ? t : 4;
}

// CHECK-LABEL: func @half_of(f32 %x) -> f32 {
// CHECK: fmul f32 %x, 0.5
// CHECK-LABEL: kernel @k(ptr<device> readonly elem(f32) %p, u32 %n) workgroup_size(32, 1, 1) local_memory(288) {
// CHECK: ^do.body:
// CHECK-NEXT: %i = phi u32 [0, ^entry], [%i.1, ^do.cond]
// CHECK-NEXT: %i.1 = add u32 %i, 2
// CHECK: ^do.cond:
// CHECK-NEXT: [[C:%[0-9]+]] = icmp lt u32 %i.1, %n
// CHECK-NEXT: condbr [[C]], ^do.body, ^do.end
// flags (after tmp's 256 bytes) gets the ternary's value, which only one
// arm computes.
// CHECK: ^for.end:
// CHECK: ptradd ptr<local> 256,
// CHECK: condbr %{{[0-9]+}}, ^cond.true, ^cond.false
// CHECK: ^cond.end:
// CHECK-NEXT: [[V:%[0-9]+]] = phi u32 [%t, ^cond.true], [4, ^cond.false]
// CHECK-NEXT: store u32 [[V]], ptr<local>
// tmp[t] is at local offset 0.
// CHECK: ^if.end:
// CHECK: ptradd ptr<local> 0,
// CHECK: call f32 @half_of(f32
// `continue` goes to the step block, which increments j.
// CHECK: ^if.then:
// CHECK-NEXT: br ^for.step
// CHECK: ^for.step:
// CHECK-NEXT: %j.1 = add u32 %j, 1
