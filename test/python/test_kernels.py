"""The Python module wavetools: kernels run on the emulator.

saxpy compiled in process and called by name and by position with NumPy
arrays (of several shapes, contiguous or not) and with Buffers, against the
same computation in NumPy (float32 multiply then add, each rounded: what
the emulator does, so the comparison is exact); a buffer kept on the device
over two launches; an asynchronous launch on a stream and its timing;
launches from several threads at once; a compile error and its caret line;
a faulting kernel, after which the device still runs kernels; loading a
.wbin from a path and from bytes.

Usage: test_kernels.py WBIN  (WBIN: examples/vector_add.py compiled)
"""

import os
import sys
import tempfile
import threading

import numpy as np

import harness
import wavetools as wt

SAXPY = harness.SAXPY

OOB = """
@kernel
def oob(x: f32[:], n: u32):
    i = global_id(0)
    if i < n:
        x[i + 200000000] = 1.0
"""

rng = np.random.default_rng(1234)
dev = wt.default_device()
mod = wt.compile_source(SAXPY, "python")
saxpy = mod.saxpy
N = 1000
GRID = (N + 255) // 256


def data(n=N):
    x = rng.standard_normal(n).astype(np.float32)
    y = rng.standard_normal(n).astype(np.float32)
    return x, y


def reference(a, x, y):
    return np.float32(a) * x + y


def test_devices():
    names = wt.devices()
    assert names[0] == "emu", names
    assert wt.default_device() is wt.default_device()
    assert dev.name == "emu"
    assert "emu" in repr(dev)
    assert wt.device("emu", jobs=1).name == "emu"


def test_module_and_kernel():
    assert mod.kernels == ["saxpy"]
    assert mod.kernel("saxpy").name == "saxpy"
    assert mod.kernel("0").name == "saxpy"
    assert "saxpy" in dir(mod)
    assert saxpy.params == [("a", "scalar", "f32", "read"),
                            ("x", "buffer", "f32", "read"),
                            ("y", "buffer", "f32", "readwrite"),
                            ("n", "scalar", "u32", "read")], saxpy.params
    assert "saxpy(a: f32, x: f32[] read, y: f32[] readwrite, n: u32)" in repr(saxpy)
    for cls in (wt.Device, wt.Buffer, wt.Module, wt.Kernel, wt.Stream,
                wt.Event, wt.Error):
        assert cls.__doc__, cls
    assert "grid" in wt.Kernel.__call__.__doc__
    assert wt.compile.__doc__ and wt.compile_source.__doc__ and wt.load.__doc__


def test_saxpy_arrays_by_name():
    x, y0 = data()
    y = y0.copy()
    saxpy(a=2.5, x=x, y=y, n=N, grid=GRID)
    assert np.array_equal(y, reference(2.5, x, y0))


def test_saxpy_arrays_by_position():
    x, y0 = data()
    y = y0.copy()
    saxpy(-1.25, x, y, N, grid=GRID, workgroup=256)
    assert np.array_equal(y, reference(-1.25, x, y0))


def test_saxpy_buffers():
    x, y0 = data()
    bx, by = dev.buffer(x), dev.buffer(y0)
    assert len(bx) == N and bx.size == 4 * N and bx.dtype == np.float32
    saxpy(3.0, bx, by, N, grid=(GRID,), workgroup=(256, 1, 1))
    assert np.array_equal(by.numpy(), reference(3.0, x, y0))
    assert np.array_equal(bx.numpy(), x)  # read only: unchanged


