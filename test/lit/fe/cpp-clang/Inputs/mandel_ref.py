"""mandel_ref.py W H MAX: the escape counts of mandelbrot.cpp, one per line.

Every operation is rounded to f32 (round to nearest even) in the order the
kernel's source gives it. Standard library only.
"""
import struct
import sys


def f(x):
    return struct.unpack("<f", struct.pack("<f", x))[0]


w, h, max_iter = (int(v) for v in sys.argv[1:4])
for i in range(w * h):
    cr = f(-2.0 + f(f(3.0 * (i % w)) / w))
    ci = f(-1.5 + f(f(3.0 * (i // w)) / h))
    zr = zi = 0.0
    n = 0
    while n < max_iter:
        if f(f(zr * zr) + f(zi * zi)) > 4.0:
            break
        zr, zi = (f(f(zr * zr) - f(zi * zi)), f(f(zr * zi) + f(zi * zr)))
        zr, zi = f(zr + cr), f(zi + ci)
        n += 1
    print(n)
