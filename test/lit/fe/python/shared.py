# Workgroup-shared arrays: 'name = shared(T, N)' and 'wave.shared(...)' are
# SharedDecl statements (not assignments); the element type is a type name
# (f32 f16 f64 i32 u32, int, float, optionally 'wave.'-qualified) and the
# size any expression (Sema folds it).
# RUN: wave-fe --emit=ast %s | FileCheck %s --match-full-lines

# CHECK: kernel tiles(out: f32[]) workgroup_size(256, 1, 1) {
# CHECK-NEXT:   shared a: f32[256];
# CHECK-NEXT:   shared b: f16[64];
# CHECK-NEXT:   shared c: f64[8];
# CHECK-NEXT:   shared d: i32[16 * 16];
# CHECK-NEXT:   shared e: u32[4];
# CHECK-NEXT:   shared f: i32[2];
# CHECK-NEXT:   shared g: f32[3];
# CHECK-NEXT:   shared h: u32[N];
# CHECK-NEXT:   a[thread_id()] = 0.0;
# CHECK-NEXT:   barrier();
# CHECK-NEXT:   out[0] = a[0];
# CHECK-NEXT: }
@kernel(workgroup_size=(256, 1, 1))
def tiles(out: f32[:]):
    a = shared(f32, 256)
    b = wave.shared(f16, 64)
    c = shared(wave.f64, 8)
    d = shared(i32, 16 * 16)
    e = shared(u32, 4)
    f = shared(int, 2)
    g = shared(float, 3,)
    h = shared(u32, N)
    a[thread_id()] = 0.0
    barrier()
    out[0] = a[0]
