# Errors at the module level and in function headers: imports other than
# 'import wave' / 'from wave import ...', top-level statements, decorators
# other than @kernel, bad workgroup sizes, unannotated or defaulted
# parameters, *args/**kwargs, unknown or misspelled types. All are
# reported in one run; the functions after them still parse.
# RUN: not wave-fe --emit=ast %s 2>&1 | FileCheck %s --implicit-check-not=error:

"""The module docstring is fine."""
# CHECK: {{.*}}errors-toplevel.py:[[@LINE+1]]:1: error: strings are not supported in WAVE kernels
"""A second string is not."""
import wave
from wave import thread_id, barrier
from wave import *
# CHECK: {{.*}}errors-toplevel.py:[[@LINE+1]]:5: error: unexpected indent
    x = 1
# CHECK: {{.*}}errors-toplevel.py:[[@LINE+1]]:8: error: importing 'numpy' is not supported in WAVE kernels; only 'import wave' and 'from wave import ...' are allowed
import numpy as np
# CHECK: {{.*}}errors-toplevel.py:[[@LINE+1]]:13: error: 'import wave as ...' is not supported; write 'import wave'
import wave as w
# CHECK: {{.*}}errors-toplevel.py:[[@LINE+1]]:6: error: only 'from wave import ...' is supported in WAVE kernels
from math import sqrt
# CHECK: {{.*}}errors-toplevel.py:[[@LINE+1]]:28: error: renaming imports with 'as' is not supported in WAVE kernels
from wave import thread_id as tid
# CHECK: {{.*}}errors-toplevel.py:[[@LINE+1]]:1: error: statements outside a function are not supported in WAVE kernels; only 'def', 'import wave' and 'from wave import ...' may appear at the top level
N = 256
# CHECK: {{.*}}errors-toplevel.py:[[@LINE+1]]:1: error: only '@dataclass' classes are supported in WAVE kernels; decorate 'Foo' with '@dataclass'
class Foo:
    def method(self):
        pass
# CHECK: {{.*}}errors-toplevel.py:[[@LINE+1]]:1: error: statements outside a function are not supported in WAVE kernels; only 'def', 'import wave' and 'from wave import ...' may appear at the top level
if __name__ == "__main__":
    main()

# CHECK: {{.*}}errors-toplevel.py:[[@LINE+1]]:2: error: decorator '@jit' is not supported; kernels are marked with '@kernel' or '@wave.kernel'
@jit
def a():
    pass

# CHECK: {{.*}}errors-toplevel.py:[[@LINE+1]]:31: error: workgroup size 2048 is out of range; each dimension must be between 1 and 1024
@kernel(workgroup_size=(1024, 2048, 1))
def b():
    pass

# CHECK: {{.*}}errors-toplevel.py:[[@LINE+1]]:24: error: the workgroup size needs 1 to 3 dimensions, found 4
@kernel(workgroup_size=(1, 1, 1, 1))
def c():
    pass

# CHECK: {{.*}}errors-toplevel.py:[[@LINE+1]]:25: error: the workgroup size must be integer literals
@kernel(workgroup_size=(N, 1, 1))
def d():
    pass

# CHECK: {{.*}}errors-toplevel.py:[[@LINE+2]]:9: error: unknown argument 'threads' of '@kernel'; expected 'workgroup_size'
# CHECK: {{.*}}errors-toplevel.py:[[@LINE+1]]:21: error: '@kernel' takes only the keyword argument 'workgroup_size'
@kernel(threads=64, 64)
def e():
    pass

# CHECK: {{.*}}errors-toplevel.py:[[@LINE+2]]:2: error: duplicate '@kernel' decorator
@kernel
@kernel
def f():
    pass

# CHECK: {{.*}}errors-toplevel.py:[[@LINE+6]]:18: error: parameter 'b' needs a type annotation, e.g. 'b: f32' or 'b: f32[:]'
# CHECK: {{.*}}errors-toplevel.py:[[@LINE+5]]:28: error: default parameter values are not supported in WAVE kernels
# CHECK: {{.*}}errors-toplevel.py:[[@LINE+4]]:33: error: '*args' parameters are not supported in WAVE kernels
# CHECK: {{.*}}errors-toplevel.py:[[@LINE+3]]:40: error: '**kwargs' parameters are not supported in WAVE kernels
# CHECK: {{.*}}errors-toplevel.py:[[@LINE+2]]:49: error: functions cannot return buffers in WAVE kernels
@kernel
def g(a: f32[:], b, c: int = 3, *args, **kw) -> f32[:]:
    pass

# CHECK: {{.*}}errors-toplevel.py:[[@LINE+4]]:15: error: keyword-only parameters ('*') are not supported in WAVE kernels
# CHECK: {{.*}}errors-toplevel.py:[[@LINE+3]]:26: error: positional-only parameters ('/') are not supported in WAVE kernels
# CHECK: {{.*}}errors-toplevel.py:[[@LINE+2]]:32: error: 'None' is not a parameter type
# CHECK: {{.*}}errors-toplevel.py:[[@LINE+1]]:41: error: buffers of 'bool' are not supported in WAVE kernels
def h(a: f32, *, b: f32, /, c: None, d: bool[:]):
    pass

# CHECK: {{.*}}errors-toplevel.py:[[@LINE+5]]:10: error: unknown type 'float32'; expected f32, f16, f64, i32, u32, bool, int or float
# CHECK: {{.*}}errors-toplevel.py:[[@LINE+4]]:22: error: qualified type 'np.float32' is not supported; write a WAVE type such as 'f32' or 'wave.f32'
# CHECK: {{.*}}errors-toplevel.py:[[@LINE+3]]:41: error: buffer types are written 'f32[:]', or 'f32[M, N]' with each dimension an integer parameter or literal; found ']'
# CHECK: {{.*}}errors-toplevel.py:[[@LINE+2]]:51: error: buffer types are written 'f32[:]', or 'f32[M, N]' with each dimension an integer parameter or literal; found '4.0'
# CHECK: {{.*}}errors-toplevel.py:[[@LINE+1]]:60: error: unknown type 'list'; expected f32, f16, f64, i32, u32, bool, int or float
def i(a: float32, b: np.float32, c: f32[], d: f32[4.0], e: list[f32]):
    pass

# CHECK: {{.*}}errors-toplevel.py:[[@LINE+1]]:1: error: 'async' functions are not supported in WAVE kernels
async def j():
    pass

# CHECK: {{.*}}errors-toplevel.py:[[@LINE+1]]:6: error: expected '(' after the function name, found ':'
def k:
    # The body of a function with a bad header is still checked.
    # CHECK: {{.*}}errors-toplevel.py:[[@LINE+1]]:9: error: strings are not supported in WAVE kernels
    x = "s"


# This one is fine: nothing is reported for it.
@kernel
def ok(a: f32[:]):
    a[0] = 1.0
