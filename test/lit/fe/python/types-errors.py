# Conversions Python does not make implicitly, and other type errors: all
# reported in one run, each with its location.
# RUN: not wave-fe %s 2>&1 | FileCheck %s --implicit-check-not=error:

@kernel
def k(p: f32[:], q: i32[:], n: u32):
    i = thread_id()
# CHECK: types-errors.py:[[@LINE+1]]:12: error: cannot convert 'u32' to 'i32' implicitly in the store to 'q'; convert it explicitly: i32(x)
    q[i] = n
# CHECK: types-errors.py:[[@LINE+1]]:8: error: an index must be an integer, not 'f32'; convert it: u32(x)
    p[p[0]] = 1.0
# CHECK: types-errors.py:[[@LINE+1]]:14: error: invalid operands to '&' ('f32' and 'f32'): bitwise operators take integers or bools
    z = p[0] & p[1]
# CHECK: types-errors.py:[[@LINE+1]]:21: error: 'reduce_add' takes an i32 or u32, not f32
    r = reduce_add(p[i])
# CHECK: types-errors.py:[[@LINE+1]]:5: error: 'atomic_min' on i32 is not supported
    atomic_min(q, 0, 1)
# CHECK: types-errors.py:[[@LINE+1]]:5: error: call to unknown function 'nope'
    nope(1)
# CHECK: types-errors.py:[[@LINE+2]]:7: error: invalid operands to '//=' ('f64' and 'f64'): not supported on f64 (WAVE's f64 operations are add, sub, mul, fma, div and sqrt: formats/isa.md §2.6)
    d = f64(p[0])
    d //= f64(2.0)
# CHECK: types-errors.py:[[@LINE+1]]:7: error: invalid operands to '%=' ('f64' and 'f64'): {{.*}}
    d %= f64(2.0)
