# Line structure: comments, blank and comment-only lines at any indentation,
# implicit joining inside brackets, backslash continuation, simple
# statements joined by ";", suites on the header's line, and tabs (a tab
# advances to the next multiple of 8 columns, so one tab and 8 spaces are
# the same indentation).
# RUN: wave-fe --emit=ast %s | FileCheck %s --match-full-lines

# CHECK: kernel layout(a: u32[], n: u32) {
# CHECK-NEXT:   x = 1;
# CHECK-NEXT:   y = 2;
# CHECK-NEXT:   z = (x + y) + 3;
# CHECK-NEXT:   if (x < n) {
# CHECK-NEXT:     a[x] = 1;
# CHECK-NEXT:     a[y] = 2;
# CHECK-NEXT:   }
# CHECK-NEXT:   while (x < n) {
# CHECK-NEXT:     x += 1;
# CHECK-NEXT:   }
# CHECK-NEXT:   a[f(x, y, z)] = z;
# CHECK-NEXT: }
@kernel
def layout(a: u32[:],   # a comment inside the parameter list
           n: u32):

    # A comment-only line.
        # Indented deeper: still ignored.
    x = 1; y = 2;
    z = x + \
            y + (
        3)
    if x < n:
	a[x] = 1
        a[y] = 2
    while x < n: x += 1
    a[f(x,
  y,
z)] = z
