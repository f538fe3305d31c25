# The checker sees a shaped buffer's subscript as the one-dimensional access
# with the linearised index (formats/kernel-languages.md §9, "Shaped
# buffers"), so an index that is not an integer is its usual error, located
# at the '['; every such error of the file is reported in one run, exit 1.
# RUN: %python %utils/expect_exit.py 1 wave-fe %s 2>&1 | FileCheck %s --implicit-check-not=error:

@kernel
def k(a: f32[M, N], M: i32, N: u32, x: f32):
    i = thread_id()
    # CHECK: bad-shaped-buffers-types.py:[[@LINE+3]]:6: error: an index must be an integer, not 'f32'; convert it: u32(x)
    # CHECK-NEXT: {{^}}    a[i, 1.5] = 1.0{{$}}
    # CHECK-NEXT: {{^ +\^$}}
    a[i, 1.5] = 1.0
    # CHECK: bad-shaped-buffers-types.py:[[@LINE+1]]:17: error: an index must be an integer, not 'f32'; convert it: u32(x)
    a[i, 0] += a[x, i]
    # The dimensions themselves are integers: these are fine.
    a[i, -1] = f32(a.shape[0]) + f32(a.shape[1])
