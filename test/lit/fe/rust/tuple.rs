// tuple.rs: tuples as values (formats/kernel-languages.md §11, "Tuples"):
// a tuple type is an anonymous HIR struct named by its element types, with
// fields 0, 1, ...; tuple literals take their type from what they
// initialise (`let w: (f32, u32)`, a parameter, a return value, an element
// of another tuple) or from their elements; `t.0`, `t.0.1`, assignment to
// an element, `let (x, y) = t`, and `match` / `if let` taking a tuple
// value apart. Lowering scalarises them like any struct: no new MIR.
//
// Worked by hand for xs[i] = i, n = 8 (the launch below):
//   t = (i, i); (x, y) = t; s = swap(t) = (i, i); m = minmax(i, 2) =
//   (min(i, 2), max(i, 2)); nest = (m, 3); w = (1.0 + 0.5, 2) then
//   (w.0 * 2, w.1 + 1) = (3.0, 3):
//   out[i] = x + y + s.0 + s.1 + m.0 + m.1 + nest.0.1 + nest.1 + w.0 + w.1
//          = 4i + (i + 2) + max(i, 2) + 3 + 6 = 5i + 11 + max(i, 2)
//          = 13 18 23 29 35 41 47 53;
//   out[8 + i] = match t { (v, 0) => v, (_, k) if k > 5 => 1, all => 2 *
//          all.0 } = 0 2 4 6 8 10 1 1;
//   out[16 + i] = if let (v, 1..=3) = t { v } else { 0 } = 0 1 2 3 0 0 0 0.
// RUN: wave-fe --emit=hir %s | FileCheck %s --check-prefix=HIR
// RUN: wave-fe %s | FileCheck %s --check-prefix=MIR
// RUN: rm -rf %t && mkdir %t
// RUN: wave-compiler -O0 %s -o %t/o0.wbin
// RUN: wave-compiler -O2 %s -o %t/o2.wbin
// RUN: wave-run %t/o0.wbin --fill-iota 0:f32:8 --set-reg 0:0 --set-reg 1:1024 \
// RUN:   --set-reg 2:8 --dump-f32 1024:24 | FileCheck %s --check-prefix=OUT
// RUN: wave-run %t/o2.wbin --fill-iota 0:f32:8 --set-reg 0:0 --set-reg 1:1024 \
// RUN:   --set-reg 2:8 --dump-f32 1024:24 | FileCheck %s --check-prefix=OUT

// HIR-NOT: struct (
// HIR:      func swap(p: (f32, u32)) -> (u32, f32) {
// HIR-NEXT:   return (p.1, p.0);
// HIR:      func minmax(a: f32, b: f32) -> (f32, f32) {
// HIR-NEXT:   return (a < b) ? (a, b) : (b, a);
// HIR:      const t: (f32, u32) = (xs[i], i);
// HIR-NEXT: const let.t: (f32, u32) = t;
// HIR-NEXT: const x: f32 = let.t.0;
// HIR-NEXT: const y: u32 = let.t.1;
// HIR-NEXT: const s: (u32, f32) = swap(t);
// HIR-NEXT: const m: (f32, f32) = minmax(x, 2.0);
// HIR-NEXT: const nest: ((f32, f32), u32) = (m, 3);
// HIR-NEXT: var w: (f32, u32) = (1.0f32, 2u32);
// HIR-NEXT: w.0 += 0.5;
// HIR-NEXT: w = (w.0 * 2.0, w.1 + 1);
// HIR:      const r: f32 = (match.s{{[0-9]*}}.1 == 0) ? match.s{{[0-9]*}}.0 : ((match.s{{[0-9]*}}.1 > 5) ? 1.0 : (match.s{{[0-9]*}}.0 * 2.0));

// No tuple is left in the MIR output, their leaves are SSA values (t.0 is the
// element loaded, w's leaves fold), and the device functions that take or
// return one are inlined.
// MIR-NOT:  func @swap
// MIR-NOT:  func @minmax
// MIR:      kernel @tup(
// MIR:        %t.0 = load f32
// MIR:        %w.0 = fadd f32 1.0, 0.5
// MIR:        %w.0.1 = fmul f32 %w.0, 2.0
// MIR:        %w.1 = add u32 2, 1

// OUT:      13.0
// OUT-NEXT: 18.0
// OUT-NEXT: 23.0
// OUT-NEXT: 29.0
// OUT-NEXT: 35.0
// OUT-NEXT: 41.0
// OUT-NEXT: 47.0
// OUT-NEXT: 53.0
// OUT-NEXT: 0.0
// OUT-NEXT: 2.0
// OUT-NEXT: 4.0
// OUT-NEXT: 6.0
// OUT-NEXT: 8.0
// OUT-NEXT: 10.0
// OUT-NEXT: 1.0
// OUT-NEXT: 1.0
// OUT-NEXT: 0.0
// OUT-NEXT: 1.0
// OUT-NEXT: 2.0
// OUT-NEXT: 3.0
// OUT-NEXT: 0.0
// OUT-NEXT: 0.0
// OUT-NEXT: 0.0
// OUT-NEXT: 0.0

fn swap(p: (f32, u32)) -> (u32, f32) {
    (p.1, p.0)
}

fn minmax(a: f32, b: f32) -> (f32, f32) {
    if a < b { (a, b) } else { (b, a) }
}

#[kernel]
fn tup(xs: &[f32], out: &mut [f32], n: u32) {
    let i = global_id();
    if i < n {
        let t = (xs[i], i);
        let (x, y) = t;
        let s = swap(t);
        let m = minmax(x, 2.0);
        let nest: ((f32, f32), u32) = (m, 3);
        let mut w = (1.0f32, 2u32);
        w.0 += 0.5;
        w = (w.0 * 2.0, w.1 + 1);
        out[i] = x + y as f32 + s.0 as f32 + s.1 + m.0 + m.1 + nest.0.1
            + nest.1 as f32 + w.0 + w.1 as f32;
        let r = match t {
            (v, 0) => v,
            (_, k) if k > 5 => 1.0,
            all => all.0 * 2.0,
        };
        out[n + i] = r;
        let mut e = 0.0;
        if let (v, 1..=3) = t {
            e = v;
        }
        out[2 * n + i] = e;
    }
}
