// Syntax errors of Rust extern blocks: another ABI, a body, a kernel or
// export attribute inside the block, a function without a body outside.
// RUN: not wave-fe --emit=ast %s 2>&1 | FileCheck %s --implicit-check-not=error:

extern "system" { fn a(x: f32) -> f32; }
// CHECK: bad-linkage-syntax.rs:[[@LINE-1]]:8: error: expected the ABI "C" after 'extern', found
extern "C" {
    fn b(x: f32) -> f32 { x }
// CHECK: bad-linkage-syntax.rs:[[@LINE-1]]:25: error: a function in an extern block has no body; expected ';'
    #[kernel]
    fn c(x: &mut [f32]);
// CHECK: bad-linkage-syntax.rs:[[@LINE-2]]:7: error: a kernel cannot be declared; kernels are defined in the file that launches them
    #[export]
    fn d(x: f32) -> f32;
// CHECK: bad-linkage-syntax.rs:[[@LINE-2]]:7: error: 'export' applies to function definitions only
}
fn e(x: f32) -> f32;
// CHECK: bad-linkage-syntax.rs:[[@LINE-1]]:20: error: a function needs a body; declare functions of other objects in an 'extern "C" { ... }' block
