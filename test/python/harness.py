"""A minimal runner for the wavetools Python tests (test/python/test_*.py).

run(globals()) calls every function named test_* in definition order,
prints "ok NAME" or "FAIL NAME" with the traceback, then "PASSED: N tests"
or "FAILED: N of M tests", and exits 1 on any failure. lit runs the test
scripts (test/lit/python/) and FileChecks those lines.
"""

import sys
import traceback

import wavetools as wt


# y = a * x + y in the Python dialect: the kernel most of the tests launch.
SAXPY = """
@kernel
def saxpy(a: f32, x: f32[:], y: f32[:], n: u32):
    i = global_id(0)
    if i < n:
        y[i] = a * x[i] + y[i]
"""


def expect_error(code, fn, *args, **kwargs):
    """Calls fn(*args, **kwargs), which must raise wavetools.Error with
    .code == code; returns the error's message."""
    try:
        fn(*args, **kwargs)
    except wt.Error as e:
        assert e.code == code, "expected code %r, got %r: %s" % (code, e.code, e)
        return str(e)
    raise AssertionError("expected wavetools.Error with code %r" % code)


def run(namespace):
    tests = [(name, fn) for name, fn in namespace.items()
             if name.startswith("test_") and callable(fn)]
    failed = 0
    for name, fn in tests:
        try:
            fn()
            print("ok", name)
        except Exception:  # noqa: BLE001 - every failure is reported
            failed += 1
            print("FAIL", name)
            traceback.print_exc(file=sys.stdout)
        sys.stdout.flush()
    if failed:
        print("FAILED: %d of %d tests" % (failed, len(tests)))
        sys.exit(1)
    print("PASSED: %d tests" % len(tests))
