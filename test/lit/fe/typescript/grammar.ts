// Every statement form of the TypeScript dialect and the ECMAScript operator
// precedence and associativity (the printer parenthesises nested binary
// expressions, so each CHECK line shows how the expression grouped).
// RUN: wave-fe --emit=ast %s | FileCheck %s

import { thread_id, barrier } from "wave";
import * as wave from "wave";

export function k(a: f32[], n: u32, x: number, ok: boolean) {
  let p: f32 = 1.5
  let q = 2, r: u32 = 0x10, s = 1e3
  const t = -1
  var u: i32
  p += 1; p -= 2; p *= 3; p /= 4; p %= 5
  r &= 1; r |= 2; r ^= 3; r <<= 1; r >>= 2; r >>>= 3
  r++
  ++r
  r--
  --r
  a[r]++
  p = 1 + 2 * 3 - 4 / 5 % 6
  p = -a[0] * 2
  q = 1 << 2 + 3
  q = 8 >> 1 >>> 2
  ok = 1 < 2 == 3 >= 4
  ok = q === 1 || q !== 2 && q != 3
  q = 1 | 2 ^ 3 & 4
  q = ok ? 1 : ok ? 2 : 3
  q = !ok ? ~q : +q
  p = Math.sqrt(p) + wave.thread_id(0) + Math.fround(x)
  q = (1 + 2) * 3
  q = 1 - 2 - 3
  p = 1_000.5e-1 + .5 + 0b101 + 0o17
  barrier()
  if (ok) q = 1
  else if (q > 2) { q = 2 } else q = 3
  while (q < 10) { q++; if (q == 5) break; continue }
  do { q-- } while (q > 0)
  for (let j = 0; j < n; j++) { a[j] = 0 }
  for (q = 0; ; q += 2) { break }
  for (;;) { return }
  {
    let z = 1;;
  }
}

// CHECK:      kernel k(a: f32[], n: u32, x: f64, ok: bool) {
// CHECK-NEXT:   var p: f32 = 1.5;
// CHECK-NEXT:   var q = 2;
// CHECK-NEXT:   var r: u32 = 16;
// CHECK-NEXT:   var s = 1e+03;
// CHECK-NEXT:   const t = -1;
// CHECK-NEXT:   var u: i32;
// CHECK-NEXT:   p += 1;
// CHECK-NEXT:   p -= 2;
// CHECK-NEXT:   p *= 3;
// CHECK-NEXT:   p /= 4;
// CHECK-NEXT:   p %= 5;
// CHECK-NEXT:   r &= 1;
// CHECK-NEXT:   r |= 2;
// CHECK-NEXT:   r ^= 3;
// CHECK-NEXT:   r <<= 1;
// CHECK-NEXT:   r >>= 2;
// CHECK-NEXT:   r >>>= 3;
// CHECK-NEXT:   r += 1;
// CHECK-NEXT:   r += 1;
// CHECK-NEXT:   r -= 1;
// CHECK-NEXT:   r -= 1;
// CHECK-NEXT:   a[r] += 1;
// CHECK-NEXT:   p = (1 + (2 * 3)) - ((4 / 5) % 6);
// CHECK-NEXT:   p = -a[0] * 2;
// CHECK-NEXT:   q = 1 << (2 + 3);
// CHECK-NEXT:   q = (8 >> 1) >>> 2;
// CHECK-NEXT:   ok = (1 < 2) == (3 >= 4);
// CHECK-NEXT:   ok = (q == 1) || ((q != 2) && (q != 3));
// CHECK-NEXT:   q = 1 | (2 ^ (3 & 4));
// CHECK-NEXT:   q = ok ? 1 : (ok ? 2 : 3);
// CHECK-NEXT:   q = !ok ? ~q : +q;
// CHECK-NEXT:   p = (sqrt(p) + thread_id(0)) + f32(x);
// CHECK-NEXT:   q = (1 + 2) * 3;
// CHECK-NEXT:   q = (1 - 2) - 3;
// CHECK-NEXT:   p = ((100.05 + 0.5) + 5) + 15;
// CHECK-NEXT:   barrier();
// CHECK-NEXT:   if (ok) {
// CHECK-NEXT:     q = 1;
// CHECK-NEXT:   } else if (q > 2) {
// CHECK-NEXT:     q = 2;
// CHECK-NEXT:   } else {
// CHECK-NEXT:     q = 3;
// CHECK-NEXT:   }
// CHECK-NEXT:   while (q < 10) {
// CHECK-NEXT:     q += 1;
// CHECK-NEXT:     if (q == 5) {
// CHECK-NEXT:       break;
// CHECK-NEXT:     }
// CHECK-NEXT:     continue;
// CHECK-NEXT:   }
// CHECK-NEXT:   do {
// CHECK-NEXT:     q -= 1;
// CHECK-NEXT:   } while (q > 0);
// CHECK-NEXT:   for (var j = 0; j < n; j += 1) {
// CHECK-NEXT:     a[j] = 0;
// CHECK-NEXT:   }
// CHECK-NEXT:   for (q = 0; ; q += 2) {
// CHECK-NEXT:     break;
// CHECK-NEXT:   }
// CHECK-NEXT:   for (; ; ) {
// CHECK-NEXT:     return;
// CHECK-NEXT:   }
// CHECK-NEXT:   {
// CHECK-NEXT:     var z = 1;
// CHECK-NEXT:   }
// CHECK-NEXT: }
