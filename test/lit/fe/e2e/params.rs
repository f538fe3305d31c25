// bool and f16 kernel parameters (formats/kernel-abi.md, "Buffers and
// scalars"): a bool arrives as a u32, true when not zero; an f16 as its f32
// value, rounded to f16 on entry. MIR sees u32 and f32 parameters.
// RUN: wave-fe %s | FileCheck %s
// RUN: %python %utils/fe_e2e.py %s --bindir %bindir --case params | FileCheck %s --check-prefix=E2E
// E2E: OK -O0
// E2E: OK -O2

// CHECK-LABEL: kernel @params(ptr<device> writeonly elem(f32) %out, u32 %off, u32 %on, f32 %h, u32 %n)
// CHECK: %[[OFF:[0-9a-z.]+]] = icmp ne u32 %off, 0
// CHECK-NEXT: %[[ON:[0-9a-z.]+]] = icmp ne u32 %on, 0
// CHECK-NEXT: %[[H:[0-9a-z.]+]] = cvt f32 %h to f16
#[kernel]
fn params(out: &mut [f32], off: bool, on: bool, h: f16, n: u32) {
    let i = thread_id();
    if i < n {
        let x = h as f32;
        out[i] = if off { x * 2.0 } else { x } + i as f32;
        out[n + i] = if on { x * 2.0 } else { x } + i as f32;
    }
}
