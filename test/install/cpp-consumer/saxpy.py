# y[i] = a * x[i] + y[i] for i < n.
@kernel
def saxpy(x: f32[:], y: f32[:], a: f32, n: u32):
    i = global_id(0)
    if i < n:
        y[i] = a * x[i] + y[i]
