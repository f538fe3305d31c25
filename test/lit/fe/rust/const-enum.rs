// const-enum.rs: module and local `const` items and C-like enums become
// typed literals at each use (module items may be used before their
// declaration); `if let`, `while let` and `let (a, b) = (x, y)`.
// RUN: wave-fe --emit=hir %s | FileCheck %s

// CHECK-LABEL: kernel k(out: u32[], n: u32) shared_bytes(1024) {
// CHECK-NEXT:   shared tile: f32[256] at 0;
// CHECK-NEXT:   const a: u32 = 16u32 + n;
// CHECK-NEXT:   const b: i32 = -2147483648i32;
// CHECK-NEXT:   const c: f32 = 0.5f32;
// CHECK-NEXT:   const d: bool = true;
// CHECK-NEXT:   const e: i32 = 1i32;
// CHECK-NEXT:   const f: u32 = 7u32;
// CHECK-NEXT:   const g: u32 = 42u32;
// CHECK-NEXT:   const h: i32 = cast<i32>(5i32) + 1;
#[kernel]
fn k(out: &mut [u32], n: u32) {
    let mut tile = shared(f32, TILE * TILE);
    let a = TILE + n;
    let b = MIN;
    let c = HALF;
    let d = BIG;
    let e = Color::Green;
    let f = Mode::C;
    const LOCAL: u32 = TILE * 2 + 10;
    let g = LOCAL;
    let h = Color::Blue as i32 + 1;
// Copies of plain names are hoisted (an `else if let` of a computed value
// would copy in its else-block).
// CHECK-NEXT:   const if.s: u32 = a;
// CHECK-NEXT:   const if.s1: u32 = n;
// CHECK-NEXT:   const if.s2: u32 = g;
// CHECK-NEXT:   if ((if.s >= 1) && (if.s <= 9)) {
// CHECK-NEXT:     out[0] = if.s;
// CHECK-NEXT:   } else if (if.s1 == 3) {
// CHECK-NEXT:     out[1] = if.s2;
// CHECK-NEXT:   }
    if let x @ 1..=9 = a {
        out[0] = x;
    } else if let (3, y) = (n, g) {
        out[1] = y;
    }
// while let: the scrutinee runs before every test.
// CHECK-NEXT:   var i: u32 = 0;
// CHECK-NEXT:   while (true) {
// CHECK-NEXT:     const while.s3: u32 = out[i];
// CHECK-NEXT:     if ((while.s3 >= 1) && (while.s3 <= 9)) {
// CHECK-NEXT:       out[i] = while.s3 - 1;
// CHECK-NEXT:       i += 1;
// CHECK-NEXT:     } else {
// CHECK-NEXT:       break;
// CHECK-NEXT:     }
// CHECK-NEXT:   }
    let mut i: u32 = 0;
    while let v @ 1..=9 = out[i] {
        out[i] = v - 1;
        i += 1;
    }
// let with a tuple: a swap goes through hidden copies.
// CHECK-NEXT:   var p: u32 = 1;
// CHECK-NEXT:   const q: f32 = 2.0;
// CHECK-NEXT:   const let.t4: f32 = q;
// CHECK-NEXT:   const let.t5: u32 = p;
// CHECK-NEXT:   const p: f32 = let.t4;
// CHECK-NEXT:   const q: u32 = let.t5;
    let (mut p, q): (u32, f32) = (1, 2.0);
    let (p, q) = (q, p);
    out[2] = q + p as u32;
}

// Module items after their use.
const TILE: u32 = 16;
const MIN: i32 = -2147483647 - 1;
const HALF: f32 = 1.0 / 2.0;
const BIG: bool = TILE > 8 && MIN < 0;

// An enum without `repr` is i32; `#[repr(u32)]` makes it u32; variants
// count on from the last explicit value.
enum Color { Red, Green, Blue = 5 }
#[repr(u32)]
enum Mode { A = 3, B, C = Mode::B as u32 + 3 }
