# A file of declarations only still compiles to MIR
# (formats/kernel-languages.md §1): nothing but 'declare func's, in source
# order. Python has no read-only buffer type, so a declared buffer may be read
# and written.
# RUN: wave-fe %s | FileCheck %s --implicit-check-not=func --implicit-check-not=kernel
# CHECK: declare func @a(f32 %x) -> f32
# CHECK: declare func @b(ptr<device> elem(i32) %v, u32 %n) -> i32
def a(x: f32) -> f32: ...
def b(v: i32[:], n: u32) -> i32: ...