def test_saxpy_mixed_and_scalar_kinds():
    # A NumPy scalar, a bool and an int for the scalars; an array and a
    # Buffer for the buffers.
    x, y0 = data()
    by = dev.buffer(y0)
    saxpy(np.float32(0.5), x, y=by, n=np.int64(N), grid=GRID)
    assert np.array_equal(by.numpy(), reference(0.5, x, y0))
    y = y0.copy()
    saxpy(True, x, y, N, grid=GRID)  # a = 1.0
    assert np.array_equal(y, reference(1.0, x, y0))
    y = y0.copy()
    saxpy(2, x, y, N // 2, grid=GRID)  # only the first half
    assert np.array_equal(y[:N // 2], reference(2.0, x, y0)[:N // 2])
    assert np.array_equal(y[N // 2:], y0[N // 2:])


def test_saxpy_shapes_and_strides():
    # A 2-D array is its C-order elements; a strided view is copied to a
    # contiguous buffer and the results copied back into the view.
    x, y0 = data()
    y2 = y0.reshape(20, 50).copy()
    saxpy(1.5, x.reshape(50, 20), y2, N, grid=GRID)
    assert y2.shape == (20, 50)
    assert np.array_equal(y2.ravel(), reference(1.5, x, y0))

    big = np.zeros(2 * N, dtype=np.float32)
    big[::2] = y0
    saxpy(1.5, x, big[::2], N, grid=GRID)
    assert np.array_equal(big[::2], reference(1.5, x, y0))
    assert not big[1::2].any()

    fortran = np.asfortranarray(y0.reshape(20, 50))
    saxpy(1.5, x, fortran, N, grid=GRID)
    assert np.array_equal(fortran.ravel(order="C"), reference(1.5, x, y0))

    # A read-only array for a parameter the kernel only reads is fine.
    x.setflags(write=False)
    y = y0.copy()
    saxpy(1.5, x, y, N, grid=GRID)
    assert np.array_equal(y, reference(1.5, x, y0))


def test_buffer_persists_over_launches():
    x, y0 = data()
    bx, by = dev.buffer(x), dev.buffer(y0)
    saxpy(2.0, bx, by, N, grid=GRID)
    saxpy(-3.0, bx, by, N, grid=GRID)
    assert np.array_equal(by.numpy(), reference(-3.0, x, reference(2.0, x, y0)))


def test_buffer_methods():
    for dtype in (np.float32, np.float64, np.int32, np.uint32, np.float16):
        b = dev.empty(10, dtype)
        assert len(b) == 10 and b.size == 10 * np.dtype(dtype).itemsize
        assert b.dtype == dtype
        assert not b.numpy().any()
        z = dev.zeros(3, dtype)
        assert np.array_equal(z.numpy(), np.zeros(3, dtype))
    b = dev.empty(8, np.int32)
    b.write(np.arange(8, dtype=np.int32))
    b.write(np.array([-1, -2], dtype=np.int32), offset=6)
    assert b.numpy().tolist() == [0, 1, 2, 3, 4, 5, -1, -2]
    assert b.numpy().dtype == np.int32
    assert b.device.name == "emu" and b.device == dev
    assert b.device != wt.device("emu") and len({dev, b.device}) == 1
    assert "8 x int32" in repr(b)
    h = dev.buffer(np.array([[1.5, -2.0], [0.25, 65504.0]], dtype=np.float16))
    assert h.dtype == np.float16 and len(h) == 4
    assert h.numpy().tolist() == [1.5, -2.0, 0.25, 65504.0]


def test_async_launch_on_stream():
    x, y0 = data(1 << 16)
    n = len(x)
    bx, by = dev.buffer(x), dev.buffer(y0)
    stream = dev.stream()
    ev = saxpy.launch(2.0, bx, by, n, grid=n // 256, stream=stream)
    ev.wait()
    assert ev.done
    assert ev.elapsed_us > 0, ev.elapsed_us
    ev2 = saxpy.launch(a=1.0, x=bx, y=by, n=n, grid=n // 256, stream=stream)
    stream.synchronize()
    assert ev2.done
    ev3 = saxpy.launch(1.0, bx, by, n, grid=n // 256)  # the default stream
    dev.synchronize()
    assert ev3.done and ev3.elapsed_us > 0
    expected = reference(1.0, x, reference(1.0, x, reference(2.0, x, y0)))
    assert np.array_equal(by.numpy(), expected)


def test_threads():
    # Launches release the GIL: four threads, each with its own arrays and
    # buffers, on one device; every result as if alone.
    inputs = [data() for _ in range(4)]
    results = [None] * 4
    errors = []

    def work(t):
        try:
            x, y0 = inputs[t]
            by = dev.buffer(y0)
            for _ in range(5):
                saxpy(float(t), x, by, N, grid=GRID)
            results[t] = by.numpy()
        except Exception as e:  # noqa: BLE001 - reported below
            errors.append(e)

    threads = [threading.Thread(target=work, args=(t,)) for t in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    for t, (x, y0) in enumerate(inputs):
        expected = y0
        for _ in range(5):
            expected = reference(float(t), x, expected)
        assert np.array_equal(results[t], expected), t


def test_compile_error_has_caret():
    bad = "@kernel\ndef k(x: f32[:]):\n    x[0] = undefined_name + 1.0\n"
    msg = harness.expect_error("compile", wt.compile_source, bad, "python",
                               name="bad.py")
    assert "bad.py" in msg, msg
    assert "undefined_name" in msg, msg
    assert any(line.strip().startswith("^") for line in msg.splitlines()), msg


def test_fault_then_usable():
    oob = wt.compile_source(OOB, "python").oob
    bx = dev.zeros(16, np.float32)
    msg = harness.expect_error("fault", oob, bx, 16, grid=1)
    assert "oob" in msg, msg
    msg = harness.expect_error("fault", oob, np.zeros(16, np.float32), 16,
                               grid=1)
    ev = oob.launch(bx, 16, grid=1)
    msg = harness.expect_error("fault", ev.wait)
    ev.wait()  # the error is raised once
    # The device still runs kernels.
    x, y0 = data()
    y = y0.copy()
    saxpy(2.0, x, y, N, grid=GRID)
    assert np.array_equal(y, reference(2.0, x, y0))
    dev.synchronize()


# Sixteen values live at once: at 32 registers nothing spills, at 8 wave-ra
# spills to local memory (wave-ra(1)); both sum the same way.
WIDE = """
@kernel
def wide(x: f32[:], y: f32[:]):
    i = global_id(0) * 16
    v0 = x[i]
    v1 = x[i + 1]
    v2 = x[i + 2]
    v3 = x[i + 3]
    v4 = x[i + 4]
    v5 = x[i + 5]
    v6 = x[i + 6]
    v7 = x[i + 7]
    v8 = x[i + 8]
    v9 = x[i + 9]
    v10 = x[i + 10]
    v11 = x[i + 11]
    v12 = x[i + 12]
    v13 = x[i + 13]
    v14 = x[i + 14]
    v15 = x[i + 15]
    y[i / 16] = ((v0 * v15 + v1 * v14) + (v2 * v13 + v3 * v12)) + ((v4 * v11 + v5 * v10) + (v6 * v9 + v7 * v8))
"""


def test_max_registers():
    x = rng.standard_normal(256 * 16).astype(np.float32)
    v = x.reshape(256, 16)
    p = lambda a, b: v[:, a] * v[:, b]  # noqa: E731
    expected = ((p(0, 15) + p(1, 14)) + (p(2, 13) + p(3, 12))) + \
        ((p(4, 11) + p(5, 10)) + (p(6, 9) + p(7, 8)))
    for regs in (32, 8):
        k = wt.compile_source(WIDE, "python", max_registers=regs).wide
        y = np.zeros(256, np.float32)
        k(x, y, grid=1)
        assert np.array_equal(y, expected), regs
    harness.expect_error("invalid_argument", wt.compile_source, WIDE,
                         "python", max_registers=0)


def test_compile_and_load_files():
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "saxpy.py")
        with open(path, "w") as f:
            f.write(SAXPY)
        m = wt.compile(path, opt_level=0)
        assert m.kernels == ["saxpy"]
        x, y0 = data()
        y = y0.copy()
        m.saxpy(2.0, x, y, N, grid=GRID)
        assert np.array_equal(y, reference(2.0, x, y0))
    wbin = sys.argv[1]
    with open(wbin, "rb") as f:
        raw = f.read()
    for m in (wt.load(wbin), wt.load(raw, device=dev)):
        assert m.kernels == ["vector_add"], m.kernels
        # vector_add indexes by thread_id(): one workgroup of 256.
        a, b = data(256)
        c = np.zeros_like(a)
        m.vector_add(a, b, c, 256, grid=1)
        assert np.array_equal(c, a + b)


harness.run(globals())
