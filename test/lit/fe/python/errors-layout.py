# Errors in the line structure: an unexpected indent, a dedent to a column
# that matches no enclosing block (the line stays in the inner block), a
# character after a line-continuation backslash, an unterminated string,
# an unclosed bracket (the lexer ends the logical line at the next line
# that is not indented deeper, so the statements after it still parse) and
# a missing indented block at the end of the file.
# RUN: not wave-fe --emit=ast %s 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not=note:

@kernel
def k(a: f32[:], n: u32):
    x = 1
    # CHECK: {{.*}}errors-layout.py:[[@LINE+1]]:9: error: unexpected indent
        y = 2
    # CHECK: {{.*}}errors-layout.py:[[@LINE+3]]:7: error: unindent does not match any outer indentation level
    if x:
        y = 1
      z = 3
    # CHECK: {{.*}}errors-layout.py:[[@LINE+1]]:13: error: unexpected character after line continuation character
    x = 1 + \ 2
    # CHECK: {{.*}}errors-layout.py:[[@LINE+1]]:9: error: unterminated string literal
    s = "abc
    # CHECK: {{.*}}errors-layout.py:[[@LINE+2]]:15: error: expected ')' to close the argument list, found end of line
    # CHECK: {{.*}}errors-layout.py:[[@LINE+1]]:10: note: to match this '('
    x = f(1, 2
    y = 3
    # CHECK: {{.*}}errors-layout.py:[[@LINE+1]]:9: error: strings are not supported in WAVE kernels
    t = 'after the unclosed bracket'

def last():
    # CHECK: {{.*}}errors-layout.py:[[@LINE+2]]:1: error: expected an indented block after the 'while' statement
    while 1:
