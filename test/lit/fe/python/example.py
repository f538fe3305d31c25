# examples/vector_add.py parses into the expected kernel.
# RUN: wave-fe --emit=ast %examples/vector_add.py | FileCheck %s --match-full-lines

# CHECK:      kernel vector_add(a: f32[], b: f32[], c: f32[], n: u32) {
# CHECK-NEXT:   gid = thread_id();
# CHECK-NEXT:   if (gid < n) {
# CHECK-NEXT:     c[gid] = a[gid] + b[gid];
# CHECK-NEXT:   }
# CHECK-NEXT: }
