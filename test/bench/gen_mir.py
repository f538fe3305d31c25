#!/usr/bin/env python3
# ===- gen_mir.py - Synthetic MIR kernels for wave-opt scaling runs -------=== #
#
# Writes one MIR kernel (formats/mir.md) of about N instructions to stdout:
# straight-line u32/i32 arithmetic, loads and stores through ptr<device>
# parameters, if/else diamonds joined by phis, and loop nests (1 to 4 levels,
# rotated loops with an induction phi and an accumulator phi per level).
# The code is seeded with work for every -O2 pass:
#   * sccp/simplifycfg: constant chains, branches on constant conditions;
#   * cse: exact (and commuted) repeats of earlier expressions;
#   * dce: values nothing stores;
#   * licm: loop bodies compute from values defined outside the loop;
#   * strength-reduce: mul/div/rem by constants, signed and unsigned.
# The output is deterministic for a given (N, seed) and is accepted by
# `wave-opt -O0` (parse + verify + print). Python 3 standard library only.
#
#   gen_mir.py 100000 > k100k.wir
#   gen_mir.py 10000 --seed 7 -o k10k.wir
#
# ===----------------------------------------------------------------------=== #
import argparse
import random
import sys

BIN_U32 = ["add", "sub", "mul", "and", "or", "xor", "shl", "lshr", "min",
           "max", "mulhi"]
BIN_I32 = ["add", "sub", "mul", "ashr", "min", "max"]
COMMUTATIVE = {"add", "mul", "and", "or", "xor", "min", "max", "mulhi"}


