// A shift of two literals takes the type of its context, the shift count
// included: `shl i32 1, 2`, not a u32 count (a libFuzzer find: lowered MIR
// failed the verifier).
// RUN: wave-fe %s | FileCheck %s
// RUN: wave-fe %s | wave-opt -O2 | FileCheck %s --check-prefix=FOLD

#[kernel]
fn k(a: &mut [i32]) {
    let mut x = 1 + 2;
    x = 1 << 2 & 3 ^ (4 | 5);
    a[0] = x;
}

// CHECK: shl i32 1, 2
// (1 << 2) & 3 = 0; 0 ^ (4 | 5) = 5.
// FOLD: store i32 5, ptr<device>
