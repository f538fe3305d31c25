#!/usr/bin/env python3
"""check_kernels.py - run every kernel of kernels.py through wave-compiler
and wave-run (no Python bindings) and compare it with reference.py.

    check_kernels.py [--bindir build/bin] [--keep DIR]

Each kernel runs on small shapes that are not multiples of the tiles (and,
for the matrix products, on shapes with whole 32x32x16 tiles too, so both
the unchecked and the bounds-checked staging run); the element kernels
with one element per thread, with one workgroup and with three. A result passes when its
largest relative error

    max_i |kernel_i - ref_i| / max(|ref_i|, 1e-3)

is at most 1e-4 (u32 results must be equal). Then a finite-difference check
of the whole network on a tiny batch: the gradients that the kernels
compute (forward, then backward, each step a wave-run) against central
differences of the loss computed in float64, which share no code with the
kernels or with reference.py. Prints one line per check and 'ALL OK' at the
end; exits 1 on the first failure.
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from need_numpy import np  # noqa: E402 (NumPy, or a restart under Debian's python3)
import reference as ref  # noqa: E402

RTOL = 1e-4
FLOOR = 1e-3


def cdiv(a, b):
    return (a + b - 1) // b


class Runner:
    def __init__(self, bindir, tmp):
        self.bindir = bindir
        self.tmp = tmp
        self.wbin = os.path.join(tmp, "kernels.wbin")
        self.count = 0
        subprocess.run([os.path.join(bindir, "wave-compiler"),
                        os.path.join(HERE, "kernels.py"), "-o", self.wbin],
                       check=True)

    def __call__(self, kernel, grid, args, outs):
        """Runs KERNEL with named ARGS (ndarray -> file, else a scalar) and
        returns {name: 1-D ndarray} for each (name, dtype) in OUTS."""
        self.count += 1
        cmd = [os.path.join(self.bindir, "wave-run"), self.wbin,
               "--kernel", kernel, "--grid", ",".join(map(str, grid)),
               "--max-instructions", "0"]
        for name, v in args.items():
            if isinstance(v, np.ndarray):
                path = os.path.join(self.tmp, "%d.%s.in" % (self.count, name))
                np.ascontiguousarray(v).tofile(path)
                cmd += ["--arg", "%s=@%s" % (name, path)]
            elif isinstance(v, float):
                cmd += ["--arg", "%s=%r" % (name, v)]
            else:
                cmd += ["--arg", "%s=%d" % (name, v)]
        paths = {}
        for name, _ in outs:
            paths[name] = os.path.join(self.tmp, "%d.%s.out" % (self.count, name))
            cmd += ["--out", "%s=%s" % (name, paths[name])]
        subprocess.run(cmd, check=True)
        return {name: np.fromfile(paths[name], dtype) for name, dtype in outs}


def rel_err(got, want, floor=FLOOR):
    got = np.asarray(got, np.float64).ravel()
    want = np.asarray(want, np.float64).ravel()
    if got.shape != want.shape:
        return float("inf")
    return float(np.max(np.abs(got - want) / np.maximum(np.abs(want), floor)))


def rms(a):
    return float(np.sqrt(np.mean(np.square(np.asarray(a, np.float64)))))


def check_product(name, got, want):
    """A matrix product: summation order is unspecified (NumPy's BLAS may
    block or fuse), and an f32 dot product of length K is only good to
    about K * 2^-24 of the sizes of its terms, so the floor of the relative
    error is the root mean square of the whole result instead of 1e-3."""
    check(name, got, want, floor=max(rms(want), FLOOR))


def check(name, got, want, tol=RTOL, floor=FLOOR):
    if np.asarray(want).dtype == np.uint32:
        ok = np.array_equal(np.asarray(got).ravel(), np.asarray(want).ravel())
        print("%-40s %s" % (name, "OK (equal)" if ok else "FAIL (differs)"))
    else:
        e = rel_err(got, want, floor)
        ok = e <= tol
        print("%-40s %s (max rel err %.2e)" % (name, "OK" if ok else "FAIL", e))
    if not ok:
        sys.exit(1)


def f32(a):
    return np.asarray(a, np.float32)


def check_kernels(run, rng):
    mm_grid = lambda m, n: (cdiv(n, 32), cdiv(m, 32), 1)  # noqa: E731
    # (M, K, N): edges everywhere; whole tiles; the network's own shapes.
    for M, K, N in [(37, 50, 45), (64, 784, 128), (70, 784, 128), (8, 784, 128),
                    (8, 128, 10), (1, 1, 1), (33, 17, 31)]:
        x = f32(rng.random((M, K)))               # like pixels, in [0, 1)
        w = f32(rng.standard_normal((K, N)) * np.sqrt(2.0 / K))
        y = run("matmul", mm_grid(M, N), dict(x=x, w=w, y=np.zeros(M * N, np.float32),
                                              M=M, K=K, N=N), [("y", np.float32)])["y"]
        check_product("matmul %dx%d @ %dx%d" % (M, K, K, N), y, ref.matmul(x, w))
        # matmul_tn: c[M2, N2] = a^T b with a [K2, M2]; as dW = X^T dY
        a = f32(rng.random((M, K)))               # X: batch M, inputs K
        b = f32(rng.standard_normal((M, N)) * 0.05)  # dY: batch M, outputs N
        c = run("matmul_tn", mm_grid(K, N), dict(a=a, b=b, c=np.zeros(K * N, np.float32),
                                                 M=K, K=M, N=N), [("c", np.float32)])["c"]
        check_product("matmul_tn (%dx%d)^T @ %dx%d" % (M, K, M, N), c, ref.matmul_tn(a, b))
        # matmul_nt: c[M, K] = dY[M, N] @ W[K, N]^T
        c = run("matmul_nt", mm_grid(M, K), dict(a=b, b=w, c=np.zeros(M * K, np.float32),
                                                 M=M, K=N, N=K), [("c", np.float32)])["c"]
        check_product("matmul_nt %dx%d @ (%dx%d)^T" % (M, N, K, N), c, ref.matmul_nt(b, w))

    # The element kernels stride over their elements by the grid's thread
    # count: each runs with one element per thread, with one workgroup
    # (train.py on the emulator) and with 3 workgroups (a partial stride).
    def grids(count, wg):
        return sorted({1, 3, cdiv(count, wg)})

    for B, N in [(8, 10), (37, 45), (8, 128)]:
        y = f32(rng.standard_normal((B, N)))
        bias = f32(rng.standard_normal(N))
        for g in grids(B * N, 256):
            out = run("bias_add", (g, 1, 1), dict(y=y, bias=bias, B=B, N=N),
                      [("y", np.float32)])["y"]
            check("bias_add %dx%d grid %d" % (B, N, g), out, ref.bias_add(y, bias))
        for g in grids(N, 64):
            out = run("bias_grad", (g, 1, 1), dict(dy=y, db=np.zeros(N, np.float32), B=B, N=N),
                      [("db", np.float32)])["db"]
            check_product("bias_grad %dx%d grid %d" % (B, N, g), out, ref.bias_grad(y))

    for n in [1, 255, 1000]:
        h = f32(rng.standard_normal(n))
        dh = f32(rng.standard_normal(n))
        hr = ref.relu(h)
        gr = f32(rng.standard_normal(n))
        for g in grids(n, 256):
            out = run("relu", (g, 1, 1), dict(h=h, n=n), [("h", np.float32)])["h"]
            check("relu n=%d grid %d" % (n, g), out, ref.relu(h))
            out = run("relu_grad", (g, 1, 1), dict(dh=dh, h=hr, n=n),
                      [("dh", np.float32)])["dh"]
            check("relu_grad n=%d grid %d" % (n, g), out, ref.relu_grad(dh, hr))
            out = run("sgd", (g, 1, 1), dict(w=h, g=gr, lr=0.1, n=n),
                      [("w", np.float32)])["w"]
            check("sgd n=%d grid %d" % (n, g), out, ref.sgd(h, gr, 0.1))

    for B, N in [(8, 10), (70, 10), (5, 3), (200, 10)]:
        z = f32(rng.standard_normal((B, N)) * 4)
        z[0, :] += 80.0   # a large row: the max must be subtracted first
        labels = rng.integers(0, N, B).astype(np.uint32)
        p_ref, loss_ref = ref.softmax_xent(z, labels)
        for g in grids(B, 64):
            r = run("softmax_xent", (g, 1, 1),
                    dict(z=z, labels=labels, p=np.zeros(B * N, np.float32),
                         loss=np.zeros(B, np.float32), B=B, N=N),
                    [("p", np.float32), ("loss", np.float32)])
            check("softmax_xent %dx%d grid %d: probabilities" % (B, N, g), r["p"], p_ref)
            check("softmax_xent %dx%d grid %d: loss" % (B, N, g), r["loss"], loss_ref)
        for g in grids(B * N, 256):
            dz = run("softmax_xent_grad", (g, 1, 1),
                     dict(p=p_ref, labels=labels, dz=np.zeros(B * N, np.float32), B=B, N=N),
                     [("dz", np.float32)])["dz"]
            check("softmax_xent_grad %dx%d grid %d" % (B, N, g), dz,
                  ref.softmax_xent_grad(p_ref, labels))
        z[1, :] = 0.5     # a tie: the first maximum wins, as NumPy's argmax
        labels[: B // 2] = ref.argmax(z)[: B // 2]   # at least half right
        for g in grids(B, 64):
            pred = run("argmax", (g, 1, 1), dict(z=z, pred=np.zeros(B, np.uint32), B=B, N=N),
                       [("pred", np.uint32)])["pred"]
            check("argmax %dx%d grid %d" % (B, N, g), pred, ref.argmax(z))
            got = run("count_correct", (g, 1, 1),
                      dict(z=z, labels=labels, correct=np.array([5], np.uint32), B=B, N=N),
                      [("correct", np.uint32)])["correct"]
            check("count_correct %dx%d grid %d (from 5)" % (B, N, g), got,
                  np.array([5 + ref.count_correct(z, labels)], np.uint32))


def kernel_gradients(run, params, x, labels):
    """Forward and backward through the kernels, one wave-run each."""
    B, n_in = x.shape
    n_hid, n_out = params["w2"].shape
    z1 = run("matmul", (cdiv(n_hid, 32), cdiv(B, 32), 1),
             dict(x=x, w=params["w1"], y=np.zeros(B * n_hid, np.float32),
                  M=B, K=n_in, N=n_hid), [("y", np.float32)])["y"]
    z1 = run("bias_add", (cdiv(B * n_hid, 256), 1, 1),
             dict(y=z1, bias=params["b1"], B=B, N=n_hid), [("y", np.float32)])["y"]
    h = run("relu", (cdiv(B * n_hid, 256), 1, 1), dict(h=z1, n=B * n_hid),
            [("h", np.float32)])["h"]
    z = run("matmul", (cdiv(n_out, 32), cdiv(B, 32), 1),
            dict(x=h, w=params["w2"], y=np.zeros(B * n_out, np.float32),
                 M=B, K=n_hid, N=n_out), [("y", np.float32)])["y"]
    z = run("bias_add", (cdiv(B * n_out, 256), 1, 1),
            dict(y=z, bias=params["b2"], B=B, N=n_out), [("y", np.float32)])["y"]
    r = run("softmax_xent", (cdiv(B, 64), 1, 1),
            dict(z=z, labels=labels, p=np.zeros(B * n_out, np.float32),
                 loss=np.zeros(B, np.float32), B=B, N=n_out),
            [("p", np.float32), ("loss", np.float32)])
    dz = run("softmax_xent_grad", (cdiv(B * n_out, 256), 1, 1),
             dict(p=r["p"], labels=labels, dz=np.zeros(B * n_out, np.float32),
                  B=B, N=n_out), [("dz", np.float32)])["dz"]
    g = {}
    g["w2"] = run("matmul_tn", (cdiv(n_out, 32), cdiv(n_hid, 32), 1),
                  dict(a=h, b=dz, c=np.zeros(n_hid * n_out, np.float32),
                       M=n_hid, K=B, N=n_out), [("c", np.float32)])["c"]
    g["b2"] = run("bias_grad", (cdiv(n_out, 64), 1, 1),
                  dict(dy=dz, db=np.zeros(n_out, np.float32), B=B, N=n_out),
                  [("db", np.float32)])["db"]
    dh = run("matmul_nt", (cdiv(n_hid, 32), cdiv(B, 32), 1),
             dict(a=dz, b=params["w2"], c=np.zeros(B * n_hid, np.float32),
                  M=B, K=n_out, N=n_hid), [("c", np.float32)])["c"]
    dh = run("relu_grad", (cdiv(B * n_hid, 256), 1, 1), dict(dh=dh, h=h, n=B * n_hid),
             [("dh", np.float32)])["dh"]
    g["w1"] = run("matmul_tn", (cdiv(n_hid, 32), cdiv(n_in, 32), 1),
                  dict(a=x, b=dh, c=np.zeros(n_in * n_hid, np.float32),
                       M=n_in, K=B, N=n_hid), [("c", np.float32)])["c"]
    g["b1"] = run("bias_grad", (cdiv(n_hid, 64), 1, 1),
                  dict(dy=dh, db=np.zeros(n_hid, np.float32), B=B, N=n_hid),
                  [("db", np.float32)])["db"]
    return r["loss"], {k: v.reshape(params[k].shape) for k, v in g.items()}


def loss64(p, x, labels):
    """The network's mean loss in float64, written out independently."""
    h = np.maximum(x @ p["w1"] + p["b1"], 0.0)
    z = h @ p["w2"] + p["b2"]
    z = z - z.max(axis=1, keepdims=True)
    lse = np.log(np.exp(z).sum(axis=1))
    return float(np.mean(lse - z[np.arange(len(labels)), labels]))


