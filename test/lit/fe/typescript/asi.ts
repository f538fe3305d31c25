// Automatic semicolon insertion (simplified): statements end at a line break
// when the next token cannot continue them, before '}' and at the end of the
// file; an operator at the end of a line continues the expression; 'return'
// followed by a line break returns nothing; a '++' on the next line starts a
// new statement; '[' on the next line continues (indexes) the expression.
// RUN: wave-fe --emit=ast %s | FileCheck %s

function dev(v: f32, a: f32[]): f32 {
  let x = v *
    2
  let y = x
  ++y
  let w = a
    [0]
  if (y > 0) return
    x
  return x }

// CHECK:      func dev(v: f32, a: f32[]) -> f32 {
// CHECK-NEXT:   var x = v * 2;
// CHECK-NEXT:   var y = x;
// CHECK-NEXT:   y += 1;
// CHECK-NEXT:   var w = a[0];
// CHECK-NEXT:   if (y > 0) {
// CHECK-NEXT:     return;
// CHECK-NEXT:   }
// CHECK-NEXT:   x;
// CHECK-NEXT:   return x;
// CHECK-NEXT: }
