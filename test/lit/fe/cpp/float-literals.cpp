// Float literals keep the rounding of their type: 1.1f is the f32 nearest
// to 1.1 (0x3F8CCCCD = 1.10000002384...), and converting it to double
// widens that value instead of re-reading the decimal 1.1.
// RUN: wave-fe %s | FileCheck %s

__kernel void k(double* p, float* q) {
    p[0] = (double)1.1f;
    q[0] = 1.1f;
}

// CHECK: cvt f32 1.10000002 to f64
// CHECK: store f32 1.10000002, ptr<device>
