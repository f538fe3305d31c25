// vector_add.ts: c[i] = a[i] + b[i], one thread per element
// (wave-fe, TypeScript dialect: an exported function is a kernel).
export function vector_add(a: f32[], b: f32[], c: f32[], n: u32): void {
  const gid = thread_id();
  if (gid < n) {
    c[gid] = a[gid] + b[gid];
  }
}
