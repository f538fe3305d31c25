// struct-values.rs: struct values of if and match expressions (one phi per
// leaf in cond.end, or per variable), leaves of every scalar type (bool,
// i32, f16, f64), a buffer passed through a `&self` method (the store is
// the kernel's: `out` stays writeonly), and --kernel keeping the scalar
// device function an inlined method calls.
// RUN: wave-fe %s --kernel k1 | FileCheck %s
// RUN: wave-fe %s --kernel k1 | wave-opt -O2 | FileCheck %s --check-prefix=OPT
// RUN: wave-fe %s | wave-opt -O2 | wave-ra | wave-as -o %t.wbin

// CHECK-LABEL: func @helper(f32 %x) -> f32 {
// CHECK-LABEL: kernel @k1(ptr<device> writeonly elem(f32) %out, u32 %n)
// CHECK:        %s.b = icmp gt u32 %n, 2
// CHECK:      ^cond.end:
// CHECK-NEXT:   %cond.d = phi f64 [2.0, ^cond.true], [4.0, ^cond.false]
// CHECK-NEXT:   %cond.h = phi f16 [1.5, ^cond.true], [0.25, ^cond.false]
// CHECK-NEXT:   %cond.i = phi i32 [-3, ^cond.true], [7, ^cond.false]
// CHECK-NEXT:   %cond.b = phi i1 [%s.b, ^cond.true], [false, ^cond.false]
// CHECK:        call f32 @helper(
// At -O2 the first `if` (constant leaves) becomes selects (simplifycfg).
// OPT-LABEL: kernel @k1(
// OPT:         select f64 %{{[0-9]+}}, 2.0, 4.0
// OPT:         %cond.d.2 = phi f64 [%{{[0-9]+}}, ^cond.false.1], [%{{[0-9]+}}, ^entry]
// OPT:         %u.d = fmul f64 %cond.d.2, 2.0
// OPT:         %u.d.1 = phi f64 [%cond.d.2, ^cond.end.1], [%u.d, ^if.then]
// OPT:         cvt f64 %u.d.1 to f32
// OPT:         call f32 @helper(
// OPT:         store f32

struct S { b: bool, i: i32, h: f16, d: f64 }

impl S {
    fn store(&self, out: &mut [f32], at: u32) {
        out[at] = self.d as f32 + self.i as f32 + helper(self.h as f32);
    }
}

fn helper(x: f32) -> f32 {
    x + 1.0
}

#[kernel]
fn k1(out: &mut [f32], n: u32) {
    let s = S { b: n > 2, i: -3, h: 1.5, d: 2.0 };
    let o = S { b: false, i: 7, h: 0.25, d: 4.0 };
    let t = if n % 2 == 0 { s } else { o };
    let mut u = match n { 0 => t, 1 => s, _ => o };
    if u.b {
        u.d = u.d * 2.0;
    }
    u.store(out, n);
}

#[kernel]
fn k2(out: &mut [f32]) {
    out[0] = helper(2.0);
}
