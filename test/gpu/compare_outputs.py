#!/usr/bin/env python3
"""compare_outputs.py: compare two wave-run outputs, exactly or within N ulp.

Usage:
  compare_outputs.py A B [--ulp N] [--binary] [--nan-payloads]

A and B are the same output of two runs of one kernel (the reference
emulator's and the GPU's): the standard output of wave-run (--dump-*,
--print text) or, with --binary, a buffer written by --out. Without --ulp
they must be identical byte for byte. With --ulp N (for kernels that use
fsin, fcos, fexp2 or flog2, which formats/isa.md §4.7 lets differ by 2 ulp)
values may differ by at most N units in the last place of an f32:

* binary files are read as little-endian 32-bit words;
* text is compared line by line and token by token: a decimal integer is
  taken as the bit pattern of an f32 (--dump-u32 of float results), any
  other number (or NaN/inf) as a value rounded to f32 (--dump-f32,
  --print), and a --dump-memory line's bytes as little-endian words.

Two f32 NaNs match whatever their payloads under --ulp; without it NaN
payloads must be identical too, unless --nan-payloads is given (f32 NaNs,
and f16 NaNs in either half of a word, then match). A difference in NaN
payloads alone is reported as such. Everything else (line counts, words that are not
numbers, the bytes of a hex dump that do not form whole words) must be
identical.

Prints one line: 'same', 'within N ulp (max D ulp in K values)' or
'differs: ...' with the first difference. Exit status: 0 same or within the
tolerance, 1 differs, 2 usage error or unreadable file. Standard library
only; cuda_suite.py imports compare().
"""
import argparse
import re
import struct
import sys

sys.dont_write_bytecode = True  # keep the source tree free of __pycache__

HEX_LINE = re.compile(r"^([0-9a-fA-F]{8}): ((?:[0-9a-fA-F]{2} {1,2})*[0-9a-fA-F]{2})"
                      r"(\s+\|.*\|)?$")
INT = re.compile(r"^-?[0-9]+$")


def _is_nan_bits(w):
    return (w & 0x7F800000) == 0x7F800000 and (w & 0x007FFFFF) != 0


def _is_f16_nan(h):
    return (h & 0x7C00) == 0x7C00 and (h & 0x03FF) != 0


def nan_payload_pair(a, b):
    """True when words a and b differ only in NaN payloads: both f32 NaNs,
    or each 16-bit half equal or a NaN on both sides (packed f16)."""
    if _is_nan_bits(a) and _is_nan_bits(b):
        return True
    for sh in (0, 16):
        x, y = (a >> sh) & 0xFFFF, (b >> sh) & 0xFFFF
        if x != y and not (_is_f16_nan(x) and _is_f16_nan(y)):
            return False
    return True


def _ordered(w):
    """Maps f32 bits to an integer that orders like the value (-0 == +0)."""
    return -(w & 0x7FFFFFFF) if w & 0x80000000 else w


def ulp_distance(a, b):
    """Units in the last place between two f32 bit patterns; 0 for two NaNs,
    None for a NaN against a number."""
    a &= 0xFFFFFFFF
    b &= 0xFFFFFFFF
    na, nb = _is_nan_bits(a), _is_nan_bits(b)
    if na or nb:
        return 0 if na and nb else None
    return abs(_ordered(a) - _ordered(b))


def _f32_bits_of_token(tok):
    """The f32 bits a --dump-f32/--print token stands for, or None."""
    t = tok.lower()
    if t in ("nan", "-nan", "+nan"):
        return 0x7FC00000
    try:
        v = float(t)
    except ValueError:
        return None
    try:
        return struct.unpack("<I", struct.pack("<f", v))[0]
    except OverflowError:
        return 0x7F800000 if v > 0 else 0xFF800000


def _u32_of_token(tok):
    if not INT.match(tok):
        return None
    v = int(tok)
    return v & 0xFFFFFFFF if -(1 << 31) <= v < (1 << 32) else None


class _Result:
    def __init__(self, nan_payloads=False):
        self.nan_payloads = nan_payloads  # NaN payload differences match
        self.max_ulp = 0
        self.inexact = 0  # values that differ but are within the tolerance
        self.first = None  # first difference beyond the tolerance

    def word(self, a, b, ulp, where):
        if a == b or (self.nan_payloads and nan_payload_pair(a, b)):
            return
        d = ulp_distance(a, b)
        if d is not None and d <= ulp:
            if d:
                self.inexact += 1
                self.max_ulp = max(self.max_ulp, d)
            return
        if self.first is None:
            dist = "NaN vs number" if d is None else "%d ulp" % d
            self.first = "%s: 0x%08x vs 0x%08x (%s)" % (where, a, b, dist)


def _words(data):
    n = len(data) // 4
    return struct.unpack("<%dI" % n, data[:4 * n]), data[4 * n:]


