// errors-syntax.rs: syntax errors; every one is reported in one run (the
// parser resynchronises at the next statement), and nothing else is.
// RUN: not wave-fe --emit=ast %s 2>&1 | FileCheck %s --implicit-check-not=error:

#[kernel]
fn k(a: &mut [f32], n: u32) {
    // CHECK: errors-syntax.rs:[[@LINE+1]]:13: error: expected an expression, found ';'
    let x = ;
    // CHECK: errors-syntax.rs:[[@LINE+1]]:20: error: expected ']' to close the index, found ';'
    let y = a[n + 1;
    // CHECK: errors-syntax.rs:[[@LINE-1]]:14: note: to match this '['
    // CHECK: errors-syntax.rs:[[@LINE+2]]:19: error: comparison operators cannot be chained
    // CHECK: errors-syntax.rs:[[@LINE+1]]:19: note: use '&&' to combine comparisons, or parentheses
    let z = 1 < n < 3;
    // CHECK: errors-syntax.rs:[[@LINE+1]]:10: error: assignment cannot be used as a condition; use '==' to compare
    if n = 1 {
    }
    // CHECK: errors-syntax.rs:[[@LINE+1]]:17: error: assignment cannot be used as an expression
    a[0] = a[1] = 2.0;
    // CHECK: errors-syntax.rs:[[@LINE+1]]:6: error: '++' is not a Rust operator; use '+= 1' as a statement
    n++;
    // CHECK: errors-syntax.rs:[[@LINE+1]]:15: error: expected ';' after the 'let' statement, found 'let'
    let w = 1 let v = 2;
    // CHECK: errors-syntax.rs:[[@LINE+1]]:14: error: ranges are only supported in 'for' loops
    let r = 0..n;
    // CHECK: errors-syntax.rs:[[@LINE+1]]:16: error: expected ';' after the expression (only a function body, an if-expression branch or a match arm can end in a value)
    if n > 0 { 1 } else { foo() }
    // CHECK: errors-syntax.rs:[[@LINE+1]]:22: error: this branch has no value: it must end in an expression without ';' (or in 'return', 'break' or 'continue')
    let e = if n > 0 { let t = 1; } else { 2 };
    // CHECK: errors-syntax.rs:[[@LINE+1]]:13: error: an if-expression must have an 'else' branch
    let g = if n > 0 { 1 };
    // CHECK: errors-syntax.rs:[[@LINE+1]]:5: error: invalid left-hand side of assignment: expected a variable, a field 'v.x' or an element 'a[i]'
    foo() = 1;
    foo(1, 2;
    // CHECK: errors-syntax.rs:[[@LINE-1]]:13: error: expected ',' or ')' in the argument list, found ';'
    // CHECK: errors-syntax.rs:[[@LINE-2]]:8: note: to match this '('
    // CHECK: errors-syntax.rs:[[@LINE+1]]:12: error: type 'i64' is not supported in WAVE kernels (scalars are f32, f64, f16, i32, u32 and bool)
    let i: i64 = 0;
    // CHECK: errors-syntax.rs:[[@LINE+1]]:14: error: expected '{' after the 'if' condition, found 'then'
    if n > 0 then { }
}

// CHECK: errors-syntax.rs:[[@LINE+1]]:28: error: workgroup size values must be integer literals from 1 to 1024, found '0'
#[kernel(workgroup_size = (0, 1))]
fn k2() {}
// CHECK: errors-syntax.rs:[[@LINE+1]]:37: error: a workgroup size has at most 3 dimensions
#[kernel(workgroup_size = (1, 2, 3, 4))]
fn k3() {}
// CHECK: errors-syntax.rs:[[@LINE+1]]:10: error: expected 'workgroup_size' in the kernel attribute, found 'threads'
#[kernel(threads = 3)]
fn k4() {}
// CHECK: errors-syntax.rs:[[@LINE+1]]:28: error: workgroup size values must be integer literals from 1 to 1024, found '2000'
#[kernel(workgroup_size = (2000))]
fn k5() {}

fn tail() {
    foo(
// CHECK: errors-syntax.rs:[[@LINE+2]]:1: error: expected ')' to close the argument list, found '}'
// CHECK: errors-syntax.rs:[[@LINE-2]]:8: note: to match this '('
}

fn unclosed(x: u32) {
    let y = x;
// CHECK: errors-syntax.rs:[[@LINE+2]]:1: error: expected '}' to close the block, found end of file
// CHECK: errors-syntax.rs:[[@LINE-3]]:21: note: to match this '{'
