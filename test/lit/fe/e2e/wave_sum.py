# A wave-operation reduction: every wave sums its lanes with reduce_add.
# RUN: %python %utils/fe_e2e.py %s --bindir %bindir --case wave_sum | FileCheck %s
# CHECK: OK -O0
# CHECK: OK -O2

@kernel
def wave_sum(src: u32[:], out: u32[:], n: u32):
    i = global_id()
    v: u32 = 0
    if i < n:
        v = src[i]
    total = reduce_add(v)
    if lane_id() == 0:
        out[i / wave_width()] = total
