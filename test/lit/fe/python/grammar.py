# Every statement form of the Python dialect and the precedence and
# associativity of its operators, as parsed (--emit=ast prints the tree
# before Sema; nested binary operators are parenthesised, so grouping is
# visible).
# RUN: wave-fe --emit=ast %s | FileCheck %s --match-full-lines

"""Module docstring: accepted and ignored."""
import wave
from wave import *
from wave import (thread_id, barrier,)

# CHECK: ; HIR (python)
# CHECK-EMPTY:
# CHECK-NEXT: func statements(buf: f32[], n: i32, x: f32) {
def statements(buf: f32[:], n: int, x: float):
    """Function docstring: accepted and ignored."""
    # CHECK-NEXT:   var a: f32 = 1.5;
    a: f32 = 1.5
    # CHECK-NEXT:   var b: u32;
    b: wave.u32
    # CHECK-NEXT:   c = 7;
    c = 7
    # CHECK-NEXT:   buf[c] = a;
    buf[c] = a
    # CHECK-NEXT:   c += 1;
    # CHECK-NEXT:   c -= 2;
    # CHECK-NEXT:   c *= 3;
    # CHECK-NEXT:   a /= 4;
    # CHECK-NEXT:   c //= 5;
    # CHECK-NEXT:   c %= 6;
    c += 1
    c -= 2
    c *= 3
    a /= 4
    c //= 5
    c %= 6
    # CHECK-NEXT:   c &= 1;
    # CHECK-NEXT:   c |= 2;
    # CHECK-NEXT:   c ^= 3;
    # CHECK-NEXT:   c <<= 4;
    # CHECK-NEXT:   c >>= 5;
    c &= 1; c |= 2; c ^= 3; c <<= 4; c >>= 5;
    # CHECK-NEXT:   if (c < n) {
    # CHECK-NEXT:     c = 0;
    # CHECK-NEXT:   } else if (c == n) {
    # CHECK-NEXT:     c = 1;
    # CHECK-NEXT:   } else if (c > n) {
    # CHECK-NEXT:   } else {
    # CHECK-NEXT:     return;
    # CHECK-NEXT:   }
    if c < n:
        c = 0
    elif c == n:
        c = 1
    elif c > n:
        pass
    else:
        return
    # CHECK-NEXT:   if (c) {
    # CHECK-NEXT:     c = 2;
    # CHECK-NEXT:   }
    if c: c = 2
    # CHECK-NEXT:   while (c != 0) {
    # CHECK-NEXT:     c = c - 1;
    # CHECK-NEXT:     if (c >= 3) {
    # CHECK-NEXT:       break;
    # CHECK-NEXT:     }
    # CHECK-NEXT:     continue;
    # CHECK-NEXT:   }
    while c != 0:
        c = c - 1
        if c >= 3:
            break
        continue
    # CHECK-NEXT:   for i in range(0, n, 1) {
    # CHECK-NEXT:     buf[i] = 0.0;
    # CHECK-NEXT:   }
    # CHECK-NEXT:   for j in range(1, n, 1) {
    # CHECK-NEXT:   }
    # CHECK-NEXT:   for k in range(n - 1, -1, -1) {
    # CHECK-NEXT:     barrier();
    # CHECK-NEXT:   }
    for i in range(n):
        buf[i] = 0.0
    for j in range(1, n): pass
    for k in range(n - 1, -1, -1):
        wave.barrier()
    # A call as a statement; the 'wave.' qualifier is dropped.
    # CHECK-NEXT:   fence();
    wave.fence()
    # Implicit line joining and a backslash continuation.
    # CHECK-NEXT:   c = max(1, 2);
    # CHECK-NEXT:   c = 1 + 2;
    c = max(1,
            2)
    c = 1 + \
        2
    # CHECK-NEXT: }

# CHECK-EMPTY:
# CHECK-NEXT: func operators(a: i32, b: i32, c: i32, d: bool) -> bool {
def operators(a: i32, b: i32, c: i32, d: bool) -> bool:
    # Multiplicative binds tighter than additive; both left-associative.
    # CHECK-NEXT:   a = a + (b * c);
    # CHECK-NEXT:   a = (a - b) - c;
    # CHECK-NEXT:   a = ((a * b) / c) // 2;
    # CHECK-NEXT:   a = (a % b) * c;
    a = a + b * c
    a = a - b - c
    a = a * b / c // 2
    a = a % b * c
    # Unary minus binds tighter than '*'; '~' and '+' too.
    # CHECK-NEXT:   a = -a * b;
    # CHECK-NEXT:   a = ~a + +b;
    # CHECK-NEXT:   a = --a;
    a = -a * b
    a = ~a + +b
    a = --a
    # Shifts below additive, then '&', '^', '|'.
    # CHECK-NEXT:   a = a << (b + c);
    # CHECK-NEXT:   a = (a << b) >> c;
    # CHECK-NEXT:   a = a | (b ^ (c & (a << 1)));
    # CHECK-NEXT:   a = (a & b) | (b & c);
    a = a << b + c
    a = a << b >> c
    a = a | b ^ c & a << 1
    a = a & b | b & c
    # Comparisons below '|'; a chain of two or more is one node.
    # CHECK-NEXT:   d = (a | b) < c;
    # CHECK-NEXT:   d = a < b <= c;
    # CHECK-NEXT:   d = a == b != c > 0 >= 1;
    d = a | b < c
    d = a < b <= c
    d = a == b != c > 0 >= 1
    # 'not' below comparisons, 'and' below 'not', 'or' lowest.
    # CHECK-NEXT:   d = !(a < b);
    # CHECK-NEXT:   d = (d && (a < b)) || !d;
    # CHECK-NEXT:   d = d || (d && d);
    # CHECK-NEXT:   d = (d || d) || d;
    # CHECK-NEXT:   d = !!d;
    d = not a < b
    d = d and a < b or not d
    d = d or d and d
    d = d or d or d
    d = not not d
    # Parentheses override precedence.
    # CHECK-NEXT:   a = (a + b) * c;
    a = (a + b) * c
    # The conditional expression is lowest and right-associative.
    # CHECK-NEXT:   a = d ? (a + 1) : b;
    # CHECK-NEXT:   a = d ? a : (d ? b : c);
    # CHECK-NEXT:   d = (d || d) ? d : d;
    a = a + 1 if d else b
    a = a if d else b if d else c
    d = d if d or d else d
    # Literals: ints in every base, '_' separators, floats, booleans.
    # CHECK-NEXT:   a = f(255, 15, 5, 1000000, 0, 4294967295);
    # CHECK-NEXT:   x = g(1.5, 0.5, 1e+03, 0.025, 2.0);
    # CHECK-NEXT:   d = true || false;
    a = f(0xFF, 0o17, 0b101, 1_000_000, 0, 0xFFFF_FFFF)
    x = g(1.5, .5, 1e3, 2.5e-2, 2.)
    d = True or False
    # Subscripts and calls nest.
    # CHECK-NEXT:   a = buf[buf[a + 1]];
    # CHECK-NEXT:   a = atomic_add(buf, a * 2, 1);
    a = buf[buf[a + 1]]
    a = wave.atomic_add(buf, a * 2, 1)
    # CHECK-NEXT:   return d;
    return d
    # CHECK-NEXT: }
