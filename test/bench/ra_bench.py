#!/usr/bin/env python3
# ===- ra_bench.py - wave-ra quality and compile time ---------------------=== #
#
# Two tables:
#  1. Quality: for every MIR kernel of test/lit/ra/e2e (after wave-opt -O2),
#     wave-ra --stats at --max-registers 32 and 16: instructions, registers
#     used, values spilled, spill stores + reloads, copies coalesced.
#  2. Compile time: gen_mir.py kernels of growing size (default 1k, 10k,
#     100k instructions) through wave-opt -O2, then wave-ra timed alone
#     (wall, us per input instruction, peak RSS); wave-opt -O2 on the same
#     input is timed in the same run as the baseline, so the ratio column
#     says how the allocator's cost compares with the optimizer's. A flat
#     us/inst column means near-linear growth.
#
#   test/bench/ra_bench.py --bindir build/bin
#   test/bench/ra_bench.py --sizes 10000,100000 --repeat 3
#
# ===----------------------------------------------------------------------=== #
import argparse
import glob
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))


def run_timed(cmd, stdin_path=None, stdout_path=None):
    """Runs cmd; returns (seconds, peak RSS MiB, stderr text)."""
    fin = open(stdin_path, "rb") if stdin_path else subprocess.DEVNULL
    fout = open(stdout_path, "wb") if stdout_path else subprocess.DEVNULL
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdin=fin, stdout=fout,
                            stderr=subprocess.PIPE)
    err = proc.stderr.read().decode(errors="replace")
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    for f in (fin, fout):
        if f is not subprocess.DEVNULL:
            f.close()
    code = os.waitstatus_to_exitcode(status)
    if code != 0:
        sys.exit("error: %s exited with %d:\n%s" % (" ".join(cmd), code,
                                                    err[:2000]))
    return wall, usage.ru_maxrss / 1024.0, err


def stats_of(text):
    """Sums wave-ra --stats rows over the kernels of one module."""
    out = {}
    for line in text.splitlines():
        parts = line.split(None, 1)
        if len(parts) == 2 and parts[0].isdigit():
            key = parts[1].split(" (")[0]
            out[key] = out.get(key, 0) + int(parts[0])
    return out


def quality(bindir, tmp):
    print("## Quality: wave-opt -O2 | wave-ra --max-registers R --stats\n")
    print("| kernel | R | instructions | registers | spilled values | "
          "spill stores+reloads | copies coalesced |")
    print("|---|---|---|---|---|---|---|")
    for wir in sorted(glob.glob(os.path.join(ROOT, "test", "lit", "ra",
                                             "e2e", "*.wir"))):
        opt = os.path.join(tmp, "q.wir")
        run_timed([os.path.join(bindir, "wave-opt"), "-O2", wir, "-o", opt])
        for regs in (32, 16):
            _, _, err = run_timed([os.path.join(bindir, "wave-ra"), "--stats",
                                   "--max-registers", str(regs), opt])
            s = stats_of(err)
            print("| %s | %d | %d | %d | %d | %d | %d |" % (
                os.path.basename(wir)[:-4], regs, s.get("instructions", 0),
                s.get("registers used", 0),
                s.get("values spilled to local memory", 0),
                s.get("spill stores", 0) + s.get("spill reloads", 0),
                s.get("copies coalesced", 0)))
    print()


def scaling(bindir, tmp, sizes, repeat):
    print("## Compile time on generated kernels (best of %d)\n" % repeat)
    print("| size | input insts | wave-opt -O2 s | wave-ra s | wave-ra us/inst "
          "| wave-ra / wave-opt | wave-ra peak RSS MiB | registers | spilled |")
    print("|---|---|---|---|---|---|---|---|---|")
    for n in sizes:
        src = os.path.join(tmp, "g%d.wir" % n)
        with open(src, "wb") as f:
            subprocess.run([sys.executable, os.path.join(HERE, "gen_mir.py"),
                            str(n)], stdout=f, check=True)
        opt = os.path.join(tmp, "g%d.opt.wir" % n)
        t_opt = min(run_timed([os.path.join(bindir, "wave-opt"), "-O2", src,
                               "-o", opt])[0] for _ in range(repeat))
        with open(opt) as f:
            insts = sum(1 for line in f if line.startswith("  "))
        best, rss, err = None, 0.0, ""
        for _ in range(repeat):
            t, r, e = run_timed([os.path.join(bindir, "wave-ra"), "--stats",
                                 opt, "-o", os.path.join(tmp, "g.wave")])
            if best is None or t < best:
                best, rss, err = t, r, e
        s = stats_of(err)
        print("| %d | %d | %.3f | %.3f | %.2f | %.2f | %.1f | %d | %d |" % (
            n, insts, t_opt, best, 1e6 * best / max(insts, 1),
            best / t_opt if t_opt else 0.0, rss, s.get("registers used", 0),
            s.get("values spilled to local memory", 0)))
    print()


def main():
    ap = argparse.ArgumentParser(description="wave-ra quality and speed")
    ap.add_argument("--bindir", default=os.path.join(ROOT, "build", "bin"))
    ap.add_argument("--sizes", default="1000,10000,100000")
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--skip-quality", action="store_true")
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        if not a.skip_quality:
            quality(a.bindir, tmp)
        scaling(a.bindir, tmp, [int(s) for s in a.sizes.split(",")],
                a.repeat)


if __name__ == "__main__":
    main()
