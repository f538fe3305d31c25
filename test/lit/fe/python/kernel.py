# Kernel marking (@kernel, @wave.kernel), workgroup sizes (a 3-, 2- or
# 1-tuple, or one integer; missing dimensions are 1), parameter types
# (buffers T[:], scalars, int/float aliases, wave.-qualified names) and
# return annotations.
# RUN: wave-fe --emit=ast %s | FileCheck %s --match-full-lines

import wave

# CHECK: kernel plain(a: f32[], b: f16[], c: i32[], d: u32[], e: f64[]) {
@kernel
def plain(a: f32[:], b: f16[:], c: i32[:], d: u32[:], e: f64[:]):
    pass

# CHECK: kernel qualified(a: f32[], n: u32) workgroup_size(16, 16, 1) {
@wave.kernel(workgroup_size=(16, 16, 1))
def qualified(a: wave.f32[:], n: wave.u32):
    pass

# CHECK: kernel two_dims() workgroup_size(8, 4, 1) {
@kernel(workgroup_size=(8, 4))
def two_dims():
    pass

# CHECK: kernel one_dim() workgroup_size(256, 1, 1) {
@kernel(workgroup_size=(256,))
def one_dim():
    pass

# CHECK: kernel bare_int() workgroup_size(64, 1, 1) {
@wave.kernel(workgroup_size=64)
def bare_int():
    pass

# CHECK: kernel empty_args() {
@kernel()
def empty_args():
    pass

# CHECK: kernel scalars(a: f32, b: f16, c: f64, d: i32, e: u32, f: bool, g: i32, h: f32) {
@kernel
def scalars(a: f32, b: f16, c: f64, d: i32, e: u32, f: bool, g: int,
            h: float,):
    pass

# An undecorated function is a device function.
# CHECK: func device(x: f32) -> f32 {
def device(x: f32) -> f32:
    return x

# CHECK: func returns_none(x: i32) {
def returns_none(x: i32) -> None:
    pass

# CHECK: func aliases() -> i32 {
def aliases() -> int: return 0

# Int and float buffer aliases.
# CHECK: kernel alias_buffers(a: i32[], b: f32[]) workgroup_size(1024, 1, 1) {
@kernel(workgroup_size=(1024, 1, 1))
def alias_buffers(a: int[:], b: float[:]):
    pass
