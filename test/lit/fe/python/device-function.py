# Device functions: an undecorated top-level 'def' is a device function
# (func), callable from kernels by name; parameters may be buffers; the
# return annotation gives the result type (absent or '-> None': void).
# Call-like casts (f32(x), int(x), float(x)) stay calls for Sema.
# RUN: wave-fe --emit=ast %s | FileCheck %s --match-full-lines

# CHECK: func clamp01(x: f32) -> f32 {
# CHECK-NEXT:   return min(max(x, 0.0), 1.0);
# CHECK-NEXT: }
def clamp01(x: f32) -> f32:
    return min(max(x, 0.0), 1.0)

# CHECK: func store(buf: u32[], i: u32, v: u32) {
# CHECK-NEXT:   buf[i] = v;
# CHECK-NEXT: }
def store(buf: u32[:], i: u32, v: u32):
    buf[i] = v

# CHECK: func nothing() {
# CHECK-NEXT:   return;
# CHECK-NEXT: }
def nothing() -> None:
    return

# CHECK: kernel main(data: f32[], idx: u32[]) {
# CHECK-NEXT:   i = global_id(0);
# CHECK-NEXT:   data[i] = clamp01(data[i]);
# CHECK-NEXT:   store(idx, i, u32(int(float(i))));
# CHECK-NEXT:   nothing();
# CHECK-NEXT: }
@kernel
def main(data: f32[:], idx: u32[:]):
    i = wave.global_id(0)
    data[i] = clamp01(data[i])
    store(idx, i, u32(int(float(i))))
    nothing()
