// device.rs: device functions (an `fn` without #[kernel]), return types,
// tail expressions (a value-returning body's last expression becomes a
// return; a void body's tail call stays a call), if-expressions as tails
// and operands, math methods and their f32::name(x) form, wrapping_*.
// RUN: wave-fe --emit=ast %s | FileCheck %s

// CHECK-LABEL: func square(x: f32) -> f32 {
// CHECK-NEXT:   return x * x;
// CHECK-NEXT: }
fn square(x: f32) -> f32 {
    x * x
}

// CHECK-LABEL: func sign(x: i32) -> i32 {
// CHECK-NEXT:   return (x > 0) ? 1 : ((x < 0) ? -1 : 0);
fn sign(x: i32) -> i32 {
    if x > 0 { 1 } else if x < 0 { -1 } else { 0 }
}

// CHECK-LABEL: func nested(a: bool, b: bool) -> u32 {
// CHECK-NEXT:   return a ? (b ? 1 : 2) : 3;
fn nested(a: bool, b: bool) -> u32 {
    if a { if b { 1 } else { 2 } } else { 3 }
}

// CHECK-LABEL: func early(x: u32) -> u32 {
// CHECK-NEXT:   if (x == 0) {
// CHECK-NEXT:     return 1;
// CHECK-NEXT:   }
// CHECK-NEXT:   return x;
fn early(x: u32) -> u32 {
    if x == 0 {
        return 1;
    }
    return x
}

// CHECK-LABEL: func sync() {
// CHECK-NEXT:   barrier();
// CHECK-NEXT: }
fn sync() {
    barrier()
}

// CHECK-LABEL: func math(x: f32, y: f32, n: u32) -> f32 {
fn math(x: f32, y: f32, n: u32) -> f32 {
    // CHECK-NEXT: const a = ((sqrt(x) + abs(x)) + floor(x)) + ceil(x);
    let a = x.sqrt() + x.abs() + x.floor() + x.ceil();
    // CHECK-NEXT: const b = ((round(x) + trunc(x)) + fract(x)) + sin(x);
    let b = x.round() + x.trunc() + x.fract() + x.sin();
    // CHECK-NEXT: const c = ((cos(x) + exp(x)) + exp2(x)) + log(x);
    let c = x.cos() + x.exp() + x.exp2() + x.ln();
    // CHECK-NEXT: const d = (log2(x) + rcp(x)) + min(x, y);
    let d = x.log2() + x.recip() + x.min(y);
    // CHECK-NEXT: const e = (max(x, y) + clamp(x, 0.0, 1.0)) + fma(x, y, 2.0);
    let e = x.max(y) + x.clamp(0.0, 1.0) + x.mul_add(y, 2.0);
    // CHECK-NEXT: const f = -abs(1.0f32);
    let f = -1.0f32.abs();
    // CHECK-NEXT: const g = sqrt(x) + max(x, y);
    let g = f32::sqrt(x) + f32::max(x, y);
    // CHECK-NEXT: const w = ((n + 1) - 2) * 3;
    let w = n.wrapping_add(1).wrapping_sub(2).wrapping_mul(3);
    // CHECK-NEXT: return (((a + b) + c) + d) + e;
    a + b + c + d + e
}

// CHECK-LABEL: kernel k(out: f32[]) {
// CHECK-NEXT:   out[0] = square(sign(2));
#[kernel]
fn k(out: &mut [f32]) {
    out[0] = square(sign(2));
}
