// Sema's errors of references, checked by bad-references.cpp.
#include <cstdint>

void inc(float& v) { v += 1.0f; }
// CHECK: bad-references-sema.cpp:[[@LINE+1]]:33: error: parameter 'v' of exported function 'ex' is a reference; references pass only between functions of one file (they are inlined)
[[wave::export]] void ex(float& v) { v = 2.0f; }
// CHECK: bad-references-sema.cpp:[[@LINE+1]]:34: error: parameter 'x' of kernel 'k' is a reference; references pass only between functions of one file (they are inlined)
__kernel void k(float* a, float& x, uint32_t n) {
  uint32_t i = thread_id();
// CHECK: bad-references-sema.cpp:[[@LINE+1]]:8: error: argument 1 ('v') of 'inc' is a reference: pass a variable, a parameter or a member of one (copy a buffer element into a variable, and store it back)
  inc(a[i]);
}
