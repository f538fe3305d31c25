#!/usr/bin/env python3
"""man_commands.py: run every command of the man pages' EXAMPLES as written.

Usage: man_commands.py SOURCE_DIR BINDIR

Takes the EXAMPLES section (from ".Sh EXAMPLES" to the next ".Sh") of each
of SOURCE_DIR/man/*.1 and man/wave.7. A command is a ".Dl $ CMD" line, or a
line starting with "$ " inside a ".Bd -literal" ... ".Ed" block; a literal
line without "$ " continues the command before it when that one ends in "|"
or a backslash, and is otherwise the output the page shows, which is not
checked. The mdoc escapes \\e, \\(aq, \\(dq, \\- and \\& become the
characters they print; any other escape in a command is a failure. The
commands of one page run in order, as doc_commands.py says, in a scratch
directory of the page's own (a command may use what an earlier command of
the same page made). Prints one line per command ("ok", "skip"
or "FAIL" with its output) and a summary; exits 1 on any failure.
"""
import glob
import os
import re
import sys

from doc_commands import Runner, scratch, tool_env

# What each mdoc escape that may appear in a command prints.
ESCAPES = {r"\e": "\\", r"\(aq": "'", r"\(dq": '"', r"\-": "-", r"\&": ""}
ESCAPE = re.compile(r"\\(\(..|\[[^]]*\]|.)")


def unescape(text):
    def one(m):
        if m.group(0) not in ESCAPES:
            raise ValueError(f"unknown mdoc escape {m.group(0)!r}")
        return ESCAPES[m.group(0)]
    return ESCAPE.sub(one, text)


def examples(page):
    """The lines of PAGE's EXAMPLES section."""
    lines, inside = [], False
    for line in open(page, encoding="utf-8").read().splitlines():
        if line.startswith(".Sh "):
            inside = line.split(None, 1)[1].strip() == "EXAMPLES"
        elif inside:
            lines.append(line)
    return lines


def commands(page):
    """PAGE's example commands in order, as (command, error) pairs: error is
    None, or why the command could not be read."""
    found = []  # raw command text, before unescaping
    literal = False
    cont = False  # the last literal line was a command ending in | or \
    for line in examples(page):
        if line.startswith(".Bd ") and "-literal" in line.split():
            literal, cont = True, False
        elif line.startswith(".Ed"):
            literal = cont = False
        elif literal:
            if line.startswith("$ "):
                found.append(line[2:].strip())
            elif cont:
                found[-1] += "\n" + line.strip()
            else:
                continue  # output the page shows
            cont = re.search(r"(\||\\e)\s*$", line) is not None
        elif line.startswith(".Dl $ "):
            found.append(line[len(".Dl $ "):].strip())
    for raw in found:
        try:
            text = unescape(raw)
        except ValueError as e:
            yield raw.replace("\n", " "), str(e)
            continue
        # A backslash at the end of a line joins it to the next, as in sh.
        yield re.sub(r"\s*\\\n|\n", " ", text), None


def main(argv):
    if len(argv) != 3:
        sys.exit(__doc__)
    src, bindir = argv[1], argv[2]
    env = tool_env(bindir)
    pages = sorted(glob.glob(os.path.join(src, "man", "*.1")))
    pages.append(os.path.join(src, "man", "wave.7"))
    runner = Runner()
    for page in pages:
        name = os.path.basename(page)
        print(f"# {name}")
        with scratch(src) as tmp:
            for cmd, error in commands(page):
                if error:
                    runner.fail(cmd, error, f"{name}: ")
                else:
                    runner.run(cmd, tmp, env, f"{name}: ")
    return runner.summary("man page commands")


if __name__ == "__main__":
    sys.exit(main(sys.argv))
