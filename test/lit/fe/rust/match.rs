// match.rs: `match` over integers, bools, C-like enums and tuples lowers to
// a chain of ifs (or, as a value with one-expression arms, of conditional
// expressions) on a hidden copy of the scrutinee (`match.s`); bindings are
// aliases of the copy; the last arm of an exhaustive match has no test.
// RUN: wave-fe --emit=hir %s | FileCheck %s
// RUN: wave-fe %s | FileCheck %s --check-prefix=MIR

enum Dir { North, East = 4, South, West }

// CHECK-LABEL: func lit_or_range(x: u32) -> u32 {
// CHECK-NEXT:   const match.s: u32 = x;
// CHECK-NEXT:   if (match.s == 0) {
// CHECK-NEXT:     return 10;
// CHECK-NEXT:   } else if ((match.s == 1) || (match.s == 2)) {
// CHECK-NEXT:     return 11;
// CHECK-NEXT:   } else if ((match.s >= 3) && (match.s <= 9)) {
// CHECK-NEXT:     return 12;
// CHECK-NEXT:   } else if ((match.s >= 10) && (match.s < 20)) {
// CHECK-NEXT:     return 13;
// CHECK-NEXT:   } else if (match.s >= 100) {
// CHECK-NEXT:     return 14;
// CHECK-NEXT:   } else if (match.s <= 50) {
// CHECK-NEXT:     return match.s + 1;
// CHECK-NEXT:   } else {
// CHECK-NEXT:     return match.s;
// CHECK-NEXT:   }
// CHECK-NEXT: }
fn lit_or_range(x: u32) -> u32 {
    match x {
        0 => 10,
        1 | 2 => 11,
        3..=9 => 12,
        10..20 => 13,
        100.. => 14,
        small @ ..=50 => small + 1,
        other => other,
    }
}

// Guards see the bindings; an enum's variants are typed literals; a match
// over every variant needs no '_' and its last arm is the 'else'.
// CHECK-LABEL: func dirs(d: i32, n: i32) -> i32 {
// CHECK-NEXT:   const match.s: i32 = d;
// CHECK-NEXT:   const match.s1: i32 = n;
// CHECK-NEXT:   const v: i32 = (match.s == 0i32) ? 1 : (((match.s == 4i32) && (match.s1 > 2)) ? match.s1 : (((match.s == 4i32) || (match.s == 5i32)) ? 2 : 3));
fn dirs(d: i32, n: i32) -> i32 {
    let v = match (d, n) {
        (Dir::North, _) => 1,
        (Dir::East, k) if k > 2 => k,
        (Dir::East | Dir::South, _) => 2,
        (Dir::West, _) => 3,
    };
    v
}

// A bool scrutinee tests itself; arms with statements assign a hidden
// variable that the match yields.
// CHECK-LABEL: kernel k(out: u32[], n: u32) {
// CHECK:        const match.s: bool = n > 4;
// CHECK-NEXT:   var match.v1: u32;
// CHECK-NEXT:   if (match.s) {
// CHECK-NEXT:     const t: u32 = n * 2;
// CHECK-NEXT:     match.v1 = t + 1;
// CHECK-NEXT:   } else {
// CHECK-NEXT:     match.v1 = 0;
// CHECK-NEXT:   }
// CHECK-NEXT:   const a: u32 = match.v1;
// Statement arms: assignments, calls and blocks; `mut` bindings of block
// arms are real variables.
// CHECK-NEXT:   const match.s2: u32 = a;
// CHECK-NEXT:   if (match.s2 == 1) {
// CHECK-NEXT:     out[0] = 1;
// CHECK-NEXT:   } else if ((match.s2 >= 2) && (match.s2 <= 3)) {
// CHECK-NEXT:     var m: u32 = match.s2;
// CHECK-NEXT:     m += 1;
// CHECK-NEXT:     out[1] = m;
// CHECK-NEXT:   } else {
// CHECK-NEXT:   }
// A literal scrutinee needs no copy; a tuple of them neither.
// CHECK-NEXT:   const b: u32 = ((3 == 3) && (4 == 1)) ? 1 : 2;
#[kernel]
fn k(out: &mut [u32], n: u32) {
    let a = match n > 4 {
        true => {
            let t = n * 2;
            t + 1
        }
        false => 0,
    };
    match a {
        1 => out[0] = 1,
        mut m @ 2..=3 => {
            m += 1;
            out[1] = m;
        }
        _ => {}
    }
    let b = match (3, 4) { (3, 1) => 1, _ => 2 };
    out[2] = b + lit_or_range(n) + dirs(n as i32, 1) as u32;
}

// The chains become conditional branches, no new MIR.
// MIR-LABEL: func @lit_or_range(u32 %x) -> u32 {
// MIR:         icmp eq u32 %x, 0
// MIR:         condbr
// MIR:         icmp ge u32 %x, 3
// MIR:         icmp le u32 %x, 9
// MIR:         icmp lt u32 %x, 20
