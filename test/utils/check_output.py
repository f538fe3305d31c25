#!/usr/bin/env python3
"""check_output.py: compare wave-run --dump-* output with expected values.

Usage:
  wave-run ... --dump-f32 OFF:N | check_output.py EXPECTED
      [--type {f32,u32,f16,bf16}] [--rtol R] [--atol A]

EXPECTED is a text file with one value per line (as written by
reference.py). Actual values are read from stdin, one per line, in the
formats of formats/isa.md §7.3 ('NaN', 'inf', '-inf' included). For float types both
sides are rounded to binary32 first (a shortest f32 decimal string does not
read back as the same binary64), then compared exactly unless a tolerance is
given: |got - want| <= atol + rtol * |want|. NaN matches only NaN. u32 values
compare exactly. The counts must match. Prints 'OK: N values' on success;
otherwise lists up to 10 mismatches and exits 1.
"""
import argparse
import math
import os
import sys

sys.dont_write_bytecode = True  # keep the source tree free of __pycache__
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import wavedata  # noqa: E402


def parse(text, typ):
    text = text.strip()
    if typ == "u32":
        return int(text, 0)
    return wavedata.f32(float(text))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("expected")
    ap.add_argument("--type", default="f32", choices=["f32", "u32", "f16", "bf16"])
    ap.add_argument("--rtol", type=float, default=0.0)
    ap.add_argument("--atol", type=float, default=0.0)
    a = ap.parse_args()
    with open(a.expected) as f:
        want = [parse(l, a.type) for l in f if l.strip()]
    got = [parse(l, a.type) for l in sys.stdin if l.strip()]
    if len(got) != len(want):
        print("FAIL: got %d values, expected %d" % (len(got), len(want)))
        sys.exit(1)
    bad = []
    for i, (g, w) in enumerate(zip(got, want)):
        if a.type == "u32":
            ok = g == w
        elif math.isnan(w) or math.isnan(g):
            ok = math.isnan(w) and math.isnan(g)
        elif math.isinf(w) or math.isinf(g):
            ok = g == w
        else:
            ok = abs(g - w) <= a.atol + a.rtol * abs(w)
            if a.atol == 0 and a.rtol == 0:
                # exact: also distinguish +0 from -0
                ok = g == w and math.copysign(1, g) == math.copysign(1, w)
        if not ok:
            bad.append((i, g, w))
    if bad:
        for i, g, w in bad[:10]:
            print("FAIL: index %d: got %r, expected %r" % (i, g, w))
        print("FAIL: %d of %d values differ" % (len(bad), len(want)))
        sys.exit(1)
    print("OK: %d values" % len(want))


if __name__ == "__main__":
    main()
