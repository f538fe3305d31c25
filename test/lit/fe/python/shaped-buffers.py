# Shaped buffer parameters (NumPy style, formats/kernel-languages.md §9,
# "Shaped buffers"): 'a: f32[M, N]' names its dimensions by integer
# parameters or literals, and the parser desugars 'a[i, j]' to the
# one-dimensional access 'a[i * N + j]' (row-major, u32 arithmetic),
# 'a[-1, j]' to 'a[(M - 1) * N + j]' and 'a.shape[k]' to the dimension.
# The buffer stays one 'ptr<device>' parameter (the kernel ABI is unchanged)
# and the MIR is the existing element access with the linearised index.
# RUN: wave-fe --emit=hir %s | FileCheck %s --check-prefix=HIR --match-full-lines
# RUN: wave-fe %s | FileCheck %s --check-prefix=MIR

# Two dimensions: reads, stores, augmented stores, negative constants,
# a.shape (also counted from the end), a trailing comma.
# HIR-LABEL: kernel k2(a: f32[], M: u32, N: u32, out: f32[]) {
# HIR-NEXT:   var i: u32 = thread_id(0);
# HIR-NEXT:   var j: u32 = thread_id(1);
# HIR-NEXT:   out[(i * N) + j] = a[(i * N) + j] * 2.0;
# HIR-NEXT:   out[(i * N) + j] += a[((M - 1) * N) + (N - 2)];
# HIR-NEXT:   out[((M - 1) * N) + j] -= cast<f32>(M + N);
# HIR-NEXT:   out[j] = a[i * N];
# HIR-NEXT: }
# MIR-LABEL: kernel @k2(ptr<device> readonly elem(f32) %a, u32 %M, u32 %N, ptr<device> elem(f32) %out)
# MIR:      %i = sreg thread_id_x
# MIR-NEXT: %j = sreg thread_id_y
# MIR-NEXT: [[M0:%[0-9]+]] = mul u32 %i, %N !loc(47, 8)
# MIR-NEXT: [[A0:%[0-9]+]] = add u32 [[M0]], %j !loc(47, 8)
# MIR-NEXT: [[S0:%[0-9]+]] = shl u32 [[A0]], 2 !loc(47, 15)
# MIR-NEXT: [[P0:%[0-9]+]] = ptradd ptr<device> %out, [[S0]]
# MIR:      [[M1:%[0-9]+]] = mul u32 %i, %N !loc(47, 18)
# MIR-NEXT: [[A1:%[0-9]+]] = add u32 [[M1]], %j
# MIR-NEXT: [[S1:%[0-9]+]] = shl u32 [[A1]], 2
# MIR-NEXT: [[P1:%[0-9]+]] = ptradd ptr<device> %a, [[S1]]
# MIR-NEXT: [[L1:%[0-9]+]] = load f32, ptr<device> [[P1]]
# MIR-NEXT: [[V1:%[0-9]+]] = fmul f32 [[L1]], 2.0
# MIR-NEXT: store f32 [[V1]], ptr<device> [[P0]]
# The augmented store loads and stores through one address.
# MIR:      [[P2:%[0-9]+]] = ptradd ptr<device> %out, {{.*}} !loc(48, 15)
# MIR-NEXT: [[L2:%[0-9]+]] = load f32, ptr<device> [[P2]] !loc(48, 15)
# MIR-NEXT: [[R:%[0-9]+]] = sub u32 %M, 1 !loc(48, 20)
# MIR-NEXT: [[RM:%[0-9]+]] = mul u32 [[R]], %N !loc(48, 19)
# MIR-NEXT: [[C:%[0-9]+]] = sub u32 %N, 2 !loc(48, 24)
# MIR-NEXT: add u32 [[RM]], [[C]] !loc(48, 19)
# MIR:      store f32 {{%[0-9]+}}, ptr<device> [[P2]] !loc(48, 15)
@kernel
def k2(a: f32[M, N], M: u32, N: u32, out: f32[M, N,]):
    i = thread_id(0)
    j = thread_id(1)
    out[i, j] = a[i, j,] * 2.0
    out[i, j] += a[-1, -2]
    out[M - 1, j] -= f32(a.shape[0] + a.shape[-1])
    out[0, j] = a[i, 0]

# Three dimensions, 'i32' dimensions (converted to u32 in the index, as
# a.shape they are the parameter itself) and a literal one (a u32 literal);
# a constant prefix of the index is folded.
# HIR-LABEL: kernel k3(v: i32[], D: i32, W: i32, n: u32) {
# HIR-NEXT:   v[(6u32 * cast<u32>(W)) + 3] = v[((((cast<u32>(D) - 1) * 4u32) + 3) * cast<u32>(W)) + (cast<u32>(W) - 1)];
# HIR-NEXT:   v[((n * 4u32) * cast<u32>(W)) + n] += 4;
# HIR-NEXT:   v[n] = D;
# HIR-NEXT: }
# MIR-LABEL: kernel @k3(ptr<device> elem(i32) %v, i32 %D, i32 %W, u32 %n)
# MIR:      [[W:%[0-9]+]] = bitcast i32 %W to u32
# MIR-NEXT: [[X:%[0-9]+]] = mul u32 6, [[W]]
# MIR-NEXT: add u32 [[X]], 3
@kernel
def k3(v: i32[D, 4, W], D: i32, W: i32, n: u32):
    v[1, 2, 3] = v[-1, -1, -1]
    v[n, 0, n] += v.shape[1]
    v[0, 0, n] = v.shape[-3]

# One dimension named by a parameter: 'x[-1]' is 'x[L - 1]' and
# 'x.shape[0]' is L; a non-negative index is the existing access unchanged.
# A shaped buffer is passed to a device function like any buffer.
# HIR-LABEL: func last(x: f32[], L: u32) -> f32 {
# HIR-NEXT:   return (x[L - 1] + x[L - 1]) + cast<f32>(L);
# HIR-NEXT: }
# HIR-LABEL: kernel k1(x: f32[], y: f32[], L: u32) {
# HIR-NEXT:   y[thread_id()] = last(x, L) + x[thread_id()];
# HIR-NEXT: }
# MIR-LABEL: func @last(ptr<device> readonly elem(f32) %x, u32 %L) -> f32 {
# MIR-NEXT: ^entry:
# MIR-NEXT: [[I:%[0-9]+]] = sub u32 %L, 1
# MIR-NEXT: [[O:%[0-9]+]] = shl u32 [[I]], 2
# MIR-NEXT: ptradd ptr<device> %x, [[O]]
# MIR-LABEL: kernel @k1(ptr<device> readonly elem(f32) %x, ptr<device> writeonly elem(f32) %y, u32 %L)
# MIR:      [[T:%[0-9]+]] = sreg thread_id_x !loc(93, 37)
# MIR-NEXT: [[O:%[0-9]+]] = shl u32 [[T]], 2
# MIR-NEXT: ptradd ptr<device> %x, [[O]]
def last(x: f32[L], L: u32) -> f32:
    return x[-1] + x[L - 1] + f32(x.shape[0])

@kernel
def k1(x: f32[L], y: f32[:], L: u32):
    y[thread_id()] = last(x, L) + x[thread_id()]
