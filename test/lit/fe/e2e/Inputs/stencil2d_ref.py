#!/usr/bin/env python3
"""Reference for stencil2d.py, written from its specification in plain
Python (never from compiler output).

Usage: stencil2d_ref.py A_FILE M N

A_FILE holds M*N little-endian f32 values, row-major. Prints, one value per
line, b (M*N values: the mean of the four neighbours of each element, the
grid wrapping around at its edges) and then the four corner values
[a[0][0], a[0][N-1], a[M-1][0] + N, a[M-1][N-1]], in the order
`wave-run --print b --print corners` prints them. The inputs are whole
numbers, so every value is exact in f32 and in binary64 alike.
"""
import struct
import sys


def main():
    path, m, n = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    with open(path, "rb") as f:
        flat = struct.unpack("<%df" % (m * n), f.read())
    a = [list(flat[r * n:(r + 1) * n]) for r in range(m)]
    out = []
    for i in range(m):
        for j in range(n):
            s = (a[(i - 1) % m][j] + a[(i + 1) % m][j] + a[i][(j - 1) % n] +
                 a[i][(j + 1) % n])
            out.append(0.25 * s)
    out += [a[0][0], a[0][n - 1], a[m - 1][0] + n, a[m - 1][n - 1]]
    for v in out:
        print(repr(v))


if __name__ == "__main__":
    main()
