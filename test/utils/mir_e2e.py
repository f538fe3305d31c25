#!/usr/bin/env python3
"""mir_e2e.py: run a MIR kernel through the whole pipeline and check it.

Usage:
  mir_e2e.py KERNEL.wir --bindir DIR --case NAME [--levels 0,1,2,3]
             [--max-registers N] [--expect-spills] [--keep DIR]

For each optimization level L it runs

  wave-opt -OL KERNEL.wir | wave-ra --stats [--max-registers N] | wave-as
  wave-run OUT.wbin --grid ... --arg ... --set-reg ... --dump-u32 ...

and compares the dumped output buffer with a Python reference computed here
from the same seeded inputs (CASES below: one entry per test kernel, each
with its inputs, launch and an independent reference written from the
kernel's specification, not from its MIR). Kernel parameters arrive in
r0..rn-1 (formats/kernel-abi.md): buffers are byte offsets into device
memory, scalars their 32-bit values. --expect-spills fails unless wave-ra
reports at least one spilled value (the allocator really was under
pressure). Prints one 'OK' line per level. Standard library only.
"""
import argparse
import os
import random
import struct
import sys
import tempfile

sys.dont_write_bytecode = True  # keep the source tree free of __pycache__
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import wavedata as wd  # noqa: E402

M32 = 0xFFFFFFFF


def s32(x):
    x &= M32
    return x - (1 << 32) if x & 0x80000000 else x


def rnd_u32(seed, n, lo=0, hi=M32):
    r = random.Random(seed)
    return [r.randint(lo, hi) for _ in range(n)]


def edge_u32(seed, n):
    """Values mixing edge cases (0, 1, 2^31, 2^32-1, ...) and random ones."""
    edges = [0, 1, 2, 3, 7, 0x7FFFFFFF, 0x80000000, 0x80000001, 0xFFFFFFFE,
             M32, 1000, 65536]
    r = random.Random(seed)
    out = []
    for i in range(n):
        k = r.random()
        if k < 0.35:
            out.append(r.choice(edges))
        elif k < 0.6:
            out.append(r.randint(0, 100))
        else:
            out.append(r.randint(0, M32))
    return out


# --- references, one per case ------------------------------------------------

def ref_saxpy(x, y, a_bits, n):
    a = wd.bits_f32(a_bits)
    out = list(y)
    for i in range(n):
        out[i] = wd.f32_bits(wd.f32_fma(a, wd.bits_f32(x[i]),
                                        wd.bits_f32(y[i])))
    return out


def ref_udivmod(a, b):
    out = []
    for p, q in zip(a, b):
        div = p // q if q else 0
        rem = p % q if q else 0
        out += [div, rem, min(p, q), max(p, q),
                1 if p > q else 0, 1 if p >= q else 0]
    return out


def ref_collatz(x, limit):
    """Steps until 1 (capped at limit), with an early exit on value > 2^20."""
    out = []
    for v in x:
        steps = 0
        while v != 1 and steps < limit:
            if v & 1:
                v = (3 * v + 1) & M32
            else:
                v >>= 1
            steps += 1
            if v > (1 << 20):
                steps += 1000
                break
        out.append(steps)
    return out


def ref_search2d(a, rows, cols, keys):
    """Per thread t: first (i, j) with a[i*cols+j] == keys[t] -> i*cols+j,
    else 0xFFFFFFFF. Threads whose key is 0 return before searching."""
    out = []
    for k in keys:
        if k == 0:
            out.append(0xDEAD)
            continue
        found = M32
        for i in range(rows):
            for j in range(cols):
                if a[i * cols + j] == k:
                    found = i * cols + j
                    break
            if found != M32:
                break
        out.append(found)
    return out


