// bad-struct-gpu.rs: the whole-module rules see through operator traits and
// methods (they are calls): an operator that recurses through its own trait
// and a struct-returning method that may reach its end without a value.
// RUN: not wave-fe %s 2>&1 | FileCheck %s --implicit-check-not=error:
struct V2 { x: f32, y: f32 }
impl std::ops::Mul for V2 {
    type Output = V2;
// CHECK: bad-struct-gpu.rs:[[@LINE+2]]:38: error: recursive call to 'V2::mul': recursion is not supported in WAVE kernels (device-function calls are inlined)
// CHECK: bad-struct-gpu.rs:[[@LINE+1]]:8: note: 'V2::mul' is defined here
    fn mul(self, o: V2) -> V2 { self * o }
}
impl V2 {
// CHECK: bad-struct-gpu.rs:[[@LINE+1]]:8: error: function 'V2::half' may reach its end without returning a V2
    fn half(&self) -> V2 {
        while self.x > 0.0 {
            return V2 { x: 1.0, y: 1.0 };
        }
    }
}
#[kernel]
fn k(out: &mut [f32]) {
    let v = V2 { x: 1.0, y: 2.0 };
    out[0] = (v * v).half().x;
}
