#!/usr/bin/env python3
"""Check that every document citation in a source tree resolves inside it.

Usage: check_citations.py ROOT [FILE...]

Without FILEs, every file `git ls-files` lists under ROOT is read (binary files
are skipped). A citation is a Markdown file name followed by where in it:

    formats/isa.md §4.16        a heading numbered 4.16 (`### 4.16 Calls`,
                                `## §4 ...`, `## 9. Exit codes`)
    conventions.md §11-12       both headings (a range names its ends)
    docs/conventions.md §5, §7  a list: each heading
    formats/isa.md D32          an item D32 of isa.md's defect table
    formats/kernel-abi.md "Parameters"   a heading containing the text

A bare file name (`wbin.md`) resolves when exactly one tracked Markdown file
has that name; a path resolves from ROOT or from the citing file's directory.
Every other Markdown name is an error, and so are the documents the project
was started from (OUTSIDE_NAMES, anything under a sibling `shared` folder,
the numbered seeds): a clone of the repository does not have them.

A file that holds the line `check-citations: skip-file` (a test of this
script, with citations broken on purpose) is not read.

Prints one `FILE:LINE: error: ...` per unresolved citation and exits 1 if
there is any; exits 0 and prints nothing otherwise.
"""

import os
import re
import subprocess
import sys

# A file name not glued to a variable (`%S/x.md`, `$DIR/x.md`) nor quoted
# alone (`"README.md"` in a list of names).
MD_NAME = r"(?<![\w/.%${}-])((?:[\w.-]+/)*[\w.-]+\.md)(?![\w\"'])"
SECTION = r"§\s*(\d+(?:\.\d+)*)(?:\s*[–-]\s*§?\s*(\d+(?:\.\d+)*))?"
# `FILE §N`, optionally followed by `, §M`, `/ §M`, `and §M` continuations.
SECTION_CITE = re.compile(MD_NAME + r"`?,?\s*\(?" + SECTION +
                          r"((?:\s*(?:,|/|and|or)\s*" + SECTION + r")*)")
CONTINUATION = re.compile(r"(?:,|/|and|or)\s*" + SECTION)
ITEM_CITE = re.compile(MD_NAME + r"`?,?\s*\(?(D\d+)\b")
HEADING_CITE = re.compile(MD_NAME + r"`?,?\s*(?:section\s+)?[\"“]([^\"”\n]+)[\"”]")
ANY_MD = re.compile(MD_NAME)
OUTSIDE = re.compile(r"\.\./shared/|\bseeds?\s+00\d\b|\bseed\s+\d{3}\b", re.I)
OUTSIDE_NAMES = {"ISA.md", "DESIGN.md", "STYLE.md", "DEVELOPERS.md"}
HEADING = re.compile(r"^#{1,6}\s+(.*?)\s*#*\s*$")


def tracked_files(root):
    out = subprocess.run(["git", "-C", root, "ls-files", "-z"], check=True,
                         capture_output=True).stdout
    return [p for p in out.decode().split("\0") if p]


class Documents:
    """The tracked Markdown files of the tree, their headings and items."""

    def __init__(self, root, files):
        self.root = root
        self.paths = {f for f in files if f.endswith(".md")}
        self.by_name = {}
        for p in self.paths:
            self.by_name.setdefault(os.path.basename(p), []).append(p)
        self.cache = {}

    def resolve(self, name, citing):
        """The tracked path NAME refers to from file CITING, or None."""
        cands = [os.path.normpath(os.path.join(os.path.dirname(citing), name)),
                 os.path.normpath(name)]
        for c in cands:
            if c in self.paths:
                return c
        if "/" not in name and len(self.by_name.get(name, [])) == 1:
            return self.by_name[name][0]
        return None

    def headings(self, path):
        if path not in self.cache:
            heads, text = [], ""
            with open(os.path.join(self.root, path), encoding="utf-8") as f:
                text = f.read()
            fence = False
            for line in text.splitlines():
                if line.startswith("```"):
                    fence = not fence
                m = None if fence else HEADING.match(line)
                if m:
                    heads.append(m.group(1).replace("`", ""))
            self.cache[path] = (heads, text)
        return self.cache[path]

    def has_section(self, path, num):
        heads, _ = self.headings(path)
        pat = re.compile(r"^§?\s*" + re.escape(num) + r"(?:\.?\s|\.?$)")
        return any(pat.match(h) for h in heads)

    def has_heading_text(self, path, words):
        """A heading holds WORDS, or a paragraph or table row defines it
        (`**PARAMS.**`, `| PARAMS |`)."""
        heads, text = self.headings(path)
        w = words.replace("`", "").strip()
        if any(w.lower() in h.lower() for h in heads):
            return True
        return re.search(r"\*\*`?" + re.escape(w) + r"`?[.:]?\*\*|\|\s*`?"
                         + re.escape(w) + r"`?\s*\|", text) is not None

    def has_item(self, path, item):
        _, text = self.headings(path)
        return re.search(r"(?:^|\|)\s*\**" + item + r"\**\s*(?:\||[.:])", text,
                         re.M) is not None


def check_file(docs, rel, text, report):
    for lineno, line in enumerate(text.splitlines(), 1):
        where = f"{rel}:{lineno}"
        if OUTSIDE.search(line):
            report(where, "cites a document outside the repository: "
                   + OUTSIDE.search(line).group(0))
        for m in ANY_MD.finditer(line):
            name = m.group(1)
            if os.path.basename(name) in OUTSIDE_NAMES and \
                    docs.resolve(name, rel) is None:
                report(where, f"cites {name}, which is not in the repository")
            elif docs.resolve(name, rel) is None:
                report(where, f"cites {name}, which is not a tracked file")
        for m in SECTION_CITE.finditer(line):
            path = docs.resolve(m.group(1), rel)
            if path is None:
                continue
            nums = [m.group(2), m.group(3)]
            for c in CONTINUATION.finditer(m.group(4) or ""):
                nums += [c.group(1), c.group(2)]
            for n in filter(None, nums):
                if not docs.has_section(path, n):
                    report(where, f"{m.group(1)} has no section §{n}")
        for m in ITEM_CITE.finditer(line):
            path = docs.resolve(m.group(1), rel)
            if path and not docs.has_item(path, m.group(2)):
                report(where, f"{m.group(1)} has no item {m.group(2)}")
        for m in HEADING_CITE.finditer(line):
            path = docs.resolve(m.group(1), rel)
            if path and not docs.has_heading_text(path, m.group(2)):
                report(where, f'{m.group(1)} has no heading "{m.group(2)}"')


def main(argv):
    if len(argv) < 2:
        sys.stderr.write(__doc__)
        return 2
    root = argv[1]
    files = tracked_files(root)
    docs = Documents(root, files)
    todo = argv[2:] or files
    errors = []

    def report(where, msg):
        errors.append(f"{where}: error: {msg}")

    for rel in todo:
        full = os.path.join(root, rel)
        try:
            with open(full, "rb") as f:
                data = f.read()
        except OSError:
            continue
        if b"\0" in data:
            continue
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            continue
        if "check-citations: skip-file" in text:
            continue
        check_file(docs, rel, text, report)
    for e in errors:
        print(e)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
