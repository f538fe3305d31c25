// vector_add.rs: c[i] = a[i] + b[i], one thread per element (WAVE Rust
// dialect; see formats/kernel-languages.md, "Rust").
#[kernel]
fn vector_add(a: &[f32], b: &[f32], c: &mut [f32], n: u32) {
    let gid = thread_id();
    if gid < n {
        c[gid] = a[gid] + b[gid];
    }
}
