#!/usr/bin/env python3
# ===- opt_scaling.py - How wave-opt's compile time grows with size -------=== #
#
# Generates MIR kernels of several sizes with gen_mir.py, runs wave-opt on
# each (-O2, -O0 = parse + verify + print, and every -O2 pass alone with
# --passes=NAME) and prints one table row per (size, pipeline): wall time,
# time per input instruction and peak resident memory. Peak RSS comes from
# the resource module (ru_maxrss of the waited-for child), so no external
# tool is needed. A flat "us/inst" column means near-linear compile time.
#
#   test/bench/opt_scaling.py --wave-opt build/bin/wave-opt
#   test/bench/opt_scaling.py --sizes 10000,100000 --only O2,O0 --repeat 3
#
# ===----------------------------------------------------------------------=== #
import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
# The passes of -O2 (optLevelPasses in PassPipeline.cpp); those that this
# wave-opt does not list in --print-passes are skipped.
PASSES = ["simplifycfg", "mem2reg", "sccp", "licm", "strength-reduce", "cse",
          "dce"]


def run_once(cmd):
    """Runs cmd with stdout discarded; returns (seconds, peak RSS in MiB)."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE)
    _, usage = os.wait4(proc.pid, 0)[1:]
    wall = time.perf_counter() - start
    err = proc.stderr.read().decode(errors="replace")
    proc.stderr.close()
    status = os.waitstatus_to_exitcode(_)
    if status != 0:
        sys.exit("error: %s exited with %d:\n%s" % (" ".join(cmd), status,
                                                    err[:2000]))
    return wall, usage.ru_maxrss / 1024.0


def main():
    ap = argparse.ArgumentParser(
        description="Time wave-opt on generated kernels of growing size")
    ap.add_argument("--wave-opt", default=os.path.join(
        HERE, "..", "..", "build", "bin", "wave-opt"))
    ap.add_argument("--sizes", default="10000,100000,1000000",
                    help="comma-separated instruction counts")
    ap.add_argument("--only", default="",
                    help="comma-separated subset of O2,O0,<pass names>")
    ap.add_argument("--repeat", type=int, default=1,
                    help="runs per cell; the fastest is reported")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--keep", help="directory to keep the kernels in")
    args = ap.parse_args()

    listed = subprocess.run([args.wave_opt, "--print-passes"],
                            capture_output=True, text=True, check=True).stdout
    registered = {line.split()[0] for line in listed.splitlines() if line}
    configs = [("O2", ["-O2"]), ("O0", ["-O0"])] + [
        (p, ["--passes=" + p]) for p in PASSES if p in registered]
    if args.only:
        want = args.only.split(",")
        configs = [c for c in configs if c[0] in want]
    sizes = [int(s) for s in args.sizes.split(",")]
    workdir = args.keep or tempfile.mkdtemp(prefix="wave-opt-scaling-")
    os.makedirs(workdir, exist_ok=True)

    print("%-16s %9s %9s %10s %9s %9s" % ("pipeline", "size", "insts",
                                          "wall (s)", "us/inst",
                                          "RSS (MiB)"))
    for size in sizes:
        path = os.path.join(workdir, "k%d.wir" % size)
        subprocess.run([sys.executable, os.path.join(HERE, "gen_mir.py"),
                        str(size), "--seed", str(args.seed), "-o", path],
                       check=True)
        with open(path) as f:
            insts = sum(1 for line in f if line.startswith("  "))
        for name, flags in configs:
            best = None
            for _ in range(args.repeat):
                wall, rss = run_once([args.wave_opt] + flags + [path])
                if best is None or wall < best[0]:
                    best = (wall, rss)
            print("%-16s %9d %9d %10.3f %9.3f %9.1f" % (
                name, size, insts, best[0], best[0] / insts * 1e6, best[1]),
                flush=True)
        if not args.keep:
            os.remove(path)
    if not args.keep:
        os.rmdir(workdir)


if __name__ == "__main__":
    main()