def check_gradients(run, rng):
    sizes = (40, 33, 10)   # small, and not multiples of the tiles
    B = 6
    params = ref.init_params(7, sizes)
    for k in ("b1", "b2"):
        params[k] = f32(rng.standard_normal(params[k].shape) * 0.1)
    x = f32(rng.random((B, sizes[0])))
    labels = rng.integers(0, sizes[2], B).astype(np.uint32)
    loss, grads = kernel_gradients(run, params, x, labels)
    p64 = {k: v.astype(np.float64) for k, v in params.items()}
    x64 = x.astype(np.float64)
    check("network loss (kernels vs float64)", loss.mean(), loss64(p64, x64, labels))
    eps = 1e-6
    for k in ref.PARAMS:
        num = np.zeros(p64[k].shape)
        flat = num.reshape(-1)
        pk = p64[k].reshape(-1)
        for i in range(pk.size):
            old = pk[i]
            pk[i] = old + eps
            up = loss64(p64, x64, labels)
            pk[i] = old - eps
            down = loss64(p64, x64, labels)
            pk[i] = old
            flat[i] = (up - down) / (2 * eps)
        # Central differences in float64 are good to ~1e-9 here; the
        # kernels' gradients carry f32 rounding (~1e-7 of their size), so
        # the error is measured against the largest gradient component.
        scale = max(np.abs(num).max(), 1e-12)
        e = float(np.max(np.abs(grads[k] - num)) / scale)
        ok = e <= 1e-4
        print("%-40s %s (max err / max |grad| %.2e)"
              % ("gradient %s vs finite differences" % k, "OK" if ok else "FAIL", e))
        if not ok:
            sys.exit(1)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bindir", default=os.path.join(HERE, "..", "..", "build", "bin"))
    ap.add_argument("--keep", help="keep the files in this directory")
    ap.add_argument("--seed", type=int, default=2024)
    args = ap.parse_args()
    tmp = args.keep or tempfile.mkdtemp(prefix="fashion-mnist-")
    os.makedirs(tmp, exist_ok=True)
    try:
        run = Runner(args.bindir, tmp)
        rng = np.random.default_rng(args.seed)
        check_kernels(run, rng)
        check_gradients(run, rng)
        print("ALL OK (%d launches)" % run.count)
    finally:
        if not args.keep:
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
