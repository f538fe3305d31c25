#!/usr/bin/env python3
"""train.py - train a two-layer network on Fashion-MNIST with WAVE kernels.

The network is 784 -> 128 -> 10 (ReLU, softmax cross-entropy), trained by
minibatch SGD. Its forward pass, backward pass and update are the kernels
of kernels.py, compiled and launched through the `wavetools` Python module;
weights, activations and gradients stay in device buffers across launches,
and only each minibatch (images and labels) goes to the device and each
minibatch's per-image losses come back. --numpy trains the same network
(same initialisation, same minibatches) with reference.py instead.

    PYTHONPATH=build/python python3 examples/fashion-mnist/train.py
    python3 examples/fashion-mnist/train.py --numpy

Writes OUT/training.png (loss and test accuracy per epoch) and
OUT/confusion.png (the confusion matrix of the last evaluation). The data
come from Debian's dataset-fashion-mnist (/usr/share/datasets/fashion-mnist).
"""
import argparse
import gzip
import os
import struct
import sys
import time

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from need_numpy import np  # noqa: E402 (NumPy, or a restart under Debian's python3)
import reference as ref  # noqa: E402

DATA_DIR = "/usr/share/datasets/fashion-mnist"
CLASSES = ["T-shirt/top", "Trouser", "Pullover", "Dress", "Coat",
           "Sandal", "Shirt", "Sneaker", "Bag", "Ankle boot"]
N_IN, N_HID, N_OUT = ref.SIZES
EVAL_BATCH = 1000


# --- data -------------------------------------------------------------------

def read_idx(path):
    """An IDX file (gzip-compressed) as a uint8 array of its shape."""
    with gzip.open(path, "rb") as f:
        data = f.read()
    zero, dtype, ndim = struct.unpack(">HBB", data[:4])
    if zero != 0 or dtype != 0x08:
        raise ValueError("%s: not an IDX file of unsigned bytes" % path)
    shape = struct.unpack(">%dI" % ndim, data[4:4 + 4 * ndim])
    return np.frombuffer(data, np.uint8, offset=4 + 4 * ndim).reshape(shape)


def load(data_dir, split, limit=None):
    """Images as float32 [n, 784] in [0, 1], labels as uint32 [n]."""
    x = read_idx(os.path.join(data_dir, "%s-images-idx3-ubyte.gz" % split))
    y = read_idx(os.path.join(data_dir, "%s-labels-idx1-ubyte.gz" % split))
    if limit:
        x, y = x[:limit], y[:limit]
    x = x.reshape(len(x), -1).astype(np.float32) / np.float32(255)
    return x, y.astype(np.uint32)


# --- the network on a WAVE device -------------------------------------------

def cdiv(a, b):
    return (a + b - 1) // b


