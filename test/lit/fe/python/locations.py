# Source locations (formats/kernel-languages.md §8): source_filename is the
# path as given (<stdin> for standard input) and every instruction carries
# !loc(LINE, COL) of its construct: an expression's operator or callee, a
# store the assignment's operator, a branch its statement's keyword, ret
# its 'return' or, when implicit, just past the body's last line.
# RUN: wave-fe --lang python < %s | FileCheck %s
# CHECK: source_filename = "<stdin>"

def sq(x: f32) -> f32:
    return x * x
# CHECK-LABEL: func @sq(
# CHECK: fmul f32 %x, %x !loc(10, 14)
# CHECK: ret f32 %{{.*}} !loc(10, 5)

@kernel
def k(a: f32[:], n: u32):
    i = thread_id()
    while i < n:
        a[i] = sq(a[i])
        i += 64
# CHECK-LABEL: kernel @k(ptr<device> elem(f32) %a, u32 %n)
# CHECK: sreg thread_id_x !loc(17, 9)
# CHECK: br ^while.cond !loc(18, 5)
# CHECK: ^while.cond:
# CHECK: phi u32 {{.*}} !loc(18, 5)
# CHECK: icmp lt u32 %{{.*}}, %n !loc(18, 13)
# CHECK: condbr %{{.*}}, ^while.body, ^while.end !loc(18, 5)
# CHECK: ^while.end:
# CHECK-NEXT: ret !loc(20, 16)
# CHECK: ^while.body:
# CHECK: ptradd ptr<device> %a, %{{.*}} !loc(19, 14)
# CHECK: load f32, ptr<device> %{{.*}} !loc(19, 20)
# CHECK: call f32 @sq(f32 %{{.*}}) !loc(19, 16)
# CHECK: store f32 %{{.*}}, ptr<device> %{{.*}} !loc(19, 14)
# CHECK: add u32 %{{.*}}, 64 !loc(20, 11)
# CHECK-NEXT: br ^while.cond !loc(18, 5)
