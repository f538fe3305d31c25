#!/usr/bin/env python3
"""readme_commands.py: run every command of README.md's shell blocks as written.

Usage: readme_commands.py SOURCE_DIR BINDIR

Takes the ```sh blocks of README.md (in SOURCE_DIR) in order, joins lines ending
in a backslash, drops comments, and runs each command with bash (pipefail)
in a scratch directory that holds copies of examples/ and test/lit/ (the
paths the commands name), with BINDIR first on PATH. A command that needs
what a test machine lacks is skipped, and said so: an AMD GPU
(--device=hsa, --list-devices, the gpu-amd suite), or building and
installing the project itself (scripts/, cmake, ninja), which the suite's
own build already does. examples/Makefile gets WAVE_BIN=BINDIR and OUT in
the scratch directory. Every other command must exit 0. Prints one line
per command ("ok", "skip" or "FAIL" with its output) and a summary; exits 1
on any failure.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

SKIP = [
    (re.compile(r"--device=hsa|--list-devices|gpu-amd|hsa-examples"), "needs an AMD GPU"),
    (re.compile(r"^(bash scripts/|cmake |ninja )"),
     "builds the project (the suite's own build and examples/ tests do)"),
]


def commands(readme):
    text = open(readme, encoding="utf-8").read()
    for block in re.findall(r"^```sh\n(.*?)^```", text, re.M | re.S):
        line = ""
        for raw in block.splitlines():
            if raw.rstrip().endswith("\\"):
                line += raw.rstrip()[:-1] + " "
                continue
            line += raw
            cmd = line.strip()
            line = ""
            if cmd and not cmd.startswith("#"):
                yield cmd


def main(argv):
    if len(argv) != 3:
        sys.exit(__doc__)
    src, bindir = argv[1], os.path.abspath(argv[2])
    env = dict(os.environ, PATH=bindir + os.pathsep + os.environ["PATH"],
               WAVE_BIN=bindir)
    ran = skipped = 0
    failed = []
    with tempfile.TemporaryDirectory() as tmp:
        shutil.copytree(os.path.join(src, "examples"), os.path.join(tmp, "examples"))
        shutil.copytree(os.path.join(src, "test", "lit"), os.path.join(tmp, "test", "lit"))
        env["OUT"] = os.path.join(tmp, "build", "examples")
        for cmd in commands(os.path.join(src, "README.md")):
            why = next((w for r, w in SKIP if r.search(cmd)), None)
            if why:
                print(f"skip: {cmd}  ({why})")
                skipped += 1
                continue
            r = subprocess.run(["bash", "-o", "pipefail", "-c", cmd], cwd=tmp, env=env,
                               capture_output=True, text=True, timeout=600)
            ran += 1
            if r.returncode:
                failed.append(cmd)
                print(f"FAIL: {cmd}\n  exit {r.returncode}\n{r.stdout}{r.stderr}")
            else:
                print(f"ok: {cmd}")
    print(f"README commands: {ran} ran, {len(failed)} failed, {skipped} skipped")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
