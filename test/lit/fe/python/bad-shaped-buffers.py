# What shaped buffer parameters do not support (formats/kernel-languages.md
# §9, "Shaped buffers"): each case is one located error with a caret (and a
# note where it helps), all of them reported in one run, exit status 1.
# Slices, fancy indexing, a wrong number of indices, a negative index that
# is not a constant, a constant outside a literal dimension, '.shape'
# without a constant dimension or on a buffer without a shape, several
# indices on a buffer or shared array without a shape, assignments to a
# dimension parameter, and shapes that name no integer parameter.
# RUN: %python %utils/expect_exit.py 1 wave-fe %s -o %t.wir 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not=note:
# RUN: not test -e %t.wir

@kernel
def k(a: f32[M, N], y: f32[:], t: f32[4], M: u32, N: u32, n: u32):
    i = thread_id()
    # CHECK: bad-shaped-buffers.py:[[@LINE+3]]:12: error: slices are not supported in WAVE kernels; write one integer index per dimension
    # CHECK-NEXT: {{^}}    v = a[1:3]{{$}}
    # CHECK-NEXT: {{^ +\^$}}
    v = a[1:3]
    # CHECK: bad-shaped-buffers.py:[[@LINE+1]]:15: error: slices are not supported
    v = a[i, 1:3]
    # CHECK: bad-shaped-buffers.py:[[@LINE+1]]:11: error: slices are not supported
    v = a[:, i]
    # CHECK: bad-shaped-buffers.py:[[@LINE+1]]:11: error: fancy indexing (a list of indices) is not supported in WAVE kernels; write one integer index per dimension
    v = a[[1, 2], i]
    # CHECK: bad-shaped-buffers.py:[[@LINE+5]]:10: error: wrong number of indices for 'a': it has 2 dimensions, found 1 index
    # CHECK-NEXT: {{^}}    v = a[i]{{$}}
    # CHECK-NEXT: {{^ +\^$}}
    # CHECK-NEXT: bad-shaped-buffers.py:13:10: note: 'a' is declared here as 'f32[M, N]'
    # CHECK-NEXT: {{^}}def k(
    v = a[i]
    # CHECK: bad-shaped-buffers.py:[[@LINE+2]]:6: error: wrong number of indices for 'a': it has 2 dimensions, found 3 indices
    # CHECK: bad-shaped-buffers.py:13:10: note: 'a' is declared here as 'f32[M, N]'
    a[i, i, i] = 1.0
    # CHECK: bad-shaped-buffers.py:[[@LINE+1]]:11: error: 'a.shape' must be indexed with a constant dimension, e.g. 'a.shape[0]'
    v = a.shape
    # CHECK: bad-shaped-buffers.py:[[@LINE+1]]:17: error: the dimension in 'a.shape[...]' must be an integer constant
    v = a.shape[i]
    # CHECK: bad-shaped-buffers.py:[[@LINE+2]]:17: error: 'a.shape[2]' is out of range: 'a' has 2 dimensions
    # CHECK: bad-shaped-buffers.py:13:10: note: 'a' is declared here as 'f32[M, N]'
    v = a.shape[2]
    # CHECK: bad-shaped-buffers.py:[[@LINE+2]]:10: error: 'y' has no shape: it is declared 'f32[:]'; declare it with its length as a parameter (e.g. 'y: f32[n]' with 'n: u32') to use 'y.shape'
    # CHECK: bad-shaped-buffers.py:13:24: note: 'y' is declared here
    v = y.shape[0]
    # CHECK: bad-shaped-buffers.py:[[@LINE+1]]:11: error: a negative index must be an integer constant such as '-1' (counted from the end of the dimension); write 'M - ...' to count from the end with a computed value
    v = a[-i, 0]
    # CHECK: bad-shaped-buffers.py:[[@LINE+4]]:11: error: index 4 is out of range for dimension 0 of 't', which has 4 elements
    # CHECK: bad-shaped-buffers.py:13:35: note: 't' is declared here as 'f32[4]'
    # CHECK: bad-shaped-buffers.py:[[@LINE+2]]:18: error: index -5 is out of range for dimension 0 of 't', which has 4 elements
    # CHECK: bad-shaped-buffers.py:13:35: note: 't' is declared here as 'f32[4]'
    v = t[4] + t[-5]
    # CHECK: bad-shaped-buffers.py:[[@LINE+2]]:12: error: 'y' is declared 'f32[:]' and takes one index; declare its shape (e.g. 'y: f32[M, N]' with 'M: u32, N: u32') to index it with 2 indices
    # CHECK: bad-shaped-buffers.py:13:24: note: 'y' is declared here
    v = y[i, 0]
    s = shared(f32, 16)
    # CHECK: bad-shaped-buffers.py:[[@LINE+1]]:12: error: multi-dimensional indexing is only supported on buffer parameters declared with a shape, such as 'a: f32[M, N]'; index with a flat offset
    v = s[1, 2]
    # A dimension parameter keeps its value: it cannot be assigned.
    # CHECK: bad-shaped-buffers.py:[[@LINE+2]]:5: error: cannot assign to 'M': it is a dimension of buffer 'a'
    # CHECK: bad-shaped-buffers.py:13:14: note: 'M' is used in the shape of 'a' here
    M = 3
    # CHECK: bad-shaped-buffers.py:[[@LINE+2]]:5: error: cannot assign to 'N': it is a dimension of buffer 'a'
    # CHECK: bad-shaped-buffers.py:13:17: note: 'N' is used in the shape of 'a' here
    N += 1
    # CHECK: bad-shaped-buffers.py:[[@LINE+2]]:9: error: cannot assign to 'M': it is a dimension of buffer 'a'
    # CHECK: bad-shaped-buffers.py:13:14: note: 'M' is used in the shape of 'a' here
    for M in range(3):
        pass
    # CHECK: bad-shaped-buffers.py:[[@LINE+2]]:5: error: cannot assign to 'N': it is a dimension of buffer 'a'
    # CHECK: bad-shaped-buffers.py:13:17: note: 'N' is used in the shape of 'a' here
    N: u32 = 2
    # CHECK: bad-shaped-buffers.py:[[@LINE+2]]:5: error: cannot assign to 'M': it is a dimension of buffer 'a'
    # CHECK: bad-shaped-buffers.py:13:14: note: 'M' is used in the shape of 'a' here
    a.shape[0] = 3

