# f64 comparisons, min and max, which WAVE has no instruction for
# (formats/isa.md §2.8): built from dsub, dmul, cvt_f32_f64 and fcmp
# (formats/kernel-languages.md §3). Every pair of special values, then
# neighbouring doubles, against Python's IEEE comparisons and fmin/fmax's
# NaN rule (formats/isa.md §4.7).
# RUN: %python %utils/fe_e2e.py %s --bindir %bindir --case f64cmp | FileCheck %s
# CHECK: OK -O0
# CHECK: OK -O2

@kernel
def f64cmp(a: f64[:], b: f64[:], out: f64[:], n: u32):
    i = global_id()
    if i < n:
        x = a[i]
        y = b[i]
        out[4 * i] = min(x, y)
        out[4 * i + 1] = max(x, y)
        m: u32 = 0
        if x < y:
            m = m | 1
        if x <= y:
            m = m | 2
        if x > y:
            m = m | 4
        if x >= y:
            m = m | 8
        if x == y:
            m = m | 16
        if x != y:
            m = m | 32
        out[4 * i + 2] = f64(m)
        out[4 * i + 3] = f64(1) if x < y <= 1.0 else f64(0)
