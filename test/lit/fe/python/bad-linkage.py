# Errors of declarations and exports (formats/kernel-languages.md §1):
# kernels cannot be exported or declared, a declaration and a definition
# of one name are a redefinition, calls to declarations are checked like
# any call, and an exported function cannot declare a shared array.
# RUN: not wave-fe %s 2>&1 | FileCheck %s --implicit-check-not=error:

@kernel
@export
def k(a: f32[:]):
    a[0] = 1.0
# CHECK: bad-linkage.py:[[@LINE-3]]:2: error: kernel 'k' cannot be exported; only device functions can (kernels are entry points already)

@kernel
def k2(a: f32[:]): ...
# CHECK: bad-linkage.py:[[@LINE-1]]:5: error: kernel 'k2' has no body; only device functions can be declared

def twice(x: f32) -> f32: ...
def twice(x: f32) -> f32:
    return x
# CHECK: bad-linkage.py:[[@LINE-2]]:5: error: redefinition of 'twice'
# CHECK: bad-linkage.py:[[@LINE-4]]:5: note: 'twice' is first declared here

@wave.export
def tile() -> f32:
    t = shared(f32, 4)
    return t[0]
# CHECK: bad-linkage.py:[[@LINE-2]]:5: error: shared arrays are declared in kernels only; exported function 'tile' cannot use local memory

def ext(a: f32, b: f32) -> f32: ...

@kernel
def caller(a: f32[:]):
    a[0] = ext(a[1])
# CHECK: bad-linkage.py:[[@LINE-1]]:12: error: 'ext' takes 2 argument(s), not 1