def _compare_binary(a, b, ulp, r):
    if len(a) != len(b):
        r.first = "sizes differ: %d vs %d bytes" % (len(a), len(b))
        return
    wa, ta = _words(a)
    wb, tb = _words(b)
    for i, (x, y) in enumerate(zip(wa, wb)):
        r.word(x, y, ulp, "word %d (byte 0x%x)" % (i, 4 * i))
        if r.first:
            return
    if ta != tb:
        r.first = "trailing bytes differ"


def _compare_text(a, b, ulp, r):
    la = a.decode("utf-8", "replace").split("\n")
    lb = b.decode("utf-8", "replace").split("\n")
    if len(la) != len(lb):
        r.first = "line counts differ: %d vs %d" % (len(la), len(lb))
        return
    for n, (x, y) in enumerate(zip(la, lb), 1):
        if x == y:
            continue
        where = "line %d" % n
        ha, hb = HEX_LINE.match(x), HEX_LINE.match(y)
        if ha and hb:
            if ha.group(1) != hb.group(1):
                r.first = "%s: %r vs %r" % (where, x, y)
                return
            ba = bytes.fromhex(ha.group(2).replace(" ", ""))
            bb = bytes.fromhex(hb.group(2).replace(" ", ""))
            if len(ba) != len(bb) or len(ba) % 4 or int(ha.group(1), 16) % 4:
                r.first = "%s: %r vs %r" % (where, x, y)
                return
            _compare_binary(ba, bb, ulp, r)
            if r.first:
                r.first = "%s (%s): %s" % (where, ha.group(1), r.first)
                return
            continue
        ta, tb = x.split(), y.split()
        if len(ta) != len(tb):
            r.first = "%s: %r vs %r" % (where, x, y)
            return
        for s, t in zip(ta, tb):
            if s == t:
                continue
            ua, ub = _u32_of_token(s), _u32_of_token(t)
            if ua is None or ub is None:
                ua, ub = _f32_bits_of_token(s), _f32_bits_of_token(t)
            if ua is None or ub is None:
                r.first = "%s: %r vs %r" % (where, x, y)
                return
            r.word(ua, ub, ulp, "%s: %r vs %r" % (where, s, t))
            if r.first:
                return


def _first_difference(a, b, binary):
    if binary:
        for i, (x, y) in enumerate(zip(a, b)):
            if x != y:
                return "byte 0x%x: 0x%02x vs 0x%02x" % (i, x, y)
        return "sizes differ: %d vs %d bytes" % (len(a), len(b))
    la, lb = a.split(b"\n"), b.split(b"\n")
    for n, (x, y) in enumerate(zip(la, lb), 1):
        if x != y:
            return "line %d: %r vs %r" % (n, x.decode("utf-8", "replace")[:60],
                                         y.decode("utf-8", "replace")[:60])
    return "line counts differ: %d vs %d" % (len(la), len(lb))


def _nan_payload_only(a, b, binary):
    """True when every differing word is a NaN on both sides (a NaN
    payload difference, e.g. canonical NaN 0x7FFFFFFF vs 0xFFC00000), as
    f32 or as both halves' f16."""
    r = _Result(nan_payloads=True)
    if binary:
        _compare_binary(a, b, 0, r)
    else:
        _compare_text(a, b, 0, r)
    return r.first is None


def compare(a, b, ulp=0, binary=False, nan_payloads=False):
    """Compares two outputs (bytes). Returns (ok, message). nan_payloads:
    NaN payload differences (f32, or f16 halves) count as equal."""
    if a == b:
        return True, "same"
    if ulp <= 0:
        only_nans = _nan_payload_only(a, b, binary)
        if only_nans and nan_payloads:
            return True, "NaN payloads differ (allowed)"
        msg = "differs: " + _first_difference(a, b, binary)
        if only_nans:
            msg += " (NaN payloads only)"
        return False, msg
    r = _Result(nan_payloads)
    if binary:
        _compare_binary(a, b, ulp, r)
    else:
        _compare_text(a, b, ulp, r)
    if r.first:
        return False, "differs: " + r.first
    return True, "within %d ulp (max %d ulp in %d values)" % (ulp, r.max_ulp,
                                                              r.inexact)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("a")
    ap.add_argument("b")
    ap.add_argument("--ulp", type=int, default=0,
                    help="allowed f32 difference in ulp (default 0: exact)")
    ap.add_argument("--binary", action="store_true",
                    help="the files are --out buffers (32-bit words)")
    ap.add_argument("--nan-payloads", action="store_true",
                    help="NaNs match whatever their payloads (f32, f16)")
    args = ap.parse_args()
    try:
        with open(args.a, "rb") as f:
            a = f.read()
        with open(args.b, "rb") as f:
            b = f.read()
    except OSError as e:
        print("compare_outputs.py: %s" % e, file=sys.stderr)
        return 2
    ok, msg = compare(a, b, args.ulp, args.binary, args.nan_payloads)
    print(msg)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
