# kernels.py - the WAVE kernels of the Fashion-MNIST example: a two-layer
# network 784 -> 128 -> 10 (ReLU, softmax cross-entropy, minibatch SGD),
# forward pass, backward pass and update, in the Python kernel dialect
# (formats/kernel-languages.md §9). reference.py holds the same operations
# in NumPy; train.py drives these kernels through the `wavetools` module.
#
#   wave-compiler examples/fashion-mnist/kernels.py -o k.wbin
#   wave-run k.wbin --kernel relu --grid 1 --arg h=@h.bin --arg n=256 --out h=out.bin
#
# Every array is row-major f32 (labels and predictions u32). Shapes use the
# dialect's shaped buffers (`x: f32[M, K]`); each dimension is an ordinary
# u32 parameter of the launch.
#
# Kernels (workgroup size in brackets):
#
#   matmul(x[M,K], w[K,N], y[M,N])        y = x @ w                  [64]
#   matmul_tn(a[K,M], b[K,N], c[M,N])     c = a^T @ b                [64]
#   matmul_nt(a[M,K], b[N,K], c[M,N])     c = a @ b^T                [64]
#   bias_add(y[B,N], bias[N])             y[b,n] += bias[n]          [256]
#   relu(h[n])                            h = max(h, 0)              [256]
#   relu_grad(dh[n], h[n])                dh *= (h > 0)              [256]
#   softmax_xent(z[B,N], labels[B], p[B,N], loss[B])                 [64]
#                                         p = softmax(z) per row,
#                                         loss[b] = -log p[b, labels[b]]
#   softmax_xent_grad(p[B,N], labels[B], dz[B,N])                    [256]
#                                         dz = (p - onehot(labels)) / B
#   bias_grad(dy[B,N], db[N])             db[n] = sum_b dy[b,n]      [64]
#   sgd(w[n], g[n], lr)                   w -= lr * g                [256]
#   argmax(z[B,N], pred[B])               pred[b] = argmax_n z[b,n]  [64]
#                                         (the first maximum)
#   count_correct(z[B,N], labels[B], correct[1])                     [64]
#                                         correct[0] += #{b: argmax z[b] == labels[b]}
#
# Launches: the matrix products take the grid (ceil(N/32), ceil(M/32)), one
# workgroup per 32x32 tile of the result. The other kernels loop over their
# elements (rows for softmax_xent, argmax and count_correct, columns for
# bias_grad) with the grid's thread count as stride, so any 1-D grid covers
# any size: ceil(count / workgroup size) workgroups give one element per
# thread, as on a GPU; train.py launches them as a single workgroup on the
# emulator, where a launch of several workgroups costs about a millisecond
# of thread start-up, more than these kernels' work at a batch of 64.
#
# The three matrix products share one scheme: a workgroup of 64 threads
# computes a 32x32 tile of the result. For each slice of 16 along the inner
# dimension it stages the 32x16 A tile and the 16x32 B tile in workgroup
# memory (zero-padded past the edges, so no size needs to be a multiple of
# 32 or 16), then thread t accumulates the 4x4 block (t / 8, t % 8) of the
# tile with the MMA intrinsics (kernel-languages.md §4: one mma_compute is
# a 4x4x4 product), and finally the tile goes out through workgroup memory.
# Tiles wholly inside the matrices take a path without bounds checks, the
# staging unrolled (element t + 64 r of a tile for r = 0..7). The variants
# differ only in how they read A and B: matmul_tn reads A transposed
# (dW = X^T @ dY), matmul_nt reads B transposed (dX = dY @ W^T).


