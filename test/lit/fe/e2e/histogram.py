# Device atomics: a 16-bin histogram and the maximum value.
# RUN: %python %utils/fe_e2e.py %s --bindir %bindir --case histogram | FileCheck %s
# CHECK: OK -O0
# CHECK: OK -O2

@kernel
def histogram(data: u32[:], bins: u32[:], n: u32):
    i = global_id()
    if i < n:
        v = data[i]
        atomic_add(bins, v % 16, 1)
        atomic_max(bins, 16, v)
