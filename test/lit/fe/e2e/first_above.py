# A loop with an early exit: per row, the first column above a threshold.
# RUN: %python %utils/fe_e2e.py %s --bindir %bindir --case first_above | FileCheck %s
# CHECK: OK -O0
# CHECK: OK -O2

@kernel
def first_above(data: f32[:], out: i32[:], rows: u32, cols: u32, threshold: f32):
    row = global_id()
    if row < rows:
        found: i32 = -1
        for j in range(cols):
            if data[row * cols + j] > threshold:
                found = i32(j)
                break
        out[row] = found
