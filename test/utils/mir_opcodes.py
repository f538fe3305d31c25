#!/usr/bin/env python3
"""mir_opcodes.py: every MIR opcode is exercised by a test file.

Usage:
  mir_opcodes.py MIROps.def FILE.wir

Reads the opcode spellings from the MIR_OP rows of MIROps.def and checks that
each one appears as the opcode of some instruction in FILE.wir (after an
optional '%name =' on a line that is not a comment). Prints the missing ones
and exits 1, or prints 'OK: N opcodes'.
"""
import re
import sys


def main():
    if len(sys.argv) != 3:
        print("usage: mir_opcodes.py MIROps.def FILE.wir", file=sys.stderr)
        return 2
    with open(sys.argv[1], encoding="utf-8") as f:
        names = re.findall(r'^MIR_OP\(\s*\w+\s*,\s*"([a-z0-9_]+)"', f.read(), re.M)
    used = set()
    with open(sys.argv[2], encoding="utf-8") as f:
        for line in f:
            line = line.split(";", 1)[0].strip()
            m = re.match(r"(?:%[\w.]+\s*=\s*)?([a-z0-9_]+)", line)
            if m:
                used.add(m.group(1))
    missing = [n for n in names if n not in used]
    if missing:
        print("opcodes not covered: " + " ".join(missing))
        return 1
    print(f"OK: {len(names)} opcodes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
