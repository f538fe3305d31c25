// A loop with an early exit: per row, the first column above a threshold.
// RUN: %python %utils/fe_e2e.py %s --bindir %bindir --case first_above | FileCheck %s
// CHECK: OK -O0
// CHECK: OK -O2

__kernel void first_above(const float* data, int32_t* out, uint32_t rows, uint32_t cols, float threshold) {
    uint32_t row = global_id();
    if (row < rows) {
        int32_t found = -1;
        for (uint32_t j = 0; j < cols; j++) {
            if (data[row * cols + j] > threshold) {
                found = (int32_t)j;
                break;
            }
        }
        out[row] = found;
    }
}