class Gen:
    """Emits instructions into a list of lines while tracking which values
    dominate the insertion point (a stack of scopes, one per open block
    region) so that every use is valid SSA."""

    def __init__(self, target, seed, deep=0):
        self.deep = deep
        self.rng = random.Random(seed)
        self.target = target
        self.lines = []
        self.count = 0  # instructions emitted
        self.nval = 0
        self.nblock = 0
        # Scopes of available values: lists of (name, type).
        self.scopes = [[("%n", "u32"), ("%k", "i32")]]
        self.recent = []  # (op, type, a, b, name) for CSE repeats
        self.cur_block = "^entry"

    # -- helpers ---------------------------------------------------------
    def val(self):
        self.nval += 1
        return "%%v%d" % self.nval

    def block(self, stem):
        self.nblock += 1
        return "^%s%d" % (stem, self.nblock)

    def emit(self, text):
        self.lines.append("  " + text)
        self.count += 1

    def label(self, name):
        self.lines.append("")
        self.lines.append(name + ":")
        self.cur_block = name

    def define(self, name, ty):
        self.scopes[-1].append((name, ty))

    def pick(self, ty):
        # Prefer recent values (more realistic def-use distances), but
        # reach back sometimes.
        cands = []
        for scope in reversed(self.scopes):
            for v in reversed(scope):
                if v[1] == ty:
                    cands.append(v[0])
                    if len(cands) >= 24:
                        break
            if len(cands) >= 24:
                break
        if not cands:
            return "1" if ty == "u32" else "-3"
        return self.rng.choice(cands)

    def outer_pick(self, ty, depth_scopes):
        # A value defined outside the innermost `depth_scopes` scopes (loop-
        # invariant operands for LICM).
        pool = [v[0] for s in self.scopes[:len(self.scopes) - depth_scopes]
                for v in s[-16:] if v[1] == ty]
        return self.rng.choice(pool) if pool else self.pick(ty)

    # -- straight-line pieces -----------------------------------------
    def arith(self, ty=None, invariant_scopes=0):
        ty = ty or ("u32" if self.rng.random() < 0.75 else "i32")
        r = self.rng.random()
        if r < 0.12 and self.recent:
            # CSE: repeat an earlier expression, maybe commuted.
            op, rty, a, b, _ = self.rng.choice(self.recent[-32:])
            if op in COMMUTATIVE and self.rng.random() < 0.5:
                a, b = b, a
            if rty == ty and self.available(a) and self.available(b):
                v = self.val()
                self.emit("%s = %s %s %s, %s" % (v, op, rty, a, b))
                self.define(v, rty)
                return v
        if r < 0.22:
            # Strength reduction by a constant.
            op = self.rng.choice(["mul", "div", "rem"])
            if ty == "u32":
                c = self.rng.choice([2, 3, 7, 8, 10, 12, 16, 25, 100, 641,
                                     1024, 1000000007])
            else:
                c = self.rng.choice([2, 4, 3, 5, 7, -7, 10, -16, 100])
            a = self.pick(ty)
            v = self.val()
            self.emit("%s = %s %s %s, %d" % (v, op, ty, a, c))
            self.define(v, ty)
            return v
        if r < 0.30:
            # SCCP: a chain that starts from constants.
            v = self.val()
            self.emit("%s = add %s %d, %d" % (v, ty, self.rng.randint(1, 50),
                                              self.rng.randint(1, 50)))
            self.define(v, ty)
            w = self.val()
            self.emit("%s = mul %s %s, %d" % (w, ty, v,
                                              self.rng.randint(2, 9)))
            self.define(w, ty)
            return w
        op = self.rng.choice(BIN_U32 if ty == "u32" else BIN_I32)
        a = (self.outer_pick(ty, invariant_scopes) if invariant_scopes
             else self.pick(ty))
        b = (self.outer_pick(ty, invariant_scopes) if invariant_scopes
             else self.pick(ty))
        if op in ("shl", "lshr", "ashr"):
            b = str(self.rng.randint(1, 31))
        v = self.val()
        self.emit("%s = %s %s %s, %s" % (v, op, ty, a, b))
        self.define(v, ty)
        self.recent.append((op, ty, a, b, v))
        return v

    def available(self, name):
        if not name.startswith("%"):
            return True
        return any(v[0] == name for s in self.scopes for v in s)

    def memory(self):
        # Load from %in at a computed offset, store a result to %out.
        idx = self.pick("u32")
        off = self.val()
        self.emit("%s = and u32 %s, 4092" % (off, idx))
        p = self.val()
        self.emit("%s = ptradd ptr<device> %%in, %s" % (p, off))
        x = self.val()
        self.emit("%s = load u32, ptr<device> %s" % (x, p))
        self.define(x, "u32")
        y = self.arith("u32")
        q = self.val()
        self.emit("%s = ptradd ptr<device> %%out, %s" % (q, off))
        self.emit("store u32 %s, ptr<device> %s" % (y, q))

    def cast(self):
        a = self.pick("u32")
        v = self.val()
        self.emit("%s = bitcast u32 %s to i32" % (v, a))
        self.define(v, "i32")

    def straight(self, n, invariant_scopes=0):
        for _ in range(n):
            r = self.rng.random()
            if r < 0.15:
                self.memory()
            elif r < 0.2:
                self.cast()
            else:
                self.arith(invariant_scopes=invariant_scopes if
                           self.rng.random() < 0.3 else 0)

    # -- control flow ------------------------------------------------------
    def diamond(self):
        # if/else with a phi at the join; sometimes on a constant condition
        # (SCCP folds it, simplifycfg removes the dead arm).
        if self.rng.random() < 0.3:
            c0 = self.val()
            self.emit("%s = add u32 %d, 0" % (c0, self.rng.randint(0, 9)))
            a = c0
        else:
            a = self.pick("u32")
        c = self.val()
        self.emit("%s = icmp lt u32 %s, %d" % (c, a, self.rng.randint(1, 9)))
        then, els, join = (self.block("then"), self.block("else"),
                           self.block("join"))
        self.emit("condbr %s, %s, %s" % (c, then, els))
        results = []
        for arm in (then, els):
            self.label(arm)
            self.scopes.append([])
            self.straight(self.rng.randint(2, 8))
            results.append(self.arith("u32"))
            self.emit("br %s" % join)
            self.scopes.pop()
        self.label(join)
        p = self.val()
        self.emit("%s = phi u32 [%s, %s], [%s, %s]" % (p, results[0], then,
                                                        results[1], els))
        self.define(p, "u32")

    def loop(self, depth, body_size):
        # Rotated loop: pre -> header (phis) -> body ... -> latch -> header |
        # exit. The preheader is the current block.
        pre = self.cur_block
        header, exit_ = self.block("loop"), self.block("exit")
        init = self.pick("u32")
        self.emit("br %s" % header)
        self.label(header)
        self.scopes.append([])
        i, acc = self.val(), self.val()
        inext, accnext = self.val(), self.val()
        # Latch label is only known after the body; phis are patched.
        phi_at = len(self.lines)
        self.lines.append(None)
        self.lines.append(None)
        self.count += 2
        self.define(i, "u32")
        self.define(acc, "u32")
        self.straight(body_size // 2, invariant_scopes=1)
        if depth > 1:
            self.loop(depth - 1, body_size)
        if self.rng.random() < 0.3:
            self.diamond()
        self.straight(body_size - body_size // 2, invariant_scopes=1)
        t = self.pick("u32")
        self.emit("%s = add u32 %s, %s" % (accnext, acc, t))
        self.emit("%s = add u32 %s, 1" % (inext, i))
        more = self.val()
        self.emit("%s = icmp lt u32 %s, %%n" % (more, inext))
        latch = self.cur_block
        self.emit("condbr %s, %s, %s" % (more, header, exit_))
        self.lines[phi_at] = "  %s = phi u32 [0, %s], [%s, %s]" % (
            i, pre, inext, latch)
        self.lines[phi_at + 1] = "  %s = phi u32 [%s, %s], [%s, %s]" % (
            acc, init, pre, accnext, latch)
        self.scopes.pop()
        self.label(exit_)
        self.define(accnext, "u32")
        # Keep the loop's result alive.
        q = self.val()
        self.emit("%s = ptradd ptr<device> %%out, 16" % q)
        self.emit("store u32 %s, ptr<device> %s" % (accnext, q))

    def run(self):
        self.lines.append("kernel @bench(ptr<device> %in, ptr<device> %out, "
                          "u32 %n, i32 %k) workgroup_size(64, 1, 1) {")
        self.lines.append("^entry:")
        tid = self.val()
        self.emit("%s = sreg thread_id_x" % tid)
        self.define(tid, "u32")
        if self.deep:
            # One loop nest `deep` levels deep (stack-depth and dominator-
            # tree stress for the analyses).
            self.loop(self.deep, 4)
        while self.count < self.target - 40:
            left = self.target - self.count
            r = self.rng.random()
            if r < 0.45:
                self.straight(min(left - 30, self.rng.randint(10, 60)))
            elif r < 0.65:
                self.diamond()
            else:
                depth = self.rng.randint(1, 4)
                self.loop(depth, self.rng.randint(4, 24))
            # Bound the scope of the top level so that picks stay local.
            if len(self.scopes[0]) > 400:
                self.scopes[0] = self.scopes[0][:2] + self.scopes[0][-200:]
        while self.count < self.target - 1:
            self.arith("u32")
        a = self.pick("u32")
        p = self.val()
        self.emit("%s = ptradd ptr<device> %%out, 0" % p)
        self.emit("store u32 %s, ptr<device> %s" % (a, p))
        self.emit("ret")
        self.lines.append("}")
        return "\n".join(self.lines) + "\n"


def main():
    ap = argparse.ArgumentParser(description="Synthetic MIR kernel of about N instructions")
    ap.add_argument("size", type=int, help="about this many instructions")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--deep", type=int, default=0, metavar="D",
                    help="also emit one loop nest D levels deep first")
    ap.add_argument("-o", "--output", default="-")
    args = ap.parse_args()
    sys.setrecursionlimit(max(1000, 4 * args.deep + 200))
    text = Gen(args.size, args.seed, args.deep).run()
    if args.output == "-":
        sys.stdout.write(text)
    else:
        with open(args.output, "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()
