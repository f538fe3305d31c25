# Declarations and exports (formats/kernel-languages.md §1, §9): a 'def'
# whose body is only '...' (after an optional docstring) is a 'declare
# func'; '@export' / '@wave.export' make an 'export func'. Calls to a
# declaration type-check like any call; its writable buffer parameter
# counts as read and written, a read-only one as read. Buffer parameters
# get elem(T) and readonly / writeonly from what the function does with them,
# through calls too.
# RUN: wave-fe %s | FileCheck %s
# RUN: wave-fe --kernel k %s | FileCheck %s --check-prefix=ONLY --implicit-check-not=@scale --implicit-check-not=@unused
# RUN: wave-fe --emit=hir %s | FileCheck %s --check-prefix=HIR

# CHECK: declare func @ext(f32 %a, f32 %b) -> f32
# HIR: declare func ext(a: f32, b: f32) -> f32{{$}}
def ext(a: f32, b: f32) -> f32: ...

# CHECK: declare func @fill(ptr<device> elem(f32) %dst, u32 %i)
def fill(dst: f32[:], i: u32):
    """Defined in another object."""
    ...

# CHECK: export func @lerp(f32 %a, f32 %b, f32 %t) -> f32 {
# HIR: export func lerp(a: f32, b: f32, t: f32) -> f32 {
@export
def lerp(a: f32, b: f32, t: f32) -> f32:
    return a + (b - a) * t

# CHECK: export func @scale(ptr<device> elem(f32) %v, u32 %i) {
@wave.export
def scale(v: f32[:], i: u32):
    v[i] *= 2.0

# Only stores: writeonly. Only loads: readonly.
# CHECK: func @put(ptr<device> writeonly elem(f32) %o, ptr<device> readonly elem(f32) %s, u32 %i) {
def put(o: f32[:], s: f32[:], i: u32):
    o[i] = s[i]

# x is read directly, y only written through put(), z passed to the
# declaration fill() (read and written), w only read through put(),
# h untouched (readonly), c a u32 buffer written by an atomic.
# CHECK: kernel @k(ptr<device> readonly elem(f32) %x, ptr<device> writeonly elem(f32) %y, ptr<device> elem(f32) %z, ptr<device> readonly elem(f32) %w, ptr<device> readonly elem(f16) %h, ptr<device> elem(u32) %c)
# CHECK: call void @fill(ptr<device> %z, u32 %i)
# CHECK: call f32 @ext(
# CHECK: call f32 @lerp(
@kernel
def k(x: f32[:], y: f32[:], z: f32[:], w: f32[:], h: f16[:], c: u32[:]):
    i = global_id(0)
    put(y, w, i)
    fill(z, i)
    x0 = ext(x[i], 1.0)
    atomic_add(c, 0, u32(lerp(x0, 2.0, 0.5)))

# --kernel keeps the kernel, what it calls (declarations as declarations)
# and nothing else: scale() and unused() are dropped.
# ONLY: declare func @ext(
# ONLY: declare func @fill(
# ONLY: export func @lerp(
# ONLY: func @put(
# ONLY: kernel @k(
def unused() -> f32: ...
