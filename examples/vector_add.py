# vector_add.py - c[i] = a[i] + b[i] over n f32 elements, in the Python
# kernel dialect (formats/kernel-languages.md, "Python").
#   wave-fe --emit=ast vector_add.py
@kernel
def vector_add(a: f32[:], b: f32[:], c: f32[:], n: u32):
    gid = thread_id()
    if gid < n:
        c[gid] = a[gid] + b[gid]
