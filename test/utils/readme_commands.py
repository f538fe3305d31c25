#!/usr/bin/env python3
"""readme_commands.py: run every command of README.md's shell blocks as written.

Usage: readme_commands.py SOURCE_DIR BINDIR

Takes the ```sh blocks of README.md (in SOURCE_DIR) in order, joins lines ending
in a backslash, drops comments, and runs each command as doc_commands.py
says (examples/Makefile gets WAVE_BIN=BINDIR and OUT in the scratch
directory). Prints one line per command ("ok", "skip" or "FAIL" with its
output) and a summary; exits 1 on any failure.
"""
import os
import re
import sys

from doc_commands import Runner, scratch, tool_env


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
    src, bindir = argv[1], argv[2]
    env = tool_env(bindir)
    runner = Runner()
    with scratch(src) as tmp:
        env["OUT"] = os.path.join(tmp, "build", "examples")
        for cmd in commands(os.path.join(src, "README.md")):
            runner.run(cmd, tmp, env)
    return runner.summary("README commands")


if __name__ == "__main__":
    sys.exit(main(sys.argv))