class WaveNet:
    """The network's state in device buffers and one method per phase."""

    def __init__(self, wt, dev, params, max_batch):
        self.dev = dev
        # 64 registers: the matrix products keep their 4x4 accumulator
        # tiles and addresses in registers instead of spilling (at wave-ra's
        # default of 32 they spill, and matmul runs 22% more instructions).
        mod = wt.compile(os.path.join(HERE, "kernels.py"), device=dev,
                         max_registers=64)
        self.k = {name: mod.kernel(name) for name in mod.kernels}
        f32, u32 = np.dtype(np.float32), np.dtype(np.uint32)
        self.p = {k: dev.buffer(v) for k, v in params.items()}   # w1 b1 w2 b2
        self.g = {k: dev.zeros(v.size, f32) for k, v in params.items()}
        B = max_batch
        self.x = dev.zeros(B * N_IN, f32)
        self.labels = dev.zeros(B, u32)
        self.h = dev.zeros(B * N_HID, f32)     # hidden layer, after ReLU
        self.z = dev.zeros(B * N_OUT, f32)     # logits
        self.prob = dev.zeros(B * N_OUT, f32)  # softmax
        self.loss = dev.zeros(B, f32)          # per image
        self.dz = dev.zeros(B * N_OUT, f32)
        self.dh = dev.zeros(B * N_HID, f32)
        self.pred = dev.zeros(B, u32)
        self.emulated = dev.name == "emu"
        self.last = None
        self.profile = None   # {kernel: [launches, microseconds]} with --profile
        self.events = []

    def _grid(self, count, wg):
        """The grid of an element kernel over COUNT elements (kernels.py,
        "Launches"): one workgroup on the emulator, one thread per element
        elsewhere."""
        return 1 if self.emulated else cdiv(count, wg)

    def _go(self, name, grid, **args):
        self.last = self.k[name].launch(grid=grid, **args)
        if self.profile is not None:
            self.events.append((name, self.last))

    def _wait(self):
        self.last.wait()   # one stream: every launch queued before has finished
        for name, ev in self.events:
            entry = self.profile.setdefault(name, [0, 0.0])
            entry[0] += 1
            entry[1] += ev.elapsed_us
        self.events = []

    def _matmul(self, name, a, b, c, M, K, N):
        self._go(name, (cdiv(N, 32), cdiv(M, 32)), **{
            "matmul": dict(x=a, w=b, y=c),
            "matmul_tn": dict(a=a, b=b, c=c),
            "matmul_nt": dict(a=a, b=b, c=c)}[name], M=M, K=K, N=N)

    def _forward(self, B):
        p = self.p
        self._matmul("matmul", self.x, p["w1"], self.h, B, N_IN, N_HID)
        self._go("bias_add", self._grid(B * N_HID, 256), y=self.h, bias=p["b1"], B=B, N=N_HID)
        self._go("relu", self._grid(B * N_HID, 256), h=self.h, n=B * N_HID)
        self._matmul("matmul", self.h, p["w2"], self.z, B, N_HID, N_OUT)
        self._go("bias_add", self._grid(B * N_OUT, 256), y=self.z, bias=p["b2"], B=B, N=N_OUT)

    def step(self, x, labels, lr):
        """One SGD step on a minibatch; returns its per-image losses."""
        B = len(x)
        self.x.write(x)
        self.labels.write(labels)
        self._forward(B)
        p, g = self.p, self.g
        self._go("softmax_xent", self._grid(B, 64), z=self.z, labels=self.labels, p=self.prob,
                 loss=self.loss, B=B, N=N_OUT)
        self._go("softmax_xent_grad", self._grid(B * N_OUT, 256), p=self.prob,
                 labels=self.labels, dz=self.dz, B=B, N=N_OUT)
        self._matmul("matmul_tn", self.h, self.dz, g["w2"], N_HID, B, N_OUT)
        self._go("bias_grad", self._grid(N_OUT, 64), dy=self.dz, db=g["b2"], B=B, N=N_OUT)
        self._matmul("matmul_nt", self.dz, p["w2"], self.dh, B, N_OUT, N_HID)
        self._go("relu_grad", self._grid(B * N_HID, 256), dh=self.dh, h=self.h, n=B * N_HID)
        self._matmul("matmul_tn", self.x, self.dh, g["w1"], N_IN, B, N_HID)
        self._go("bias_grad", self._grid(N_HID, 64), dy=self.dh, db=g["b1"], B=B, N=N_HID)
        for k in ref.PARAMS:
            n = len(self.p[k])
            self._go("sgd", self._grid(n, 256), w=self.p[k], g=self.g[k], lr=float(lr), n=n)
        self._wait()
        return self.loss.numpy()[:B]

    def predict(self, x):
        B = len(x)
        self.x.write(x)
        self._forward(B)
        self._go("argmax", self._grid(B, 64), z=self.z, pred=self.pred, B=B, N=N_OUT)
        self._wait()
        return self.pred.numpy()[:B]


class NumpyNet:
    """The same network with reference.py (--numpy)."""

    def __init__(self, params):
        self.params = params

    def step(self, x, labels, lr):
        return ref.step(self.params, x, labels, lr)

    def predict(self, x):
        return ref.predict(self.params, x)


# --- training -----------------------------------------------------------------

