# Device-function calls: a clamped 3-point blend through two helpers.
# RUN: %python %utils/fe_e2e.py %s --bindir %bindir --case stencil | FileCheck %s
# CHECK: OK -O0
# CHECK: OK -O2

def lerp(a: f32, b: f32, t: f32) -> f32:
    return a + (b - a) * t

def load_or_zero(buf: f32[:], i: i32, n: i32) -> f32:
    if i < 0 or i >= n:
        return 0.0
    return buf[i]

@kernel
def stencil(src: f32[:], dst: f32[:], t: f32, n: u32):
    i = i32(global_id())
    if i < i32(n):
        left = load_or_zero(src, i - 1, i32(n))
        right = load_or_zero(src, i + 1, i32(n))
        dst[i] = lerp(left, right, t)
