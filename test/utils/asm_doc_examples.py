#!/usr/bin/env python3
"""asm_doc_examples.py - assemble the examples of formats/wave-asm.md.

Usage: asm_doc_examples.py WAVE-AS MARKDOWN

Every fenced block opened with ```wave is assembled with WAVE-AS (blocks
without a .kernel or .func directive are wrapped in one; blocks that declare
an .extern are assembled with -c, as objects). Prints one line per block
and exits 1 if any block fails to assemble or if there is no block at all.
"""
import re
import subprocess
import sys


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    wave_as, doc = sys.argv[1], sys.argv[2]
    with open(doc, encoding="utf-8") as f:
        text = f.read()
    blocks = re.findall(r"^```wave\n(.*?)^```", text, re.S | re.M)
    failed = 0
    for i, block in enumerate(blocks):
        unit = ".kernel" in block or ".func" in block
        src = block if unit else ".kernel doc\n" + block + ".end\n"
        obj = ["-c"] if ".extern" in block else []
        r = subprocess.run([wave_as, *obj, "--dump-hex", "-"], input=src.encode(),
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        ok = r.returncode == 0
        failed += not ok
        print(f"block {i}: {'ok' if ok else 'FAILED'}")
        if not ok:
            print(r.stderr.decode())
    if not blocks:
        print("no ```wave blocks found")
        return 1
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
