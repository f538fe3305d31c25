# Constant operands of `and` / `or` make the other side unreachable; the
# frontend must neither crash (a libFuzzer find) nor emit code there, in a
# value context as in a condition.
# RUN: wave-fe %s | FileCheck %s
# RUN: wave-fe %s | wave-opt -O2 | wave-ra | wave-as - -o %t.wbin

@kernel
def k(p: u32[:], n: u32):
    d = True or n > 3
    e = False and n > 4
    if False and n > 5:
        p[0] = 1
    if True or n > 6:
        p[1] = u32(d) + u32(e)

# CHECK-LABEL: kernel @k(
# The right operands are never evaluated: no comparison with 3, 4, 5 or 6.
# CHECK-NOT: icmp gt u32 %n
# CHECK: ret
