# Python constructs outside the dialect get one located error each, and
# all of them are reported in one run (the parser resumes at the next
# statement).
# RUN: not wave-fe --emit=ast %s 2>&1 | FileCheck %s --implicit-check-not=error:

@kernel
def k(a: f32[:], n: u32):
    # CHECK: {{.*}}errors-unsupported.py:[[@LINE+1]]:9: error: strings are not supported in WAVE kernels
    s = "hello"
    # CHECK: {{.*}}errors-unsupported.py:[[@LINE+1]]:11: error: strings are not supported in WAVE kernels
    print(f"value {n}")
    # CHECK: {{.*}}errors-unsupported.py:[[@LINE+1]]:11: error: '**' is not supported; use repeated multiplication, or exp2() and log2()
    y = n ** 2
    # CHECK: {{.*}}errors-unsupported.py:[[@LINE+1]]:9: error: lists are not supported in WAVE kernels
    z = [1, 2]
    # CHECK: {{.*}}errors-unsupported.py:[[@LINE+1]]:9: error: dicts and sets are not supported in WAVE kernels
    q = {1: 2}
    # CHECK: {{.*}}errors-unsupported.py:[[@LINE+1]]:11: error: tuples are not supported in WAVE kernels
    t = (1, 2)
    # CHECK: {{.*}}errors-unsupported.py:[[@LINE+1]]:12: error: comprehensions and generator expressions are not supported in WAVE kernels
    u = (i for i in range(3))
    # CHECK: {{.*}}errors-unsupported.py:[[@LINE+1]]:6: error: tuple assignment is not supported in WAVE kernels
    x, y = 1, 2
    # CHECK: {{.*}}errors-unsupported.py:[[@LINE+1]]:11: error: chained assignment ('a = b = c') is not supported in WAVE kernels
    x = y = 1
    # CHECK: {{.*}}errors-unsupported.py:[[@LINE+1]]:9: error: lambda expressions are not supported in WAVE kernels
    f = lambda v: v
    # CHECK: {{.*}}errors-unsupported.py:[[@LINE+2]]:10: error: 'is' is not supported in WAVE kernels
    # CHECK: {{.*}}errors-unsupported.py:[[@LINE+1]]:13: error: 'None' is not supported in WAVE kernels
    if n is None:
        pass
    # CHECK: {{.*}}errors-unsupported.py:[[@LINE+1]]:10: error: 'not in' is not supported in WAVE kernels
    if n not in a:
        pass
    # CHECK: {{.*}}errors-unsupported.py:[[@LINE+1]]:14: error: 'for' loops can only iterate over 'range(...)' in WAVE kernels
    for i in a:
        pass
    # CHECK: {{.*}}errors-unsupported.py:[[@LINE+1]]:9: error: expected a loop variable name after 'for', found '('
    for (i) in range(3):
        pass
    # CHECK: {{.*}}errors-unsupported.py:[[@LINE+1]]:10: error: tuple targets are not supported in WAVE kernels
    for i, j in range(3):
        pass
    # CHECK: {{.*}}errors-unsupported.py:[[@LINE+1]]:14: error: 'range' takes 1 to 3 arguments, found 4
    for i in range(1, 2, 3, 4):
        pass
    for i in range(3):
        pass
    # CHECK: {{.*}}errors-unsupported.py:[[@LINE+1]]:5: error: 'else' after a 'for' loop is not supported in WAVE kernels
    else:
        pass
    while n:
        pass
    # CHECK: {{.*}}errors-unsupported.py:[[@LINE+1]]:5: error: 'else' after a 'while' loop is not supported in WAVE kernels
    else:
        pass
    # CHECK: {{.*}}errors-unsupported.py:[[@LINE+1]]:5: error: exception handling ('try') is not supported in WAVE kernels
    try:
        pass
    except Exception:
        pass
    finally:
        pass
    # CHECK: {{.*}}errors-unsupported.py:[[@LINE+1]]:5: error: exception handling ('raise') is not supported in WAVE kernels
    raise ValueError
    # CHECK: {{.*}}errors-unsupported.py:[[@LINE+1]]:5: error: 'with' statements are not supported in WAVE kernels
    with n as m:
        pass
    # CHECK: {{.*}}errors-unsupported.py:[[@LINE+1]]:5: error: nested functions (closures) are not supported in WAVE kernels
    def inner(x: f32):
        return x
    # CHECK: {{.*}}errors-unsupported.py:[[@LINE+1]]:5: error: classes are not supported in WAVE kernels
    class C:
        pass
    # CHECK: {{.*}}errors-unsupported.py:[[@LINE+1]]:5: error: generators ('yield') are not supported in WAVE kernels
    yield n
    # CHECK: {{.*}}errors-unsupported.py:[[@LINE+1]]:5: error: 'async' is not supported in WAVE kernels
    async with n:
        pass
    # CHECK: {{.*}}errors-unsupported.py:[[@LINE+1]]:9: error: 'await' is not supported in WAVE kernels
    x = await n
    # CHECK: {{.*}}errors-unsupported.py:[[@LINE+1]]:5: error: global and nonlocal declarations are not supported in WAVE kernels
    global g
    # CHECK: {{.*}}errors-unsupported.py:[[@LINE+1]]:5: error: global and nonlocal declarations are not supported in WAVE kernels
    nonlocal g
    # CHECK: {{.*}}errors-unsupported.py:[[@LINE+1]]:5: error: 'del' statements are not supported in WAVE kernels
    del x
    # CHECK: {{.*}}errors-unsupported.py:[[@LINE+1]]:5: error: 'assert' statements are not supported in WAVE kernels
    assert n
    # CHECK: {{.*}}errors-unsupported.py:[[@LINE+1]]:5: error: 'match' statements are not supported in WAVE kernels
    match n:
        case 1:
            pass
    # CHECK: {{.*}}errors-unsupported.py:[[@LINE+1]]:5: error: 'import' is only allowed at the top level of a WAVE module
    import wave
    # CHECK: {{.*}}errors-unsupported.py:[[@LINE+1]]:10: error: attribute access ('.real') is not supported in WAVE kernels
    x = n.real
    # CHECK: {{.*}}errors-unsupported.py:[[@LINE+1]]:14: error: 'wave.f32' can only be called; attribute access is not supported in WAVE kernels
    x = wave.f32
    # CHECK: {{.*}}errors-unsupported.py:[[@LINE+1]]:12: error: slices are not supported in WAVE kernels
    x = a[1:2]
    # CHECK: {{.*}}errors-unsupported.py:[[@LINE+1]]:12: error: 'a' is declared 'f32[:]' and takes one index; declare its shape (e.g. 'a: f32[M, N]' with 'M: u32, N: u32') to index it with 2 indices
    x = a[1, 2]
    # CHECK: {{.*}}errors-unsupported.py:[[@LINE+1]]:19: error: keyword arguments are not supported in WAVE kernels
    x = thread_id(d=0)
    # CHECK: {{.*}}errors-unsupported.py:[[@LINE+1]]:13: error: argument unpacking ('*') is not supported in WAVE kernels
    x = max(*a)
    # CHECK: {{.*}}errors-unsupported.py:[[@LINE+1]]:11: error: assignment expressions (':=') are not supported in WAVE kernels
    if (m := n) > 0:
        pass
    # CHECK: {{.*}}errors-unsupported.py:[[@LINE+1]]:11: error: matrix multiplication ('@') is not supported in WAVE kernels
    x = n @ n
    # CHECK: {{.*}}errors-unsupported.py:[[@LINE+1]]:7: error: '**=' is not supported in WAVE kernels
    x **= 2
    # CHECK: {{.*}}errors-unsupported.py:[[@LINE+1]]:9: error: '...' is not supported in WAVE kernels
    x = ...
    # CHECK: {{.*}}errors-unsupported.py:[[@LINE+1]]:13: error: only functions named directly can be called in WAVE kernels
    x = a[0](1)
    # CHECK: {{.*}}errors-unsupported.py:[[@LINE+1]]:14: error: complex literals are not supported in WAVE kernels
    x = 1 + 2j
    # CHECK: {{.*}}errors-unsupported.py:[[@LINE+1]]:5: error: cannot assign to this expression; the target must be a name, 'buffer[index]' or 'value.field'
    f(x) = 1
