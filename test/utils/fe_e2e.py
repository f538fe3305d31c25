#!/usr/bin/env python3
"""fe_e2e.py: compile a kernel source through the whole pipeline and check it.

Usage:
  fe_e2e.py KERNEL.{py,cpp,rs,ts} --bindir DIR --case NAME [--levels 0,2]
            [--keep DIR]

For each optimization level L it runs

  wave-fe KERNEL | wave-opt -OL | wave-ra | wave-as -o k.wbin
  wave-run k.wbin --grid ... --arg OFFSET:FILE ... --set-reg ... --dump-u32 ...

and compares the dumped output buffer with a reference computed here in
Python from the same seeded inputs. CASES holds one entry per kernel: its
parameters in declaration order (buffers are laid out in device memory here
and passed as byte offsets, scalars as their 32-bit patterns: formats/kernel-abi.md), the grid, the output buffer, and a reference written from the
kernel's specification (the comment of each test file), never from compiler
output. The same case serves the kernel in all four languages. Prints one
'OK' line per level. Standard library only.
"""
import argparse
import os
import random
import struct
import sys
import tempfile

sys.dont_write_bytecode = True  # keep the source tree free of __pycache__
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import wavedata as wd  # noqa: E402

M32 = 0xFFFFFFFF


def f32s(vals):
    return struct.pack("<%df" % len(vals), *vals)


def u32s(vals):
    return struct.pack("<%dI" % len(vals), *[v & M32 for v in vals])


def f16s(vals):
    return struct.pack("<%de" % len(vals), *vals)


def rnd_f32(seed, n, lo, hi):
    r = random.Random(seed)
    return [wd.f32(r.uniform(lo, hi)) for _ in range(n)]


def r16(x):
    """Round a binary64 value to binary16 (RNE), as cvt_f16_f32 does."""
    return struct.unpack("<e", struct.pack("<e", x))[0]


# --- cases: parameters, launch and reference ---------------------------------
# A parameter is ("buf", bytes) or ("scalar", u32 bits). "out" names the
# index of the output buffer parameter; "expected" is its final content.

def case_saxpy():
    n = 1000
    x, y = rnd_f32(1, n, -10, 10), rnd_f32(2, n, -10, 10)
    a = 2.5
    out = [wd.f32(wd.f32(a * xi) + yi) for xi, yi in zip(x, y)]
    return dict(params=[("buf", f32s(x)), ("buf", f32s(y)),
                        ("buf", bytes(4 * n)), ("scalar", wd.f32_bits(a)),
                        ("scalar", n)],
                grid=(4, 1, 1), out=2, expected=f32s(out))


def case_transpose():
    w, h = 40, 24
    r = random.Random(3)
    src = [r.randint(0, M32) for _ in range(w * h)]
    dst = [0] * (w * h)
    for y in range(h):
        for x in range(w):
            dst[x * h + y] = src[y * w + x]
    return dict(params=[("buf", u32s(src)), ("buf", bytes(4 * w * h)),
                        ("scalar", w), ("scalar", h)],
                grid=(3, 2, 1), out=1, expected=u32s(dst))


def case_first_above():
    rows, cols, thr = 300, 37, 0.97
    data = rnd_f32(4, rows * cols, 0, 1)
    out = []
    for row in range(rows):
        found = -1
        for j in range(cols):
            if data[row * cols + j] > wd.f32(thr):
                found = j
                break
        out.append(found)
    return dict(params=[("buf", f32s(data)), ("buf", bytes(4 * rows)),
                        ("scalar", rows), ("scalar", cols),
                        ("scalar", wd.f32_bits(thr))],
                grid=(2, 1, 1), out=1, expected=u32s(out))


