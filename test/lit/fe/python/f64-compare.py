# f64 comparisons, min and max (formats/kernel-languages.md §3): WAVE has no
# f64 compare (formats/isa.md §2.8), so a OP b is f32((a - b) * 2^1000) OP 0,
# with equal infinities (whose difference is NaN) patched for == <= >= !=;
# min and max select with fmin's and fmax's NaN rule. Values are checked
# end to end in test/lit/fe/e2e/f64cmp.py.
# RUN: wave-fe --emit=hir %s | FileCheck %s --check-prefix=HIR
# RUN: wave-fe %s | FileCheck %s

# HIR: func lt(a: f64, b: f64) -> bool {
# HIR-NEXT: return a < b;
# CHECK-LABEL: func @lt(f64 %a, f64 %b) -> i1 {
# CHECK-NEXT: ^entry:
# CHECK-NEXT: %0 = fsub f64 %a, %b
# CHECK-NEXT: %1 = fmul f64 %0, 1.0715086071862673E+301
# CHECK-NEXT: %2 = cvt f64 %1 to f32
# CHECK-NEXT: %3 = fcmp lt f32 %2, 0.0
# CHECK-NEXT: ret i1 %3
def lt(a: f64, b: f64) -> bool:
    return a < b

# CHECK-LABEL: func @ne(f64 %a, f64 %b) -> i1 {
# CHECK: %3 = fcmp ne f32 %2, 0.0
# CHECK-NEXT: %4 = fcmp unord f32 %2, %2
# CHECK-NEXT: %5 = cvt f64 %a to f32
# CHECK-NEXT: %6 = cvt f64 %b to f32
# CHECK-NEXT: %7 = fcmp ord f32 %5, %6
# CHECK-NEXT: %8 = and i1 %4, %7
# CHECK-NEXT: %9 = not i1 %8
# CHECK-NEXT: %10 = and i1 %3, %9
def ne(a: f64, b: f64) -> bool:
    return a != b

# CHECK-LABEL: func @ge(f64 %a, f64 %b) -> i1 {
# CHECK: %3 = fcmp ge f32 %2, 0.0
# CHECK: %9 = or i1 %3, %8
def ge(a: f64, b: f64) -> bool:
    return a >= b

# HIR: return max(a, b);
# CHECK-LABEL: func @hi(f64 %a, f64 %b) -> f64 {
# CHECK-NEXT: ^entry:
# CHECK-NEXT: %0 = cvt f64 %a to f32
# CHECK-NEXT: %1 = fcmp unord f32 %0, %0
# CHECK-NEXT: %2 = fsub f64 %b, %a
# CHECK-NEXT: %3 = fmul f64 %2, 1.0715086071862673E+301
# CHECK-NEXT: %4 = cvt f64 %3 to f32
# CHECK-NEXT: %5 = fcmp gt f32 %4, 0.0
# CHECK-NEXT: %6 = or i1 %1, %5
# CHECK-NEXT: %7 = select f64 %6, %b, %a
def hi(a: f64, b: f64) -> f64:
    return max(a, b)
