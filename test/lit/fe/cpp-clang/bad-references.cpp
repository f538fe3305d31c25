// bad-references.cpp: the references WAVE cannot lower, one located error
// each. A reference names a variable, a parameter or a member of one; a
// buffer element has no variable (HIR has no pointers), so neither a
// reference local nor a reference argument may name one; HIR finds a
// variable by its name, so a reference to a variable that another of the
// same name may hide is an error too. A kernel, an
// exported or a declared function takes no reference (they are not
// inlined). The first three are the lowering's errors; the rest, Sema's, are
// checked in a second file of the same run (Inputs/bad-references-sema.cpp).
// RUN: not wave-fe %s 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: not wave-fe %S/Inputs/bad-references-sema.cpp 2>&1 | FileCheck %S/Inputs/bad-references-sema.cpp --implicit-check-not=error:
#include <cstdint>

__kernel void k(float* a, uint32_t n) {
  uint32_t i = thread_id();
// CHECK: bad-references.cpp:[[@LINE+1]]:14: error: a reference to this expression is not supported in WAVE kernels; a reference names a variable, a parameter or a member of one (copy a buffer element into a variable, and store it back)
  float& e = a[i];
// CHECK: bad-references.cpp:[[@LINE+1]]:20: error: a reference to this expression is not supported in WAVE kernels
  const float& c = a[i];
}

__kernel void shadow(float* o) {
  float x = 1.0f;
  float& r = x;
  {
    float x = 5.0f;
// CHECK: bad-references.cpp:[[@LINE+1]]:5: error: a reference to 'x' in a function with another variable named 'x' is not supported in WAVE kernels; rename one
    r += x;
  }
  o[0] = x;
}
