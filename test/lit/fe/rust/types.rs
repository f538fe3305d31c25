// Rust's conversion rules (formats/kernel-languages.md §2): no implicit
// conversions, literals adopt their context, a `let` initialised by a
// literal takes the type of its first typed use, `as` converts, and `!` is
// logical on bool and bitwise on integers.
// RUN: wave-fe --emit=hir %s | FileCheck %s

#[kernel]
fn k(p: &mut [f32], q: &mut [u32], n: u32, s: i32) {
    let i = thread_id();
    let mut j = 0;
    while j < n {
        j += 1;
    }
    let x = s as f32 * 0.5;
    let b = !(i < n);
    q[i] = !j;
    p[i] = if b { x } else { 1.0 };
}

// CHECK-LABEL: kernel k(p: f32[], q: u32[], n: u32, s: i32)
// CHECK-NEXT: const i: u32 = thread_id();
// `j < n` is the first typed use of j.
// CHECK-NEXT: var j: u32 = 0;
// CHECK-NEXT: while (j < n) {
// CHECK-NEXT: j += 1;
// CHECK: const x: f32 = cast<f32>(s) * 0.5;
// CHECK-NEXT: const b: bool = !(i < n);
// CHECK-NEXT: q[i] = !j;
// CHECK-NEXT: p[i] = b ? x : 1.0;
