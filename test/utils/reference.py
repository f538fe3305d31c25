#!/usr/bin/env python3
"""reference.py: independent Python references for the examples/ kernels.

Usage: reference.py KERNEL [args]   (prints expected values, one per line)

  vector_add A B [--pad N]         C = A + B (f32); zeros up to N entries
  saxpy X Y ALPHA_BITS             Y = fma(alpha, X, Y) in f32
  reduce_tree IN --n N --block B   per-workgroup tree sum (stride B/2..1), f32
  wave_sum IN --width W            per-wave XOR-butterfly f32 sum
  wave_count IN --width W          per-wave count of elements > 0.0
  prefix_sum IN --n N --block B [--pad P]
                                   per-workgroup exclusive u32 scan
  histogram IN --bins NB           counts of (value mod NB)
  gemm A B M N K                   C = A x B, f32, row-major (binary64 sum)
  haxpy X Y ALPHA_BITS             packed f16: Y = hma2(alpha, X, Y)
  bscale X Y SCALE_BITS            packed bf16: badd2(bmul2(X, scale), Y)

Input files are the little-endian buffers written by make_input.py. Every
rounding step the emulator performs is modelled exactly (wavedata.py), so
all results except gemm are bit-exact; gemm is summed in binary64 and
compared with a tolerance (or exactly when the inputs are whole numbers).
Standard library only.
"""
import argparse
import os
import sys

sys.dont_write_bytecode = True  # keep the source tree free of __pycache__
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import wavedata as wd  # noqa: E402


def out_f(vals):
    for v in vals:
        print(repr(float(v)))


def out_u(vals):
    for v in vals:
        print(v & 0xFFFFFFFF)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("kernel")
    ap.add_argument("args", nargs="*")
    ap.add_argument("--pad", type=int, default=0)
    ap.add_argument("--n", type=int, default=None)
    ap.add_argument("--block", type=int, default=256)
    ap.add_argument("--width", type=int, default=32)
    ap.add_argument("--bins", type=int, default=16)
    a = ap.parse_args()
    k, args = a.kernel, a.args

    if k == "vector_add":
        x, y = wd.read_values(args[0], "f32"), wd.read_values(args[1], "f32")
        c = [wd.f32(p + q) for p, q in zip(x, y)]
        out_f(c + [0.0] * max(0, a.pad - len(c)))
    elif k == "saxpy":
        x, y = wd.read_values(args[0], "f32"), wd.read_values(args[1], "f32")
        alpha = wd.bits_f32(int(args[2], 0))
        out_f([wd.f32_fma(alpha, p, q) for p, q in zip(x, y)])
    elif k == "reduce_tree":
        x = wd.read_values(args[0], "f32")[: a.n]
        res = []
        for base in range(0, len(x), a.block):
            t = x[base:base + a.block]
            t += [0.0] * (a.block - len(t))
            s = a.block // 2
            while s >= 1:
                for i in range(s):
                    t[i] = wd.f32(t[i] + t[i + s])
                s //= 2
            res.append(t[0])
        out_f(res)
    elif k in ("wave_sum", "wave_count"):
        x = wd.read_values(args[0], "f32")
        res = []
        for base in range(0, len(x), a.width):
            v = x[base:base + a.width]
            if k == "wave_count":
                res.append(sum(1 for e in v if e > 0.0))
                continue
            m = a.width // 2
            while m >= 1:
                v = [wd.f32(v[l] + v[l ^ m]) for l in range(a.width)]
                m //= 2
            res.append(v[0])
        (out_u if k == "wave_count" else out_f)(res)
    elif k == "prefix_sum":
        x = wd.read_values(args[0], "u32")[: a.n]
        res = []
        for base in range(0, len(x), a.block):
            acc = 0
            for e in x[base:base + a.block]:
                res.append(acc)
                acc = (acc + e) & 0xFFFFFFFF
        out_u(res + [0] * max(0, a.pad - len(res)))
    elif k == "histogram":
        x = wd.read_values(args[0], "u32")
        h = [0] * a.bins
        for e in x:
            h[e % a.bins] += 1
        out_u(h)
    elif k == "gemm":
        A, B = wd.read_values(args[0], "f32"), wd.read_values(args[1], "f32")
        M, N, K = (int(s) for s in args[2:5])
        cols = [B[j::N][:K] for j in range(N)]
        for i in range(M):
            row = A[i * K:(i + 1) * K]
            for j in range(N):
                print(repr(sum(p * q for p, q in zip(row, cols[j]))))
    elif k == "haxpy":
        x, y = wd.read_values(args[0], "f16"), wd.read_values(args[1], "f16")
        alpha = wd.f16_to_float(int(args[2], 0))
        # hma2: f32 fused a*x+y (exact here: f16 operands), then RNE to f16.
        out_f(wd.f16_to_float(wd.float_to_f16(
            wd.f32_fma(alpha, wd.f16_to_float(p), wd.f16_to_float(q))))
            for p, q in zip(x, y))
    elif k == "bscale":
        x, y = wd.read_values(args[0], "bf16"), wd.read_values(args[1], "bf16")
        s = wd.bf16_to_float(int(args[2], 0))
        res = []
        for p, q in zip(x, y):
            prod = wd.bf16_to_float(wd.float_to_bf16_trunc(
                wd.f32(wd.bf16_to_float(p) * s)))
            res.append(wd.bf16_to_float(wd.float_to_bf16_trunc(
                wd.f32(prod + wd.bf16_to_float(q)))))
        out_f(res)
    else:
        sys.exit("reference.py: unknown kernel '%s'" % k)


if __name__ == "__main__":
    main()
