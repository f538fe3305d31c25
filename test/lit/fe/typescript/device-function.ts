// Device functions: plain `function`s with scalar and buffer parameters and
// a return type, called from a kernel by name.
// RUN: wave-fe --emit=ast %s | FileCheck %s

function square(x: f32): f32 {
  return x * x
}

function load(buf: readonly f32[], i: u32): f32 {
  return buf[i]
}

function store(buf: f32[], i: u32, v: f32) {
  buf[i] = v
  return
}

export function run(a: f32[], b: f32[]) {
  const i = thread_id()
  store(b, i, square(load(a, i)))
}

// CHECK:      func square(x: f32) -> f32 {
// CHECK-NEXT:   return x * x;
// CHECK-NEXT: }
// CHECK:      func load(buf: const f32[], i: u32) -> f32 {
// CHECK-NEXT:   return buf[i];
// CHECK-NEXT: }
// CHECK:      func store(buf: f32[], i: u32, v: f32) {
// CHECK-NEXT:   buf[i] = v;
// CHECK-NEXT:   return;
// CHECK-NEXT: }
// CHECK:      kernel run(a: f32[], b: f32[]) {
// CHECK-NEXT:   const i = thread_id();
// CHECK-NEXT:   store(b, i, square(load(a, i)));
// CHECK-NEXT: }