@kernel(workgroup_size=(64, 1, 1))
def matmul(x: f32[M, K], w: f32[K, N], y: f32[M, N], M: u32, K: u32, N: u32):
    sa = shared(f32, 512)   # A tile, 32 rows x 16, row-major
    sb = shared(f32, 512)   # B tile, 16 rows x 32
    sc = shared(f32, 1024)  # result tile, 32 x 32
    t = thread_id()
    m0 = workgroup_id(1) * 32
    n0 = workgroup_id(0) * 32
    ai = t / 16   # element t + 64 r of the A tile is (ai + 4 r, ak)
    ak = t % 16
    bk = t / 32   # element t + 64 r of the B tile is (bk + 2 r, bj)
    bj = t % 32
    inside = m0 + 32 <= M and n0 + 32 <= N
    for k0 in range(0, K, 16):
        if inside and k0 + 16 <= K:
            i = m0 + ai
            k = k0 + ak
            sa[t] = x[i, k]
            sa[t + 64] = x[i + 4, k]
            sa[t + 128] = x[i + 8, k]
            sa[t + 192] = x[i + 12, k]
            sa[t + 256] = x[i + 16, k]
            sa[t + 320] = x[i + 20, k]
            sa[t + 384] = x[i + 24, k]
            sa[t + 448] = x[i + 28, k]
            k = k0 + bk
            j = n0 + bj
            sb[t] = w[k, j]
            sb[t + 64] = w[k + 2, j]
            sb[t + 128] = w[k + 4, j]
            sb[t + 192] = w[k + 6, j]
            sb[t + 256] = w[k + 8, j]
            sb[t + 320] = w[k + 10, j]
            sb[t + 384] = w[k + 12, j]
            sb[t + 448] = w[k + 14, j]
        else:
            for r in range(8):
                i = m0 + ai + 4 * r
                k = k0 + ak
                v = x[min(i, M - 1), min(k, K - 1)]
                sa[t + 64 * r] = v if (i < M) & (k < K) else 0.0
                k = k0 + bk + 2 * r
                j = n0 + bj
                v = w[min(k, K - 1), min(j, N - 1)]
                sb[t + 64 * r] = v if (k < K) & (j < N) else 0.0
        barrier()
        for kk in range(0, 16, 4):
            mma_load_a(0, sa, (t / 8) * 64 + kk, 16)
            mma_load_b(1, sb, kk * 32 + (t % 8) * 4, 32)
            mma_compute(0, 1, 2)
        barrier()
    mma_store_c(sc, (t / 8) * 128 + (t % 8) * 4, 32, 2)
    barrier()
    if inside:
        i = m0 + bk
        j = n0 + bj
        y[i, j] = sc[t]
        y[i + 2, j] = sc[t + 64]
        y[i + 4, j] = sc[t + 128]
        y[i + 6, j] = sc[t + 192]
        y[i + 8, j] = sc[t + 256]
        y[i + 10, j] = sc[t + 320]
        y[i + 12, j] = sc[t + 384]
        y[i + 14, j] = sc[t + 448]
        y[i + 16, j] = sc[t + 512]
        y[i + 18, j] = sc[t + 576]
        y[i + 20, j] = sc[t + 640]
        y[i + 22, j] = sc[t + 704]
        y[i + 24, j] = sc[t + 768]
        y[i + 26, j] = sc[t + 832]
        y[i + 28, j] = sc[t + 896]
        y[i + 30, j] = sc[t + 960]
    else:
        for r in range(16):
            i = m0 + bk + 2 * r
            j = n0 + bj
            if i < M and j < N:
                y[i, j] = sc[t + 64 * r]


