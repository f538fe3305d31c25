# f16 buffers and f16 arithmetic: out = f16(a) * x + y, rounded per operation.
# RUN: %python %utils/fe_e2e.py %s --bindir %bindir --case haxpy | FileCheck %s
# CHECK: OK -O0
# CHECK: OK -O2

@kernel
def haxpy(x: f16[:], y: f16[:], out: f16[:], a: f32, n: u32):
    i = global_id()
    if i < n:
        out[i] = f16(a) * x[i] + y[i]
