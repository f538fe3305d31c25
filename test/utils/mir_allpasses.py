#!/usr/bin/env python3
"""mir_allpasses.py: the optimizer's semantic check (issue 3).

Usage:
  mir_allpasses.py WAVE-OPT FILE.wir...

For every input file, runs wave-opt with every single pass of
`wave-opt --print-passes`, with every level -O0..-O3, and with all passes
in a row, each time with --verify-each and --verify-roundtrip: the verifier
checks the result after every pass, and the output must read back to the
same text.

Then the result is *run*: a small reference interpreter of MIR's integer
subset (formats/mir.md, "Semantics the optimizer relies on": 32-bit wrapping
arithmetic, division by zero gives 0, shift amounts modulo 32, slots start
zeroed) evaluates every function of the input and of the output on a fixed
set of arguments, with device memory as a word map, and compares the
results and the final memory. Functions that use operations outside the
subset (floating point, wave operations, atomics, ...) are only verified.

Prints one line per failure and 'OK: N files, M runs, K comparisons';
exits 1 on any failure.
"""
import itertools
import re
import subprocess
import sys

MASK = 0xFFFFFFFF


def s32(v):
    v &= MASK
    return v - (1 << 32) if v & 0x80000000 else v


class Unsupported(Exception):
    pass


class Fuel(Exception):
    pass


def parse_module(text):
    """{name: (params[(type, name)], ret type, blocks[(label, [lines])])}"""
    funcs = {}
    cur = None
    for raw in text.splitlines():
        line = raw.split(";", 1)[0].rstrip()
        if not line.strip():
            continue
        m = re.match(r"(kernel|func) @([\w.]+)\((.*?)\)(?: -> (\S+))?", line)
        if m:
            params = []
            if m.group(3).strip():
                for p in m.group(3).split(","):
                    ty, name = p.strip().rsplit(" ", 1)
                    params.append((ty, name))
            cur = (params, m.group(4) or "void", [])
            funcs[m.group(2)] = cur
            continue
        if line == "}":
            cur = None
            continue
        m = re.match(r"\^([\w.]+):$", line.strip())
        if m and cur is not None:
            cur[2].append((m.group(1), []))
            continue
        if cur is not None and cur[2]:
            cur[2][-1][1].append(line.strip())
    return funcs


def operands(s):
    return [x.strip() for x in s.split(",")]


class Interp:
    def __init__(self, funcs):
        self.funcs = funcs
        self.mem = {}
        self.fuel = 20000

    def val(self, env, tok, ty=None):
        if tok.startswith("%"):
            return env[tok]
        if tok == "true":
            return 1
        if tok == "false":
            return 0
        if re.fullmatch(r"-?\d+", tok) or tok.startswith("0x"):
            if ty and (ty.startswith("f") or ty.startswith("v2") or ty == "bf16"):
                raise Unsupported(tok)
            return int(tok, 0) & MASK
        raise Unsupported(tok)

    def call(self, name, args, depth=0):
        if depth > 50:
            raise Unsupported("recursion depth")
        params, _ret, blocks = self.funcs[name]
        env = {p[1]: a for p, a in zip(params, args)}
        slots = {}
        labels = {b[0]: b[1] for b in blocks}
        block, prev = blocks[0][0], None
        while True:
            insts = labels[block]
            # Phis read their operands simultaneously on entry.
            updates = {}
            i = 0
            while i < len(insts) and re.match(r"%\S+ = phi ", insts[i]):
                m = re.match(r"(%\S+) = phi (\S+) (.*)", insts[i])
                for inc in re.finditer(r"\[([^,\]]+), \^([\w.]+)\]", m.group(3)):
                    if inc.group(2) == prev:
                        updates[m.group(1)] = self.val(env, inc.group(1).strip(), m.group(2))
                i += 1
            env.update(updates)
            for inst in insts[i:]:
                self.fuel -= 1
                if self.fuel < 0:
                    raise Fuel()
                try:
                    r = self.step(env, slots, inst, depth)
                except (ValueError, IndexError, AttributeError) as e:
                    # Syntax the subset does not model (nullary ops, ...).
                    raise Unsupported(inst) from e
                if r is None:
                    continue
                kind, a = r
                if kind == "br":
                    prev, block = block, a
                    break
                return a

    def step(self, env, slots, inst, depth):
        m = re.match(r"(?:(%\S+) = )?(\w+) ?(.*)", inst)
        res, op, rest = m.group(1), m.group(2), m.group(3)
        V = lambda t, ty=None: self.val(env, t, ty)
        if op == "br":
            return ("br", rest[1:])
        if op == "condbr":
            c, t, f = operands(rest)
            return ("br", (t if V(c) else f)[1:])
        if op == "ret":
            if not rest:
                return ("ret", None)
            ty, v = rest.split(" ", 1)
            return ("ret", V(v, ty))
        if op == "alloca":
            slots[res] = 0
            env[res] = ("slot", res)
            return None
        if op in ("load", "store"):
            if op == "load":
                ty, rest2 = rest.split(", ", 1)
                pty, p = rest2.split(" ", 1)
            else:
                ty, rest2 = rest.split(" ", 1)
                v, pp = operands(rest2)
                pty, p = pp.split(" ", 1)
            if ty not in ("i32", "u32", "ptr<device>"):
                raise Unsupported(ty)
            if pty == "ptr<private>":
                key = ("slot", p)
                store = slots
                k = p
            elif pty == "ptr<device>":
                store = self.mem
                k = V(p)
            else:
                raise Unsupported(pty)
            if op == "load":
                env[res] = store.get(k, 0)
            else:
                store[k] = V(v, ty)
            return None
        if op == "call":
            m2 = re.match(r"(\S+) @([\w.]+)\((.*)\)", rest)
            args = []
            if m2.group(3).strip():
                for a in operands(m2.group(3)):
                    ty, v = a.split(" ", 1)
                    args.append(V(v, ty))
            r = self.call(m2.group(2), args, depth + 1)
            if res:
                env[res] = r
            return None
        if op == "icmp":
            pred, ty, ab = rest.split(" ", 2)
            a, b = [V(x, ty) for x in operands(ab)]
            if ty == "i32":
                a, b = s32(a), s32(b)
            env[res] = int({"eq": a == b, "ne": a != b, "lt": a < b, "le": a <= b,
                            "gt": a > b, "ge": a >= b}[pred])
            return None
        if op == "select":
            ty, xs = rest.split(" ", 1)
            c, a, b = operands(xs)
            env[res] = V(a, ty) if V(c) else V(b, ty)
            return None
        if op in ("bitcast", "cvt"):
            m2 = re.match(r"(\S+) (\S+) to (\S+)", rest)
            src, v, dst = m2.groups()
            ints = ("i32", "u32", "i1")
            if src not in ints or dst not in ("i32", "u32"):
                raise Unsupported(op)
            env[res] = V(v, src)
            return None
        if op == "sreg":
            # One thread of workgroup 0; sizes come from attributes that
            # the interpreter does not model.
            if not re.match(r"(thread_id|workgroup_id|lane_id)", rest):
                raise Unsupported(rest)
            env[res] = 0
            return None
        ty, xs = rest.split(" ", 1)
        if ty not in ("i32", "u32", "i1", "ptr<device>"):
            raise Unsupported(ty)
        xs = [V(x, ty) for x in operands(xs)]
        sg = ty == "i32"
        A = xs[0]
        B = xs[1] if len(xs) > 1 else 0
        if op in ("add", "ptradd"):
            r = A + B
        elif op == "sub":
            r = A - B
        elif op == "mul":
            r = A * B
        elif op == "mad":
            r = A * B + xs[2]
        elif op in ("div", "rem"):
            if B == 0:
                r = 0
            elif sg:
                a, b = s32(A), s32(B)
                q = abs(a) // abs(b) * (1 if (a < 0) == (b < 0) else -1)
                r = q if op == "div" else a - q * b
            else:
                r = A // B if op == "div" else A % B
        elif op == "and":
            r = A & B
        elif op == "or":
            r = A | B
        elif op == "xor":
            r = A ^ B
        elif op == "not":
            r = (~A) & (1 if ty == "i1" else MASK)
        elif op == "shl":
            r = A << (B % 32)
        elif op == "lshr":
            r = A >> (B % 32)
        elif op == "ashr":
            r = s32(A) >> (B % 32)
        elif op == "neg":
            r = -A
        elif op in ("min", "max"):
            a, b = (s32(A), s32(B)) if sg else (A, B)
            r = min(a, b) if op == "min" else max(a, b)
        elif op == "mulhi":
            a, b = (s32(A), s32(B)) if sg else (A, B)
            r = (a * b) >> 32
        else:
            raise Unsupported(op)
        env[res] = r & MASK
        return None


