"""wavedata: tiny stdlib-only helpers shared by the example tests.

Reads and writes little-endian buffers of u32/i32/f32/f16/bf16 values (the
layout wave-run's --arg loads and --dump-* prints) and provides the exact
rounding steps the WAVE emulator performs (formats/isa.md §4.7, §4.8, §4.11), so
that references computed in Python match the emulator bit for bit:

  f32(x)          round a Python float (binary64) to binary32, RNE
  f32_fma(a,b,c)  a*b+c with ONE rounding to binary32 (exact via Fraction)
  f16 / bf16      16-bit patterns <-> floats; f16 is RNE (struct 'e'),
                  bf16 results are TRUNCATED from f32 (formats/isa.md D35)

No numpy: everything here is python3's standard library.
"""
import random
import struct
import subprocess
import sys
from fractions import Fraction

FMT = {"u32": "I", "i32": "i", "f32": "f"}
SIZE = {"u32": 4, "i32": 4, "f32": 4, "f16": 2, "bf16": 2}


def f32(x):
    """Round a binary64 value to the nearest binary32 value (RNE)."""
    return struct.unpack("<f", struct.pack("<f", x))[0]


def f32_bits(x):
    return struct.unpack("<I", struct.pack("<f", x))[0]


def bits_f32(b):
    return struct.unpack("<f", struct.pack("<I", b & 0xFFFFFFFF))[0]


def round_fraction_f32(q):
    """Round an exact rational to binary32 (RNE, overflow -> inf)."""
    if q == 0:
        return 0.0
    sign = -1.0 if q < 0 else 1.0
    q = abs(q)
    # Find e with 2^23 <= q / 2^e < 2^24 (normal numbers); clamp for subnormals.
    e = q.numerator.bit_length() - q.denominator.bit_length() - 24
    while q / Fraction(2) ** e >= 2 ** 24:
        e += 1
    while q / Fraction(2) ** e < 2 ** 23:
        e -= 1
    e = max(e, -149)
    scaled = q / Fraction(2) ** e
    m = scaled.numerator // scaled.denominator
    rem = scaled - m
    if rem > Fraction(1, 2) or (rem == Fraction(1, 2) and m % 2 == 1):
        m += 1
    val = m * 2.0 ** e if e < 200 else float("inf")
    if val >= 2.0 ** 128:
        return sign * float("inf")
    return sign * val


def f32_fma(a, b, c):
    """Fused multiply-add in binary32: a*b+c rounded once (finite inputs)."""
    return round_fraction_f32(Fraction(a) * Fraction(b) + Fraction(c))


def f16_to_float(h):
    return struct.unpack("<e", struct.pack("<H", h & 0xFFFF))[0]


def float_to_f16(x):
    """Binary64 -> f16 bits, RNE; overflow -> +-inf (struct raises instead)."""
    try:
        return struct.unpack("<H", struct.pack("<e", x))[0]
    except OverflowError:
        return 0xFC00 if x < 0 else 0x7C00


def bf16_to_float(b):
    return bits_f32((b & 0xFFFF) << 16)


def float_to_bf16_trunc(x):
    """f32 value -> bf16 bits by truncation (the emulator's rule, D35)."""
    return f32_bits(x) >> 16


def write_values(path, typ, values):
    """Write values as little-endian `typ` (f16/bf16 values are bit patterns)."""
    with open(path, "wb") as f:
        if typ in ("f16", "bf16"):
            f.write(struct.pack("<%dH" % len(values), *values))
        else:
            f.write(struct.pack("<%d%s" % (len(values), FMT[typ]), *values))


def read_values(path, typ):
    """Read a whole file as little-endian `typ` (f16/bf16: bit patterns)."""
    with open(path, "rb") as f:
        data = f.read()
    n = len(data) // SIZE[typ]
    if typ in ("f16", "bf16"):
        return list(struct.unpack("<%dH" % n, data[: 2 * n]))
    return list(struct.unpack("<%d%s" % (n, FMT[typ]), data[: 4 * n]))


def random_values(typ, count, seed, lo, hi, integer=False):
    """Seeded uniform values in [lo, hi], exactly representable in `typ`.

    f16/bf16 come back as bit patterns; with integer=True, values are whole
    numbers (so sums and products stay exact in f32)."""
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        if typ in ("u32", "i32") or integer:
            v = rng.randint(int(lo), int(hi))
            if typ in ("f32", "f16", "bf16"):
                v = float(v)
        else:
            v = rng.uniform(lo, hi)
        if typ == "f32":
            v = f32(v)
        elif typ == "f16":
            v = float_to_f16(v)
        elif typ == "bf16":
            v = float_to_bf16_trunc(f32(v))
        out.append(v)
    return out


def run_tool(cmd, stdin=None):
    """Runs a tool (argv list) with bytes on stdin; on a non-zero exit,
    prints the command and its stderr and exits 1. Returns the
    CompletedProcess (stdout, stderr as bytes)."""
    p = subprocess.run(cmd, input=stdin, capture_output=True)
    if p.returncode != 0:
        sys.stderr.write("command failed (exit %d): %s\n%s" %
                         (p.returncode, " ".join(cmd),
                          p.stderr.decode(errors="replace")))
        sys.exit(1)
    return p
