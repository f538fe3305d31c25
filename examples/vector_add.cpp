// vector_add.cpp - c[i] = a[i] + b[i] over n f32 elements, in the C++
// dialect of wave-fe (formats/kernel-languages.md, "C++"):
//   wave-fe examples/vector_add.cpp -o vector_add.wir
__kernel void vector_add(float* a, float* b, float* c, uint32_t n) {
    uint32_t gid = thread_id();
    if (gid < n) {
        c[gid] = a[gid] + b[gid];
    }
}
