# A five-point stencil on a 2-D buffer with a shape (issue 26, point 3):
# a: f32[M, N] indexed a[i, j] (row-major), a.shape for the bounds,
# negative constant indices for the wrap-around at the edges (a[-1, j] is
# the last row), an element store followed by an augmented one
# (b[i, j] += ...), and a buffer of literal shape f32[4] written at
# corners[-1] and corners[-2]. Each b[i, j] is the mean of the four
# neighbours of a[i, j], the grid wrapping around at its edges.
# The expected values come from Inputs/stencil2d_ref.py, plain Python over
# the same input file; whole-number inputs keep every f32 value exact.
# RUN: %python %utils/make_input.py %t.a --type f32 --count 273 --seed 26 --int --min -50 --max 50
# RUN: %python %S/Inputs/stencil2d_ref.py %t.a 13 21 > %t.ref
# RUN: wave-fe %s | wave-opt -O0 | wave-ra | wave-as -o %t.O0.wbin
# RUN: wave-run %t.O0.wbin --grid 3,2,1 --arg a=@%t.a --arg b=zeros:273 \
# RUN:   --arg corners=zeros:4 --arg M=13 --arg N=21 --print b --print corners \
# RUN:   | %python %utils/check_output.py %t.ref --type f32 | FileCheck %s
# RUN: wave-fe %s | wave-opt -O2 | wave-ra | wave-as -o %t.O2.wbin
# RUN: wave-run %t.O2.wbin --grid 3,2,1 --arg a=@%t.a --arg b=zeros:273 \
# RUN:   --arg corners=zeros:4 --arg M=13 --arg N=21 --print b --print corners \
# RUN:   | %python %utils/check_output.py %t.ref --type f32 | FileCheck %s
# CHECK: OK: 277 values

@kernel(workgroup_size=(8, 8, 1))
def stencil2d(a: f32[M, N], b: f32[M, N], corners: f32[4], M: u32, N: u32):
    j = global_id(0)
    i = global_id(1)
    if i >= a.shape[0] or j >= a.shape[1]:
        return
    up = a[-1, j] if i == 0 else a[i - 1, j]
    down = a[0, j] if i == a.shape[0] - 1 else a[i + 1, j]
    left = a[i, -1] if j == 0 else a[i, j - 1]
    right = a[i, 0] if j == N - 1 else a[i, j + 1]
    b[i, j] = a[i, j]
    b[i, j] += 0.25 * (up + down + left + right) - a[i, j]
    if i == 0 and j == 0:
        corners[0] = a[0, 0]
        corners[1] = a[0, -1]
        corners[2] = a[-1, 0]
        corners[-1] = a[-1, -1]
        corners[-2] += a.shape[-1]
