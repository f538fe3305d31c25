// Device atomics: a 16-bin histogram and the maximum value.
// RUN: %python %utils/fe_e2e.py %s --bindir %bindir --case histogram | FileCheck %s
// CHECK: OK -O0
// CHECK: OK -O2

#[kernel]
fn histogram(data: &[u32], bins: &mut [u32], n: u32) {
    let i = global_id();
    if i < n {
        let v = data[i];
        atomic_add(bins, v % 16, 1);
        atomic_max(bins, 16, v);
    }
}
