// Classifying values with match (issue 26, point 2): each thread reads one
// u32 v and one i32 d and writes a class code computed by
//   * kind(v): Zero for 0, Small for 1..=9, Medium for 10..100 (exclusive
//     end), Large otherwise (a C-like enum, with Medium = 10 explicit);
//   * a tuple match over (kind, d): (Zero, _) -> 1; (Small, 0) -> 2;
//     (Small, x) with x < 0 -> 3; (Small, _) -> 4; (Medium, x) with
//     x > 50 -> 5; (Medium, -5..=5) -> 6; (Medium, _) -> 7; (Large, _) ->
//     8 + v % 3 (a binding `r @ 0..=2` on the remainder: 8, 9 or 10);
//   * plus 100 when v is odd (`if let 1 = v % 2`) and 1000 times the number
//     of halvings `while let 2..=LIMIT = w { w /= 2 }` takes from w = v % 64
//     while w is 2..=63 (LIMIT = 63, a module constant).
// fe_e2e.py computes the same in Python from the comment above.
// RUN: %python %utils/fe_e2e.py %s --bindir %bindir --case classify | FileCheck %s
// CHECK: OK -O0
// CHECK: OK -O2

use wave::*;

const LIMIT: u32 = 63;

#[derive(Clone, Copy)]
enum Kind {
    Zero,
    Small,
    Medium = 10,
    Large,
}

fn kind(v: u32) -> Kind {
    match v {
        0 => Kind::Zero,
        1..=9 => Kind::Small,
        10..100 => Kind::Medium,
        _ => Kind::Large,
    }
}

#[kernel]
fn classify(vals: &[u32], deltas: &[i32], out: &mut [u32], n: u32) {
    let i = global_id();
    if i < n {
        let v = vals[i];
        let d = deltas[i];
        let mut code = match (kind(v), d) {
            (Kind::Zero, _) => 1,
            (Kind::Small, 0) => 2,
            (Kind::Small, x) if x < 0 => 3,
            (Kind::Small, _) => 4,
            (Kind::Medium, x) if x > 50 => 5,
            (Kind::Medium, -5..=5) => 6,
            (Kind::Medium, _) => 7,
            (Kind::Large, _) => match v % 3 {
                r @ 0..=2 => 8 + r,
                _ => 0,
            },
        };
        if let 1 = v % 2 {
            code += 100;
        }
        let mut w = v % 64;
        let mut halvings: u32 = 0;
        while let 2..=LIMIT = w {
            w /= 2;
            halvings += 1;
        }
        out[i] = code + 1000 * halvings;
    }
}
