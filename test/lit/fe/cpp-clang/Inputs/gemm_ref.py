"""gemm_ref.py OUTDIR: inputs and the expected product for gemm-template.cpp.

Writes a.f32, b.f32, a.f16, b.f16 (8x8 row-major, small integers from a
fixed formula) and want.txt, c = a * b as wave-run --print writes whole
numbers (56.0), one per line. Standard library only.
"""
import os
import struct
import sys

N = 8
a = [(3 * i + 1) % 8 for i in range(N * N)]
b = [(5 * i + 2) % 8 for i in range(N * N)]
c = [sum(a[r * N + k] * b[k * N + col] for k in range(N))
     for r in range(N) for col in range(N)]
out = sys.argv[1]
for name, vals in (("a", a), ("b", b)):
    with open(os.path.join(out, name + ".f32"), "wb") as f:
        f.write(struct.pack("<%df" % len(vals), *vals))
    with open(os.path.join(out, name + ".f16"), "wb") as f:
        f.write(struct.pack("<%de" % len(vals), *vals))
with open(os.path.join(out, "want.txt"), "w") as f:
    f.write("".join("%d.0\n" % v for v in c))
