// Device-function calls: a clamped 3-point blend through two helpers.
// RUN: %python %utils/fe_e2e.py %s --bindir %bindir --case stencil | FileCheck %s
// CHECK: OK -O0
// CHECK: OK -O2

float lerp(float a, float b, float t) {
    return a + (b - a) * t;
}

float load_or_zero(const float* buf, int32_t i, int32_t n) {
    if (i < 0 || i >= n) {
        return 0.0f;
    }
    return buf[i];
}

__kernel void stencil(const float* src, float* dst, float t, uint32_t n) {
    int32_t i = (int32_t)global_id();
    if (i < (int32_t)n) {
        float left = load_or_zero(src, i - 1, (int32_t)n);
        float right = load_or_zero(src, i + 1, (int32_t)n);
        dst[i] = lerp(left, right, t);
    }
}
