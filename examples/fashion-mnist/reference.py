"""reference.py - the operations of kernels.py in NumPy (float32), the
independent reference the kernels are checked against, and the same
two-layer network (784 -> 128 -> 10, ReLU, softmax cross-entropy, SGD)
built from them, which train.py --numpy trains.

Each function takes and returns float32 arrays (labels and predictions
uint32) of the shapes that kernels.py documents; none changes its inputs.
"""
import numpy as np

F32 = np.float32


# --- the kernels ------------------------------------------------------------

def matmul(x, w):
    """y = x @ w; x [M, K], w [K, N]."""
    return np.matmul(x, w, dtype=F32)


def matmul_tn(a, b):
    """c = a^T @ b; a [K, M], b [K, N] (dW = X^T @ dY)."""
    return np.matmul(a.T, b, dtype=F32)


def matmul_nt(a, b):
    """c = a @ b^T; a [M, K], b [N, K] (dX = dY @ W^T)."""
    return np.matmul(a, b.T, dtype=F32)


def bias_add(y, bias):
    return (y + bias[None, :]).astype(F32)


def relu(h):
    return np.maximum(h, F32(0))


def relu_grad(dh, h):
    return np.where(h > 0, dh, F32(0)).astype(F32)


def softmax_xent(z, labels):
    """Row-wise stable softmax p and per-row loss -log p[b, labels[b]]."""
    m = z.max(axis=1, keepdims=True)
    e = np.exp(z - m)
    s = e.sum(axis=1, keepdims=True)
    p = (e / s).astype(F32)
    rows = np.arange(z.shape[0])
    loss = (np.log(s[:, 0]) - (z[rows, labels] - m[:, 0])).astype(F32)
    return p, loss


def softmax_xent_grad(p, labels):
    """(p - onehot(labels)) / B: the gradient of the mean loss w.r.t. z."""
    g = p.copy()
    g[np.arange(p.shape[0]), labels] -= F32(1)
    return (g / F32(p.shape[0])).astype(F32)


def bias_grad(dy):
    return dy.sum(axis=0, dtype=F32)


def sgd(w, g, lr):
    return (w - F32(lr) * g).astype(F32)


def argmax(z):
    return z.argmax(axis=1).astype(np.uint32)


def count_correct(z, labels):
    return int((argmax(z) == labels).sum())


# --- the network --------------------------------------------------------------

SIZES = (784, 128, 10)
PARAMS = ("w1", "b1", "w2", "b2")


def init_params(seed, sizes=SIZES):
    """He initialisation (normal, std sqrt(2 / fan_in)) for the weights,
    zero biases; the same seed gives the same parameters everywhere."""
    rng = np.random.default_rng(seed)
    n_in, n_hid, n_out = sizes
    return {
        "w1": (rng.standard_normal((n_in, n_hid)) * np.sqrt(2.0 / n_in)).astype(F32),
        "b1": np.zeros(n_hid, F32),
        "w2": (rng.standard_normal((n_hid, n_out)) * np.sqrt(2.0 / n_hid)).astype(F32),
        "b2": np.zeros(n_out, F32),
    }


def forward(params, x, labels):
    """Returns (activations, per-row loss)."""
    h = relu(bias_add(matmul(x, params["w1"]), params["b1"]))
    z = bias_add(matmul(h, params["w2"]), params["b2"])
    p, loss = softmax_xent(z, labels)
    return {"x": x, "h": h, "z": z, "p": p}, loss


def backward(params, act, labels):
    """Gradients of the mean loss over the batch w.r.t. every parameter."""
    dz = softmax_xent_grad(act["p"], labels)
    dh = relu_grad(matmul_nt(dz, params["w2"]), act["h"])
    return {
        "w2": matmul_tn(act["h"], dz),
        "b2": bias_grad(dz),
        "w1": matmul_tn(act["x"], dh),
        "b1": bias_grad(dh),
    }


def mean_loss(params, x, labels):
    return float(forward(params, x, labels)[1].astype(np.float64).mean())


def step(params, x, labels, lr):
    """One SGD step in place; returns the batch's per-row loss."""
    act, loss = forward(params, x, labels)
    grads = backward(params, act, labels)
    for k in PARAMS:
        params[k] = sgd(params[k], grads[k], lr)
    return loss


def predict(params, x):
    h = relu(bias_add(matmul(x, params["w1"]), params["b1"]))
    return argmax(bias_add(matmul(h, params["w2"]), params["b2"]))
