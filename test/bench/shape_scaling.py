#!/usr/bin/env python3
# ===- shape_scaling.py - Compile time on the shapes that once exploded ----=== #
#
# Inputs of growing size in the shapes where compile time was once
# quadratic or worse (issue 24): a straight-line kernel of N lines through
# wave-fe, N nested ifs through wave-opt --passes=simplifycfg and -O2, a loop
# nest of depth N through --passes=loop-unroll and -O2. For each shape the
# table gives wall time and peak memory per size, and "x base/elem": time per
# element relative to the shape's smallest size measured in the same run
# (about 1 for linear growth, about N/N0 for quadratic).
#
#   test/bench/shape_scaling.py --bindir build/bin
#   test/bench/shape_scaling.py --only fe --scale 4
#
# ===----------------------------------------------------------------------=== #
import argparse
import os
import subprocess
import sys
import tempfile
import time


def straight_py(n):
    lines = "".join(f"    y = y + {i % 7 + 1}\n" for i in range(n))
    return f"@kernel\ndef k(out: u32[:], x: u32):\n    y = x\n{lines}    out[0] = y\n"


def nested_ifs(n):
    o = ["kernel @k(ptr<device> %out, u32 %x) {", "^entry:", "  br ^c0", ""]
    for i in range(n):
        o += [f"^c{i}:", f"  %p{i} = icmp lt u32 %x, {i + 1}",
              f"  condbr %p{i}, ^c{i + 1}, ^e{i}", ""]
    o += [f"^c{n}:", "  store u32 %x, ptr<device> %out", f"  br ^e{n - 1}", ""]
    for i in range(n - 1, -1, -1):
        o += [f"^e{i}:", f"  br {'^e%d' % (i - 1) if i else '^exit'}", ""]
    return "\n".join(o + ["^exit:", "  ret", "}"]) + "\n"


def loop_nest(d):
    o = ["kernel @k(ptr<device> %out, u32 %n) {", "^entry:", "  br ^h0", ""]
    for k in range(d):
        pred = "^entry" if k == 0 else f"^b{k - 1}"
        o += [f"^h{k}:", f"  %i{k} = phi u32 [0, {pred}], [%n{k}, ^l{k}]",
              f"  %c{k} = icmp lt u32 %i{k}, 2", f"  condbr %c{k}, ^b{k}, ^x{k}", ""]
        body = [f"  br ^h{k + 1}"] if k < d - 1 else \
            [f"  store u32 %i{k}, ptr<device> %out", f"  br ^l{k}"]
        o += [f"^b{k}:"] + body + [""]
        o += [f"^l{k}:", f"  %n{k} = add u32 %i{k}, 1", f"  br ^h{k}", ""]
        o += [f"^x{k}:", f"  br {'^l%d' % (k - 1) if k else '^exit'}", ""]
    return "\n".join(o + ["^exit:", "  ret", "}"]) + "\n"


# (name, generator, file suffix, tool, arguments, sizes)
SHAPES = [
    ("fe", straight_py, ".py", "wave-fe", [], [25000, 50000, 100000, 200000]),
    ("ifs-simplifycfg", nested_ifs, ".wir", "wave-opt", ["--passes=simplifycfg"],
     [500, 1000, 2000, 4000]),
    ("ifs-O2", nested_ifs, ".wir", "wave-opt", ["-O2"], [500, 1000, 2000, 4000]),
    ("loops-unroll", loop_nest, ".wir", "wave-opt", ["--passes=loop-unroll"],
     [100, 200, 400, 800]),
    ("loops-O2", loop_nest, ".wir", "wave-opt", ["-O2"], [250, 500, 1000, 2000]),
]


def run(cmd):
    start = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    err = p.communicate()[1].decode(errors="replace")
    wall = time.perf_counter() - start
    if p.returncode:
        sys.exit(f"{' '.join(cmd)} failed:\n{err}")
    return wall


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--bindir", default="build/bin")
    ap.add_argument("--only", default="", help="comma-separated shape names")
    ap.add_argument("--scale", type=float, default=1.0, help="multiply sizes")
    a = ap.parse_args()
    only = set(filter(None, a.only.split(",")))
    print(f"{'shape':18} {'size':>8} {'seconds':>9} {'x base/elem':>12}")
    with tempfile.TemporaryDirectory() as tmp:
        for name, gen, suffix, tool, args, sizes in SHAPES:
            if only and name not in only:
                continue
            base = None
            for n in (int(s * a.scale) for s in sizes):
                path = os.path.join(tmp, f"{name}-{n}{suffix}")
                with open(path, "w") as f:
                    f.write(gen(n))
                wall = run([os.path.join(a.bindir, tool)] + args + [path, "-o", os.devnull])
                per = wall / n
                base = base or per
                print(f"{name:18} {n:8} {wall:9.3f} {per / base:12.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
