#!/usr/bin/env python3
"""wavegen: a seeded generator of random WAVE kernels for differential testing.

Every kernel it writes is valid (wave-as accepts it), terminates, is free of
data races and of faults, and writes the values it computes to device memory,
so that two executors that implement formats/isa.md (with the "default" column of §8)
must print the same `--dump-u32` of the output region, byte for byte.

    wavegen.py --seed S [--out DIR] [--transcendentals] [--unaligned] [--combine]
               [--masks]

writes DIR/k.wave, DIR/in.bin and DIR/args (one wave-run argument per line,
without --wave-width, which depends on the target). As a module:
`generate(seed, options) -> Test` (fields: wave, args, files, meta).

What a kernel contains
----------------------
* A preamble (kept by the reducer) computing the linear thread id, the global
  thread id, the thread's output slot base, private device and LDS regions,
  the wave width and the number of lanes of this wave inside the workgroup.
* Random statements over a pool of registers: every ALU class (integer,
  bitwise, shifts, bit fields, compares + select, f32, f16/bf16 scalar and
  packed, f64 pairs, conversions, mov/mov_imm/mov sr_*), predicated forms
  (`@pN`, `@!pN`), loads and stores of every width to local and device memory,
  device and local atomics, wave operations, structured control flow
  (if/else/endif, loop/break/continue/endloop, nested up to the 32-frame limit),
  wave shuffles from any lane (inactive ones, and lanes past the workgroup's
  end, which hold the register's initial value),
  per-lane (`@pN halt`) and in-`if` halts, barriers, LDS exchanges between
  threads, and stores of intermediate values to the thread's output slots.
* With --combine, statements shaped like what the AMDGCN stage's CSE and
  fusion rewrite (shl feeding iadd, iadd feeding shl, narrow products feeding
  iadd, repeated operations; st_combine), and their near misses.
* With --masks, predicates kept as 0/1 values, as wave-ra keeps an i1 that
  outlives its compare: `select r, p, 1, 0` of compares, combined with
  or/and/xor, and compared back to a predicate with icmp_ne/icmp_eq r, 0
  that a select reads (st_masks; the AMDGCN stage works on the lane masks).
* An epilogue that stores every pool register, the predicates and the
  thread's LDS region to its output slots (and, when nothing halts, the
  workgroup's shared LDS atomics words after a barrier).

Every generated line ends with a `; gN` comment: lines with the same N form
one group (one logical operation: an address computation with its access, an
op with its NaN clean-up, a loop header with its counter). The reducer removes
or rewrites whole groups only; `; gNk` marks groups it must keep.

Exclusions (results that may legitimately differ between executors)
-------------------------------------------------------------------
* Data races. Plain stores and returning atomics only touch thread-private
  addresses (the thread's private device region, its LDS region, its output
  slots). Addresses shared between threads get only non-returning atomics of
  one commutative class per word (add/sub, or, and, xor, umin, umax), so the
  final value does not depend on the order. Threads read other threads' LDS
  words only in an exchange: store own word, barrier, read a partner's word,
  barrier.
* NaN payloads (formats/isa.md §4.7: with NaN inputs only NaN-ness is defined; AMD
  returns its canonical NaN): every instruction that can produce a NaN is
  followed by a clean-up that replaces a NaN result (per f32, f16 or bf16 lane)
  with a canonical constant, so no register ever holds a payload that the ISA
  leaves open. fneg/fabs/select/moves/cvt_bf16_f32/cvt_f32_bf16 are bit
  operations and need none.
* fsin/fcos/fexp2/flog2: the spec allows 2 ULP (D38, amdgcn-abi.md); only
  generated with --transcendentals.
* Faults: every address is a register value masked into a region the test
  declares and offset from the region's base; f64 operands come from f32
  values clamped to +-2^60, so no f64 op overflows or makes a NaN.
* Known limits of the tinygrad-based executor (its README), steered away from:
  v_div_scale/v_div_fmas are modelled for flush-to-zero only, so the operands
  of fdiv/frcp/frsqrt/fsqrt/ddiv/dsqrt are clamped into [2^-60, 2^60] in
  magnitude (results stay normal; fdiv by an exact zero, which is +inf in
  WAVE, is still tested); v_cvt_i32_f32/v_cvt_u32_f32 do not saturate, so
  cvt_i32_f32/cvt_u32_f32 operands are clamped into range first (NaN becomes
  the lower bound through fmax); unaligned LDS and u16 accesses are aligned
  by it, so every access is naturally aligned (u64/u128 device accesses at 4
  bytes with --unaligned, kept inside their region: offset_mask); it has no
  memory faults, and we make none.
* Barriers only in workgroup-uniform control flow (conditions from constants,
  the scalar parameter, workgroup ids, the workgroup size), never after a
  halt can have run (a halted wave never arrives: deadlock in the emulator);
  kernels with barriers put all halts after the last barrier.
* Loops terminate: each loop has a dedicated counter register that is
  incremented at the top of the body, before any continue, and a break on it
  (limits multiply to a small budget across nesting levels).
"""
import argparse
import os
import random
import struct
import sys

WAVE_WIDTHS = (32, 64)

# Register map (infrastructure, never a destination of random code).
R_OUTP, R_INP, R_PARAM, R_PRIVP = 0, 1, 2, 3
R_TID, R_GID, R_OUT, R_PRIV, R_LPRIV, R_W, R_NL, R_LANE = 4, 5, 6, 7, 8, 9, 10, 11
T0, T1, T2, T3 = 12, 13, 14, 15          # temporaries of one group
R_T = 16                                 # threads per workgroup
T4, T5, T6 = 17, 18, 19                  # more temporaries
R_WG = 20                                # workgroup linear id
POOL0 = 21

# Device memory layout (bytes).
IN_BASE = 0
IN_SIZE = 0x4000
SHARED_BASE = 0x4000                     # 6 classes x 8 words of device atomics
SHARED_CLASSES = (("atomic_add", "atomic_sub"), ("atomic_or",), ("atomic_and",),
                  ("atomic_xor",), ("atomic_min",), ("atomic_max",))
PRIVSZ = 32                              # per-thread private device bytes
LPRIVSZ = 32                             # per-thread private LDS bytes
LSHARED_BASE = 0                         # 6 classes x 8 words of LDS atomics
LEX_BASE = 256                           # LDS exchange words, one per thread

CANON32 = 0x7FC00000
CANON16 = 0x7E00
CANON16X2 = 0x7E007E00
CANONBF = 0x7FC0
CANONBFX2 = 0x7FC07FC0

SPECIAL = ["sr_thread_id_x", "sr_thread_id_y", "sr_thread_id_z", "sr_wave_id",
           "sr_lane_id", "sr_workgroup_id_x", "sr_workgroup_id_y",
           "sr_workgroup_id_z", "sr_workgroup_size_x", "sr_workgroup_size_y",
           "sr_workgroup_size_z", "sr_grid_size_x", "sr_grid_size_y",
           "sr_grid_size_z", "sr_wave_width", "sr_num_waves",
           "sr_mma_supported", "sr_mma_m", "sr_mma_n", "sr_mma_k"]

INT2 = ["iadd", "isub", "imul", "imul_hi", "idiv", "imod", "imin", "imax",
        "and", "or", "xor", "shl", "shr", "sar"]
INT1 = ["ineg", "iabs", "not", "bitcount", "bitfind", "bitrev"]
ICMP = ["icmp_eq", "icmp_ne", "icmp_lt", "icmp_le", "icmp_gt", "icmp_ge",
        "ucmp_lt", "ucmp_le", "ucmp_eq", "ucmp_ne", "ucmp_gt", "ucmp_ge"]
FCMP = ["fcmp_eq", "fcmp_ne", "fcmp_lt", "fcmp_le", "fcmp_gt", "fcmp_ge",
        "fcmp_ord", "fcmp_unord"]
F2 = ["fadd", "fsub", "fmul", "fmin", "fmax"]
F1 = ["ffloor", "fceil", "fround", "ftrunc", "ffract", "fsat"]
F1SAN = ["frsqrt", "frcp", "fsqrt"]
TRANSC = ["fsin", "fcos", "fexp2", "flog2"]
H2 = {"hadd": "f16", "hsub": "f16", "hmul": "f16", "hadd2": "f16x2",
      "hmul2": "f16x2", "badd": "bf16", "bsub": "bf16", "bmul": "bf16",
      "badd2": "bf16x2", "bmul2": "bf16x2"}
