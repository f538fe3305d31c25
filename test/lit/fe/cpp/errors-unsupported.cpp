// errors-unsupported.cpp: host C++ constructs outside the dialect each get a
// located "not supported" error, and all of them are reported in one run.
// RUN: not wave-fe --cpp-frontend=builtin --emit=ast %s 2>&1 | FileCheck %s --implicit-check-not=error:

#define N 4
// CHECK: {{.*}}errors-unsupported.cpp:[[@LINE-1]]:1: error: preprocessor directive '#define' is not supported
#include <cstdint>
namespace foo { int x; }
// CHECK: {{.*}}errors-unsupported.cpp:[[@LINE-1]]:1: error: namespaces are not supported in WAVE kernels
struct S { int a; };
// CHECK: {{.*}}errors-unsupported.cpp:[[@LINE-1]]:1: error: structs are not supported in WAVE kernels
class C {};
// CHECK: {{.*}}errors-unsupported.cpp:[[@LINE-1]]:1: error: classes are not supported in WAVE kernels
template <typename T> T id(T x) { return x; }
// CHECK: {{.*}}errors-unsupported.cpp:[[@LINE-1]]:1: error: templates are not supported in WAVE kernels
typedef int myint;
// CHECK: {{.*}}errors-unsupported.cpp:[[@LINE-1]]:1: error: typedefs are not supported in WAVE kernels
using myint2 = int;
// CHECK: {{.*}}errors-unsupported.cpp:[[@LINE-1]]:1: error: 'using' declarations and type aliases are not supported in WAVE kernels
int g = 3;
// CHECK: {{.*}}errors-unsupported.cpp:[[@LINE-1]]:5: error: global variables are not supported in WAVE kernels
extern "C" void h();
// CHECK: {{.*}}errors-unsupported.cpp:[[@LINE-1]]:1: error: linkage specifications ('extern "C"') are not supported in WAVE kernels; declare the function with a prototype
void proto(int x); void proto(float x);
// CHECK: {{.*}}errors-unsupported.cpp:[[@LINE-1]]:25: error: 'proto' is declared with a different signature; overloads are not supported in WAVE kernels
__kernel void k(long* a, float& r, float** pp, int d = 3) {
// CHECK: {{.*}}errors-unsupported.cpp:[[@LINE-1]]:17: error: 'long' is not supported; WAVE integers are 32-bit
// CHECK: {{.*}}errors-unsupported.cpp:[[@LINE-2]]:31: error: reference parameters are not supported in WAVE kernels; use a pointer for a buffer or pass the value
// CHECK: {{.*}}errors-unsupported.cpp:[[@LINE-3]]:42: error: pointers to pointers are not supported in WAVE kernels
// CHECK: {{.*}}errors-unsupported.cpp:[[@LINE-4]]:54: error: default arguments are not supported in WAVE kernels
  short s = 1;
// CHECK: {{.*}}errors-unsupported.cpp:[[@LINE-1]]:3: error: 'short' is not supported; WAVE integers are 32-bit
  float arr[4];
// CHECK: {{.*}}errors-unsupported.cpp:[[@LINE-1]]:12: error: local arrays are not supported; use __shared__ for workgroup memory
  int y = 1l + 2ull + 1.0L;
// CHECK: {{.*}}errors-unsupported.cpp:[[@LINE-1]]:11: error: integer suffix 'l' is not supported; WAVE integers are 32-bit
// CHECK: {{.*}}errors-unsupported.cpp:[[@LINE-2]]:16: error: integer suffix 'ull' is not supported; WAVE integers are 32-bit
// CHECK: {{.*}}errors-unsupported.cpp:[[@LINE-3]]:23: error: float suffix 'L' is not supported; 'long double' does not exist in WAVE
  switch (y) { case 1: break; }
// CHECK: {{.*}}errors-unsupported.cpp:[[@LINE-1]]:3: error: 'switch' statements are not supported in WAVE kernels; use 'if'/'else'
  goto end;
// CHECK: {{.*}}errors-unsupported.cpp:[[@LINE-1]]:3: error: 'goto' is not supported in WAVE kernels
  end: ;
// CHECK: {{.*}}errors-unsupported.cpp:[[@LINE-1]]:3: error: labels are not supported in WAVE kernels
  y = s = 2;
// CHECK: {{.*}}errors-unsupported.cpp:[[@LINE-1]]:9: error: '=' cannot be used inside an expression; assignments are statements in WAVE kernels
  if (y = 3) {}
// CHECK: {{.*}}errors-unsupported.cpp:[[@LINE-1]]:9: error: '=' cannot be used inside an expression; assignments are statements in WAVE kernels
  int z = y++ + 1;
// CHECK: {{.*}}errors-unsupported.cpp:[[@LINE-1]]:12: error: '++' is only supported as a statement
  a[0] = "str";
// CHECK: {{.*}}errors-unsupported.cpp:[[@LINE-1]]:10: error: string literals are not supported in WAVE kernels
  a[1] = 'c';
// CHECK: {{.*}}errors-unsupported.cpp:[[@LINE-1]]:10: error: character literals are not supported in WAVE kernels
  a->x = 1;
// CHECK: {{.*}}errors-unsupported.cpp:[[@LINE-1]]:4: error: member access is not supported in WAVE kernels
  *a = 1;
// CHECK: {{.*}}errors-unsupported.cpp:[[@LINE-1]]:3: error: pointer dereference is not supported in WAVE kernels
  int w = reinterpret_cast<int>(y) + &y;
// CHECK: {{.*}}errors-unsupported.cpp:[[@LINE-1]]:11: error: 'reinterpret_cast' is not supported in WAVE kernels
  w = sizeof(y) + (y, 1);
// CHECK: {{.*}}errors-unsupported.cpp:[[@LINE-1]]:7: error: 'sizeof' is not supported in WAVE kernels
  w = (y, 1);
// CHECK: {{.*}}errors-unsupported.cpp:[[@LINE-1]]:9: error: the comma operator is not supported in WAVE kernels
  try { y = 1; } catch (...) { }
// CHECK: {{.*}}errors-unsupported.cpp:[[@LINE-1]]:3: error: exceptions are not supported in WAVE kernels
  auto l = [](int q) { return q; };
// CHECK: {{.*}}errors-unsupported.cpp:[[@LINE-1]]:12: error: lambdas are not supported in WAVE kernels
  foo::bar(1);
// CHECK: {{.*}}errors-unsupported.cpp:[[@LINE-1]]:3: error: qualified name 'foo::bar' is not supported in WAVE kernels
  float* p = a;
// CHECK: {{.*}}errors-unsupported.cpp:[[@LINE-1]]:8: error: pointer variables are not supported in WAVE kernels
  static int st = 1;
// CHECK: {{.*}}errors-unsupported.cpp:[[@LINE-1]]:3: error: static local variables are not supported in WAVE kernels
  __shared__ float t2[4][4];
// CHECK: {{.*}}errors-unsupported.cpp:[[@LINE-1]]:25: error: multi-dimensional shared arrays are not supported; use a flat array
  for (float v : a) {}
// CHECK: {{.*}}errors-unsupported.cpp:[[@LINE-1]]:3: error: range-based 'for' loops are not supported in WAVE kernels
}
[[wave::kernel, wave::workgroup_size(0, 2000)]] void k2() {}
// CHECK: {{.*}}errors-unsupported.cpp:[[@LINE-1]]:38: error: workgroup size must be an integer literal between 1 and 1024
// CHECK: {{.*}}errors-unsupported.cpp:[[@LINE-2]]:41: error: workgroup size must be an integer literal between 1 and 1024
[[wave::kernel, wave::bogus]] void k3() {}
// CHECK: {{.*}}errors-unsupported.cpp:[[@LINE-1]]:17: error: unknown attribute 'wave::bogus'
[[wave::workgroup_size(64)]] void k4() {}
// CHECK: {{.*}}errors-unsupported.cpp:[[@LINE-1]]:3: error: 'wave::workgroup_size' applies to kernels only; mark the function with '__kernel' or '{{.*}}'
float k4(int x) { return x; }
// CHECK: {{.*}}errors-unsupported.cpp:[[@LINE-1]]:7: error: function 'k4' is defined twice; overloads are not supported in WAVE kernels
// CHECK: {{.*}}note: the previous definition is here
