// Lowering of Rust control flow: `loop` with `break`, an inclusive range
// with step_by, an if-expression, a tail-expression return, and a shared
// array.
// RUN: wave-fe %s | FileCheck %s

fn pick(c: bool, a: u32, b: u32) -> u32 {
    if c { a } else { b }
}

#[kernel(workgroup_size = (64, 1, 1))]
fn k(p: &mut [u32], n: u32) {
    let mut tile = shared(u32, 64);
    let t = thread_id();
    let mut s: u32 = 0;
    for i in (0..=n).step_by(4) {
        s += i;
    }
    let mut k: u32 = t;
    loop {
        k = k * 2;
        if k > n {
            break;
        }
    }
    tile[t] = pick(s > k, s, k);
    p[t] = tile[t];
}

// CHECK-LABEL: func @pick(i1 %c, u32 %a, u32 %b) -> u32 {
// CHECK: condbr %c, ^cond.true, ^cond.false
// CHECK: phi u32 [%a, ^cond.true], [%b, ^cond.false]
// CHECK-LABEL: kernel @k(ptr<device> writeonly elem(u32) %p, u32 %n) workgroup_size(64, 1, 1) local_memory(256) {
// An inclusive range compares with `le`.
// CHECK: ^for.cond:
// CHECK: icmp le u32 %i, %n
// `loop` is `while true`: its condition block branches straight to the body.
// CHECK: ^while.cond:
// CHECK-NEXT: %k = phi u32 [%t, ^for.end], [%k.1, ^if.end]
// CHECK-NEXT: br ^while.body
// CHECK: ^while.body:
// CHECK-NEXT: %k.1 = mul u32 %k, 2
// CHECK: call u32 @pick(i1
// CHECK: ptradd ptr<local> 0,
// CHECK: ^for.step:
// CHECK-NEXT: %i.1 = add u32 %i, 4
