# Lowering to SSA MIR: variables become phis where control flow merges,
# values carry their variables' names, Python's range() counts with a hidden
# counter, elif chains nest, and `and` branches instead of computing a bool.
# RUN: wave-fe %s | FileCheck %s

@kernel(workgroup_size=(64, 1, 1))
def k(p: u32[:], n: u32):
    t = thread_id()
    s: u32 = 0
    for j in range(2, n, 3):
        if j > 10 and t == 0:
            break
        elif j == 5:
            continue
        s += j
    p[t] = s

# CHECK-LABEL: kernel @k(ptr<device> writeonly elem(u32) %p, u32 %n) workgroup_size(64, 1, 1) {
# CHECK: %t = sreg thread_id_x
# CHECK-NEXT: br ^for.cond
# CHECK: ^for.cond:
# CHECK-NEXT: %s = phi u32 [0, ^entry], [%s.2, ^for.step]
# CHECK-NEXT: %j = phi u32 [2, ^entry], [%j.1, ^for.step]
# A positive constant step counts up.
# CHECK-NEXT: [[C:%[0-9]+]] = icmp lt u32 %j, %n
# CHECK-NEXT: condbr [[C]], ^for.body, ^for.end
# CHECK: ^for.body:
# CHECK-NEXT: [[A:%[0-9]+]] = icmp gt u32 %j, 10
# CHECK-NEXT: condbr [[A]], ^and.rhs, ^if.else
# CHECK: ^and.rhs:
# CHECK-NEXT: [[B:%[0-9]+]] = icmp eq u32 %t, 0
# CHECK-NEXT: condbr [[B]], ^if.then, ^if.else
# CHECK: ^if.end:
# CHECK-NEXT: %s.1 = add u32 %s, %j
# `continue` skips the add: the step merges the two values of s.
# CHECK: ^for.step:
# CHECK-NEXT: %s.2 = phi u32 [%s, ^if.then.1], [%s.1, ^if.end]
# CHECK-NEXT: %j.1 = add u32 %j, 3
# `break` leaves with the same s as the loop exit: no phi in ^for.end.
# CHECK: ^for.end:
# CHECK-NOT: phi
# CHECK: store u32 %s, ptr<device>