class Progress:
    """One line per epoch on stderr, redrawn in place on a terminal."""

    def __init__(self, label, total):
        self.label, self.total = label, total
        self.tty = sys.stderr.isatty()
        self.start = self.shown = time.perf_counter()

    def update(self, done, loss, final=False):
        now = time.perf_counter()
        if not final and (not self.tty or now - self.shown < 0.2):
            return
        self.shown = now
        rate = done / max(now - self.start, 1e-9)
        width = 30
        fill = width * done // self.total
        line = "%s [%s%s] %d/%d loss %.4f %.0f images/s" % (
            self.label, "#" * fill, "." * (width - fill), done, self.total, loss, rate)
        sys.stderr.write(("\r" + line + ("\n" if final else "")) if self.tty
                         else line + "\n")
        sys.stderr.flush()


def evaluate(net, x, y):
    pred = np.concatenate([net.predict(x[i:i + EVAL_BATCH])
                           for i in range(0, len(x), EVAL_BATCH)])
    return float((pred == y).mean()), pred


def plot(out, history, steps, pred, y, title):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    epochs = [h["epoch"] for h in history]
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(10, 4))
    if steps:
        s = np.array(steps)
        ax1.plot(s[:, 0], s[:, 1], color="0.75", lw=0.8, label="minibatches (mean of 20)")
    ax1.plot(epochs, [h["loss"] for h in history], "o-", label="epoch mean")
    ax1.set_xlabel("epoch")
    ax1.set_ylabel("training loss (cross-entropy)")
    ax1.legend()
    ax2.plot(epochs, [100 * h["accuracy"] for h in history], "o-", color="C2")
    ax2.set_xlabel("epoch")
    ax2.set_ylabel("test accuracy (%)")
    for ax in (ax1, ax2):
        ax.set_xticks(epochs)
        ax.grid(alpha=0.3)
    fig.suptitle(title)
    fig.tight_layout()
    path_train = os.path.join(out, "training.png")
    fig.savefig(path_train, dpi=100)
    plt.close(fig)

    cm = np.zeros((N_OUT, N_OUT), np.int64)
    np.add.at(cm, (y.astype(np.int64), pred.astype(np.int64)), 1)
    fig, ax = plt.subplots(figsize=(7, 6))
    ax.imshow(cm, cmap="Blues")
    ax.set_xticks(range(N_OUT))
    ax.set_yticks(range(N_OUT))
    ax.set_xticklabels(CLASSES, rotation=45, ha="right")
    ax.set_yticklabels(CLASSES)
    ax.set_xlabel("predicted")
    ax.set_ylabel("true")
    for i in range(N_OUT):
        for j in range(N_OUT):
            ax.text(j, i, str(cm[i, j]), ha="center", va="center", fontsize=8,
                    color="white" if cm[i, j] > cm.max() / 2 else "black")
    ax.set_title("confusion matrix, %d test images, accuracy %.2f%%"
                 % (len(y), 100 * np.trace(cm) / max(len(y), 1)))
    fig.tight_layout()
    path_cm = os.path.join(out, "confusion.png")
    fig.savefig(path_cm, dpi=100)
    plt.close(fig)
    return path_train, path_cm