# A dimension names an 'i32' or 'u32' parameter of the same function.
# CHECK: bad-shaped-buffers.py:[[@LINE+6]]:14: error: the shape of 'b' names 'K', which is not a parameter of 'f'; a dimension is an 'i32' or 'u32' parameter or an integer literal
# CHECK: bad-shaped-buffers.py:[[@LINE+5]]:28: error: the shape of 'c' names 'x', which is 'f32'; a dimension must be an 'i32' or 'u32' parameter
# CHECK: bad-shaped-buffers.py:[[@LINE+4]]:43: note: 'x' is declared here
# CHECK: bad-shaped-buffers.py:[[@LINE+3]]:39: error: the shape of 'd' names 'b', which is 'f32[]'; a dimension must be an 'i32' or 'u32' parameter
# CHECK: bad-shaped-buffers.py:[[@LINE+2]]:7: note: 'b' is declared here
# The uses of a buffer whose shape is wrong report nothing more.
def f(b: f32[K, n], c: f32[x], d: u32[b], x: f32, n: u32):
    b[n, n] = c[0] + f32(d.shape[0])

# Malformed shapes.
# CHECK: bad-shaped-buffers.py:[[@LINE+4]]:17: error: buffer types are written 'f32[:]', or 'f32[M, N]' with each dimension an integer parameter or literal; found ':'
# CHECK: bad-shaped-buffers.py:[[@LINE+3]]:28: error: a buffer dimension must be between 1 and 4294967295, found '0'
# CHECK: bad-shaped-buffers.py:[[@LINE+2]]:41: error: buffer types are written 'u32[:]', or 'u32[M, N]' with each dimension an integer parameter or literal; expected ',' or ']' after a dimension, found '+'
# CHECK: bad-shaped-buffers.py:[[@LINE+1]]:54: error: buffer types are written 'i32[:]', or 'i32[M, N]' with each dimension an integer parameter or literal; found '-'
def g(e: f32[n, :], h: f32[0], p: u32[n + 1], q: i32[-1], n: u32):
    pass

# At most 32 dimensions.
# CHECK: bad-shaped-buffers.py:[[@LINE+1]]:78: error: buffers have at most 32 dimensions, found 33
def h(r: f32[1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1]):
    r[0] = 1.0
