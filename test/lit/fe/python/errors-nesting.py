# Recursion is capped: more than 256 nested expressions or blocks give one
# "nesting too deep" error (and parsing stops) instead of exhausting the
# stack; 100 levels are fine. The inputs are generated.
# RUN: %python -c "print('def f():' + chr(10) + '    x = ' + '(' * 100 + '1' + ')' * 100)" > %t.ok.py
# RUN: wave-fe --emit=ast %t.ok.py | FileCheck %s --check-prefix=OK
# RUN: %python -c "print('def f():' + chr(10) + '    x = ' + '(' * 300 + '1' + ')' * 300)" > %t.parens.py
# RUN: not wave-fe --emit=ast %t.parens.py 2>&1 | FileCheck %s --implicit-check-not=error:
# RUN: %python -c "print('def f():' + chr(10) + '    x = ' + '-' * 5000 + '1')" > %t.unary.py
# RUN: not wave-fe --emit=ast %t.unary.py 2>&1 | FileCheck %s --implicit-check-not=error:
# RUN: %python -c "print('def f():' + chr(10) + ''.join(' ' * (i + 1) + 'if x:' + chr(10) for i in range(400)) + ' ' * 401 + 'pass')" > %t.blocks.py
# RUN: not wave-fe --emit=ast %t.blocks.py 2>&1 | FileCheck %s --implicit-check-not=error:
# RUN: %python -c "print('def f():' + chr(10) + '    x = ' + 'f(' * 300 + '1' + ')' * 300)" > %t.calls.py
# RUN: not wave-fe --emit=ast %t.calls.py 2>&1 | FileCheck %s --implicit-check-not=error:

# OK: x = 1;
# CHECK: error: nesting too deep (more than 256 nested expressions or blocks)
