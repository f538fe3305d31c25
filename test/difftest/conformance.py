#!/usr/bin/env python3
"""conformance.py - the conformance kernels on an external executor, against wave-run.

    conformance.py --executor 'CMD' [--targets gfx942,gfx1100,gfx1200]
                   [--wave-as BIN] [--wave-run BIN] [--filter TEXT]

Every test under test/conformance/ that assembles its own source and checks
what `wave-run` dumps (a `RUN: wave-as %s -o %t.wbin` line and a `RUN:
wave-run %t.wbin ... | FileCheck` line) is run twice per target: by
wave-run and by the executor (difftest.py's contract: `GFX=gfxNNN CMD
k.wbin --wave-width W ARGS...`, exit 125 for what it cannot run), with the
test's own arguments. The two outputs and exit statuses must be identical.
The wave width is the target's (64 on gfx9, 32 on gfx10+) in place of the
test's (mostly 8): the expected values in the test files hold for their
width only, so this compares the executors with each other, not with the
files. Tests expecting a fault, a usage error or a step limit (`not`,
expect_exit.py) are not run: the GPU path's faults are not wave-run's
(formats/amdgcn-abi.md). Runs with --stats or --max-instructions are
skipped (the executor counts no instructions).

Prints one line per test and target that disagrees, then the counts;
exits 1 if any disagreed or the executor failed.
"""
import argparse
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
RUN = re.compile(r"^\s*[;#]\s*RUN:\s*(.*)$")
UNSUPPORTED_FLAGS = ("--stats", "--max-instructions")


def wave_width(target):
    """The wave width of TARGET's code objects (formats/amdgcn-abi.md)."""
    return 64 if target.startswith("gfx9") else 32


def run_lines(path):
    """The RUN: commands of PATH, continuation lines joined."""
    out, cur = [], ""
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            m = RUN.match(line)
            if not m:
                continue
            text = m.group(1).rstrip()
            if text.endswith("\\"):
                cur += text[:-1] + " "
                continue
            out.append(cur + text)
            cur = ""
    return out


def runs_of(path):
    """The wave-run argument lists (without the wbin and --wave-width) of
    the checked wave-run commands of PATH, if PATH assembles itself to
    %t.wbin; [] otherwise."""
    lines = run_lines(path)
    if "wave-as %s -o %t.wbin" not in lines:
        return []
    runs = []
    for line in lines:
        cmd = line.split("|")[0].split()
        if cmd[:2] != ["wave-run", "%t.wbin"] or "FileCheck" not in line:
            continue
        args, i = [], 2
        while i < len(cmd):
            if cmd[i] == "--wave-width":
                i += 2
                continue
            args.append(cmd[i])
            i += 1
        runs.append(args)
    return runs


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--executor", required=True,
                    help="command that speaks wave-run's command line")
    ap.add_argument("--targets", default="gfx942,gfx1100,gfx1200")
    ap.add_argument("--wave-as", default=shutil.which("wave-as") or "wave-as")
    ap.add_argument("--wave-run", default=shutil.which("wave-run") or "wave-run")
    ap.add_argument("--filter", default="", help="only tests whose path contains TEXT")
    ap.add_argument("--timeout", type=float, default=600, help="per executor run (s)")
    a = ap.parse_args()
    wave_as = os.path.abspath(a.wave_as)
    counts = {t: {"agreed": 0, "disagreed": 0, "skipped": 0, "executor-errors": 0}
              for t in a.targets.split(",")}
    tests = []
    for dirpath, dirnames, filenames in os.walk(os.path.join(ROOT, "test", "conformance")):
        dirnames.sort()
        for name in sorted(filenames):
            path = os.path.join(dirpath, name)
            if name.endswith(".wave") and a.filter in path:
                tests.append(path)
    with tempfile.TemporaryDirectory() as tmp:
        for path in tests:
            rel = os.path.relpath(path, ROOT)
            runs = runs_of(path)
            if not runs:
                continue
            wbin = os.path.join(tmp, "k.wbin")
            if subprocess.run([wave_as, path, "-o", wbin], capture_output=True).returncode:
                print(f"{rel}: wave-as failed")
                sys.exit(1)
            for args in runs:
                args = [x.replace("%S", os.path.dirname(path)).replace("%s", path)
                        for x in args]
                for target, c in counts.items():
                    if any(f in args for f in UNSUPPORTED_FLAGS):
                        c["skipped"] += 1
                        continue
                    w = ["k.wbin", "--wave-width", str(wave_width(target))] + args
                    ref = subprocess.run([a.wave_run] + w, cwd=tmp, capture_output=True)
                    env = dict(os.environ, GFX=target, WAVE_AS=wave_as)
                    ex = subprocess.run(shlex.split(a.executor) + w, cwd=tmp, env=env,
                                        capture_output=True, timeout=a.timeout)
                    shown = f"{rel} ({' '.join(args)}) on {target}"
                    if ex.returncode == 125:
                        c["skipped"] += 1
                    elif ex.returncode != 0 and ex.returncode != ref.returncode:
                        c["executor-errors"] += 1
                        print(f"{shown}: executor exit {ex.returncode}: "
                              f"{ex.stderr.decode(errors='replace').strip()[-300:]}")
                    elif (ex.returncode, ex.stdout) != (ref.returncode, ref.stdout):
                        c["disagreed"] += 1
                        print(f"{shown}: disagreed (wave-run exit {ref.returncode}, "
                              f"executor exit {ex.returncode})")
                    else:
                        c["agreed"] += 1
    bad = 0
    for target, c in counts.items():
        print(f"{target}: " + ", ".join(f"{k} {v}" for k, v in c.items()))
        bad += c["disagreed"] + c["executor-errors"]
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