@kernel(workgroup_size=(64, 1, 1))
def matmul_tn(a: f32[K, M], b: f32[K, N], c: f32[M, N], M: u32, K: u32, N: u32):
    """c = a^T @ b: the weight gradient dW = X^T @ dY (a = X, b = dY)."""
    sa = shared(f32, 512)
    sb = shared(f32, 512)
    sc = shared(f32, 1024)
    t = thread_id()
    m0 = workgroup_id(1) * 32
    n0 = workgroup_id(0) * 32
    ai = t / 16
    ak = t % 16
    bk = t / 32
    bj = t % 32
    inside = m0 + 32 <= M and n0 + 32 <= N
    for k0 in range(0, K, 16):
        if inside and k0 + 16 <= K:
            i = m0 + ai
            k = k0 + ak
            sa[t] = a[k, i]
            sa[t + 64] = a[k, i + 4]
            sa[t + 128] = a[k, i + 8]
            sa[t + 192] = a[k, i + 12]
            sa[t + 256] = a[k, i + 16]
            sa[t + 320] = a[k, i + 20]
            sa[t + 384] = a[k, i + 24]
            sa[t + 448] = a[k, i + 28]
            k = k0 + bk
            j = n0 + bj
            sb[t] = b[k, j]
            sb[t + 64] = b[k + 2, j]
            sb[t + 128] = b[k + 4, j]
            sb[t + 192] = b[k + 6, j]
            sb[t + 256] = b[k + 8, j]
            sb[t + 320] = b[k + 10, j]
            sb[t + 384] = b[k + 12, j]
            sb[t + 448] = b[k + 14, j]
        else:
            for r in range(8):
                i = m0 + ai + 4 * r
                k = k0 + ak
                v = a[min(k, K - 1), min(i, M - 1)]
                sa[t + 64 * r] = v if (i < M) & (k < K) else 0.0
                k = k0 + bk + 2 * r
                j = n0 + bj
                v = b[min(k, K - 1), min(j, N - 1)]
                sb[t + 64 * r] = v if (k < K) & (j < N) else 0.0
        barrier()
        for kk in range(0, 16, 4):
            mma_load_a(0, sa, (t / 8) * 64 + kk, 16)
            mma_load_b(1, sb, kk * 32 + (t % 8) * 4, 32)
            mma_compute(0, 1, 2)
        barrier()
    mma_store_c(sc, (t / 8) * 128 + (t % 8) * 4, 32, 2)
    barrier()
    if inside:
        i = m0 + bk
        j = n0 + bj
        c[i, j] = sc[t]
        c[i + 2, j] = sc[t + 64]
        c[i + 4, j] = sc[t + 128]
        c[i + 6, j] = sc[t + 192]
        c[i + 8, j] = sc[t + 256]
        c[i + 10, j] = sc[t + 320]
        c[i + 12, j] = sc[t + 384]
        c[i + 14, j] = sc[t + 448]
        c[i + 16, j] = sc[t + 512]
        c[i + 18, j] = sc[t + 576]
        c[i + 20, j] = sc[t + 640]
        c[i + 22, j] = sc[t + 704]
        c[i + 24, j] = sc[t + 768]
        c[i + 26, j] = sc[t + 832]
        c[i + 28, j] = sc[t + 896]
        c[i + 30, j] = sc[t + 960]
    else:
        for r in range(16):
            i = m0 + bk + 2 * r
            j = n0 + bj
            if i < M and j < N:
                c[i, j] = sc[t + 64 * r]


@kernel(workgroup_size=(64, 1, 1))
def matmul_nt(a: f32[M, K], b: f32[N, K], c: f32[M, N], M: u32, K: u32, N: u32):
    """c = a @ b^T: the input gradient dX = dY @ W^T (a = dY, b = W)."""
    sa = shared(f32, 512)
    sb = shared(f32, 512)
    sc = shared(f32, 1024)
    t = thread_id()
    m0 = workgroup_id(1) * 32
    n0 = workgroup_id(0) * 32
    ai = t / 16
    ak = t % 16
    bk = t / 32
    bj = t % 32
    inside = m0 + 32 <= M and n0 + 32 <= N
    for k0 in range(0, K, 16):
        if inside and k0 + 16 <= K:
            i = m0 + ai
            k = k0 + ak
            sa[t] = a[i, k]
            sa[t + 64] = a[i + 4, k]
            sa[t + 128] = a[i + 8, k]
            sa[t + 192] = a[i + 12, k]
            sa[t + 256] = a[i + 16, k]
            sa[t + 320] = a[i + 20, k]
            sa[t + 384] = a[i + 24, k]
            sa[t + 448] = a[i + 28, k]
            k = k0 + bk
            j = n0 + bj
            sb[t] = b[j, k]
            sb[t + 64] = b[j, k + 2]
            sb[t + 128] = b[j, k + 4]
            sb[t + 192] = b[j, k + 6]
            sb[t + 256] = b[j, k + 8]
            sb[t + 320] = b[j, k + 10]
            sb[t + 384] = b[j, k + 12]
            sb[t + 448] = b[j, k + 14]
        else:
            for r in range(8):
                i = m0 + ai + 4 * r
                k = k0 + ak
                v = a[min(i, M - 1), min(k, K - 1)]
                sa[t + 64 * r] = v if (i < M) & (k < K) else 0.0
                k = k0 + bk + 2 * r
                j = n0 + bj
                v = b[min(j, N - 1), min(k, K - 1)]
                sb[t + 64 * r] = v if (k < K) & (j < N) else 0.0
        barrier()
        for kk in range(0, 16, 4):
            mma_load_a(0, sa, (t / 8) * 64 + kk, 16)
            mma_load_b(1, sb, kk * 32 + (t % 8) * 4, 32)
            mma_compute(0, 1, 2)
        barrier()
    mma_store_c(sc, (t / 8) * 128 + (t % 8) * 4, 32, 2)
    barrier()
    if inside:
        i = m0 + bk
        j = n0 + bj
        c[i, j] = sc[t]
        c[i + 2, j] = sc[t + 64]
        c[i + 4, j] = sc[t + 128]
        c[i + 6, j] = sc[t + 192]
        c[i + 8, j] = sc[t + 256]
        c[i + 10, j] = sc[t + 320]
        c[i + 12, j] = sc[t + 384]
        c[i + 14, j] = sc[t + 448]
        c[i + 16, j] = sc[t + 512]
        c[i + 18, j] = sc[t + 576]
        c[i + 20, j] = sc[t + 640]
        c[i + 22, j] = sc[t + 704]
        c[i + 24, j] = sc[t + 768]
        c[i + 26, j] = sc[t + 832]
        c[i + 28, j] = sc[t + 896]
        c[i + 30, j] = sc[t + 960]
    else:
        for r in range(16):
            i = m0 + bk + 2 * r
            j = n0 + bj
            if i < M and j < N:
                c[i, j] = sc[t + 64 * r]


