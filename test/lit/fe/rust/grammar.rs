// grammar.rs: every statement form of the Rust dialect and Rust's operator
// precedence/associativity, checked on the parsed tree (--emit=ast; the
// printer parenthesises nested binary expressions).
// RUN: wave-fe --emit=ast %s | FileCheck %s

#![allow(unused)]
use wave::*;
use wave::{barrier, thread_id};

// CHECK-LABEL: kernel prec(a: const f32[], n: u32) {
#[kernel]
fn prec(a: &[f32], n: u32) {
    // CHECK-NEXT: var x = (1 + (2 * 3)) - ((4 / 5) % 6);
    let mut x = 1 + 2 * 3 - 4 / 5 % 6;
    // CHECK-NEXT: x = ((1 << 2) & 3) ^ (4 | 5);
    x = 1 << 2 & 3 ^ (4 | 5);
    // CHECK-NEXT: x = 1 | (2 ^ (3 & (4 >> (5 + 6))));
    x = 1 | 2 ^ 3 & 4 >> 5 + 6;
    // CHECK-NEXT: x = ((1 < 2) && ((3 | 4) == 5)) || ((6 != 7) && (8 >= 9));
    x = 1 < 2 && 3 | 4 == 5 || 6 != 7 && 8 >= 9;
    // CHECK-NEXT: x = (((x <= 1) || (x > 2)) || (x >= 3)) || (x < 4);
    x = x <= 1 || x > 2 || x >= 3 || x < 4;
    // CHECK-NEXT: x = ((-x * !x) % --x) - !!x;
    x = -x * !x % --x - !!x;
    // CHECK-NEXT: x = (x - 1) - 2;
    x = x - 1 - 2;
    // CHECK-NEXT: x = x - (1 - 2);
    x = x - (1 - 2);
    // CHECK-NEXT: x = -(x + 1) * (x != 2);
    x = -(x + 1) * (x != 2);
    // CHECK-NEXT: x = cast<u32>(cast<f32>(x)) * cast<i32>(-x);
    x = x as f32 as u32 * -x as i32;
    // CHECK-NEXT: x = cast<f32>(a[0]) + cast<u32>(cast<u32>(a[1]));
    x = a[0] as f32 + a[1] as usize as u32;
    // CHECK-NEXT: x = a[n[x + 1]][2];
    x = a[n[x + 1]][2];
    // CHECK-NEXT: x = thread_id(0) + barrier();
    x = wave::thread_id(0) + wave::barrier();
    // CHECK-NEXT: x = f32(x) + u32(x);
    x = f32(x) + u32(x);
}

// CHECK-LABEL: kernel stmts(out: f32[], m: i32, k: u32) {
#[kernel]
pub fn stmts(out: &mut [f32], mut m: i32, k: u32) {
    // CHECK-NEXT: const a = 1;
    let a = 1;
    // CHECK-NEXT: const b: f32 = 2.5;
    let b: f32 = 2.5;
    // CHECK-NEXT: var c: u32;
    let mut c: u32;
    // CHECK-NEXT: var d: i32 = m;
    let mut d: i32 = m;
    // CHECK-NEXT: c = 1;
    // CHECK-NEXT: c += 1;
    // CHECK-NEXT: c -= 2;
    // CHECK-NEXT: c *= 3;
    // CHECK-NEXT: c /= 4;
    // CHECK-NEXT: c %= 5;
    // CHECK-NEXT: c &= 6;
    // CHECK-NEXT: c |= 7;
    // CHECK-NEXT: c ^= 8;
    // CHECK-NEXT: c <<= 9;
    // CHECK-NEXT: c >>= 10;
    c = 1; c += 1; c -= 2; c *= 3; c /= 4; c %= 5;
    c &= 6; c |= 7; c ^= 8; c <<= 9; c >>= 10;
    // CHECK-NEXT: out[c + 1] = b;
    out[c + 1] = b;
    // CHECK-NEXT: barrier();
    barrier();;
    // CHECK-NEXT: if (a < k) {
    // CHECK-NEXT:   c = 0;
    // CHECK-NEXT: } else if ((a > 2) && (m == 0)) {
    // CHECK-NEXT:   c = 1;
    // CHECK-NEXT: } else {
    // CHECK-NEXT:   c = 2;
    // CHECK-NEXT: }
    if a < k {
        c = 0;
    } else if (a > 2) && m == 0 {
        c = 1;
    } else {
        c = 2;
    }
    // CHECK-NEXT: if (c == 1) {
    // CHECK-NEXT:   barrier();
    // CHECK-NEXT: }
    if c == 1 { barrier() }
    // CHECK-NEXT: while (c > 0) {
    // CHECK-NEXT:   c -= 1;
    // CHECK-NEXT:   continue;
    // CHECK-NEXT: }
    while c > 0 {
        c -= 1;
        continue;
    }
    // CHECK-NEXT: while (true) {
    // CHECK-NEXT:   break;
    // CHECK-NEXT: }
    loop {
        break
    }
    // CHECK-NEXT: for i in range(0, k, 1) {
    // CHECK-NEXT:   out[i] = 0.0;
    // CHECK-NEXT: }
    for i in 0..k {
        out[i] = 0.0;
    }
    // CHECK-NEXT: for i in range_inclusive(1, k - 1, 1) {
    // CHECK-NEXT: }
    for i in 1..=k - 1 {}
    // CHECK-NEXT: for j in range(a, k, 2) {
    // CHECK-NEXT: }
    for j in (a..k).step_by(2) {}
    // CHECK-NEXT: for j in range_inclusive(0, 10, k * 2) {
    // CHECK-NEXT: }
    for j in (0..=10).step_by(k * 2) {}
    // CHECK-NEXT: for _ in range(a, k, 1) {
    // CHECK-NEXT: }
    for _ in (a)..(k) {}
    // CHECK-NEXT: {
    // CHECK-NEXT:   const inner = 1;
    // CHECK-NEXT:   {
    // CHECK-NEXT:   }
    // CHECK-NEXT: }
    {
        let inner = 1;
        {}
    }
    // CHECK-NEXT: const e = (a > 1) ? 1.0 : ((a > 0) ? 0.5 : 0.0);
    let e = if a > 1 { 1.0 } else if a > 0 { 0.5 } else { 0.0 };
    // CHECK-NEXT: m = ((c > 0) ? 1 : 2) + 3;
    m = if c > 0 { 1 } else { 2 } + 3;
    // CHECK-NEXT: return;
    return;
}
