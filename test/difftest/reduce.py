#!/usr/bin/env python3
"""reduce: delta-debug a kernel on which wave-run and an executor disagree.

    reduce.py DIR --executor 'CMD' [--target gfx942] [--out OUTDIR]

DIR holds a test as difftest.py keeps it (k.wave, args, the --arg input
files, and `target`). The reducer removes whole groups of lines (wavegen.py
tags every line `; gN`; a group is one logical operation, so an address is
never left unmasked), removes whole if/loop regions, collapses a region to its
then-part, else-part or loop body, replaces computations by `mov_imm rD, 0`,
and shrinks the grid, as long as the kernel still assembles, runs on
wave-run without error and the executor (GFX=target) still prints something
different (with the same exit status as at the start). The result is written
to OUTDIR (default DIR/reduced): k.wave (with tags), min.wave (without),
args, inputs, expected.txt, actual.txt and commands.sh.
"""
import argparse
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import difftest  # noqa: E402
import wavegen  # noqa: E402

TAG = re.compile(r";\s*g(\d+)(k?)\s*$")
CTRL_OPEN = re.compile(r"^\s*(?:@!?p\d\s+)?(if|loop)\b")
CTRL_ELSE = re.compile(r"^\s*else\b")
CTRL_CLOSE = re.compile(r"^\s*(endif|endloop)\b")
BRK = re.compile(r"^\s*(?:@!?p\d\s+)?(break|continue)\b")
DEST = re.compile(r"^\s*(?:@!?p\d\s+)?([a-z_0-9]+)\s+r(\d+)\s*,")


def code(line):
    return line.split(";")[0]


class Kernel:
    def __init__(self, text):
        self.header, self.groups, self.trailer = [], [], []
        seen_body = False
        for line in text.rstrip("\n").split("\n"):
            m = TAG.search(line)
            if m:
                seen_body = True
                gid = int(m.group(1))
                if self.groups and self.groups[-1][0] == gid:
                    self.groups[-1][2].append(line)
                else:
                    self.groups.append((gid, m.group(2) == "k", [line]))
            elif not seen_body:
                self.header.append(line)
            else:
                self.trailer.append(line)

    def text(self, groups=None):
        g = self.groups if groups is None else groups
        return "\n".join(self.header + [l for _, _, ls in g for l in ls] + self.trailer) + "\n"


def ctrl_kind(group):
    """'open', 'else', 'close', 'mixed' or None for a group's control lines."""
    kinds = []
    for l in group[2]:
        c = code(l)
        if CTRL_OPEN.match(c):
            kinds.append("open")
        elif CTRL_ELSE.match(c):
            kinds.append("else")
        elif CTRL_CLOSE.match(c):
            kinds.append("close")
    depth = 0
    for k in kinds:
        depth += {"open": 1, "close": -1, "else": 0}[k]
    if not kinds:
        return None
    if depth == 0 and "else" not in kinds:
        return None                        # balanced inside the group
    if len(kinds) == 1:
        return kinds[0]
    return "mixed"


def regions(groups):
    """(open index, else index or None, close index, 'if'|'loop') of each region."""
    out, stack = [], []
    for i, g in enumerate(groups):
        k = ctrl_kind(g)
        if k == "open":
            kind = "loop" if any(re.match(r"^\s*loop\b", code(l)) for l in g[2]) else "if"
            stack.append([i, None, kind])
        elif k == "else" and stack:
            stack[-1][1] = i
        elif k == "close" and stack:
            o, e, kind = stack.pop()
            out.append((o, e, i, kind))
    return out