def case_block_sum():
    n, wg, groups = 1000, 256, 4
    src = rnd_f32(5, n, -1, 1)
    out = []
    for g in range(groups):
        tile = [src[g * wg + t] if g * wg + t < n else 0.0
                for t in range(wg)]
        s = wg // 2
        while s > 0:
            for t in range(s):
                tile[t] = wd.f32(tile[t] + tile[t + s])
            s >>= 1
        out.append(tile[0])
    return dict(params=[("buf", f32s(src)), ("buf", bytes(4 * groups)),
                        ("scalar", n)],
                grid=(groups, 1, 1), out=1, expected=f32s(out))


def case_wave_sum():
    n, width, threads = 1000, 32, 1024
    r = random.Random(6)
    src = [r.randint(0, 1 << 28) for _ in range(n)]
    out = []
    for w in range(threads // width):
        out.append(sum(src[i] for i in range(w * width, (w + 1) * width)
                       if i < n) & M32)
    return dict(params=[("buf", u32s(src)), ("buf", bytes(4 * len(out))),
                        ("scalar", n)],
                grid=(4, 1, 1), out=1, expected=u32s(out))


def case_histogram():
    n = 2000
    r = random.Random(7)
    data = [r.randint(0, M32) for _ in range(n)]
    bins = [0] * 17
    for v in data:
        bins[v % 16] += 1
    bins[16] = max(data)
    return dict(params=[("buf", u32s(data)), ("buf", bytes(4 * 17)),
                        ("scalar", n)],
                grid=(8, 1, 1), out=1, expected=u32s(bins))


def case_haxpy():
    n = 500
    x = [r16(v) for v in rnd_f32(8, n, -4, 4)]
    y = [r16(v) for v in rnd_f32(9, n, -4, 4)]
    a = 1.5
    # f16 products and sums of f16 values are exact in binary64, so one
    # rounding to f16 per operation reproduces the f16 instructions.
    out = [r16(r16(r16(a) * xi) + yi) for xi, yi in zip(x, y)]
    return dict(params=[("buf", f16s(x)), ("buf", f16s(y)),
                        ("buf", bytes(2 * n)), ("scalar", wd.f32_bits(a)),
                        ("scalar", n)],
                grid=(2, 1, 1), out=2, expected=f16s(out))


def case_stencil():
    n, t = 700, 0.25
    src = rnd_f32(10, n, -5, 5)

    def at(i):
        return src[i] if 0 <= i < n else 0.0

    out = []
    for i in range(n):
        a, b = at(i - 1), at(i + 1)
        out.append(wd.f32(a + wd.f32(wd.f32(b - a) * wd.f32(t))))
    return dict(params=[("buf", f32s(src)), ("buf", bytes(4 * n)),
                        ("scalar", wd.f32_bits(t)), ("scalar", n)],
                grid=(3, 1, 1), out=1, expected=f32s(out))


def case_classify():
    n = 600
    r = random.Random(11)
    # Every class: small values, the range edges, and large ones.
    vals = [r.choice([0, 1, 9, 10, 99, 100, r.randint(0, 12),
                      r.randint(0, 200), r.randint(0, M32)]) for _ in range(n)]
    deltas = [r.choice([0, -5, 5, 6, -6, 51, 50, r.randint(-100, 100)])
              for _ in range(n)]
    out = []
    for v, d in zip(vals, deltas):
        if v == 0:
            code = 1
        elif 1 <= v <= 9:
            code = 2 if d == 0 else 3 if d < 0 else 4
        elif 10 <= v < 100:
            code = 5 if d > 50 else 6 if -5 <= d <= 5 else 7
        else:
            code = 8 + v % 3
        if v % 2 == 1:
            code += 100
        w, halvings = v % 64, 0
        while 2 <= w <= 63:
            w //= 2
            halvings += 1
        out.append(code + 1000 * halvings)
    return dict(params=[("buf", u32s(vals)), ("buf", u32s(deltas)),
                        ("buf", bytes(4 * n)), ("scalar", n)],
                grid=(3, 1, 1), out=2, expected=u32s(out))


def case_mma():
    # A 16x16 f32 product C = A B from the 4x4 MMA fragments. Small
    # integer-valued inputs make every product and sum exact, so the order
    # of the additions does not matter.
    n = 16
    r = random.Random(12)
    a = [float(r.randint(-8, 8)) for _ in range(n * n)]
    b = [float(r.randint(-8, 8)) for _ in range(n * n)]
    c = [sum(a[i * n + k] * b[k * n + j] for k in range(n))
         for i in range(n) for j in range(n)]
    return dict(params=[("buf", f32s(a)), ("buf", f32s(b)),
                        ("buf", bytes(4 * n * n))],
                grid=(1, 1, 1), out=2, expected=f32s(c))


def case_f64cmp():
    # f64 comparisons, min and max (built from dsub, dmul, cvt and fcmp):
    # every pair of special values (zeros of both signs, subnormals,
    # neighbours, huge values, infinities, NaN), then neighbouring pairs.
    # out[4i] = min, out[4i+1] = max, out[4i+2] = the mask of < <= > >= ==
    # != (bits 0..5), out[4i+3] = the mask of Python's a < b <= 1.0 chain.
    def bits(x):
        return struct.unpack("<Q", struct.pack("<d", x))[0]

    def val(b):
        return struct.unpack("<d", struct.pack("<Q", b))[0]

    nan = 0x7FF8000000000123
    special = [bits(x) for x in (
        0.0, -0.0, 1.0, 1.0 + 2.0 ** -52, -1.0, 5e-324, -5e-324, 1e-300,
        2.0 ** -1022, 1e308, -1e308, float("inf"), float("-inf"), 3.0,
        1.0 - 2.0 ** -53)] + [nan]
    pairs = [(x, y) for x in special for y in special]
    r = random.Random(13)
    while len(pairs) < 512:
        x = bits(r.uniform(-1e6, 1e6) * 2.0 ** r.randint(-1000, 1000))
        pairs.append((x, x + r.choice([-1, 0, 1])))
    a = [p[0] for p in pairs]
    b = [p[1] for p in pairs]
    out = []
    for x, y in pairs:
        fx, fy = val(x), val(y)
        xnan = fx != fx
        mn = y if xnan or fy < fx else x
        mx = y if xnan or fy > fx else x
        m = sum(1 << k for k, t in enumerate(
            (fx < fy, fx <= fy, fx > fy, fx >= fy, fx == fy, fx != fy)) if t)
        out += [mn, mx, bits(float(m)), bits(float(fx < fy <= 1.0))]
    q = lambda v: struct.pack("<%dQ" % len(v), *v)  # noqa: E731
    return dict(params=[("buf", q(a)), ("buf", q(b)),
                        ("buf", bytes(32 * len(pairs))),
                        ("scalar", len(pairs))],
                grid=(2, 1, 1), out=2, expected=q(out))


def case_params():
    # bool and f16 kernel parameters (formats/kernel-abi.md): a bool is a
    # u32, true when not zero; an f16 is passed as its f32 value and
    # rounded to f16 (nearest-even) on entry.
    n, h = 100, 0.1
    out = []
    for flag in (0, 7):
        out += [wd.f32(r16(h) * (2.0 if flag else 1.0) + i) for i in range(n)]
    return dict(params=[("buf", bytes(8 * n)), ("scalar", 0),
                        ("scalar", 7), ("scalar", wd.f32_bits(h)),
                        ("scalar", n)],
                grid=(1, 1, 1), out=0, expected=f32s(out))


def case_numbers():
    # TypeScript numbers (test/lit/fe/e2e/numbers.ts): f64 arithmetic in
    # Python floats (IEEE binary64, nearest even, as dadd/dmul/ddiv),
    # narrowed as the comment of the kernel says.
    n = 1000
    x = rnd_f32(14, n, -4, 4) + [7.0] * 24
    out = []
    for v in x[:n]:
        acc = 0.0 + ((v * v - 2.5) * v) / 3 * 0.1
        c = -1.0 if acc < -1 else 1.0 if acc > 1 else acc
        bucket = max(0, int(wd.f32(v * 4 + 8)))
        out.append(wd.f32(wd.f32(c) + float(bucket % 5)))
    out += [0.0] * 24
    return dict(params=[("buf", f32s(x)), ("buf", bytes(4 * len(x))),
                        ("scalar", n)],
                grid=(16, 1, 1), out=1, expected=f32s(out))


def case_mandel():
    # Escape counts of a 16 x 16 image of [-2, 1] x [-1.5, 1.5], at most 40
    # iterations (test/lit/fe/e2e/mandelbrot.rs); every f32 operation
    # rounded in source order.
    w, h, max_iter = 16, 16, 40
    f = wd.f32
    out = []
    for i in range(w * h):
        cr = f(-2.0 + f(f(3.0 * (i % w)) / w))
        ci = f(-1.5 + f(f(3.0 * (i // w)) / h))
        zr = zi = 0.0
        n = 0
        while n < max_iter:
            if f(f(zr * zr) + f(zi * zi)) > 4.0:
                break
            zr, zi = f(f(zr * zr) - f(zi * zi)), f(f(zr * zi) + f(zi * zr))
            zr, zi = f(zr + cr), f(zi + ci)
            n += 1
        out.append(n)
    return dict(params=[("buf", bytes(4 * w * h)), ("scalar", w),
                        ("scalar", h), ("scalar", max_iter)],
                grid=(4, 1, 1), out=0, expected=u32s(out))


CASES = {name[5:]: fn for name, fn in globals().items()
         if name.startswith("case_")}


run = wd.run_tool


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("source")
    ap.add_argument("--bindir", required=True)
    ap.add_argument("--case", required=True, choices=sorted(CASES))
    ap.add_argument("--levels", default="0,2")
    ap.add_argument("--keep", default=None)
    a = ap.parse_args()
    c = CASES[a.case]()
    tool = lambda t: os.path.join(a.bindir, t)  # noqa: E731
    with tempfile.TemporaryDirectory() as tmp:
        work = a.keep or tmp
        os.makedirs(work, exist_ok=True)
        run_args = ["--grid", "%d,%d,%d" % c["grid"]]
        offset, out_off = 0, None
        for r, (kind, val) in enumerate(c["params"]):
            if kind == "scalar":
                run_args += ["--set-reg", "%d:%d" % (r, val & M32)]
                continue
            path = os.path.join(work, "p%d.bin" % r)
            with open(path, "wb") as f:
                f.write(val)
            run_args += ["--arg", "%d:%s" % (offset, path),
                         "--set-reg", "%d:%d" % (r, offset)]
            if r == c["out"]:
                out_off = offset
            offset += (len(val) + 255) // 256 * 256
        want = c["expected"]
        words = (len(want) + 3) // 4
        run_args += ["--dump-u32", "%d:%d" % (out_off, words)]
        fe = run([tool("wave-fe"), a.source]).stdout
        for level in a.levels.split(","):
            opt = run([tool("wave-opt"), "-O" + level], fe).stdout
            asm = run([tool("wave-ra")], opt).stdout
            wbin = os.path.join(work, "O%s.wbin" % level)
            run([tool("wave-as"), "-", "-o", wbin], asm)
            got = run([tool("wave-run"), wbin] + run_args).stdout.decode()
            vals = [int(t, 0) for t in got.split()]
            data = struct.pack("<%dI" % len(vals), *vals)[:len(want)]
            if data != want:
                n = len(want) // 4
                g = struct.unpack("<%dI" % n, data[:4 * n])
                w = struct.unpack("<%dI" % n, want[:4 * n])
                bad = [i for i in range(n) if g[i] != w[i]]
                for i in bad[:10]:
                    sys.stderr.write("-O%s: word %d: got 0x%08x, want 0x%08x\n"
                                     % (level, i, g[i], w[i]))
                sys.exit("-O%s: %d of %d words differ" % (level, len(bad), n))
            print("OK -O%s: %d bytes" % (level, len(want)))


if __name__ == "__main__":
    main()
