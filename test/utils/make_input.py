#!/usr/bin/env python3
"""make_input.py: write a seeded random input buffer for wave-run --arg.

Usage:
  make_input.py OUT --type {u32,i32,f32,f16,bf16} --count N
                [--seed S] [--min LO] [--max HI] [--int]

Writes N little-endian values (f16/bf16: 2 bytes each, f32/u32/i32: 4 bytes)
drawn uniformly from [LO, HI] with Python's random.Random(S), so the same
arguments always give the same bytes. --int draws whole numbers (useful to
keep f32 sums exact). Defaults: seed 1, range [-1, 1] for floats and
[0, 1000] for integers. Standard library only.
"""
import argparse
import os
import sys

sys.dont_write_bytecode = True  # keep the source tree free of __pycache__
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import wavedata  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out")
    ap.add_argument("--type", required=True, choices=sorted(wavedata.SIZE))
    ap.add_argument("--count", type=int, required=True)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--min", type=float, default=None)
    ap.add_argument("--max", type=float, default=None)
    ap.add_argument("--int", action="store_true")
    a = ap.parse_args()
    is_int = a.type in ("u32", "i32")
    lo = a.min if a.min is not None else (0 if is_int else -1.0)
    hi = a.max if a.max is not None else (1000 if is_int else 1.0)
    vals = wavedata.random_values(a.type, a.count, a.seed, lo, hi, a.int)
    wavedata.write_values(a.out, a.type, vals)


if __name__ == "__main__":
    main()
