// Kernel marking (`export`, a `// @kernel` comment, both), the workgroup size
// in the comment (missing dimensions are 1), every parameter type spelling
// and return types.
// RUN: wave-fe --emit=ast %s | FileCheck %s

// CHECK: kernel exported(a: f32[], b: u32[], c: i32[], d: f16[], e: f64[]) {
export function exported(a: f32[], b: u32[], c: i32[], d: f16[], e: f64[]) {}

// CHECK: kernel typed(a: f32[], b: u32[], c: i32[], d: f64[]) {
export function typed(a: Float32Array, b: Uint32Array, c: Int32Array,
                      d: Float64Array) {}

// CHECK: kernel readonly_bufs(a: const f32[], b: const u32[]) {
export function readonly_bufs(a: readonly f32[], b: ReadonlyArray<u32>) {}

// CHECK: kernel scalars(a: f32, b: f16, c: f64, d: i32, e: u32, f: bool, g: bool, h: f64) {
export function scalars(a: f32, b: f16, c: f64, d: i32, e: u32, f: boolean,
                        g: bool, h: number): void {}

// @kernel
// CHECK: kernel commented() {
function commented() {}

// @kernel workgroup_size(16, 16)
// (other comments and blank lines may follow the marker)

/* a block comment */
// CHECK: kernel tiled() workgroup_size(16, 16, 1) {
function tiled() {}

// @kernel workgroup_size(256)
// CHECK: kernel both() workgroup_size(256, 1, 1) {
export function both() {}

// @kernel workgroup_size(4, 4, 4)
// CHECK: kernel three() workgroup_size(4, 4, 4) {
function three() {}

// A function without a marker is a device function.
// CHECK: func helper(x: f32) -> f32 {
function helper(x: f32): f32 { return x }

// CHECK: func unmarked() {
function unmarked(): void {}
