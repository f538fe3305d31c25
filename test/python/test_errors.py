"""The Python module wavetools: every argument error is a wavetools.Error.

Each bad call of a kernel (an unknown, missing or repeated parameter, the
wrong kind, element type or range of value, a bad grid) raises
wavetools.Error with code "invalid_argument" and a message naming the
parameter, and launches nothing; so do bad devices, languages, kernels and
buffers. Files that cannot be read are "io". Nothing crashes.
"""

import numpy as np

import harness
import wavetools as wt

SAXPY = harness.SAXPY

dev = wt.default_device()
saxpy = wt.compile_source(SAXPY, "python").saxpy
N = 64
x = np.arange(N, dtype=np.float32)
y = np.ones(N, dtype=np.float32)


def bad_call(param, *args, **kwargs):
    """The call must fail with invalid_argument naming `param` and leave y
    as it was."""
    before = y.copy()
    kwargs.setdefault("grid", 1)
    msg = harness.expect_error("invalid_argument", saxpy, *args, **kwargs)
    assert "'%s'" % param in msg, "%r not named in: %s" % (param, msg)
    assert np.array_equal(y, before), "a failed call changed y"
    return msg


def test_unknown_name():
    bad_call("count", a=1.0, x=x, y=y, count=N)


def test_missing_parameter():
    bad_call("n", 1.0, x, y)
    bad_call("a", x=x, y=y, n=N)


def test_repeated_parameter():
    bad_call("a", 1.0, x, y, N, a=2.0)


def test_too_many_positional():
    msg = harness.expect_error("invalid_argument", saxpy, 1.0, x, y, N, 5,
                               grid=1)
    assert "saxpy" in msg, msg


def test_wrong_element_type():
    bad_call("x", 1.0, x.astype(np.float64), y, N)
    bad_call("y", 1.0, x, dev.zeros(N, np.int32), N)
    bad_call("x", 1.0, np.zeros(N, np.int64), y, N)  # no WAVE type at all
    bad_call("x", 1.0, np.zeros(N, np.complex64), y, N)


def test_wrong_kind():
    bad_call("x", 1.0, 2.0, y, N)  # a scalar for a buffer
    bad_call("n", 1.0, x, y, dev.zeros(4, np.uint32))  # a buffer for a scalar
    bad_call("n", 1.0, x, y, np.zeros(4, np.uint32))
    bad_call("n", 1.0, x, y, "64")
    bad_call("a", None, x, y, N)
    bad_call("y", 1.0, x, [1.0] * N, N)


def test_scalar_out_of_range():
    bad_call("n", 1.0, x, y, 3.5)  # a float for u32
    bad_call("n", 1.0, x, y, -1)
    bad_call("n", 1.0, x, y, 1 << 40)
    bad_call("n", 1.0, x, y, 1 << 70)  # not even 64 bits
    bad_call("a", 1 << 30 | 1, x, y, N)  # not exactly an f32


def test_read_only_array_written():
    ro = y.copy()
    ro.setflags(write=False)
    bad_call("y", 1.0, x, ro, N)


def test_async_takes_no_arrays():
    msg = harness.expect_error("invalid_argument", saxpy.launch, 1.0, x,
                               dev.buffer(y), N, grid=1)
    assert "'x'" in msg, msg
    harness.expect_error("invalid_argument", saxpy.launch, 1.0,
                         dev.buffer(x), dev.buffer(y), N, grid=1,
                         stream="default")


def test_bad_grid():
    for grid in ((1, 1, 1, 1), (), -1, 1 << 32, "1", 1.5, (1, None)):
        msg = harness.expect_error("invalid_argument", saxpy, 1.0, x, y, N,
                                   grid=grid)
        assert "grid" in msg, msg
    msg = harness.expect_error("invalid_argument", saxpy, 1.0, x, y, N)
    assert "grid" in msg, msg
    msg = harness.expect_error("invalid_argument", saxpy, 1.0, x, y, N,
                               grid=1, workgroup=(1, 2, 3, 4))
    assert "workgroup" in msg, msg


def test_bad_modules_and_devices():
    mod = wt.compile_source(SAXPY, "python")
    msg = harness.expect_error("invalid_argument", mod.kernel, "nope")
    assert "nope" in msg, msg
    try:
        mod.nope
        raise AssertionError("mod.nope did not raise")
    except AttributeError:
        pass
    harness.expect_error("invalid_argument", wt.device, "no-such-device")
    harness.expect_error("invalid_argument", wt.compile_source, SAXPY, "cobol")
    harness.expect_error("invalid_argument", wt.compile_source, SAXPY,
                         "python", opt_level=7)
    harness.expect_error("io", wt.compile, "/nonexistent/k.py")
    harness.expect_error("io", wt.load, "/nonexistent/k.wbin")
    harness.expect_error("compile", wt.load, b"not a wbin")


def test_bad_buffers():
    harness.expect_error("invalid_argument", dev.empty, 0, np.float32)
    harness.expect_error("invalid_argument", dev.empty, 4, np.int64)
    harness.expect_error("invalid_argument", dev.buffer,
                         np.zeros(0, np.float32))
    harness.expect_error("invalid_argument", dev.buffer, np.zeros(4, np.int8))
    b = dev.zeros(4, np.float32)
    harness.expect_error("invalid_argument", b.write, np.zeros(5, np.float32))
    harness.expect_error("invalid_argument", b.write, np.zeros(2, np.float32),
                         offset=3)
    harness.expect_error("invalid_argument", b.write, np.zeros(4, np.int32))


def test_device_still_usable():
    yy = y.copy()
    saxpy(2.0, x, yy, N, grid=1)
    assert np.array_equal(yy, np.float32(2.0) * x + y)


harness.run(globals())
