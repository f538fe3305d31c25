#!/usr/bin/env python3
"""kernel_doc_examples.py: compile every example of formats/kernel-languages.md.

Usage: kernel_doc_examples.py MARKDOWN --bindir DIR

Every fenced block tagged python, cpp, rust or typescript is a complete
kernel file; each goes through wave-fe | wave-opt -O2 | wave-ra | wave-as,
and every stage must succeed without a diagnostic. Prints one OK line per
language with the number of blocks. Standard library only.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

EXT = {"python": "py", "cpp": "cpp", "rust": "rs", "typescript": "ts"}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("doc")
    ap.add_argument("--bindir", required=True)
    a = ap.parse_args()
    text = open(a.doc, encoding="utf-8").read()
    blocks = re.findall(r"^```(\w+)\n(.*?)^```", text, re.S | re.M)
    counts = {}
    failed = False
    tool = lambda t: os.path.join(a.bindir, t)  # noqa: E731
    with tempfile.TemporaryDirectory() as tmp:
        for i, (lang, body) in enumerate(blocks):
            if lang not in EXT:
                continue
            src = os.path.join(tmp, "example%d.%s" % (i, EXT[lang]))
            with open(src, "w", encoding="utf-8") as f:
                f.write(body)
            data = None
            for cmd in ([tool("wave-fe"), src], [tool("wave-opt"), "-O2"],
                        [tool("wave-ra")], [tool("wave-as"), "-", "-o", "-",
                                            "-f"]):
                p = subprocess.run(cmd, input=data, capture_output=True)
                if p.returncode != 0 or p.stderr:
                    sys.stderr.write("%s example %d (%s):\n%s%s\n" % (
                        lang, i, " ".join(cmd[:1]), body,
                        p.stderr.decode(errors="replace")))
                    failed = True
                    break
                data = p.stdout
            counts[lang] = counts.get(lang, 0) + 1
    for lang in sorted(counts):
        print("OK %s: %d examples" % (lang, counts[lang]))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
