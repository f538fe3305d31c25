// Errors of Rust declarations and exports (formats/kernel-languages.md §1,
// §11): an exported kernel, a declaration and a definition of one name, a
// call to a declaration with the wrong number of arguments.
// RUN: not wave-fe %s 2>&1 | FileCheck %s --implicit-check-not=error:

#[kernel]
#[export]
fn k(a: &mut [f32]) { a[0] = 1.0; }
// CHECK: bad-linkage.rs:[[@LINE-2]]:3: error: kernel 'k' cannot be exported; only device functions can (kernels are entry points already)

extern "C" { fn twice(x: f32) -> f32; }
fn twice(x: f32) -> f32 { x * 2.0 }
// CHECK: bad-linkage.rs:[[@LINE-1]]:4: error: redefinition of 'twice'
// CHECK: bad-linkage.rs:[[@LINE-3]]:17: note: 'twice' is first declared here

#[kernel]
fn caller(a: &mut [f32]) { a[0] = twice(); }
// CHECK: bad-linkage.rs:[[@LINE-1]]:35: error: 'twice' takes 1 argument(s), not 0
