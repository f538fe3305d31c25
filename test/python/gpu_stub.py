"""wavetools on a GPU device, against a stub GPU runtime.

test/lit/python/cuda-stub.test and test/lit/python/hsa-stub.test run one
scenario per process: `gpu_stub.py BACKEND SCENARIO`, BACKEND "cuda" with
WAVE_CUDA_DRIVER naming the stub CUDA driver
(test/gpu/stub-cuda/StubDriver.cpp) or "hsa" with WAVE_HSA_RUNTIME naming
the stub HSA runtime (test/gpu/stub-hsa/StubRuntime.cpp). Neither stub runs
a kernel; both keep device memory and log every call to
$WAVE_CUDA_STUB_LOG or $WAVE_HSA_STUB_LOG. The script writes "# what"
marker lines into that log between its steps, so that FileCheck can say
which calls each step made. Each scenario prints "ok ..." lines and the
messages of the errors it expects.

    run        open, compile, upload, three launches, read back
    jit, load  the PTX JIT (cuda) or the code object loader (hsa) refuses
               the module
    fault      a launch faults; the device is unusable after it
    hang       a launch never completes; the timeout ends it
    nodevice   the runtime finds no GPU (WAVE_*_STUB_FAIL=nodevice)
    nodriver   no runtime library at all
    options    bad device names and arena sizes
"""

import os
import sys

import numpy as np

import harness
import wavetools as wt

SAXPY = harness.SAXPY

# 1 MiB of device memory: the stubs' allocations are host memory.
MIB = 1 << 20
N = 100  # 400 bytes: the buffers' 512 reserved bytes are not copied.

BACKEND = sys.argv[1]
LOG = {"cuda": "WAVE_CUDA_STUB_LOG", "hsa": "WAVE_HSA_STUB_LOG"}[BACKEND]


def gpus():
    """The devices listed, without those of the other GPU backend (which a
    machine may really have)."""
    return [d for d in wt.devices()
            if d == "emu" or d.startswith(BACKEND + ":")]


def mark(what):
    """Writes '# what' into the stub's log."""
    with open(os.environ[LOG], "a") as f:
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
    assert gpus() == ["emu", BACKEND + ":0"], wt.devices()
    ok("devices: emu, %s:0" % BACKEND)
    mark("open")
    dev = wt.device(BACKEND, device_memory=MIB)
    assert repr(dev) == "<wavetools.Device '%s:0'>" % BACKEND, repr(dev)
    ok("opened %s:0" % BACKEND)
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


def refused():
    dev = wt.device(BACKEND, device_memory=MIB)
    mark("compile")
    error("compile", dev.compile_source, SAXPY, "python")
    mark("buffer")
    b = dev.buffer(np.arange(4, dtype=np.uint32))
    assert np.array_equal(b.numpy(), np.arange(4, dtype=np.uint32))
    ok("the device is usable after a %s failure"
       % ("JIT" if BACKEND == "cuda" else "load"))


jit = load = refused


def fault():
    dev = wt.device(BACKEND, device_memory=MIB)
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
    dev = wt.device(BACKEND, device_memory=MIB, timeout=0.05)
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
    assert gpus() == ["emu"], wt.devices()
    ok("devices: emu")
    error("no_device", wt.device, BACKEND)
    ok("emu still opens: %r" % wt.device("emu"))


def nodriver():
    assert gpus() == ["emu"], wt.devices()
    ok("devices: emu")
    error("no_device", wt.device, BACKEND + ":0")


def options():
    error("no_device", wt.device, BACKEND + ":1")
    error("invalid_argument", wt.device, BACKEND, device_memory=5 << 30)
    error("invalid_argument", wt.device, BACKEND, device_memory=100)
    dev = wt.device(BACKEND, device_memory=MIB)
    error("backend", dev.zeros, MIB // 4, np.float32)
    error("invalid_argument", dev.compile_source, SAXPY, "python",
          opt_level=4)
    error("invalid_argument", dev.compile_source, SAXPY, "python",
          max_registers=300)


if __name__ == "__main__":
    globals()[sys.argv[2]]()
    print("PASSED")
