"""wavetools on a CUDA device, against the stub CUDA driver.

test/lit/python/cuda-stub.test runs one scenario per process with
WAVE_CUDA_DRIVER naming the stub (test/gpu/stub-cuda/StubDriver.cpp), which
runs no kernel but keeps device memory and logs every driver call to
$WAVE_CUDA_STUB_LOG. The script writes "# what" marker lines into that log
between its steps, so that FileCheck can say which calls each step made.
Each scenario prints "ok ..." lines and the messages of the errors it
expects.

    cuda_stub.py run        open, compile, upload, two launches, read back
    cuda_stub.py jit        the PTX JIT refuses the module
    cuda_stub.py fault      a launch faults; the device is unusable after it
    cuda_stub.py hang       a launch never completes; the timeout ends it
    cuda_stub.py nodevice   cuInit finds no device (WAVE_CUDA_STUB_FAIL)
    cuda_stub.py nodriver   no driver library at all
    cuda_stub.py options    bad device names and arena sizes
"""

import os
import sys

import numpy as np

import harness
import wavetools as wt

SAXPY = """
@kernel
def saxpy(a: f32, x: f32[:], y: f32[:], n: u32):
    i = global_id(0)
    if i < n:
        y[i] = a * x[i] + y[i]
"""

# 1 MiB of device memory: the stub's allocations are host memory.
MIB = 1 << 20
N = 100  # 400 bytes: the buffers' 512 reserved bytes are not copied.


def mark(what):
    """Writes '# what' into the stub's log."""
    with open(os.environ["WAVE_CUDA_STUB_LOG"], "a") as f:
        f.write("# %s\n" % what)


def ok(what):
    print("ok", what)
    sys.stdout.flush()


def error(code, fn, *args, **kwargs):
    """The message of the wavetools.Error with `code` that fn raises,
    printed as 'CODE: message'."""
    msg = harness.expect_error(code, fn, *args, **kwargs)
    print("%s: %s" % (code, msg))
    sys.stdout.flush()
    return msg


def run():
    assert wt.devices() == ["emu", "cuda:0"], wt.devices()
    ok("devices: emu, cuda:0")
    mark("open")
    dev = wt.device("cuda", device_memory=MIB)
    assert repr(dev) == "<wavetools.Device 'cuda:0'>", repr(dev)
    ok("opened cuda:0")
    mark("compile")
    saxpy = dev.compile_source(SAXPY, "python").saxpy
    mark("upload x")
    x0 = np.arange(N, dtype=np.float32)
    y0 = np.linspace(-1, 1, N, dtype=np.float32)
    x = dev.buffer(x0)
    mark("upload y")
    y = dev.buffer(y0)
    mark("launch 1")
    saxpy(2.0, x, y, N, grid=1)
    mark("launch 2")
    saxpy(a=-0.5, x=x, y=y, n=N, grid=2)
    mark("launch 3 on a stream")
    ev = saxpy.launch(1.0, x, y, N, grid=1, stream=dev.stream())
    ev.wait()
    assert ev.elapsed_us >= 0
    ok("a launch on a stream")
    mark("read y")
    got = y.numpy()
    # The stub runs nothing: y holds what the upload wrote.
    assert np.array_equal(got, y0), got
    ok("y comes back as uploaded")
    mark("write x at an offset")
    x.write(np.full(3, 7, dtype=np.float32), offset=10)
    mark("read x")
    expected = x0.copy()
    expected[10:13] = 7
    assert np.array_equal(x.numpy(), expected)
    ok("x comes back as written")
    mark("release")
    del saxpy, x, y, dev
    mark("released")
    ok("released")


def jit():
    dev = wt.device("cuda", device_memory=MIB)
    mark("compile")
    error("compile", dev.compile_source, SAXPY, "python")
    mark("buffer")
    b = dev.buffer(np.arange(4, dtype=np.uint32))
    assert np.array_equal(b.numpy(), np.arange(4, dtype=np.uint32))
    ok("the device is usable after a JIT failure")


def fault():
    dev = wt.device("cuda", device_memory=MIB)
    saxpy = dev.compile_source(SAXPY, "python").saxpy
    x = dev.buffer(np.arange(N, dtype=np.float32))
    y = dev.zeros(N, np.float32)
    mark("launch")
    error("fault", saxpy, 2.0, x, y, N, grid=1)
    mark("read")
    error("fault", y.numpy)
    error("fault", saxpy, 2.0, x, y, N, grid=1)
    error("fault", dev.zeros, 4, np.float32)
    mark("release")
    del saxpy, x, y, dev
    mark("released")
    ok("released after the fault")


def hang():
    dev = wt.device("cuda", device_memory=MIB, timeout=0.05)
    saxpy = dev.compile_source(SAXPY, "python").saxpy
    y = dev.zeros(N, np.float32)
    mark("launch")
    error("limit", saxpy, 2.0, y, y, N, grid=1)
    error("fault", y.numpy)
    mark("release")
    del saxpy, y, dev
    mark("released")
    ok("released after the timeout")


def nodevice():
    assert wt.devices() == ["emu"], wt.devices()
    ok("devices: emu")
    error("no_device", wt.device, "cuda")
    ok("emu still opens: %r" % wt.device("emu"))


def nodriver():
    assert wt.devices() == ["emu"], wt.devices()
    ok("devices: emu")
    error("no_device", wt.device, "cuda:0")


def options():
    error("no_device", wt.device, "cuda:1")
    error("no_device", wt.device, "hsa")
    error("invalid_argument", wt.device, "cuda", device_memory=5 << 30)
    error("invalid_argument", wt.device, "cuda", device_memory=100)
    dev = wt.device("cuda", device_memory=MIB)
    error("backend", dev.zeros, MIB // 4, np.float32)
    error("invalid_argument", dev.compile_source, SAXPY, "python",
          opt_level=4)
    error("invalid_argument", dev.compile_source, SAXPY, "python",
          max_registers=300)


if __name__ == "__main__":
    globals()[sys.argv[1]]()
    print("PASSED")
