"""Checks rows and columns of C = A x B (N x N, row-major f32 files)."""
import struct
import sys

a_path, b_path, c_path, n = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])


def load(path):
    with open(path, "rb") as f:
        data = f.read()
    return struct.unpack("<%df" % (len(data) // 4), data)


a, b, c = load(a_path), load(b_path), load(c_path)
lines = [0, 1, 127, 128, 130, 255]
cells = {(i, j) for i in lines for j in range(n)}
cells |= {(i, j) for j in lines for i in range(n)}
worst = 0.0
for i, j in sorted(cells):
    ref = sum(a[i * n + k] * b[k * n + j] for k in range(n))
    err = abs(c[i * n + j] - ref) / abs(ref)
    worst = max(worst, err)
print("%d elements checked, worst relative error %.2e, %s"
      % (len(cells), worst, "OK" if worst <= 1e-5 else "FAILED"))