H3 = {"hma": "f16", "hma2": "f16x2", "bma": "bf16", "bma2": "bf16x2"}
WIDTHS = {"u8": 1, "u16": 2, "u32": 4, "u64": 8, "u128": 16}
ATOM_OPS = ["add", "sub", "min", "max", "and", "or", "xor", "exchange", "cas"]
SCOPES = [".wave", ".workgroup", ".device", ".system", "device", "workgroup"]

NICE_FLOATS = [0.0, -0.0, 1.0, -1.0, 0.5, 2.0, 3.0, -2.5, 1.5, 0.25, 100.0,
               1e-3, 65504.0, 1e10, -7.0, 0.1, 3.14159, 1e-40, float("inf"),
               -float("inf"), 16777216.0, 2.5, -0.5, 1e30]


class Options:
    def __init__(self, transcendentals=False, unaligned=False, size=1.0,
                 fresh_predicates=False, combine=False, latch_breaks=False, mma=False,
                 masks=False):
        self.fresh_predicates = fresh_predicates
        self.masks = masks
        self.combine = combine
        self.latch_breaks = latch_breaks
        self.mma = mma
        self.transcendentals = transcendentals
        self.unaligned = unaligned
        self.size = size


class Test:
    def __init__(self, wave, args, files, meta):
        self.wave = wave          # kernel text
        self.args = args          # wave-run arguments, without --wave-width
        self.files = files        # {name: bytes}, referenced by args
        self.meta = meta          # dict: seed, threads, ...

    def write(self, d):
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, "k.wave"), "w") as f:
            f.write(self.wave)
        for name, data in self.files.items():
            with open(os.path.join(d, name), "wb") as f:
                f.write(data)
        with open(os.path.join(d, "args"), "w") as f:
            f.write("\n".join(self.args) + "\n")


def read_test(d):
    """Reads a test written by Test.write (or by hand): k.wave, args, files."""
    with open(os.path.join(d, "k.wave")) as f:
        wave = f.read()
    with open(os.path.join(d, "args")) as f:
        args = [a for a in f.read().split("\n") if a]
    files = {}
    for prev, a in zip([""] + args, args):
        if prev == "--arg" and ":" in a:
            name = a.split(":", 1)[1]
            with open(os.path.join(d, name), "rb") as f:
                files[name] = f.read()
    return Test(wave, args, files, {})


class Ctx:
    """Where a statement is generated."""

    def __init__(self):
        self.frames = 0           # if + loop frames on the divergence stack
        self.loops = []           # enclosing loops, innermost last (dicts)
        self.uniform = True       # every lane of the workgroup active here
        self.iter_budget = 1      # product of enclosing loop limits

    def child(self, **kw):
        c = Ctx()
        c.frames, c.loops, c.uniform, c.iter_budget = (
            self.frames, list(self.loops), self.uniform, self.iter_budget)
        for k, v in kw.items():
            setattr(c, k, v)
        return c