def threads() -> u32:
    """The grid's thread count along x: the stride of the element loops."""
    return grid_size(0) * workgroup_size(0)


@kernel(workgroup_size=(256, 1, 1))
def bias_add(y: f32[B, N], bias: f32[N], B: u32, N: u32):
    for i in range(global_id(0), B * N, threads()):
        n = i % N
        y[i / N, n] += bias[n]


@kernel(workgroup_size=(256, 1, 1))
def relu(h: f32[n], n: u32):
    for i in range(global_id(0), n, threads()):
        h[i] = max(h[i], 0.0)


@kernel(workgroup_size=(256, 1, 1))
def relu_grad(dh: f32[n], h: f32[n], n: u32):
    """dh *= (h > 0), h the ReLU's output (h > 0 exactly where its input is)."""
    for i in range(global_id(0), n, threads()):
        if h[i] <= 0.0:
            dh[i] = 0.0


@kernel(workgroup_size=(64, 1, 1))
def softmax_xent(z: f32[B, N], labels: u32[B], p: f32[B, N], loss: f32[B],
                 B: u32, N: u32):
    """Per row b: p[b] = softmax(z[b]) (max subtracted first), and
    loss[b] = -log p[b, labels[b]] = log(sum exp(z - max)) - (z[label] - max)."""
    for b in range(global_id(0), B, threads()):
        m = z[b, 0]
        for n in range(1, N):
            m = max(m, z[b, n])
        s: f32 = 0.0
        for n in range(N):
            e = exp(z[b, n] - m)
            p[b, n] = e
            s += e
        inv = 1.0 / s
        for n in range(N):
            p[b, n] *= inv
        loss[b] = log(s) - (z[b, labels[b]] - m)


@kernel(workgroup_size=(256, 1, 1))
def softmax_xent_grad(p: f32[B, N], labels: u32[B], dz: f32[B, N], B: u32, N: u32):
    """dz = (p - onehot(labels)) / B: the gradient of the batch's mean loss."""
    for i in range(global_id(0), B * N, threads()):
        b = i / N
        n = i % N
        g = p[b, n]
        if labels[b] == n:
            g -= 1.0
        dz[b, n] = g / f32(B)


@kernel(workgroup_size=(64, 1, 1))
def bias_grad(dy: f32[B, N], db: f32[N], B: u32, N: u32):
    for n in range(global_id(0), N, threads()):
        s: f32 = 0.0
        for b in range(B):
            s += dy[b, n]
        db[n] = s


@kernel(workgroup_size=(256, 1, 1))
def sgd(w: f32[n], g: f32[n], lr: f32, n: u32):
    for i in range(global_id(0), n, threads()):
        w[i] -= lr * g[i]


def row_argmax(z: f32[B, N], b: u32, B: u32, N: u32) -> u32:
    best: u32 = 0
    m = z[b, 0]
    for n in range(1, N):
        v = z[b, n]
        if v > m:
            m = v
            best = n
    return best


@kernel(workgroup_size=(64, 1, 1))
def argmax(z: f32[B, N], pred: u32[B], B: u32, N: u32):
    for b in range(global_id(0), B, threads()):
        pred[b] = row_argmax(z, b, B, N)


@kernel(workgroup_size=(64, 1, 1))
def count_correct(z: f32[B, N], labels: u32[B], correct: u32[1], B: u32, N: u32):
    """correct[0] += the number of rows whose argmax is the label."""
    for b in range(global_id(0), B, threads()):
        if row_argmax(z, b, B, N) == labels[b]:
            atomic_add(correct, 0, 1)