def ref_pressure(x, n_vals):
    """Thread t loads x[t*n .. t*n+n-1] and combines them so all stay live:
    acc = sum_k (v_k * (k+1)) ^ v_{n-1-k}, then also every v_k again."""
    out = []
    for t in range(len(x) // n_vals):
        v = x[t * n_vals:(t + 1) * n_vals]
        acc = 0
        for k in range(n_vals):
            acc = (acc + ((v[k] * (k + 1)) & M32 ^ v[n_vals - 1 - k])) & M32
        for k in range(n_vals):
            acc = (acc * 3 + v[k]) & M32
        out.append(acc)
    return out


def ref_preds(x):
    """Six comparisons live at once, each selecting between two values."""
    out = []
    for i in range(0, len(x), 2):
        a, b = x[i], x[i + 1]
        c = [a < b, s32(a) < s32(b), a == b, (a & 1) == 1, a > 100, b > 100]
        acc = 0
        for k, ck in enumerate(c):
            acc = (acc + ((k + 1) * 10 if ck else (k + 1))) & M32
        out.append(acc)
    return out


def ref_wgsum(x, wg):
    """Per workgroup: tree sum in local memory; thread 0 writes it."""
    return [sum(x[g * wg:(g + 1) * wg]) & M32 for g in range(len(x) // wg)]


def ref_histogram(x, bins):
    h = [0] * bins
    for v in x:
        h[v % bins] += 1
    return h


def ref_private(x):
    """Per thread: a loop of v % 13 trips over private variables acc (read
    before any store: 0), x (f64) and i; bit i of v picks the branch. Then
    slot b = v with its low byte replaced by acc's, read as u32 and u16.
    Output words: acc, b, b & 0xFFFF, trips, x (low word, high word)."""
    out = []
    for v in x:
        trips = v % 13
        acc, xf = 0, 0.5
        for i in range(trips):
            if (v >> i) & 1:
                acc = (acc + 3 * i + 1) & M32
                xf += 1.5
            else:
                acc ^= (v + i) & M32
                xf *= 2.0
        b = (v & 0xFFFFFF00) | (acc & 0xFF)
        bits = struct.unpack("<Q", struct.pack("<d", xf))[0]
        out += [acc, b, b & 0xFFFF, trips, bits & M32, bits >> 32]
    return out


# --- cases -------------------------------------------------------------------
# Each case: inputs (offset -> list of u32 words), set_reg (register values),
# grid, output (offset, count) and expected list.

def case(name):
    if name == "saxpy":
        n = 1000
        x = [wd.f32_bits(v) for v in
             wd.random_values("f32", n + 24, 5, -10.0, 10.0)]
        y = [wd.f32_bits(v) for v in
             wd.random_values("f32", n + 24, 6, -10.0, 10.0)]
        a = wd.f32_bits(2.5)
        return dict(inputs={0: x, 0x10000: y}, regs=[0, 0x10000, a, n],
                    grid=(4, 1, 1), out=(0x10000, n + 24),
                    expected=ref_saxpy(x, y, a, n))
    if name == "udivmod":
        n = 512
        a, b = edge_u32(11, n), edge_u32(12, n)
        return dict(inputs={0: a, 0x10000: b}, regs=[0, 0x10000, 0x20000, n],
                    grid=(8, 1, 1), out=(0x20000, 6 * n),
                    expected=ref_udivmod(a, b))
    if name == "collatz":
        n = 256
        x = rnd_u32(21, n, 1, 5000) + [1, 2, 3, 27, 0x7FFFFFFF]
        n = len(x)
        return dict(inputs={0: x}, regs=[0, 0x10000, n, 300],
                    grid=(((n + 63) // 64), 1, 1), out=(0x10000, n),
                    expected=ref_collatz(x, 300))
    if name == "search2d":
        rows, cols, n = 12, 10, 128
        a = rnd_u32(31, rows * cols, 1, 60)
        keys = rnd_u32(32, n, 0, 70)
        return dict(inputs={0: a, 0x10000: keys},
                    regs=[0, 0x10000, 0x20000, rows, cols],
                    grid=(2, 1, 1), out=(0x20000, n),
                    expected=ref_search2d(a, rows, cols, keys))
    if name == "pressure":
        nv, threads = 20, 128
        x = rnd_u32(41, nv * threads)
        return dict(inputs={0: x}, regs=[0, 0x20000], grid=(2, 1, 1),
                    out=(0x20000, threads), expected=ref_pressure(x, nv))
    if name == "preds":
        n = 256
        x = edge_u32(51, 2 * n)
        return dict(inputs={0: x}, regs=[0, 0x10000], grid=(4, 1, 1),
                    out=(0x10000, n), expected=ref_preds(x))
    if name == "wgsum":
        wg, groups = 256, 4
        x = rnd_u32(61, wg * groups, 0, 1 << 20)
        return dict(inputs={0: x}, regs=[0, 0x10000], grid=(groups, 1, 1),
                    out=(0x10000, groups), expected=ref_wgsum(x, wg))
    if name == "histogram":
        n, bins = 4096, 64
        x = rnd_u32(71, n)
        return dict(inputs={0: x}, regs=[0, 0x10000, n], grid=(16, 1, 1),
                    out=(0x10000, bins), expected=ref_histogram(x, bins))
    if name == "private":
        wg, groups = 128, 3
        x = edge_u32(81, wg * groups)
        return dict(inputs={0: x}, regs=[0, 0x10000], grid=(groups, 1, 1),
                    out=(0x10000, 6 * wg * groups), expected=ref_private(x))
    raise SystemExit("mir_e2e.py: unknown case '%s'" % name)


run = wd.run_tool


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("wir")
    ap.add_argument("--bindir", required=True)
    ap.add_argument("--case", required=True)
    ap.add_argument("--levels", default="0,1,2,3")
    ap.add_argument("--max-registers", type=int, default=None)
    ap.add_argument("--expect-spills", action="store_true")
    ap.add_argument("--keep", default=None)
    a = ap.parse_args()
    c = case(a.case)
    tool = lambda t: os.path.join(a.bindir, t)  # noqa: E731
    with tempfile.TemporaryDirectory() as tmp:
        work = a.keep or tmp
        os.makedirs(work, exist_ok=True)
        run_args = ["--grid", "%d,%d,%d" % c["grid"]]
        for off, words in sorted(c["inputs"].items()):
            path = os.path.join(work, "in_%x.bin" % off)
            with open(path, "wb") as f:
                f.write(struct.pack("<%dI" % len(words), *words))
            run_args += ["--arg", "%d:%s" % (off, path)]
        for r, v in enumerate(c["regs"]):
            run_args += ["--set-reg", "%d:%d" % (r, v & M32)]
        off, count = c["out"]
        run_args += ["--dump-u32", "%d:%d" % (off, count)]
        for level in a.levels.split(","):
            opt = run([tool("wave-opt"), "-O" + level, a.wir]).stdout
            ra_cmd = [tool("wave-ra"), "--stats"]
            if a.max_registers:
                ra_cmd += ["--max-registers", str(a.max_registers)]
            ra = run(ra_cmd, opt)
            stats = ra.stderr.decode()
            asm = os.path.join(work, "O%s.wave" % level)
            with open(asm, "wb") as f:
                f.write(ra.stdout)
            wbin = os.path.join(work, "O%s.wbin" % level)
            run([tool("wave-as"), asm, "-o", wbin])
            got = run([tool("wave-run"), wbin] + run_args).stdout.decode()
            vals = [int(t, 0) for t in got.split()]
            want = [v & M32 for v in c["expected"]]
            if len(vals) != len(want):
                sys.exit("-O%s: got %d values, want %d" %
                         (level, len(vals), len(want)))
            bad = [(i, g, w) for i, (g, w) in enumerate(zip(vals, want))
                   if g != w]
            if bad:
                for i, g, w in bad[:10]:
                    sys.stderr.write("-O%s: word %d: got %d (0x%x), want %d "
                                     "(0x%x)\n" % (level, i, g, g, w, w))
                sys.exit("-O%s: %d of %d values differ" %
                         (level, len(bad), len(want)))
            spilled = 0
            regs = 0
            for line in stats.splitlines():
                parts = line.split(None, 1)
                if len(parts) == 2 and parts[0].isdigit():
                    if parts[1].startswith("values spilled"):
                        spilled += int(parts[0])
                    elif parts[1].startswith("registers used"):
                        regs = max(regs, int(parts[0]))
            if a.expect_spills and spilled == 0:
                sys.exit("-O%s: expected spills under --max-registers %s, "
                         "wave-ra reported none" % (level, a.max_registers))
            print("OK -O%s: %d values, %d registers, %d spilled" %
                  (level, len(want), regs, spilled))


if __name__ == "__main__":
    main()
