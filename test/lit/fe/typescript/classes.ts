// Decorated kernels (formats/kernel-languages.md §12, "Classes of static
// methods"): `@kernel`, `@kernel()`, `@wave.kernel` and
// `@kernel({ workgroupSize: [...] })` (1 to 3 entries, missing ones are 1)
// on static methods; undecorated static methods are device functions
// called as `K.f(x)`, also from another class and before the class is
// declared; `export class`, access modifiers and `;` between members are
// accepted. Each method keeps its name in HIR and MIR, next to the
// top-level `export function` and `// @kernel` kernels.
// RUN: wave-fe --emit=ast %s | FileCheck %s --check-prefix=AST
// RUN: wave-fe %s | FileCheck %s --check-prefix=MIR
// RUN: wave-fe --kernel tile %s | FileCheck %s --check-prefix=ONE

import * as wave from "wave";

export class Blas {
  @kernel({ workgroupSize: [16, 16, 1] })
  static tile(a: Float32Array, w: u32): void {
    const x = global_id(0);
    const y = global_id(1);
    a[y * w + x] = Blas.twice(a[y * w + x]);
  }

  @kernel
  public static plain(a: Float32Array): void {
    a[0] = Helpers.one();
  };

  @kernel()
  static empty(): void {}

  @wave.kernel({ workgroupSize: [64] })
  private static flat(a: Float32Array): void {
    a[thread_id()] = Blas.twice(1.5);
  }

  @kernel({ workgroupSize: [8, 4], })
  static two(a: Float32Array): void {}

  static twice(v: f32): f32 {
    return v * 2.0;
  }
}

class Helpers {
  static one(): f32 {
    return Blas.twice(0.5);
  }
}

export function top(a: Float32Array): void {
  a[0] = Helpers.one();
}

// @kernel workgroup_size(32)
function commented(): void {}

// AST: kernel tile(a: f32[], w: u32) workgroup_size(16, 16, 1) {
// AST: a[(y * w) + x] = twice(a[(y * w) + x]);
// AST: kernel plain(a: f32[]) {
// AST-NEXT: a[0] = one();
// AST: kernel empty() {
// AST: kernel flat(a: f32[]) workgroup_size(64, 1, 1) {
// AST: kernel two(a: f32[]) workgroup_size(8, 4, 1) {
// AST: func twice(v: f32) -> f32 {
// AST: func one() -> f32 {
// AST-NEXT: return twice(0.5);
// AST: kernel top(a: f32[]) {
// AST: kernel commented() workgroup_size(32, 1, 1) {

// MIR: kernel @tile(ptr<device> elem(f32) %a, u32 %w) workgroup_size(16, 16, 1) {
// MIR: call f32 @twice(
// MIR: kernel @plain(ptr<device> writeonly elem(f32) %a) workgroup_size(256, 1, 1) {
// MIR: call f32 @one()
// MIR: kernel @empty() workgroup_size(256, 1, 1) {
// MIR: kernel @flat(ptr<device> writeonly elem(f32) %a) workgroup_size(64, 1, 1) {
// MIR: kernel @two(ptr<device> readonly elem(f32) %a) workgroup_size(8, 4, 1) {
// MIR: func @twice(f32 %v) -> f32 {
// MIR: func @one() -> f32 {
// MIR: kernel @top(
// MIR: kernel @commented() workgroup_size(32, 1, 1) {

// ONE: kernel @tile(
// ONE-NOT: kernel
// ONE: func @twice(
// ONE-NOT: kernel
// ONE-NOT: func
