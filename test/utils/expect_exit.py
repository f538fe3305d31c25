#!/usr/bin/env python3
"""expect_exit.py: run a command and succeed only if it exits with CODE.

Usage: expect_exit.py CODE COMMAND [ARGS...]

lit's `not` accepts any non-zero status; the WAVE tools distinguish 1 (bad
input / kernel fault), 2 (usage) and 3 (instruction limit), so tests that
care about the exact status wrap the command with this script. The
command's stdout and stderr pass through unchanged; a mismatch adds one line
'expect_exit: exit status N, expected CODE' on stderr and exits 1.
"""
import subprocess
import sys


def main():
    if len(sys.argv) < 3:
        sys.exit("usage: expect_exit.py CODE COMMAND [ARGS...]")
    want = int(sys.argv[1])
    sys.stdout.flush()
    got = subprocess.call(sys.argv[2:])
    if got != want:
        sys.stderr.write("expect_exit: exit status %d, expected %d\n" % (got, want))
        sys.exit(1)


if __name__ == "__main__":
    main()
