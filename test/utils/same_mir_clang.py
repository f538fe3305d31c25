#!/usr/bin/env python3
"""same_mir_clang.py: C++ kernels give the same MIR through both C++ parsers.

Usage: same_mir_clang.py --bindir DIR FILE_OR_GLOB...

For every C++ file it runs `wave-fe FILE | wave-opt -O2` with the dialect's
own parser and with `--cpp-frontend=clang`, drops the source_filename line
and the !loc(...) positions (the parsers may point at different tokens of
one construct), and compares the two texts. Prints 'same: NAME' per file
and a unified diff for the first file that differs (exit 1). Standard
library only.
"""
import argparse
import difflib
import glob
import os
import re
import subprocess
import sys


def mir(bindir, source, extra):
    fe = subprocess.run([os.path.join(bindir, "wave-fe"), *extra, source],
                        capture_output=True, check=False)
    if fe.returncode != 0:
        sys.exit(f"{source}: wave-fe {' '.join(extra)} failed:\n"
                 f"{fe.stderr.decode()}")
    opt = subprocess.run([os.path.join(bindir, "wave-opt"), "-O2"],
                         input=fe.stdout, capture_output=True, check=True)
    text = opt.stdout.decode()
    text = re.sub(r"^source_filename.*\n", "", text, flags=re.M)
    return re.sub(r" !loc\(\d+, \d+\)", "", text)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bindir", required=True)
    ap.add_argument("files", nargs="+")
    a = ap.parse_args()
    files = sorted(f for pat in a.files for f in glob.glob(pat))
    for f in files:
        builtin, clang = mir(a.bindir, f, []), mir(a.bindir, f,
                                                  ["--cpp-frontend=clang"])
        if builtin != clang:
            sys.stdout.writelines(difflib.unified_diff(
                builtin.splitlines(True), clang.splitlines(True),
                "builtin", "clang"))
            sys.exit(f"{f}: the MIR differs")
        print("same:", os.path.basename(f))
    print("files:", len(files))


if __name__ == "__main__":
    main()