class Reducer:
    def __init__(self, a, test, target):
        self.a = a
        self.test = test
        self.target = target
        self.width = difftest.WIDTH[target]
        self.wave_as = difftest.find_tool(a.wave_as, "wave-as")
        self.wave_run = difftest.find_tool(a.wave_run, "wave-run")
        self.tries = 0

    def outcome(self, text, args):
        """(reference rc, ref out, executor rc, executor out, stderr) or None."""
        self.tries += 1
        with tempfile.TemporaryDirectory(prefix="reduce-") as d:
            t = wavegen.Test(text, args, self.test.files, {})
            t.write(d)
            rc, _, err = difftest.run([self.wave_as, "k.wave", "-o", "k.wbin"], d, 60)
            if rc != 0:
                return None
            rrc, rout, rerr = difftest.run([self.wave_run, "k.wbin", "--wave-width",
                                            str(self.width)] + args, d, 60)
            if rrc != 0:
                return None
            erc, eout, eerr = difftest.run_executor(self.a.executor, self.target, self.wave_as,
                                                    self.width, args, d, self.a.exec_timeout)
            return rrc, rout, erc, eout, eerr

    def interesting(self, text, args):
        o = self.outcome(text, args)
        if o is None:
            return False
        rrc, rout, erc, eout, _ = o
        return erc == self.erc and erc != 125 and (erc != 0 or eout != rout)

    def try_groups(self, groups):
        if self.interesting(self.k.text(groups), self.args):
            self.k.groups = groups
            return True
        return False

    def pass_regions(self):
        changed = False
        i = 0
        while True:
            regs = regions(self.k.groups)
            if i >= len(regs):
                return changed
            o, e, c, kind = regs[::-1][i]          # outermost last: try inner first
            g = self.k.groups
            cands = [g[:o] + g[c + 1:]]             # the whole region
            if kind == "if":
                cands.append(g[:o] + g[o + 1:(e if e is not None else c)] + g[c + 1:])
                if e is not None:
                    cands.append(g[:o] + g[e + 1:c] + g[c + 1:])
            else:
                body = g[o + 1:c]
                # Breaks/continues of this loop (not inside an inner loop) go too.
                keep, depth = [], 0
                for grp in body:
                    k = ctrl_kind(grp)
                    if k == "open" and any(re.match(r"^\s*loop\b", code(l)) for l in grp[2]):
                        depth += 1
                    if k == "close" and any(re.match(r"^\s*endloop\b", code(l)) for l in grp[2]):
                        depth -= 1
                    if depth == 0 and any(BRK.match(code(l)) for l in grp[2]):
                        continue
                    keep.append(grp)
                cands.append(g[:o] + keep + g[c + 1:])
            for cand in cands:
                if self.try_groups(cand):
                    changed = True
                    self.log(f"region {kind} reduced: {len(self.k.groups)} groups")
                    break
            else:
                i += 1

    def removable(self, grp):
        return not grp[1] and ctrl_kind(grp) is None

    def pass_ddmin(self):
        changed = False
        n = 2
        while True:
            idx = [i for i, g in enumerate(self.k.groups) if self.removable(g)]
            if not idx:
                return changed
            n = min(n, len(idx))
            chunk = (len(idx) + n - 1) // n
            progress = False
            for s in range(0, len(idx), chunk):
                drop = set(idx[s:s + chunk])
                cand = [g for i, g in enumerate(self.k.groups) if i not in drop]
                if self.try_groups(cand):
                    progress = changed = True
                    self.log(f"removed {len(drop)} groups: {len(self.k.groups)} left")
                    break
            if progress:
                n = max(n - 1, 2)
            elif chunk == 1:
                return changed
            else:
                n = min(n * 2, len(idx))

    def pass_constants(self):
        """Replace a computation group by `mov_imm rD, 0` of its last destination."""
        changed = False
        for i in range(len(self.k.groups)):
            g = self.k.groups[i]
            if not self.removable(g):
                continue
            lines = [l for l in g[2] if code(l).strip()]
            m = DEST.match(code(lines[-1])) if lines else None
            if not m or m.group(1).startswith(("device_store", "local_store", "mov_imm")):
                continue
            rd = int(m.group(2))
            if rd < wavegen.POOL0:
                continue
            new = (g[0], g[1], ["    mov_imm r%d, 0    ; g%d" % (rd, g[0])])
            cand = self.k.groups[:i] + [new] + self.k.groups[i + 1:]
            if self.try_groups(cand):
                changed = True
        return changed

    def pass_grid(self):
        args = list(self.args)
        changed = False
        for flag, small in (("--grid", "1,1,1"),):
            if flag in args:
                j = args.index(flag) + 1
                if args[j] != small:
                    cand = args[:j] + [small] + args[j + 1:]
                    if self.interesting(self.k.text(), cand):
                        self.args = cand
                        changed = True
                        self.log(f"{flag} {small}")
        return changed

    def log(self, msg):
        print(f"reduce[{self.tries}]: {msg}", flush=True)

    def reduce(self):
        self.k = Kernel(self.test.wave)
        self.args = list(self.test.args)
        o = self.outcome(self.k.text(), self.args)
        if o is None:
            sys.exit("reduce: the test does not assemble or does not run on wave-run")
        rrc, rout, self.erc, eout, _ = o
        if self.erc == 125 or (self.erc == 0 and eout == rout):
            sys.exit("reduce: the executor agrees with wave-run (or skips the test)")
        self.log(f"start: {len(self.k.groups)} groups, executor exit {self.erc}")
        self.pass_grid()
        while True:
            c = self.pass_regions()
            c |= self.pass_ddmin()
            c |= self.pass_constants()
            if not c:
                break
        return self.k.text(), self.args


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("dir")
    ap.add_argument("--executor", default=os.environ.get("WAVE_DIFFTEST_EXECUTOR"))
    ap.add_argument("--target", help="default: DIR/target")
    ap.add_argument("--out")
    ap.add_argument("--wave-as"), ap.add_argument("--wave-run")
    ap.add_argument("--exec-timeout", type=float, default=300)
    a = ap.parse_args()
    if not a.executor:
        ap.error("--executor is required")
    target = a.target or open(os.path.join(a.dir, "target")).read().strip()
    test = wavegen.read_test(a.dir)
    r = Reducer(a, test, target)
    text, args = r.reduce()
    out = a.out or os.path.join(a.dir, "reduced")
    t = wavegen.Test(text, args, test.files, {})
    t.write(out)
    with open(os.path.join(out, "min.wave"), "w") as f:
        f.write("\n".join(TAG.sub("", l).rstrip() for l in text.split("\n")))
    o = r.outcome(text, args)
    w = difftest.WIDTH[target]
    with open(os.path.join(out, "expected.txt"), "wb") as f:
        f.write(o[1])
    with open(os.path.join(out, "actual.txt"), "wb") as f:
        f.write(o[3])
    q = " ".join(map(shlex.quote, args))
    with open(os.path.join(out, "commands.sh"), "w") as f:
        f.write(f"wave-as min.wave -o k.wbin\nwave-run k.wbin --wave-width {w} {q}\n"
                f"GFX={target} {a.executor} k.wbin --wave-width {w} {q}\n")
    with open(os.path.join(out, "target"), "w") as f:
        f.write(target + "\n")
    print(f"reduce: {len(r.k.groups)} groups, {r.tries} runs -> {out}")


if __name__ == "__main__":
    main()
