# Syntax errors of the export decorator: '@export' takes no arguments and
# marks definitions only (formats/kernel-languages.md §1, §9).
# RUN: not wave-fe --emit=ast %s 2>&1 | FileCheck %s --implicit-check-not=error:

@export(inline=True)
def f(x: f32) -> f32:
    return x
# CHECK: bad-linkage-syntax.py:[[@LINE-3]]:8: error: '@export' takes no arguments

@export
def g(x: f32) -> f32: ...
# CHECK: bad-linkage-syntax.py:[[@LINE-2]]:2: error: '@export' marks a definition; 'g' has no body (only '...')

@export
@export
def h(x: f32) -> f32:
    return x
# CHECK: bad-linkage-syntax.py:[[@LINE-3]]:2: error: duplicate '@export' decorator
