// Syntax errors: every one of the file is reported in one run (the parser
// resynchronises at the next statement), with notes at the opening bracket.
// RUN: not wave-fe --emit=ast %s 2>&1 | FileCheck %s --implicit-check-not=error:

export function k(a: f32[], n: u32) {
  let x = (1 + 2
  // CHECK: {{.*}}errors-syntax.ts:[[@LINE+2]]:3: error: expected ')' to close the parenthesized expression, found 'let'
  // CHECK: {{.*}}errors-syntax.ts:[[@LINE-2]]:11: note: to match this '('
  let y = a[1
  // CHECK: {{.*}}errors-syntax.ts:[[@LINE+2]]:3: error: expected ']' to close the index, found 'if'
  // CHECK: {{.*}}errors-syntax.ts:[[@LINE-2]]:12: note: to match this '['
  if (x > ) { y = 1 }
  // CHECK: {{.*}}errors-syntax.ts:[[@LINE-1]]:11: error: expected an expression, found ')'
  let u = 1 let v = 2
  // CHECK: {{.*}}errors-syntax.ts:[[@LINE-1]]:13: error: expected ';' after the declaration, found 'let'
  x = y = 1
  // CHECK: {{.*}}errors-syntax.ts:[[@LINE-1]]:9: error: assignment cannot be used as an expression in WAVE kernels; write it as a statement
  if (x = 1) {}
  // CHECK: {{.*}}errors-syntax.ts:[[@LINE-1]]:9: error: assignment cannot be used as an expression in WAVE kernels; write it as a statement
  y = x++ + 1
  // CHECK: {{.*}}errors-syntax.ts:[[@LINE-1]]:8: error: '++' is only supported as a statement
  f(x, y
  // CHECK: {{.*}}errors-syntax.ts:[[@LINE+3]]:3: error: expected ')' to close the argument list, found 'const'
  // CHECK: {{.*}}errors-syntax.ts:[[@LINE-2]]:4: note: to match this '('
  // CHECK-NOT: error:
  const c
  // CHECK: {{.*}}errors-syntax.ts:[[@LINE-1]]:9: error: 'const' declaration of 'c' must be initialized
  x + 1 = 2
  // CHECK: {{.*}}errors-syntax.ts:[[@LINE-1]]:9: error: the left side of '=' must be a variable or an element
  let z = 010
  // CHECK: {{.*}}errors-syntax.ts:[[@LINE-1]]:11: error: octal literals with a leading '0' are not supported; use '0o'
  let w = 1.5f
  // CHECK: {{.*}}errors-syntax.ts:[[@LINE-1]]:11: error: invalid suffix 'f' on number literal '1.5f'
  let big = 99999999999999999999999
  // CHECK: {{.*}}errors-syntax.ts:[[@LINE-1]]:13: error: integer literal '99999999999999999999999' does not fit in 64 bits
  let q = c ? 1
  // CHECK: {{.*}}errors-syntax.ts:[[@LINE+2]]:3: error: expected ':' in the conditional expression, found 'for'
  // CHECK: {{.*}}errors-syntax.ts:[[@LINE-2]]:13: note: to match this '?'
  for (let i = 0, j = 0; i < n; i++) {}
  // CHECK: {{.*}}errors-syntax.ts:[[@LINE-1]]:17: error: several declarations in a 'for' initializer are not supported in WAVE kernels
  for (let i = 0; i < n; i++, x++) {}
  // CHECK: {{.*}}errors-syntax.ts:[[@LINE-1]]:29: error: the comma operator is not supported in WAVE kernels; use one step statement
  do { x++ } until (x)
  // CHECK: {{.*}}errors-syntax.ts:[[@LINE-1]]:14: error: expected 'while' after the body of 'do', found 'until'
  // CHECK: {{.*}}errors-syntax.ts:[[@LINE-2]]:3: note: to match this 'do'
  x = 1 $ 2
  // CHECK: {{.*}}errors-syntax.ts:[[@LINE-1]]:9: error: expected ';' after the statement, found '$'
  x = 1 ¤ 2
  // CHECK: {{.*}}errors-syntax.ts:[[@LINE-1]]:9: error: expected ';' after the statement, found '¤'
}

function unclosed(a: f32[] {
// CHECK: {{.*}}errors-syntax.ts:[[@LINE-1]]:28: error: expected ',' or ')' in the parameter list, found '{'
// CHECK: {{.*}}errors-syntax.ts:[[@LINE-2]]:18: note: to match this '('
  return
}

function body(): f32
// CHECK: {{.*}}errors-syntax.ts:[[@LINE+1]]:1: error: function declarations without a body are not supported in WAVE kernels
export function last() {
  let a = 1
// CHECK: {{.*}}errors-syntax.ts:[[@LINE+2]]:1: error: expected '}' at the end of the block, found end of file
// CHECK: {{.*}}errors-syntax.ts:[[@LINE-3]]:24: note: to match this '{'
