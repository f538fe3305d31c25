#!/usr/bin/env python3
"""roundtrip.py - wave-as -> wave-dis -> wave-as must be byte-identical.

Usage: roundtrip.py BINDIR REPOROOT

Finds every .wave file under REPOROOT (skipping build*/ and hidden
directories), assembles it, disassembles the object, re-assembles the text
and compares the two objects byte for byte. Files expected not to assemble
are skipped by convention: their name starts with "bad-", or they contain a
"RUN: not wave-as" line. So are sources of relocatable objects (an
`.extern` or `.global` directive, or no kernel): wave-dis shows a linked
executable, and lit/dis/roundtrip-linked.test links such a pair first. Prints one line per failure and a summary; exits 1
if any file failed.
"""
import os
import re
import subprocess
import sys
import tempfile

EXPECTED_BAD = re.compile(r"RUN:.*\bnot\s+wave-as\b")
OBJECT_DIRECTIVE = re.compile(r"^\s*\.(extern|global)\b", re.M)
KERNEL_DIRECTIVE = re.compile(r"^\s*\.kernel\b", re.M)


def is_object(path):
    """Whether PATH is the source of a relocatable object (wave-as -c)."""
    with open(path, "rb") as f:
        text = f.read().decode("utf-8", "replace")
    return bool(OBJECT_DIRECTIVE.search(text)) or not KERNEL_DIRECTIVE.search(text)


def wave_files(root):
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames
                             if not d.startswith(".") and not d.startswith("build"))
        for name in sorted(filenames):
            if name.endswith(".wave"):
                yield os.path.join(dirpath, name)


def expected_to_fail(path):
    if os.path.basename(path).startswith("bad-"):
        return True
    with open(path, "rb") as f:
        text = f.read().decode("utf-8", "replace")
    return any(EXPECTED_BAD.search(line) for line in text.splitlines())


def run(cmd):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    bindir, root = sys.argv[1], sys.argv[2]
    wave_as = os.path.join(bindir, "wave-as")
    wave_dis = os.path.join(bindir, "wave-dis")
    checked = skipped = 0
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        a, text, b = (os.path.join(tmp, n) for n in ("a.wbin", "a.wave", "b.wbin"))
        for path in wave_files(root):
            rel = os.path.relpath(path, root)
            if expected_to_fail(path) or is_object(path):
                skipped += 1
                continue
            r = run([wave_as, "-W", "none", path, "-o", a])
            if r.returncode != 0:
                failures.append(f"{rel}: wave-as failed:\n{r.stderr.decode()}")
                continue
            r = run([wave_dis, a, "-o", text])
            if r.returncode != 0:
                failures.append(f"{rel}: wave-dis failed:\n{r.stderr.decode()}")
                continue
            r = run([wave_as, "-W", "none", text, "-o", b])
            if r.returncode != 0:
                failures.append(f"{rel}: re-assembly failed:\n{r.stderr.decode()}")
                continue
            with open(a, "rb") as fa, open(b, "rb") as fb:
                if fa.read() != fb.read():
                    failures.append(f"{rel}: round trip changed the bytes")
                    continue
            checked += 1
    for f in failures:
        print("FAIL: " + f)
    print(f"round trip: {checked} ok, {len(failures)} failed, {skipped} skipped")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
