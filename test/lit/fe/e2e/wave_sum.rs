// A wave-operation reduction: every wave sums its lanes with reduce_add.
// RUN: %python %utils/fe_e2e.py %s --bindir %bindir --case wave_sum | FileCheck %s
// CHECK: OK -O0
// CHECK: OK -O2

#[kernel]
fn wave_sum(src: &[u32], out: &mut [u32], n: u32) {
    let i = global_id();
    let mut v: u32 = 0;
    if i < n {
        v = src[i];
    }
    let total = reduce_add(v);
    if lane_id() == 0 {
        out[i / wave_width()] = total;
    }
}