class Gen:
    def __init__(self, seed, opt):
        self.rng = random.Random(seed)
        self.seed = seed
        self.opt = opt
        self.lines = []
        self.group = 0
        self.keep = False
        self.budget = 0
        self.cur_depth = 0

    # -- output -----------------------------------------------------------
    def new_group(self, keep=False):
        self.group += 1
        self.keep = keep

    def emit(self, text, depth=0):
        self.cur_depth = depth
        tag = "g%d%s" % (self.group, "k" if self.keep else "")
        self.lines.append("    " + "  " * depth + text + "    ; " + tag)
        self.budget -= 1

    # -- random helpers ---------------------------------------------------
    def chance(self, p):
        return self.rng.random() < p

    def pick(self, seq):
        return self.rng.choice(seq)

    def pool_reg(self):
        return self.rng.randrange(POOL0, self.pool_end)

    def src(self):
        """A source register: mostly pool, sometimes infrastructure or a counter."""
        x = self.rng.random()
        if x < 0.80:
            return self.pool_reg()
        if x < 0.92:
            return self.pick([R_TID, R_GID, R_LANE, R_PARAM, R_W, R_NL, R_T, R_WG])
        if self.live_counters:
            return self.pick(self.live_counters)
        return self.pool_reg()

    def dst(self, n=1):
        """A destination register (n consecutive pool registers)."""
        return self.rng.randrange(POOL0, self.pool_end - n + 1)

    def pred(self):
        return self.rng.randrange(0, 4)

    def prefix(self, p=0.15):
        """An optional instruction predicate (@p0 is not a predicate, D14)."""
        if not self.chance(p):
            return ""
        if self.opt.fresh_predicates:
            # Set the predicate right here, for every active lane.
            q = self.rng.randrange(1, 4)
            self.emit("icmp_lt p%d, r%d, r%d" % (q, self.src(), self.src()), self.cur_depth)
            return "@%sp%d " % (self.pick(["", "!"]), q)
        if self.chance(0.5):
            return "@p%d " % self.rng.randrange(1, 4)
        return "@!p%d " % self.rng.randrange(0, 4)

    def imm(self):
        x = self.rng.random()
        if x < 0.3:
            return self.rng.randrange(0, 16)
        if x < 0.5:
            return self.rng.choice([0xFFFFFFFF, 0x80000000, 0x7FFFFFFF, 31, 32, 33,
                                    0xFFFF, 0x10000, 0x8000, 0x7F800000, 0xFF800000,
                                    0x00800000, 0x00000001, 0x80000001, 0x3F800000])
        if x < 0.75:
            return struct.unpack("<I", struct.pack("<f", self.pick(NICE_FLOATS)))[0]
        return self.rng.randrange(0, 1 << 32)

    # -- clean-ups ----------------------------------------------------------
    def clean(self, r, kind, d):
        """Replace a NaN result in r (per f32/f16/bf16 lane) by a canonical one."""
        p = self.pred()
        if kind == "f32":
            self.emit("mov_imm r%d, 0x%X" % (T3, CANON32), d)
            self.emit("fcmp_unord p%d, r%d, r%d" % (p, r, r), d)
            self.emit("select r%d, p%d, r%d, r%d" % (r, p, T3, r), d)
            return
        cvt = "cvt_f32_f16" if kind.startswith("f16") else "cvt_f32_bf16"
        canon = {"f16": CANON16, "f16x2": CANON16X2, "bf16": CANONBF,
                 "bf16x2": CANONBFX2}[kind]
        self.emit("mov_imm r%d, 0x%X" % (T3, canon), d)
        self.emit("%s r%d, r%d" % (cvt, T2, r), d)
        self.emit("fcmp_unord p%d, r%d, r%d" % (p, T2, T2), d)
        self.emit("select r%d, p%d, r%d, r%d" % (r, p, T3, r), d)
        if kind.endswith("x2"):
            self.emit("mov_imm r%d, 16" % T2, d)
            self.emit("shr r%d, r%d, r%d" % (T2, r, T2), d)
            self.emit("%s r%d, r%d" % (cvt, T2, T2), d)
            self.emit("fcmp_unord p%d, r%d, r%d" % (p, T2, T2), d)
            self.emit("select r%d, p%d, r%d, r%d" % (r, p, T3, r), d)

    def sanitize(self, r, out, d):
        """out = r as an f32 clamped into [2^-60, 2^60] in magnitude (NaN -> -2^60)."""
        self.emit("mov_imm r%d, 0xDD800000" % T3, d)
        self.emit("fmax r%d, r%d, r%d" % (out, r, T3), d)
        self.emit("mov_imm r%d, 0x5D800000" % T3, d)
        self.emit("fmin r%d, r%d, r%d" % (out, out, T3), d)
        self.emit("fabs r%d, r%d" % (T2, out), d)
        self.emit("mov_imm r%d, 0x21800000" % T3, d)
        p = self.pred()
        self.emit("fcmp_lt p%d, r%d, r%d" % (p, T2, T3), d)
        self.emit("mov_imm r%d, 0x3F800000" % T3, d)
        self.emit("select r%d, p%d, r%d, r%d" % (out, p, T3, out), d)

    @staticmethod
    def offset_mask(size, align, n):
        """The mask that keeps an offset aligned to `align` and an n-byte
        access at it inside `size` bytes: offsets in [0, size - n]. With
        --unaligned a u64/u128 is only 4-aligned (n > align), so the mask
        is the power of two at most size - n + align, less one."""
        span = size - (n or align) + align
        return ((1 << (span.bit_length() - 1)) - 1) & ~(align - 1)

    def addr(self, base, size, align, d, out=T0, n=None):
        """out = base + (pool value masked to [0, size - n], aligned)."""
        mask = self.offset_mask(size, align, n)
        self.emit("mov_imm r%d, 0x%X" % (out, mask), d)
        self.emit("and r%d, r%d, r%d" % (out, self.src(), out), d)
        self.emit("iadd r%d, r%d, r%d" % (out, out, base), d)

    def addr_const_base(self, base_const, size, align, d, out=T0):
        mask = (size - 1) & ~(align - 1)
        self.emit("mov_imm r%d, 0x%X" % (out, mask), d)
        self.emit("and r%d, r%d, r%d" % (out, self.src(), out), d)
        if base_const:
            self.emit("mov_imm r%d, 0x%X" % (T1, base_const), d)
            self.emit("iadd r%d, r%d, r%d" % (out, out, T1), d)

    # -- statements ---------------------------------------------------------
    def st_int(self, d):
        self.new_group()
        x = self.rng.random()
        pf = self.prefix()
        if x < 0.5:
            op = self.pick(INT2)
            self.emit("%s%s r%d, r%d, r%d" % (pf, op, self.dst(), self.src(), self.src()), d)
        elif x < 0.7:
            op = self.pick(INT1)
            self.emit("%s%s r%d, r%d" % (pf, op, self.dst(), self.src()), d)
        elif x < 0.8:
            self.emit("%simad r%d, r%d, r%d, r%d" % (pf, self.dst(), self.src(), self.src(), self.src()), d)
        elif x < 0.85:
            self.emit("%siclamp r%d, r%d, r%d, r%d" % (pf, self.dst(), self.src(), self.src(), self.src()), d)
        elif x < 0.92:
            self.emit("%sbfe r%d, r%d, r%d, r%d" % (pf, self.dst(), self.src(), self.src(), self.src()), d)
        else:
            self.emit("%sbfi r%d, r%d, r%d, r%d, r%d" % (pf, self.dst(), self.src(), self.src(), self.src(), self.src()), d)

    def st_mma(self, d):
        """--mma: MMA on the thread's own 32 LDS bytes (formats/isa.md
        §4.18): mma_load_a/b with a row stride of 0 or 4 bytes (a tile of
        at most 28 bytes), mma_compute on fragment ids 0..2 of each table
        (the same id in A, B and C included), mma_store_c with stride 0 or
        4, and one word read back, NaNs made canonical, observed."""
        self.new_group()
        st = lambda: self.pick([0, 4])
        f = lambda: self.rng.randrange(3)
        for op in self.rng.sample(["mma_load_a", "mma_load_b"], self.rng.randrange(1, 3)):
            self.emit("mov_imm r%d, %d" % (T1, st()), d)
            self.emit("%s%s r%d, r%d, r%d" % (self.prefix(0.1), op, f(), R_LPRIV, T1), d)
        self.emit("mma_compute r%d, r%d, r%d" % (f(), f(), f()), d)
        if self.chance(0.7):
            self.emit("mov_imm r%d, %d" % (T1, st()), d)
            self.emit("mma_store_c r%d, r%d, r%d" % (R_LPRIV, T1, f()), d)
            self.emit("mov_imm r%d, %d" % (T0, 4 * self.rng.randrange(7)), d)
            self.emit("iadd r%d, r%d, r%d" % (T0, R_LPRIV, T0), d)
            rd = self.dst()
            self.emit("local_load_u32 r%d, r%d" % (rd, T0), d)
            self.clean(rd, "f32", d)
            self.st_observe(d, rd)

    def st_pk_fma(self, d):
        """--combine: two fma accumulating from one element of a 128-bit
        load A and from elements 2k, 2k + 1 of a 128-bit load B, which the
        AMDGCN stage packs into one v_pk_fma_f32 on gfx90a/942/950
        (runPackF32); sometimes a statement between, sometimes a rewrite
        of B's element or a read of the second accumulator between, which
        keep them apart."""
        if self.pool_end - POOL0 < 12:
            return self.st_float(d)          # no room for two quads and two more
        self.new_group()
        ra = self.dst(4)
        rb = self.dst(4)
        while abs(rb - ra) < 4:
            rb = self.dst(4)
        self.addr(R_INP, IN_SIZE, 16, d, n=16)
        self.emit("device_load_u128 r%d, r%d" % (ra, T0), d)
        self.addr(R_INP, IN_SIZE, 16, d, n=16)
        self.emit("device_load_u128 r%d, r%d" % (rb, T0), d)
        a, k = ra + self.rng.randrange(4), 2 * self.rng.randrange(2)
        taken = set(range(ra, ra + 4)) | set(range(rb, rb + 4))
        x1 = self.dst()
        while x1 in taken:
            x1 = self.dst()
        x2 = self.dst()
        while x2 in taken or x2 == x1:
            x2 = self.dst()
        self.emit("fma r%d, r%d, r%d, r%d" % (x1, a, rb + k, x1), d)
        y = self.rng.random()
        if y < 0.15:
            self.emit("mov_imm r%d, 0x%X" % (rb + k + 1, f32bits(self.pick(NICE_FLOATS))), d)
        elif y < 0.3:
            self.emit("fadd r%d, r%d, r%d" % (self.dst(), x2, self.src()), d)
        elif y < 0.45:
            self.st_float(d)
        self.emit("fma r%d, r%d, r%d, r%d" % (x2, a, rb + k + 1, x2), d)
        self.clean(x1, "f32", d)
        self.clean(x2, "f32", d)
        self.st_observe(d, x1)
        self.st_observe(d, x2)

    def st_combine(self, d):
        """--combine: what the AMDGCN stage's CSE and fusion rewrite
        (libwave/lib/AMDGCN/Combine.cpp), and near misses they must leave
        alone: shl then iadd (v_lshl_add_u32, s_lshl1..4_add_u32 on uniform
        values), iadd then shl (v_add_lshl_u32), products of values masked
        to 8..32 bits then an add (v_mad_u32_u24 only up to 24 bits), and
        an operation repeated with the same sources, with other statements,
        a predicate or a redefinition between the two."""
        self.new_group()
        x = self.rng.random()
        uni = [R_PARAM, R_WG, R_T, R_W]

        def operand():
            return self.pick(uni) if self.chance(0.35) else self.src()
        a, b, c = operand(), operand(), operand()
        if x < 0.25:
            k = self.pick([1, 2, 3, 4, self.rng.randrange(0, 32)])
            if self.chance(0.85):
                self.emit("mov_imm r%d, %d" % (T1, k), d)
                amt = T1
            else:
                amt = operand()
            self.emit("shl r%d, r%d, r%d" % (T2, a, amt), d)
            srcs = (T2, b) if self.chance(0.5) else (b, T2)
            self.emit("%siadd r%d, r%d, r%d" % ((self.prefix(0.1), self.dst()) + srcs), d)
            if self.chance(0.3):
                self.emit("%siadd r%d, r%d, r%d" % (self.prefix(0.1), self.dst(), c, T2), d)
        elif x < 0.45:
            self.emit("iadd r%d, r%d, r%d" % (T2, a, b), d)
            self.emit("mov_imm r%d, %d" % (T1, self.rng.randrange(0, 32)), d)
            self.emit("%sshl r%d, r%d, r%d" % (self.prefix(0.1), self.dst(), T2, T1), d)
        elif x < 0.65:
            masks = [0xFF, 0x3FF, 0xFFFF, 0xFFFFFF, 0x1FFFFFF, 0xFFFFFFFF]
            self.emit("mov_imm r%d, 0x%X" % (T1, self.pick(masks)), d)
            self.emit("and r%d, r%d, r%d" % (T2, a, T1), d)
            self.emit("mov_imm r%d, 0x%X" % (T1, self.pick(masks)), d)
            self.emit("and r%d, r%d, r%d" % (T3, b, T1), d)
            if self.chance(0.5):
                self.emit("%simad r%d, r%d, r%d, r%d" % (self.prefix(0.1), self.dst(), T2, T3, c), d)
            else:
                self.emit("imul r%d, r%d, r%d" % (T4, T2, T3), d)
                self.emit("%siadd r%d, r%d, r%d" % (self.prefix(0.1), self.dst(), c, T4), d)
        else:
            op = self.pick(INT2 + ["imad"])
            srcs = [a, b] + ([c] if op == "imad" else [])
            r1 = self.dst()
            self.emit("%s r%d, %s" % (op, r1, ", ".join("r%d" % s for s in srcs)), d)
            if self.chance(0.5):
                self.simple(None, d)
                self.new_group()
            r2 = self.dst()
            self.emit("%s%s r%d, %s" % (self.prefix(0.2), op, r2,
                                        ", ".join("r%d" % s for s in srcs)), d)
            self.st_observe(d, r1)
            self.st_observe(d, r2)

    def st_masks(self, d):
        """--masks: predicates as 0/1 values compared back (wave-ra's i1 in
        a register; the AMDGCN stage's RangeFolder::foldMaskImage): one or
        two compares made 0/1 (or 1/0) with select, an or/and/xor of the
        two, then icmp_ne/icmp_eq against 0 into a predicate a select reads.
        Sometimes predicated, with a statement between, or the 0/1 value
        read again, which the fold must leave alone."""
        self.new_group()
        self.emit("mov_imm r%d, 1" % T1, d)
        self.emit("mov_imm r%d, 0" % T2, d)
        vals = []
        for k in range(1 if self.chance(0.3) else 2):
            p = self.pred()
            op = self.pick(ICMP + FCMP)
            self.emit("%s%s p%d, r%d, r%d" % (self.prefix(0.1), op, p, self.src(), self.src()), d)
            t = (T3, T4)[k]
            one, zero = (T1, T2) if self.chance(0.85) else (T2, T1)
            # Unpredicated: the temporaries may hold nothing yet.
            self.emit("select r%d, p%d, r%d, r%d" % (t, p, one, zero), d)
            vals.append(t)
        if len(vals) == 2:
            op = self.pick(["or", "and", "xor", "or", "and"])
            self.emit("%s%s r%d, r%d, r%d" % (self.prefix(0.1), op, T3, T3, T4), d)
        if self.chance(0.2):
            self.simple(None, d)
            self.new_group()
        q = self.pred()
        cmp = "icmp_ne" if self.chance(0.8) else "icmp_eq"
        args = (T3, T2) if self.chance(0.8) else (T2, T3)
        self.emit("%s%s p%d, r%d, r%d" % (self.prefix(0.1), cmp, q, args[0], args[1]), d)
        self.emit("%sselect r%d, p%d, r%d, r%d" % (self.prefix(0.1), self.dst(), q,
                                                  self.src(), self.src()), d)
        if self.chance(0.15):
            self.st_observe(d, T3)

    def st_mov(self, d):
        self.new_group()
        x = self.rng.random()
        pf = self.prefix()
        if x < 0.45:
            self.emit("%smov_imm r%d, 0x%X" % (pf, self.dst(), self.imm()), d)
        elif x < 0.75:
            self.emit("%smov r%d, %s" % (pf, self.dst(), self.pick(SPECIAL)), d)
        else:
            self.emit("%smov r%d, r%d" % (pf, self.dst(), self.src()), d)

    def st_cmp_select(self, d):
        self.new_group()
        p = self.pred()
        op = self.pick(ICMP + FCMP)
        self.emit("%s%s p%d, r%d, r%d" % (self.prefix(0.1), op, p, self.src(), self.src()), d)
        if self.chance(0.8):
            q = p if self.chance(0.8) or self.opt.fresh_predicates else self.pred()
            self.emit("%sselect r%d, p%d, r%d, r%d" % (self.prefix(0.1), self.dst(), q, self.src(), self.src()), d)

    def st_float(self, d):
        self.new_group()
        x = self.rng.random()
        pf = self.prefix()
        rd = self.dst()
        if x < 0.35:
            self.emit("%s%s r%d, r%d, r%d" % (pf, self.pick(F2), rd, self.src(), self.src()), d)
        elif x < 0.45:
            self.emit("%sfma r%d, r%d, r%d, r%d" % (pf, rd, self.src(), self.src(), self.src()), d)
        elif x < 0.55:
            self.emit("%s%s r%d, r%d" % (pf, self.pick(["fneg", "fabs"]), rd, self.src()), d)
            return                                   # bit operations: no clean-up
        elif x < 0.7:
            ops = F1 + (TRANSC if self.opt.transcendentals else [])
            self.emit("%s%s r%d, r%d" % (pf, self.pick(ops), rd, self.src()), d)
        elif x < 0.78:
            lo, hi = sorted(self.rng.choice(NICE_FLOATS[:17]) for _ in range(2))
            self.emit("mov_imm r%d, 0x%X" % (T4, f32bits(lo)), d)
            self.emit("mov_imm r%d, 0x%X" % (T5, f32bits(hi)), d)
            self.emit("%sfclamp r%d, r%d, r%d, r%d" % (pf, rd, self.src(), T4, T5), d)
        elif x < 0.9:
            a, b = self.src(), self.src()
            self.sanitize(a, T4, d)
            if self.chance(0.1):
                self.emit("mov_imm r%d, 0" % T5, d)        # fdiv by zero: +inf (D10)
            else:
                self.sanitize(b, T5, d)
            self.emit("%sfdiv r%d, r%d, r%d" % (pf, rd, T4, T5), d)
        else:
            self.sanitize(self.src(), T4, d)
            self.emit("%s%s r%d, r%d" % (pf, self.pick(F1SAN), rd, T4), d)
        self.clean(rd, "f32", d)

    def st_half(self, d):
        self.new_group()
        pf = self.prefix()
        rd = self.dst()
        if self.chance(0.7):
            op = self.pick(sorted(H2))
            kind = H2[op]
            self.emit("%s%s r%d, r%d, r%d" % (pf, op, rd, self.src(), self.src()), d)
        else:
            op = self.pick(sorted(H3))
            kind = H3[op]
            self.emit("%s%s r%d, r%d, r%d, r%d" % (pf, op, rd, self.src(), self.src(), self.src()), d)
        self.clean(rd, kind, d)

    def st_f64(self, d):
        self.new_group()
        pf = self.prefix(0.1)
        op = self.pick(["dadd", "dsub", "dmul", "dma", "ddiv", "dsqrt"])
        n = {"dma": 3, "dsqrt": 1}.get(op, 2)
        pairs = [(T4, T5), (T0, T1), (T2, T3)][:n]
        srcs = []
        for i, (lo, hi) in enumerate(pairs):
            self.sanitize(self.src(), T6, d)
            if op == "dsqrt":
                self.emit("fabs r%d, r%d" % (T6, T6), d)
            # T6 -> pair (lo, lo+1): lo+1 must be hi
            self.emit("cvt_f64_f32 r%d, r%d" % (lo, T6), d)
            srcs.append(lo)
        rd = self.dst(2)
        if op == "dsqrt":
            self.emit("%sdsqrt r%d, r%d" % (pf, rd, srcs[0]), d)
        else:
            self.emit("%s%s r%d, %s" % (pf, op, rd, ", ".join("r%d" % s for s in srcs)), d)
        if self.chance(0.5):
            rf = self.dst()
            self.emit("%scvt_f32_f64 r%d, r%d" % (self.prefix(0.1), rf, rd), d)

    def st_cvt(self, d):
        self.new_group()
        pf = self.prefix()
        op = self.pick(["cvt_f32_i32", "cvt_f32_u32", "cvt_i32_f32", "cvt_u32_f32",
                        "cvt_f32_f16", "cvt_f16_f32", "cvt_f32_bf16", "cvt_bf16_f32",
                        "cvt_f64_f32", "cvt_f32_f64"])
        if op in ("cvt_i32_f32", "cvt_u32_f32"):
            lo, hi = ((0xCF000000, 0x4EFFFFFF) if op == "cvt_i32_f32"
                      else (0x00000000, 0x4F7FFFFF))       # [-2^31, 2^31), [0, 2^32)
            self.emit("mov_imm r%d, 0x%X" % (T3, lo), d)
            self.emit("fmax r%d, r%d, r%d" % (T4, self.src(), T3), d)  # NaN -> lo
            self.emit("mov_imm r%d, 0x%X" % (T3, hi), d)
            self.emit("fmin r%d, r%d, r%d" % (T4, T4, T3), d)
            self.emit("%s%s r%d, r%d" % (pf, op, self.dst(), T4), d)
        elif op == "cvt_f64_f32":
            rd = self.dst(2)
            self.emit("%s%s r%d, r%d" % (pf, op, rd, self.src()), d)
            # The pair may hold a NaN; its words are observed as integers.
            p = self.pred()
            self.emit("mov_imm r%d, 0" % T3, d)
            self.emit("cvt_f32_f64 r%d, r%d" % (T2, rd), d)
            self.emit("fcmp_unord p%d, r%d, r%d" % (p, T2, T2), d)
            self.emit("select r%d, p%d, r%d, r%d" % (rd, p, T3, rd), d)
            self.emit("select r%d, p%d, r%d, r%d" % (rd + 1, p, T3, rd + 1), d)
        elif op == "cvt_f32_f64":
            a = self.pool_reg()
            if a == self.pool_end - 1:
                a -= 1
            rd = self.dst()
            self.emit("%s%s r%d, r%d" % (pf, op, rd, a), d)
            self.clean(rd, "f32", d)
        else:
            rd = self.dst()
            self.emit("%s%s r%d, r%d" % (pf, op, rd, self.src()), d)
            kind = {"cvt_f32_i32": None, "cvt_f32_u32": None, "cvt_f32_f16": "f32",
                    "cvt_f16_f32": "f16", "cvt_f32_bf16": None,
                    "cvt_bf16_f32": None}[op]
            if kind:
                self.clean(rd, kind, d)

    def mem_width(self, local):
        w = self.pick(["u8", "u16", "u32", "u32", "u64", "u128"])
        return w

    def align_of(self, w, local):
        n = WIDTHS[w]
        if self.opt.unaligned and not local and n > 4:
            return 4
        return n

    def st_load_in(self, d):
        self.new_group()
        w = self.mem_width(False)
        n = WIDTHS[w]
        self.addr(R_INP, IN_SIZE, self.align_of(w, False), d, n=n)
        self.emit("%sdevice_load_%s r%d, r%d" % (self.prefix(0.1), w, self.dst(max(1, n // 4)), T0), d)

    def st_private(self, d, local):
        """Store to / load from the thread's own device or LDS region."""
        self.new_group()
        w = self.mem_width(local)
        n = WIDTHS[w]
        base = R_LPRIV if local else R_PRIV
        size = LPRIVSZ if local else PRIVSZ
        self.addr(base, size, self.align_of(w, local), d, n=n)
        kind = "local" if local else "device"
        if self.chance(0.55):
            v = self.rng.randrange(POOL0, self.pool_end - max(1, n // 4) + 1)
            self.emit("%s%s_store_%s r%d, r%d" % (self.prefix(0.1), kind, w, T0, v), d)
        else:
            self.emit("%s%s_load_%s r%d, r%d" % (self.prefix(0.1), kind, w, self.dst(max(1, n // 4)), T0), d)

    def st_atomic(self, d, local):
        self.new_group()
        pf = self.prefix(0.1)
        mn = "local_atomic_" if local else "atomic_"
        scope = "" if local else ", " + self.pick(SCOPES)
        if self.chance(0.5):
            # Returning (or any op) on a thread-private word.
            base = R_LPRIV if local else R_PRIV
            self.addr(base, LPRIVSZ if local else PRIVSZ, 4, d)
            op = self.pick(ATOM_OPS)
            ret = "r%d, " % self.dst() if self.chance(0.8) else ""
            if op == "cas":
                self.emit("%s%scas %sr%d, r%d, r%d%s" % (pf, mn, ret, T0, self.src(), self.src(), scope), d)
            else:
                self.emit("%s%s%s %sr%d, r%d%s" % (pf, mn, op, ret, T0, self.src(), scope), d)
        else:
            # Non-returning, commutative, on a shared word of one class.
            c = self.rng.randrange(len(SHARED_CLASSES))
            op = self.pick(SHARED_CLASSES[c])[len("atomic_"):]
            base = (LSHARED_BASE if local else SHARED_BASE) + 32 * c
            self.addr_const_base(base, 32, 4, d)
            self.emit("%s%s%s r%d, r%d%s" % (pf, mn, op, T0, self.src(), scope), d)

    def st_wave(self, d):
        self.new_group()
        pf = self.prefix(0.12)
        x = self.rng.random()
        rd = self.dst()
        if x < 0.45:
            op = self.pick(["wave_shuffle", "wave_shuffle_up", "wave_shuffle_down",
                            "wave_shuffle_xor", "wave_broadcast"])
            i = self.src()
            if op != "wave_shuffle_up" and self.chance(0.5):
                # Half the time, keep the source lane inside the wave's
                # live lanes, or >= W; otherwise lanes past the workgroup's
                # end are read too (they hold the register's initial value).
                if self.chance(0.6):
                    self.emit("mov_imm r%d, 0x%X" % (T1, self.pick([1, 3, 7, 15, 31, 63])), d)
                    self.emit("and r%d, r%d, r%d" % (T4, i, T1), d)
                    i = T4
                if op == "wave_shuffle_down":
                    self.emit("iadd r%d, r%d, r%d" % (T0, R_LANE, i), d)
                elif op == "wave_shuffle_xor":
                    self.emit("xor r%d, r%d, r%d" % (T0, R_LANE, i), d)
                else:
                    self.emit("mov r%d, r%d" % (T0, i), d)
                p = self.pred()
                self.emit("ucmp_lt p%d, r%d, r%d" % (p, T0, R_NL), d)
                self.emit("mov_imm r%d, 0x40000000" % T1, d)
                self.emit("select r%d, p%d, r%d, r%d" % (T5, p, i, T1), d)
                i = T5
            self.emit("%s%s r%d, r%d, r%d" % (pf, op, rd, self.src(), i), d)
        elif x < 0.6:
            p = self.pred()
            self.emit("%s p%d, r%d, r%d" % (self.pick(ICMP), p, self.src(), self.src()), d)
            r = self.rng.random()
            if r < 0.4:
                self.emit("%swave_ballot r%d, p%d" % (pf, rd, p), d)
            else:
                op = "wave_any" if r < 0.7 else "wave_all"
                q = self.pred()
                self.emit("%s%s p%d, p%d" % (pf, op, q, p), d)
                self.emit("mov_imm r%d, 1" % T1, d)
                self.emit("mov_imm r%d, 0" % T2, d)
                self.emit("select r%d, p%d, r%d, r%d" % (rd, q, T1, T2), d)
        else:
            op = self.pick(["wave_prefix_sum", "wave_reduce_add", "wave_reduce_min",
                            "wave_reduce_max"])
            self.emit("%s%s r%d, r%d" % (pf, op, rd, self.src()), d)

    def st_observe(self, d, r=None):
        self.new_group()
        if r is None:
            r = self.src()
        slot = self.rng.randrange(self.nobs)
        self.emit("mov_imm r%d, %d" % (T0, 4 * slot), d)
        self.emit("iadd r%d, r%d, r%d" % (T0, R_OUT, T0), d)
        self.emit("%sdevice_store_u32 r%d, r%d" % (self.prefix(0.1), T0, r), d)

    def st_exchange(self, d):
        """All threads: own LDS word, barrier, partner's word, barrier."""
        self.new_group()
        self.emit("mov_imm r%d, 2" % T0, d)
        self.emit("shl r%d, r%d, r%d" % (T0, R_TID, T0), d)
        self.emit("mov_imm r%d, %d" % (T1, LEX_BASE), d)
        self.emit("iadd r%d, r%d, r%d" % (T0, T0, T1), d)
        self.emit("local_store_u32 r%d, r%d" % (T0, self.src()), d)
        self.emit("barrier", d)
        self.emit("mov_imm r%d, %d" % (T0, self.rng.randrange(1, 200)), d)
        self.emit("iadd r%d, r%d, r%d" % (T0, T0, R_TID), d)
        if self.chance(0.3):
            self.emit("xor r%d, r%d, r%d" % (T0, T0, self.src()), d)
            self.emit("mov_imm r%d, 0xFFFF" % T1, d)
            self.emit("and r%d, r%d, r%d" % (T0, T0, T1), d)
        self.emit("imod r%d, r%d, r%d" % (T0, T0, R_T), d)
        self.emit("mov_imm r%d, 2" % T1, d)
        self.emit("shl r%d, r%d, r%d" % (T0, T0, T1), d)
        self.emit("mov_imm r%d, %d" % (T1, LEX_BASE), d)
        self.emit("iadd r%d, r%d, r%d" % (T0, T0, T1), d)
        self.emit("local_load_u32 r%d, r%d" % (self.dst(), T0), d)
        self.emit("barrier", d)

    def uniform_cond(self, d):
        """A compare whose result is the same for the whole workgroup."""
        p = self.pred()
        srcs = [R_PARAM, R_T]
        x = self.rng.random()
        if x < 0.3:
            self.emit("mov r%d, %s" % (T1, self.pick(["sr_workgroup_id_x", "sr_workgroup_id_y",
                                                       "sr_num_waves", "sr_grid_size_x",
                                                       "sr_workgroup_size_x", "sr_wave_width"])), d)
            a = T1
        else:
            a = self.pick(srcs)
        self.emit("mov_imm r%d, %d" % (T0, self.pick([0, 1, 2, 3, 5, 7, 8, 32, 64, 100, 0x80000000])), d)
        if self.chance(0.5):
            a, b = a, T0
        else:
            a, b = T0, a
        self.emit("%s p%d, r%d, r%d" % (self.pick(ICMP), p, a, b), d)
        return p

    def divergent_cond(self, d):
        p = self.pred()
        x = self.rng.random()
        if x < 0.35:
            # tid/lane based: a fraction of the lanes.
            self.emit("mov_imm r%d, %d" % (T0, self.pick([2, 3, 4, 5, 7, 8, 16])), d)
            self.emit("imod r%d, r%d, r%d" % (T1, self.pick([R_TID, R_LANE, R_GID]), T0), d)
            self.emit("mov_imm r%d, %d" % (T0, self.rng.randrange(0, 4)), d)
            self.emit("%s p%d, r%d, r%d" % (self.pick(["icmp_eq", "icmp_ne", "icmp_lt", "icmp_gt"]),
                                           p, T1, T0), d)
        elif x < 0.55:
            self.emit("mov_imm r%d, %d" % (T0, self.rng.randrange(0, 80)), d)
            self.emit("%s p%d, r%d, r%d" % (self.pick(["icmp_lt", "ucmp_le", "icmp_ge"]), p,
                                           self.pick([R_TID, R_LANE]), T0), d)
        elif x < 0.9:
            self.emit("%s p%d, r%d, r%d" % (self.pick(ICMP + FCMP), p, self.src(), self.src()), d)
        elif not self.opt.fresh_predicates:
            return self.pred()          # a stale predicate, whatever it holds
        else:
            self.emit("%s p%d, r%d, r%d" % (self.pick(ICMP), p, self.src(), self.src()), d)
        return p

    def st_if(self, ctx, d):
        self.new_group()
        uni = ctx.uniform and self.chance(0.5)
        p = self.uniform_cond(d) if uni else self.divergent_cond(d)
        self.emit("if p%d" % p, d)
        c = ctx.child(frames=ctx.frames + 1, uniform=uni and ctx.uniform)
        self.block(c, d + 1, self.rng.randrange(1, 6))
        if self.chance(0.5):
            self.new_group()
            self.emit("else", d)
            self.block(c, d + 1, self.rng.randrange(1, 6))
        self.new_group()
        self.emit("endif", d)

    def st_loop(self, ctx, d):
        if not self.free_counters:
            return self.st_int(d)
        cnt = self.free_counters.pop()
        self.live_counters.append(cnt)
        self.new_group()
        uni = ctx.uniform and self.chance(0.5)
        room = max(1, 48 // ctx.iter_budget)
        lim = self.rng.randrange(1, min(4, room) + 1)
        # --latch-breaks: a uniform loop may test its counter just before
        # `endloop` instead (with no `continue`, which would skip the test),
        # so that barriers in its body precede every branch out of it.
        at_latch = uni and ctx.uniform and self.opt.latch_breaks and self.chance(0.6)
        self.emit("mov_imm r%d, 0" % cnt, d)
        self.emit("loop", d)
        self.emit("mov_imm r%d, 1" % T0, d + 1)
        self.emit("iadd r%d, r%d, r%d" % (cnt, cnt, T0), d + 1)

        def counter_break():
            p = self.pred()
            if uni or self.chance(0.5):
                self.emit("mov_imm r%d, %d" % (T0, lim), d + 1)
            else:
                # A per-lane limit in 1..lim from a pool value (it may change
                # between iterations: the counter still reaches lim).
                self.emit("mov_imm r%d, %d" % (T0, max(1, lim - 1)), d + 1)
                self.emit("and r%d, r%d, r%d" % (T0, self.src(), T0), d + 1)
                self.emit("mov_imm r%d, 1" % T1, d + 1)
                self.emit("iadd r%d, r%d, r%d" % (T0, T0, T1), d + 1)
            self.emit("ucmp_le p%d, r%d, r%d" % (p, T0, cnt), d + 1)
            self.emit("break p%d" % p, d + 1)

        if not at_latch:
            counter_break()
        loop = {"uniform": uni and ctx.uniform, "counter": cnt, "no_continue": at_latch}
        c = ctx.child(frames=ctx.frames + 1, uniform=uni and ctx.uniform,
                      iter_budget=ctx.iter_budget * lim)
        c.loops = ctx.loops + [loop]
        self.block(c, d + 1, self.rng.randrange(2, 8))
        if at_latch:
            self.new_group()
            counter_break()
        self.new_group()
        self.emit("endloop", d)
        self.live_counters.remove(cnt)
        self.free_counters.append(cnt)

    def st_break_continue(self, ctx, d):
        loop = ctx.loops[-1]
        self.new_group()
        kind = "break" if self.chance(0.55) else "continue"
        if loop.get("no_continue"):
            kind = "break"
        if loop["uniform"] or ctx.uniform:
            if not ctx.uniform:
                return
            p = self.uniform_cond(d)
            self.emit("%s p%d" % (kind, p), d)
            return
        p = self.divergent_cond(d)
        if self.chance(0.15):
            q = self.divergent_cond(d)
            self.emit("@%sp%d %s p%d" % (self.pick(["", "!"]), q, kind, p), d)  # D9 default
        else:
            self.emit("%s p%d" % (kind, p), d)

    def st_halt(self, ctx, d):
        self.new_group()
        if self.chance(0.5):
            p = self.divergent_cond(d)
            neg = self.chance(0.3)
            if p == 0 and not neg:
                neg = True
            self.emit("@%sp%d halt" % ("!" if neg else "", p), d)
        else:
            p = self.divergent_cond(d)
            self.emit("if p%d" % p, d)
            self.st_observe(d + 1)
            self.new_group()
            self.emit("halt", d + 1)
            self.new_group()
            self.emit("endif", d)

    def st_deep(self, ctx, d):
        """A chain of nested ifs (and a few loops) up to the 32-frame limit."""
        target = self.rng.randrange(max(ctx.frames + 1, 20), 33)
        opened = []
        c = ctx
        while c.frames < target:
            self.new_group()
            if self.chance(0.15) and self.free_counters and c.iter_budget < 8:
                cnt = self.free_counters.pop()
                self.live_counters.append(cnt)
                self.emit("mov_imm r%d, 0" % cnt, d)
                self.emit("loop", d)
                self.emit("mov_imm r%d, 1" % T0, d + 1)
                self.emit("iadd r%d, r%d, r%d" % (cnt, cnt, T0), d + 1)
                p = self.pred()
                self.emit("mov_imm r%d, 2" % T0, d + 1)
                self.emit("ucmp_le p%d, r%d, r%d" % (p, T0, cnt), d + 1)
                self.emit("break p%d" % p, d + 1)
                loop = {"uniform": False, "counter": cnt}
                c = c.child(frames=c.frames + 1, uniform=False, iter_budget=c.iter_budget * 2)
                c.loops = c.loops + [loop]
                opened.append(("loop", cnt))
            else:
                p = (self.uniform_cond(d) if self.chance(0.3) else self.divergent_cond(d))
                self.emit("if p%d" % p, d)
                c = c.child(frames=c.frames + 1, uniform=False)
                opened.append(("if", None))
            d += 1
            self.simple(c, d)
        while opened:
            kind, cnt = opened.pop()
            d -= 1
            self.new_group()
            if kind == "if":
                if self.chance(0.3):
                    self.emit("else", d)
                    self.new_group()
                    self.simple(c, d + 1)
                    self.new_group()
                self.emit("endif", d)
            else:
                self.emit("endloop", d)
                self.live_counters.remove(cnt)
                self.free_counters.append(cnt)
            self.simple(c, d)

    def simple(self, ctx, d):
        f = self.pick([self.st_int, self.st_mov, self.st_cmp_select, self.st_float,
                       self.st_observe, self.st_wave])
        f(d)

    def statement(self, ctx, d):
        choices = [
            (self.st_int, 14), (self.st_mov, 5), (self.st_cmp_select, 6),
            (self.st_float, 9), (self.st_half, 4), (self.st_f64, 2), (self.st_cvt, 4),
            (self.st_load_in, 4), (lambda d: self.st_private(d, False), 4),
            (lambda d: self.st_private(d, True), 4),
            (lambda d: self.st_atomic(d, False), 3), (lambda d: self.st_atomic(d, True), 3),
            (self.st_wave, 7), (self.st_observe, 8),
        ]
        if self.opt.combine:
            choices.append((self.st_combine, 12))
            choices.append((self.st_pk_fma, 4))
        if self.opt.mma:
            choices.append((self.st_mma, 6))
        if self.opt.masks:
            choices.append((self.st_masks, 8))
        if ctx.frames < 31 and self.budget > 0:
            choices.append(("if", 6))
            if ctx.iter_budget < 24:
                choices.append(("loop", 4))
            if ctx.frames < 12 and self.deep_left > 0:
                choices.append(("deep", 1))
        if ctx.loops:
            choices.append(("bc", 6))
        if self.phase == 2 and self.halts:
            choices.append(("halt", 2))
        if self.phase == 1 and ctx.uniform:
            choices.append(("exchange", 3))
            choices.append(("barrier", 1))
        total = sum(w for _, w in choices)
        x = self.rng.random() * total
        for f, w in choices:
            x -= w
            if x < 0:
                break
        if f == "if":
            self.st_if(ctx, d)
        elif f == "loop":
            self.st_loop(ctx, d)
        elif f == "deep":
            self.deep_left -= 1
            self.st_deep(ctx, d)
        elif f == "bc":
            self.st_break_continue(ctx, d)
        elif f == "halt":
            self.st_halt(ctx, d)
        elif f == "exchange":
            self.st_exchange(d)
        elif f == "barrier":
            self.new_group()
            self.emit("barrier", d)
        else:
            f(d)

    def block(self, ctx, d, n):
        for _ in range(n):
            if self.budget <= 0 and ctx.frames > 0:
                break
            self.statement(ctx, d)

    # -- kernel -------------------------------------------------------------
    def kernel(self):
        rng = self.rng
        size = self.opt.size
        nregs = rng.randrange(40, 97)
        self.nloopregs = 10
        self.pool_end = nregs - self.nloopregs
        self.free_counters = list(range(self.pool_end, nregs))
        self.live_counters = []
        self.nobs = rng.randrange(8, 25)
        self.deep_left = 1 if self.chance(0.3) else 0
        # Workgroup and grid.
        shape = rng.random()
        if shape < 0.6:
            wg = [rng.choice([1, 3, 7, 16, 31, 32, 33, 48, 63, 64, 65, 80, 96, 100, 128, 130]), 1, 1]
        elif shape < 0.9:
            wg = [rng.choice([2, 4, 5, 8, 16, 17]), rng.choice([2, 3, 4, 6]), 1]
        else:
            wg = [rng.choice([2, 4, 8]), rng.choice([2, 3]), rng.choice([2, 3])]
        grid = [rng.randrange(1, 4), 1, 1] if self.chance(0.8) else [rng.randrange(1, 3), 2, 1]
        whole_waves = self.opt.latch_breaks and self.chance(0.5)
        if whole_waves:
            # Whole waves on every target, declared: EXEC is full at every
            # uniform point, where a loop around a barrier can be a uniform
            # loop in the AMDGCN translation.
            wg, grid = [rng.choice([64, 128]), 1, 1], [rng.randrange(1, 3), 1, 1]
        T = wg[0] * wg[1] * wg[2]
        NT = T * grid[0] * grid[1] * grid[2]
        slots = self.nobs + (self.pool_end - POOL0) + 4 + LPRIVSZ // 4 + 1
        priv_base = SHARED_BASE + 256
        out_base = priv_base + NT * PRIVSZ
        wgout_base = out_base + NT * slots * 4
        end = wgout_base + grid[0] * grid[1] * grid[2] * 256
        lmem = LEX_BASE + 4 * T
        lpriv_base = (lmem + 15) & ~15
        lmem = lpriv_base + LPRIVSZ * T
        self.halts = self.chance(0.6)
        barriers = self.chance(0.5)
        params = self.chance(0.5)
        fixed_wg = self.chance(0.4) or whole_waves

        hdr = [".kernel k", ".registers %d" % nregs]
        if fixed_wg:
            hdr.append(".workgroup_size %d, %d, %d" % tuple(wg))
        hdr.append(".local_memory %d" % ((lmem + 15) & ~15))
        if params:
            hdr += [".param out, buffer, u32, readwrite", ".param inp, buffer, u32, read",
                    ".param k, scalar, u32", ".param priv, buffer, u32, readwrite"]
        self.new_group(keep=True)
        e = self.emit
        if whole_waves and self.chance(0.5):
            # Every byte of local memory written before any read (nonzero
            # words, each its own address + 1), then a barrier: the AMDGCN
            # stage leaves out its clear, and an executor's junk in LDS
            # shows if the translation reads a byte nobody wrote.
            lbytes = (lmem + 15) & ~15
            starts = list(range(0, lbytes - 4 * T + 1, 4 * T))
            if starts[-1] != lbytes - 4 * T:
                starts.append(lbytes - 4 * T)
            e("mov r%d, sr_thread_id_x" % T0)
            e("mov_imm r%d, 2" % T1)
            e("shl r%d, r%d, r%d" % (T0, T0, T1))
            e("mov_imm r%d, 1" % T2)
            for start in starts:
                e("mov_imm r%d, %d" % (T1, start))
                e("iadd r%d, r%d, r%d" % (T1, T0, T1))
                e("iadd r%d, r%d, r%d" % (T3, T1, T2))
                e("local_store_u32 r%d, r%d" % (T1, T3))
            e("barrier")
        e("mov r%d, sr_thread_id_x" % R_TID)
        e("mov r%d, sr_thread_id_y" % T0)
        e("mov r%d, sr_workgroup_size_x" % T1)
        e("imad r%d, r%d, r%d, r%d" % (R_TID, T0, T1, R_TID))
        e("mov r%d, sr_workgroup_size_y" % T2)
        e("imul r%d, r%d, r%d" % (T2, T2, T1))
        e("mov r%d, sr_thread_id_z" % T0)
        e("imad r%d, r%d, r%d, r%d" % (R_TID, T0, T2, R_TID))
        e("mov r%d, sr_workgroup_size_z" % T3)
        e("imul r%d, r%d, r%d" % (R_T, T2, T3))
        e("mov r%d, sr_workgroup_id_y" % T0)
        e("mov r%d, sr_grid_size_x" % T1)
        e("mov r%d, sr_workgroup_id_x" % T3)
        e("imad r%d, r%d, r%d, r%d" % (R_WG, T0, T1, T3))          # workgroup linear id
        e("imad r%d, r%d, r%d, r%d" % (R_GID, R_WG, R_T, R_TID))
        e("mov_imm r%d, %d" % (T0, slots * 4))
        e("imad r%d, r%d, r%d, r%d" % (R_OUT, R_GID, T0, R_OUTP))
        e("mov_imm r%d, %d" % (T0, PRIVSZ))
        e("imad r%d, r%d, r%d, r%d" % (R_PRIV, R_GID, T0, R_PRIVP))
        e("mov_imm r%d, %d" % (T0, LPRIVSZ))
        e("mov_imm r%d, %d" % (T1, lpriv_base))
        e("imad r%d, r%d, r%d, r%d" % (R_LPRIV, R_TID, T0, T1))
        e("mov r%d, sr_wave_width" % R_W)
        e("mov r%d, sr_lane_id" % R_LANE)
        e("mov r%d, sr_wave_id" % T0)
        e("imul r%d, r%d, r%d" % (T0, T0, R_W))
        e("isub r%d, r%d, r%d" % (R_NL, R_T, T0))
        e("imin r%d, r%d, r%d" % (R_NL, R_NL, R_W))
        # Pool initialisation.
        for r in range(POOL0, self.pool_end):
            self.new_group()
            x = rng.random()
            if x < 0.45:
                e("mov_imm r%d, %d" % (T0, rng.randrange(0, 64) * 4))
                e("imad r%d, r%d, r%d, r%d" % (T0, R_GID, T0, R_INP))
                e("mov_imm r%d, 0x%X" % (T1, (IN_SIZE - 1) & ~3))
                e("and r%d, r%d, r%d" % (T0, T0, T1))
                e("device_load_u32 r%d, r%d" % (r, T0))
            elif x < 0.7:
                e("mov_imm r%d, 0x%X" % (r, self.imm()))
            elif x < 0.85:
                e("mov r%d, %s" % (r, self.pick(SPECIAL)))
            else:
                e("mov_imm r%d, %d" % (T0, rng.randrange(1, 8)))
                e("%s r%d, r%d, r%d" % (self.pick(["iadd", "imul", "xor", "shl"]), r,
                                       self.pick([R_TID, R_GID, R_LANE]), T0))
        self.budget = int(rng.randrange(25, 90) * size)
        top = Ctx()
        if barriers:
            self.phase = 1
            self.block(top, 0, rng.randrange(3, 12))
        self.phase = 2
        self.budget = max(self.budget, 10)
        while self.budget > 0:
            self.statement(top, 0)
        # Epilogue: every pool register, the predicates, the LDS region.
        slot = self.nobs
        for r in range(POOL0, self.pool_end):
            self.new_group()
            e("mov_imm r%d, %d" % (T0, 4 * slot))
            e("iadd r%d, r%d, r%d" % (T0, R_OUT, T0))
            e("device_store_u32 r%d, r%d" % (T0, r))
            slot += 1
        for p in range(0 if self.opt.fresh_predicates else 4):
            self.new_group()
            e("mov_imm r%d, %d" % (T1, 1 << p))
            e("mov_imm r%d, 0" % T2)
            e("select r%d, p%d, r%d, r%d" % (T1, p, T1, T2))
            e("mov_imm r%d, %d" % (T0, 4 * slot))
            e("iadd r%d, r%d, r%d" % (T0, R_OUT, T0))
            e("device_store_u32 r%d, r%d" % (T0, T1))
            slot += 1
        for i in range(LPRIVSZ // 4):
            self.new_group()
            e("mov_imm r%d, %d" % (T0, 4 * i))
            e("iadd r%d, r%d, r%d" % (T0, R_LPRIV, T0))
            e("local_load_u32 r%d, r%d" % (T1, T0))
            e("mov_imm r%d, %d" % (T0, 4 * slot))
            e("iadd r%d, r%d, r%d" % (T0, R_OUT, T0))
            e("device_store_u32 r%d, r%d" % (T0, T1))
            slot += 1
        if not self.halts:
            # The workgroup's LDS atomics words, after every thread is done.
            self.new_group()
            e("barrier")
            e("mov_imm r%d, 48" % T0)
            e("icmp_lt p1, r%d, r%d" % (R_TID, T0))
            e("if p1")
            e("mov_imm r%d, 2" % T0, 1)
            e("shl r%d, r%d, r%d" % (T0, R_TID, T0), 1)
            e("local_load_u32 r%d, r%d" % (T1, T0), 1)
            e("mov_imm r%d, 256" % T2, 1)
            e("imul r%d, r%d, r%d" % (T2, R_WG, T2), 1)
            e("iadd r%d, r%d, r%d" % (T0, T0, T2), 1)
            e("mov_imm r%d, %d" % (T2, wgout_base), 1)
            e("iadd r%d, r%d, r%d" % (T0, T0, T2), 1)
            e("device_store_u32 r%d, r%d" % (T0, T1), 1)
            e("endif")
        self.new_group(keep=True)
        e("halt")
        text = "\n".join(hdr) + "\n" + "\n".join(self.lines) + "\n.end\n"
        # Inputs: random words, nice floats, specials.
        data = bytearray()
        for i in range(IN_SIZE // 4):
            x = rng.random()
            if x < 0.4:
                v = rng.randrange(0, 1 << 32)
            elif x < 0.7:
                v = f32bits(rng.choice(NICE_FLOATS) * rng.choice([1, 1, 2, -3, 0.5]))
            elif x < 0.85:
                v = rng.randrange(0, 256)
            else:
                h = [0x3C00, 0x4000, 0xBC00, 0x3555, 0x7BFF, 0x0001, 0x7C00, 0x3F80, 0x4049]
                v = rng.choice(h) | (rng.choice(h) << 16)
            data += struct.pack("<I", v)
        shared_init = bytearray()
        for i in range(8 * len(SHARED_CLASSES)):
            shared_init += struct.pack("<I", rng.randrange(0, 1 << 32))
        data += shared_init
        args = ["--grid", "%d,%d,%d" % tuple(grid), "--workgroup", "%d,%d,%d" % tuple(wg),
                "--arg", "0:in.bin",
                "--set-reg", "0:%d" % out_base, "--set-reg", "1:%d" % IN_BASE,
                "--set-reg", "2:%d" % self.imm(), "--set-reg", "3:%d" % priv_base,
                "--dump-u32", "%d:%d" % (SHARED_BASE, (end - SHARED_BASE) // 4)]
        meta = {"seed": self.seed, "threads": NT, "workgroup": wg, "grid": grid,
                "halts": self.halts, "barriers": barriers, "registers": nregs}
        return Test(text, args, {"in.bin": bytes(data)}, meta)


def f32bits(x):
    return struct.unpack("<I", struct.pack("<f", x))[0]


def generate(seed, opt=None):
    return Gen(seed, opt or Options()).kernel()


def add_options(ap):
    """The options of Options, for this script and the difftest driver."""
    ap.add_argument("--transcendentals", action="store_true",
                    help="also generate fsin/fcos/fexp2/flog2 (2 ULP allowed)")
    ap.add_argument("--unaligned", action="store_true",
                    help="u64/u128 device accesses only 4-byte aligned")
    ap.add_argument("--size", type=float, default=1.0, help="scale the kernel length")
    ap.add_argument("--fresh-predicates", action="store_true",
                    help="never read a predicate in lanes that did not just set it")
    ap.add_argument("--combine", action="store_true",
                    help="also generate what the AMDGCN stage's CSE and fusion rewrite")
    ap.add_argument("--latch-breaks", action="store_true",
                    help="uniform loops may break just before endloop, around barriers, "
                         "in whole-wave workgroups")
    ap.add_argument("--mma", action="store_true",
                    help="also generate MMA loads, computes and stores on each thread's LDS")
    ap.add_argument("--masks", action="store_true",
                    help="also generate predicates kept as 0/1 values and compared back")


def options_from(a):
    """Options from arguments parsed with add_options."""
    return Options(a.transcendentals, a.unaligned, a.size, a.fresh_predicates, a.combine,
                   a.latch_breaks, a.mma, a.masks)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--out", default=".")
    add_options(ap)
    a = ap.parse_args()
    t = generate(a.seed, options_from(a))
    t.write(a.out)
    print(os.path.join(a.out, "k.wave"))


if __name__ == "__main__":
    main()
