# Syntax errors: each is reported at its token with the expected/found
# wording (and a note at the opening bracket where one is unclosed); the
# parser resumes at the next line of the same or a lower indentation, so
# every error of the file comes out in one run, in source order.
# RUN: not wave-fe --emit=ast %s 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not=note:

@kernel
def k(a: f32[:], n: u32):
    # CHECK: {{.*}}errors-syntax.py:[[@LINE+2]]:20: error: expected ')' to close the argument list, found ';'
    # CHECK: {{.*}}errors-syntax.py:[[@LINE+1]]:18: note: to match this '('
    x = thread_id(0;
    # CHECK: {{.*}}errors-syntax.py:[[@LINE+2]]:16: error: expected ']' to close the subscript, found ')'
    # CHECK: {{.*}}errors-syntax.py:[[@LINE+1]]:10: note: to match this '['
    y = a[x + 1)
    # CHECK: {{.*}}errors-syntax.py:[[@LINE+1]]:12: error: expected an expression, found end of line
    z = x + 
    # CHECK: {{.*}}errors-syntax.py:[[@LINE+1]]:13: error: expected ':' after the 'if' statement header, found end of line
    if x < n
        x = 1
    # CHECK: {{.*}}errors-syntax.py:[[@LINE+2]]:5: error: expected an indented block after the 'while' statement
    while x:
    x = 2
    # CHECK: {{.*}}errors-syntax.py:[[@LINE+1]]:5: error: 'else' without a matching 'if'
    else:
        x = 3
    # CHECK: {{.*}}errors-syntax.py:[[@LINE+2]]:15: error: expected 'else' in the conditional expression, found end of line
    # CHECK: {{.*}}errors-syntax.py:[[@LINE+1]]:11: note: conditional expression starts here
    x = 1 if x
    # CHECK: {{.*}}errors-syntax.py:[[@LINE+1]]:11: error: expected a newline or ';' after the statement, found 'y'
    x = 1 y
    # CHECK: {{.*}}errors-syntax.py:[[@LINE+1]]:9: error: unexpected character '!'; use 'not' for logical negation and '!=' for inequality
    x = !y
    # CHECK: {{.*}}errors-syntax.py:[[@LINE+1]]:11: error: unexpected character '$'
    x = y $ 2
    # CHECK: {{.*}}errors-syntax.py:[[@LINE+1]]:9: error: expected an expression, found 'else'
    x = else
    # CHECK: {{.*}}errors-syntax.py:[[@LINE+1]]:12: error: 'if' statement must start on its own line
    x = 1; if x: pass
    # CHECK: {{.*}}errors-syntax.py:[[@LINE+1]]:9: error: only a plain name can be declared with a type annotation
    a[0]: f32 = 1.0
    # CHECK: {{.*}}errors-syntax.py:[[@LINE+1]]:8: error: unknown type 'float32'; expected f32, f16, f64, i32, u32, bool, int or float
    v: float32 = 1.0
    # CHECK: {{.*}}errors-syntax.py:[[@LINE+1]]:8: error: local variables cannot be buffers; buffers are parameters and shared arrays are declared with 'shared(T, N)'
    w: f32[:] = a
    # CHECK: {{.*}}errors-syntax.py:[[@LINE+2]]:19: error: 'shared' takes an element type and a size, e.g. 'shared(f32, 256)'
    # CHECK: {{.*}}errors-syntax.py:[[@LINE+1]]:9: note: in this call
    t = shared(f32)
    # CHECK: {{.*}}errors-syntax.py:[[@LINE+1]]:16: error: expected an element type as the first argument of 'shared', e.g. 'shared(f32, 256)', found '256'
    t = shared(256, f32)
    # CHECK: {{.*}}errors-syntax.py:[[@LINE+1]]:16: error: shared arrays of 'bool' are not supported in WAVE kernels
    t = shared(bool, 4)
    # CHECK: {{.*}}errors-syntax.py:[[@LINE+1]]:12: error: invalid suffix 'f' on number literal; Python number literals take no suffix
    x = 1.5f
    # CHECK: {{.*}}errors-syntax.py:[[@LINE+1]]:9: error: leading zeros in decimal integer literals are not permitted; use an '0o' prefix for octal integers
    x = 007
    # CHECK: {{.*}}errors-syntax.py:[[@LINE+1]]:9: error: expected digits after '0x'
    x = 0x
    # CHECK: {{.*}}errors-syntax.py:[[@LINE+1]]:9: error: non-ASCII characters are not supported in WAVE kernels
    x = é
    # The statement after the errors still parses (nothing reported).
    x = 4