def main():
    ap = argparse.ArgumentParser(
        description="Train a 784-128-10 network on Fashion-MNIST with WAVE kernels.")
    ap.add_argument("--epochs", type=int, default=3)
    ap.add_argument("--batch", type=int, default=64, help="minibatch size (default 64)")
    ap.add_argument("--lr", type=float, default=0.1, help="SGD learning rate (default 0.1)")
    ap.add_argument("--train-limit", type=int, metavar="N",
                    help="train on the first N training images only")
    ap.add_argument("--test-limit", type=int, metavar="N",
                    help="evaluate on the first N test images only")
    ap.add_argument("--seed", type=int, default=1, help="initialisation and shuffling")
    ap.add_argument("--device", default="emu", help="wavetools device (default emu)")
    ap.add_argument("--jobs", type=int, default=0,
                    help="emulator threads per launch, 0 = one per hardware thread")
    ap.add_argument("--numpy", action="store_true",
                    help="train with reference.py (NumPy) instead of the kernels")
    ap.add_argument("--data", default=DATA_DIR, help="directory of the *-ubyte.gz files")
    ap.add_argument("--out", default=".", help="directory for the PNG files")
    ap.add_argument("--profile", action="store_true",
                    help="print each kernel's launches and device time at the end")
    ap.add_argument("--min-accuracy", type=float, metavar="PERCENT",
                    help="exit 1 unless the last test accuracy is at least PERCENT")
    args = ap.parse_args()
    if args.batch < 1 or args.epochs < 1 or args.lr <= 0:
        ap.error("--batch and --epochs must be at least 1 and --lr positive")

    need = os.path.join(args.data, "train-images-idx3-ubyte.gz")
    if not os.path.exists(need):
        print("train.py: Fashion-MNIST not found (%s is missing); install the Debian "
              "package dataset-fashion-mnist" % need, file=sys.stderr)
        return 1
    x_train, y_train = load(args.data, "train", args.train_limit)
    x_test, y_test = load(args.data, "t10k", args.test_limit)

    params = ref.init_params(args.seed)
    if args.numpy:
        net, where = NumpyNet(params), "NumPy (reference.py)"
    else:
        try:
            import wavetools as wt
        except ImportError as e:
            print("train.py: cannot import wavetools (%s); build it (ninja -C build) and "
                  "set PYTHONPATH=build/python, or use --numpy" % e, file=sys.stderr)
            return 1
        try:
            dev = wt.device(args.device, jobs=args.jobs)
            net = WaveNet(wt, dev, params, max(args.batch, EVAL_BATCH))
        except wt.Error as e:
            print("train.py: %s" % e, file=sys.stderr)
            return 1
        where = "WAVE kernels on %s" % dev.name
        if args.profile:
            net.profile = {}
    print("training on %d images, testing on %d, with %s; batch %d, lr %g, seed %d"
          % (len(x_train), len(x_test), where, args.batch, args.lr, args.seed))

    rng = np.random.default_rng(args.seed)
    history, steps = [], []
    pred = None
    start = time.perf_counter()
    for epoch in range(1, args.epochs + 1):
        order = rng.permutation(len(x_train))
        bar = Progress("epoch %d/%d" % (epoch, args.epochs), len(x_train))
        total, window, t0 = 0.0, [], time.perf_counter()
        for i in range(0, len(order), args.batch):
            idx = order[i:i + args.batch]
            loss = net.step(x_train[idx], y_train[idx], args.lr)
            total += float(loss.astype(np.float64).sum())
            window.append(float(loss.mean()))
            if len(window) == 20:
                steps.append((epoch - 1 + (i + len(idx)) / len(order), np.mean(window)))
                window = []
            bar.update(i + len(idx), total / (i + len(idx)))
        train_time = time.perf_counter() - t0
        bar.update(len(order), total / len(order), final=True)
        accuracy, pred = evaluate(net, x_test, y_test)
        history.append(dict(epoch=epoch, loss=total / len(order), accuracy=accuracy))
        print("epoch %d: train loss %.4f, test accuracy %.2f%% (%d/%d), %.1f s, %.0f images/s"
              % (epoch, total / len(order), 100 * accuracy, int(round(accuracy * len(y_test))),
                 len(y_test), train_time, len(order) / train_time), flush=True)
    total_s = time.perf_counter() - start
    print("total %.1f s" % total_s)
    if getattr(net, "profile", None):
        device_s = sum(us for _, us in net.profile.values()) / 1e6
        print("kernel             launches  device s  share")
        for name, (n, us) in sorted(net.profile.items(), key=lambda kv: -kv[1][1]):
            print("%-18s %8d %9.2f %5.1f%%" % (name, n, us / 1e6, 100 * us / 1e6 / device_s))
        print("all kernels        %8d %9.2f of %.1f s" % (
            sum(n for n, _ in net.profile.values()), device_s, total_s))

    os.makedirs(args.out, exist_ok=True)
    title = "Fashion-MNIST 784-128-10, %s, %d training images" % (where, len(x_train))
    for path in plot(args.out, history, steps, pred, y_test, title):
        print("wrote %s" % path)
    if args.min_accuracy is not None:
        ok = 100 * history[-1]["accuracy"] >= args.min_accuracy
        print("test accuracy %.2f%% %s %g%%: %s" % (100 * history[-1]["accuracy"],
              ">=" if ok else "<", args.min_accuracy, "OK" if ok else "FAIL"))
        if not ok:
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
