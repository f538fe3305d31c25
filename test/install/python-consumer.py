"""The installed Python package from outside the build: saxpy compiled in
process from its source file, run on the emulator with NumPy arrays, checked
against NumPy's own arithmetic.

Usage: python-consumer.py SAXPY.py
"""
import sys

import numpy as np
import wavetools as wt

x = np.arange(500, dtype=np.float32)
y = np.full(500, 0.5, dtype=np.float32)
expected = np.float32(4.0) * x + y
k = wt.compile(sys.argv[1]).kernel("saxpy")
k(x=x, y=y, a=4.0, n=len(x), grid=2, workgroup=256)
if not np.array_equal(y, expected):
    bad = np.flatnonzero(y != expected)[0]
    sys.exit(f"python-consumer: y[{bad}] = {y[bad]}, expected {expected[bad]}")
print(f"python-consumer: saxpy of {len(x)} elements ok")
