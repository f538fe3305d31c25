#!/usr/bin/env python3
"""mir_roundtrip.py: the MIR round-trip invariant over the whole repository.

Usage:
  mir_roundtrip.py WAVE_OPT SOURCE_DIR

For every .wir file under SOURCE_DIR (build directories, hidden directories
and negative tests named bad-*.wir excluded) checks that printing is a fixed
point: P = `wave-opt -O0 FILE` succeeds and `wave-opt -O0` of P is P again
(print(parse(print(x))) == print(x); formats/mir.md, "Printing").

For every fenced ```mir block of formats/mir.md (in the source tree), which is written
in canonical form, checks the stronger print(parse(x)) == x.

Prints one line per failure and a summary 'OK: N files, M examples'; exits 1
if anything failed.
"""
import os
import re
import subprocess
import sys


def wave_opt(tool, text):
    r = subprocess.run([tool, "-O0", "-"], input=text.encode(),
                       capture_output=True)
    return r.returncode, r.stdout.decode(), r.stderr.decode()


def wir_files(root):
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames
                             if not d.startswith(".") and not d.startswith("build"))
        for f in sorted(filenames):
            if f.endswith(".wir") and not f.startswith("bad-"):
                yield os.path.join(dirpath, f)


def main():
    if len(sys.argv) != 3:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    tool, root = sys.argv[1], sys.argv[2]
    failures = 0
    files = 0
    for path in wir_files(root):
        files += 1
        rel = os.path.relpath(path, root)
        with open(path, encoding="utf-8") as f:
            src = f.read()
        rc, once, err = wave_opt(tool, src)
        if rc != 0:
            print(f"FAIL {rel}: wave-opt -O0 exited {rc}: {err.strip()}")
            failures += 1
            continue
        rc, twice, err = wave_opt(tool, once)
        if rc != 0 or twice != once:
            print(f"FAIL {rel}: printed MIR does not read back identically")
            failures += 1
    examples = 0
    doc = os.path.join(root, "formats", "mir.md")
    with open(doc, encoding="utf-8") as f:
        blocks = re.findall(r"^```mir\n(.*?)^```$", f.read(), re.S | re.M)
    for i, block in enumerate(blocks, 1):
        examples += 1
        rc, out, err = wave_opt(tool, block)
        if rc != 0:
            print(f"FAIL formats/mir.md example {i}: exited {rc}: {err.strip()}")
            failures += 1
            continue
        # Comments are not kept; compare without comment lines.
        want = "".join(l + "\n" for l in block.splitlines()
                       if not l.lstrip().startswith(";"))
        if out != want:
            print(f"FAIL formats/mir.md example {i}: not in canonical form")
            for a, b in zip(want.splitlines(), out.splitlines()):
                if a != b:
                    print(f"  doc:     {a}\n  printed: {b}")
                    break
            failures += 1
    if failures:
        print(f"{failures} failed")
        return 1
    print(f"OK: {files} files, {examples} examples")
    return 0


if __name__ == "__main__":
    sys.exit(main())
