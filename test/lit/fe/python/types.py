# Python's conversion rules (formats/kernel-languages.md §2): literals adopt
# their context, mixed operands promote, assignments widen implicitly, and a
# name first assigned from a literal takes the type of its first typed use.
# RUN: wave-fe --emit=hir %s | FileCheck %s

@kernel
def k(p: f32[:], q: u32[:], n: u32, s: i32):
    i = thread_id()
    acc = 0
    acc += p[i]
    m = s + n
    x: f32 = s
    y = p[i] * 2
    q[i] = m // 4
    while i < n:
        i += 1

# CHECK-LABEL: kernel k(p: f32[], q: u32[], n: u32, s: i32)
# CHECK-NEXT: var i: u32 = thread_id();
# The first typed use of acc is '+= p[i]': acc is an f32 from the start.
# CHECK-NEXT: var acc: f32 = 0;
# CHECK-NEXT: acc += p[i];
# i32 + u32 promotes to u32.
# CHECK-NEXT: var m: u32 = convert<u32>(s) + n;
# CHECK-NEXT: var x: f32 = convert<f32>(s);
# CHECK-NEXT: var y: f32 = p[i] * 2;
# CHECK-NEXT: q[i] = m // 4;
# CHECK-NEXT: while (i < n) {
# CHECK-NEXT: i += 1;
