# Misused MMA intrinsics (formats/kernel-languages.md §4): one located error
# each, all in one run, exit 1.
# RUN: not wave-fe %s 2>&1 | FileCheck %s --implicit-check-not=error:

@kernel(workgroup_size=(16, 1, 1))
def bad(a: f32[:], n: u32):
    s = shared(f32, 64)
    si = shared(u32, 64)
    f = thread_id()
# CHECK: bad-mma.py:[[@LINE+1]]:16: error: argument 1 of 'mma_load_a' is a fragment id: a constant 0..254 (WAVE encodes it in a register field of the instruction: formats/isa.md §2.15, formats/wave-asm.md §5)
    mma_load_a(f, s, 0, 16)
# CHECK: bad-mma.py:[[@LINE+1]]:16: error: argument 1 of 'mma_load_b' is a fragment id: a constant 0..254
    mma_load_b(255, s, 0, 16)
# CHECK: bad-mma.py:[[@LINE+1]]:19: error: argument 2 of 'mma_load_a' must be a shared array of f32, not 'f32[]' (MMA moves f32 fragments to and from workgroup-shared memory: formats/isa.md §4.18)
    mma_load_a(0, a, 0, 16)
# CHECK: bad-mma.py:[[@LINE+1]]:19: error: argument 2 of 'mma_load_b' must be a shared array of f32, not 'shared u32[64]'
    mma_load_b(0, si, 0, 16)
# CHECK: bad-mma.py:[[@LINE+1]]:20: error: argument 2 of 'mma_store_c' is an element index and must be an integer, not float literal
    mma_store_c(s, 0.5, 16, 0)
# CHECK: bad-mma.py:[[@LINE+1]]:24: error: argument 3 of 'mma_store_c' is a row stride in elements and must be an integer, not f32
    mma_store_c(s, 0, a[0], 0)
# CHECK: bad-mma.py:[[@LINE+1]]:27: error: argument 4 of 'mma_store_c' is a fragment id
    mma_store_c(s, 0, 16, n)
# CHECK: bad-mma.py:[[@LINE+1]]:5: error: 'mma_compute' takes 3 argument(s), not 2
    mma_compute(0, 1)
# CHECK: bad-mma.py:[[@LINE+1]]:23: error: argument 3 of 'mma_compute' is a fragment id
    mma_compute(0, 1, -1)
# CHECK: bad-mma.py:[[@LINE+1]]:9: error: cannot assign a void to a variable
    x = mma_compute(0, 1, 2)
