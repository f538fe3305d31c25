#!/usr/bin/env python3
"""same_as_pipe.py: wave-compiler's output equals the pipe `-v` prints.

Usage: same_as_pipe.py [--opts=OPT,OPT,...] [--stdin] KERNEL...

For each KERNEL it runs `wave-compiler -v OPTS KERNEL -o OUT` (reading the
kernel from stdin with --stdin), takes the pipe of single tools that -v
printed on stderr, runs that pipe with bash (pipefail) writing OUT2, and
compares the two outputs byte for byte. The pipe is checked to be the
four-tool form too, so a -v that printed nothing would not pass. The tools
come from PATH (lit puts the built ones first). Prints nothing and exits 0
when every kernel agrees; otherwise says which differ and exits 1.
"""
import os
import subprocess
import sys
import tempfile


def main(argv):
    opts, stdin, kernels = [], False, []
    for a in argv[1:]:
        if a.startswith("--opts="):
            opts = a[len("--opts="):].split(",")
            # --workgroup-size=64,2 was split at its comma: join it back.
            joined = []
            for o in opts:
                if joined and not o.startswith("-"):
                    joined[-1] += "," + o
                else:
                    joined.append(o)
            opts = joined
        elif a == "--stdin":
            stdin = True
        else:
            kernels.append(a)
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        for k in kernels:
            one = os.path.join(tmp, "compiler.out")
            two = os.path.join(tmp, "pipe.out")
            src = "-" if stdin else k
            with open(k, "rb") as fh:
                r = subprocess.run(["wave-compiler", "-v", *opts, src, "-o", one],
                                   stdin=fh, capture_output=True)
            if r.returncode:
                sys.stderr.write(r.stderr.decode())
                print(f"FAIL {k}: wave-compiler exited {r.returncode}")
                failed += 1
                continue
            pipe = r.stderr.decode().strip()
            if not pipe.startswith("wave-fe ") or pipe.count("\n"):
                print(f"FAIL {k}: -v printed {pipe!r}, not one pipe")
                failed += 1
                continue
            pipe = pipe.replace(f"-o {one}", f"-o {two}")
            if f"-o {two}" not in pipe:
                pipe += f" -o {two}"
            with open(k, "rb") as fh:
                p = subprocess.run(["bash", "-o", "pipefail", "-c", pipe],
                                   stdin=fh, capture_output=True)
            if p.returncode:
                sys.stderr.write(p.stderr.decode())
                print(f"FAIL {k}: the pipe exited {p.returncode}: {pipe}")
                failed += 1
                continue
            a, b = open(one, "rb").read(), open(two, "rb").read()
            if a != b or not a:
                print(f"FAIL {k}: {len(a)} bytes from wave-compiler, "
                      f"{len(b)} from {pipe}")
                failed += 1
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
