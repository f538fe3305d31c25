#!/usr/bin/env python3
"""Assembles every WAVE source under the given directories into OUT_DIR as
seed .wbin files for a fuzzer (sources wave-as rejects are left out).

usage: assemble_corpus.py WAVE_AS OUT_DIR DIR..."""
import os, subprocess, sys


def main():
    wave_as, out = sys.argv[1:3]
    os.makedirs(out, exist_ok=True)
    made = 0
    for top in sys.argv[3:]:
        for root, _, files in os.walk(top):
            for name in sorted(files):
                if not name.endswith(".wave"):
                    continue
                dst = os.path.join(out, f"{made}.wbin")
                r = subprocess.run([wave_as, os.path.join(root, name), "-o", dst],
                                   capture_output=True)
                made += r.returncode == 0
    print(f"assembled {made} seeds")
    return 0 if made else 1


if __name__ == "__main__":
    sys.exit(main())
