// Host-language constructs outside the dialect, at the top level and in
// function bodies: each gets a located "not supported" error, and all of
// them are reported in one run.
// RUN: not wave-fe --emit=ast %s 2>&1 | FileCheck %s --implicit-check-not=error:
import { foo } from "lodash";
const G = 1;
class A { x = 1 }
interface I { a: number }
type T = number;
enum E { A }
namespace N {}
declare const ext: number;
@kernel
function deco(a: f32[]) {}
export function k(a: f32[], b?: u32, c = 1, ...d: u32[], e, f: string) {
  let x = a.length
  let y = 2 ** 3
  let z = p ?? 1
  let w = q as f32
  let s = "hi"
  x = y = 1
  if (x = 1) {}
  let v = x++ + 1
  for (const e of a) {}
  let o = { a: 1 }
  let arr = [1, 2]
  let fn = (q) => q
  let nn = new Float32Array(4)
  let t = typeof x
  let m = Math.pow(x, 2)
  let bi = 10n
  let oc = 017
  switch (x) { case 1: break }
  try { x = 1 } catch (e) {}
  x = this.y
  x = a?.[0]
  x = a!
  label: for (;;) {}
  let u = 1 let q = 2
  const cc
}
// @kernel workgroup_size(0, 2000)
function wg1() {}
// @kernel workgroup_size(1, 2, 3, 4)
function wg2() {}
// @kernel foo
function wg3() {}
foo()
// @kernel workgroup_size(8, x)
function wg4() {}
// @kernel is not a decorator
function wg5() {}
// CHECK: {{.*}}errors-unsupported.ts:5:21: error: only the 'wave' module can be imported in WAVE kernels, found 'lodash'
// CHECK: {{.*}}errors-unsupported.ts:5:1: note: imports of other modules are not supported
// CHECK: {{.*}}errors-unsupported.ts:6:1: error: top-level variables are not supported in WAVE kernels
// CHECK: {{.*}}errors-unsupported.ts:7:11: error: field 'x' needs a type in WAVE kernels (a scalar type or a class of plain data)
// CHECK: {{.*}}errors-unsupported.ts:8:1: error: interfaces are not supported in WAVE kernels
// CHECK: {{.*}}errors-unsupported.ts:9:1: error: type aliases are not supported in WAVE kernels
// CHECK: {{.*}}errors-unsupported.ts:10:1: error: enums are not supported in WAVE kernels
// CHECK: {{.*}}errors-unsupported.ts:11:1: error: namespaces are not supported in WAVE kernels
// CHECK: {{.*}}errors-unsupported.ts:12:1: error: 'declare' is supported only before 'function' in WAVE kernels
// CHECK: {{.*}}errors-unsupported.ts:13:1: error: decorators are not valid TypeScript on functions; mark a kernel with a '// @kernel' comment
// CHECK: {{.*}}errors-unsupported.ts:15:30: error: optional parameters are not supported in WAVE kernels
// CHECK: {{.*}}errors-unsupported.ts:15:38: error: parameter 'c' needs a type annotation
// CHECK: {{.*}}errors-unsupported.ts:15:40: error: default parameter values are not supported in WAVE kernels
// CHECK: {{.*}}errors-unsupported.ts:15:45: error: rest parameters are not supported in WAVE kernels
// CHECK: {{.*}}errors-unsupported.ts:15:58: error: parameter 'e' needs a type annotation
// CHECK: {{.*}}errors-unsupported.ts:15:64: error: type 'string' is not supported in WAVE kernels
// CHECK: {{.*}}errors-unsupported.ts:16:12: error: '.length' is not supported in WAVE kernels; pass the length as a parameter
// CHECK: {{.*}}errors-unsupported.ts:17:13: error: '**' is not supported in WAVE kernels; use multiplication or exp2/log2
// CHECK: {{.*}}errors-unsupported.ts:18:13: error: '??' is not supported in WAVE kernels
// CHECK: {{.*}}errors-unsupported.ts:19:13: error: 'as' does not convert values; use f32(x), u32(x) or i32(x)
// CHECK: {{.*}}errors-unsupported.ts:20:11: error: strings are not supported in WAVE kernels
// CHECK: {{.*}}errors-unsupported.ts:21:9: error: assignment cannot be used as an expression in WAVE kernels; write it as a statement
// CHECK: {{.*}}errors-unsupported.ts:22:9: error: assignment cannot be used as an expression in WAVE kernels; write it as a statement
// CHECK: {{.*}}errors-unsupported.ts:23:12: error: '++' is only supported as a statement
// CHECK: {{.*}}errors-unsupported.ts:24:16: error: 'for...of' loops are not supported in WAVE kernels; use 'for (let i = 0; i < n; i++)'
// CHECK: {{.*}}errors-unsupported.ts:25:11: error: object literals are not supported in WAVE kernels
// CHECK: {{.*}}errors-unsupported.ts:26:13: error: array literals are not supported in WAVE kernels
// CHECK: {{.*}}errors-unsupported.ts:27:16: error: arrow functions are not supported in WAVE kernels
// CHECK: {{.*}}errors-unsupported.ts:28:12: error: 'new' is not supported in WAVE kernels; declare workgroup arrays with shared(T, N)
// CHECK: {{.*}}errors-unsupported.ts:29:11: error: 'typeof' is not supported in WAVE kernels
// CHECK: {{.*}}errors-unsupported.ts:30:11: error: 'Math.pow' is not supported in WAVE kernels
// CHECK: {{.*}}errors-unsupported.ts:31:12: error: BigInt literals are not supported in WAVE kernels
// CHECK: {{.*}}errors-unsupported.ts:32:12: error: octal literals with a leading '0' are not supported; use '0o'
// CHECK: {{.*}}errors-unsupported.ts:33:3: error: 'switch' statements are not supported in WAVE kernels
// CHECK: {{.*}}errors-unsupported.ts:34:3: error: 'try' statements are not supported in WAVE kernels
// CHECK: {{.*}}errors-unsupported.ts:35:7: error: 'this' is not supported in WAVE kernels
// CHECK: {{.*}}errors-unsupported.ts:36:8: error: optional chaining ('?.') is not supported in WAVE kernels
// CHECK: {{.*}}errors-unsupported.ts:37:8: error: non-null assertions ('!') are not supported in WAVE kernels
// CHECK: {{.*}}errors-unsupported.ts:38:3: error: labeled statements are not supported in WAVE kernels
// CHECK: {{.*}}errors-unsupported.ts:39:13: error: expected ';' after the declaration, found 'let'
// CHECK: {{.*}}errors-unsupported.ts:40:9: error: 'const' declaration of 'cc' must be initialized
// CHECK: {{.*}}errors-unsupported.ts:42:27: error: workgroup size '0' must be an integer from 1 to 1024
// CHECK: {{.*}}errors-unsupported.ts:42:30: error: workgroup size '2000' must be an integer from 1 to 1024
// CHECK: {{.*}}errors-unsupported.ts:44:36: error: workgroup_size takes at most 3 values
// CHECK: {{.*}}errors-unsupported.ts:46:12: error: expected 'workgroup_size(...)' after '@kernel', found 'foo'
// CHECK: {{.*}}errors-unsupported.ts:48:1: error: top-level statements are not supported in WAVE kernels; expected a function declaration
// CHECK: {{.*}}errors-unsupported.ts:49:30: error: expected an integer workgroup size, found 'x'
// CHECK: {{.*}}errors-unsupported.ts:51:12: error: expected 'workgroup_size(...)' after '@kernel', found 'is'