ARG_VALUES = [0, 1, 3, 7, 0xFFFFFFFF, 0x80000000]


def run_all(funcs):
    """{(function, args): (result, memory)} for every interpretable run."""
    out = {}
    for name, (params, _ret, _blocks) in sorted(funcs.items()):
        choices = []
        for k, (ty, _n) in enumerate(params):
            if ty == "ptr<device>":
                choices.append([0x1000 * (k + 1)])
            elif ty == "i1":
                choices.append([0, 1])
            elif ty in ("i32", "u32"):
                choices.append(ARG_VALUES)
            else:
                choices = None
                break
        if choices is None:
            continue
        for args in itertools.islice(itertools.product(*choices), 64):
            it = Interp(funcs)
            try:
                r = it.call(name, list(args))
            except Unsupported:
                break
            except Fuel:
                continue  # does not finish on these arguments
            out[(name, args)] = (r, sorted(it.mem.items()))
    return out


def main():
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    opt, files = sys.argv[1], sys.argv[2:]
    passes = [l.split(" - ")[0] for l in subprocess.run(
        [opt, "--print-passes"], capture_output=True, text=True,
        check=True).stdout.splitlines()]
    configs = [["--passes=" + p] for p in passes]
    configs += [["-O%d" % l] for l in range(4)]
    configs.append(["--passes=" + ",".join(passes)])
    failures, runs, compared = 0, 0, 0
    for path in files:
        with open(path, encoding="utf-8") as f:
            src = f.read()
        before = run_all(parse_module(src))
        for cfg in configs:
            runs += 1
            p = subprocess.run([opt, "--verify-each", "--verify-roundtrip"] + cfg,
                               input=src, capture_output=True, text=True)
            if p.returncode != 0:
                failures += 1
                print("FAIL %s %s: exit %d: %s" % (path, " ".join(cfg), p.returncode,
                                                   p.stderr.strip()[:500]))
                continue
            after = run_all(parse_module(p.stdout))
            for key, want in before.items():
                if key not in after:
                    continue
                compared += 1
                if after[key] != want:
                    failures += 1
                    print("FAIL %s %s: @%s%s gave %s, expected %s" % (
                        path, " ".join(cfg), key[0], key[1], after[key], want))
    if failures:
        return 1
    print("OK: %d files, %d runs, %d comparisons" % (len(files), runs, compared))
    return 0


if __name__ == "__main__":
    sys.exit(main())
