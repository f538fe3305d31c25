// errors-syntax.cpp: syntax errors are all reported in one run; the parser
// resynchronises at the next statement (or top-level declaration) and goes
// on; notes point at the unmatched bracket.
// RUN: not wave-fe --cpp-frontend=builtin --emit=ast %s 2>&1 | FileCheck %s --implicit-check-not=error:

__kernel void k(float* a, int n) {
  int x = (n + 1;
// CHECK: {{.*}}errors-syntax.cpp:[[@LINE-1]]:17: error: expected ')', found ';'
// CHECK: {{.*}}errors-syntax.cpp:[[@LINE-2]]:11: note: to match this '('
  x = n +;
// CHECK: {{.*}}errors-syntax.cpp:[[@LINE-1]]:10: error: expected an expression, found ';'
  a[0] = f(1, 2;
// CHECK: {{.*}}errors-syntax.cpp:[[@LINE-1]]:16: error: expected ')' to close the argument list, found ';'
// CHECK: {{.*}}errors-syntax.cpp:[[@LINE-2]]:11: note: to match this '('
  if (x > 1 { x = 2; }
// CHECK: {{.*}}errors-syntax.cpp:[[@LINE-1]]:13: error: expected ')' after the condition, found '{'
  x = 3
  x = 4;
// CHECK: {{.*}}errors-syntax.cpp:[[@LINE-1]]:3: error: expected ';' after the statement, found 'x'
  a[x = 1;
// CHECK: {{.*}}errors-syntax.cpp:[[@LINE-1]]:7: error: '=' cannot be used inside an expression; assignments are statements in WAVE kernels
// CHECK: {{.*}}errors-syntax.cpp:[[@LINE-2]]:10: error: expected ']' after the index, found ';'
  for (int i = 0; i < n; i++ {}
// CHECK: {{.*}}errors-syntax.cpp:[[@LINE-1]]:30: error: expected ')' after the 'for' header, found '{'
  x = n ? 1;
// CHECK: {{.*}}errors-syntax.cpp:[[@LINE-1]]:12: error: expected ':' in the conditional expression, found ';'
  do { x = 1; } (x);
// CHECK: {{.*}}errors-syntax.cpp:[[@LINE-1]]:17: error: expected 'while' after the body of 'do', found '('
  x = 0x;
// CHECK: {{.*}}errors-syntax.cpp:[[@LINE-1]]:7: error: expected digits after '0x'
  x = 09 + 1z + 2q + 1.5x;
// CHECK: {{.*}}errors-syntax.cpp:[[@LINE-1]]:7: error: invalid digit '9' in octal literal
// CHECK: {{.*}}errors-syntax.cpp:[[@LINE-2]]:12: error: integer suffix 'z' is not supported; WAVE integers are 32-bit
// CHECK: {{.*}}errors-syntax.cpp:[[@LINE-3]]:17: error: invalid suffix 'q' on an integer literal
// CHECK: {{.*}}errors-syntax.cpp:[[@LINE-4]]:22: error: invalid suffix 'x' on a floating-point literal
  x = 1 @ 2;
// CHECK: {{.*}}errors-syntax.cpp:[[@LINE-1]]:9: error: expected ';' after the statement, found '@'
  foo bar = 1;
// CHECK: {{.*}}errors-syntax.cpp:[[@LINE-1]]:3: error: unknown type name 'foo'
  x++ = 2;
// CHECK: {{.*}}errors-syntax.cpp:[[@LINE-1]]:7: error: expected ';' after the statement, found '='
  else x = 1;
// CHECK: {{.*}}errors-syntax.cpp:[[@LINE-1]]:3: error: 'else' without a matching 'if'
}

void f(int a b) {}
// CHECK: {{.*}}errors-syntax.cpp:[[@LINE-1]]:14: error: expected ')' to close the parameter list, found 'b'
// CHECK: {{.*}}errors-syntax.cpp:[[@LINE-2]]:7: note: to match this '('

__kernel void g() {
  int y = 1;
/* never closed
// CHECK: {{.*}}errors-syntax.cpp:[[@LINE-1]]:1: error: unterminated '/*' comment
// CHECK: {{.*}}errors-syntax.cpp:[[@LINE+1]]:1: error: expected '}' at the end of the block, found end of file
