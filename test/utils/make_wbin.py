#!/usr/bin/env python3
"""make_wbin.py: build a one-kernel .wbin from raw instruction words.

Usage:
  make_wbin.py OUT [--name NAME | --name-hex HEX] [--regs N] [--local BYTES]
               [--wg X,Y,Z] [--code-size BYTES] WORD...

Writes the container of formats/wbin.md "Writer algorithm" (header, code, symbol table, metadata)
around the given 32-bit words (hex like 3F000090 or 0x3F000090), so tests can
run encodings the assembler never produces (invalid opcodes or modifiers,
reserved bits, unassembled compare codes, special-register indices >= 20).
--code-size overrides the header's code_size and the kernel's code_size (to
cut the last instruction short, formats/isa.md D24). --name-hex gives the
kernel name as raw bytes (for names no assembler writes: control characters,
invalid UTF-8). Standard library only.
"""
import argparse
import struct


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out")
    ap.add_argument("words", nargs="+")
    ap.add_argument("--name", default="k")
    ap.add_argument("--name-hex", default=None)
    ap.add_argument("--regs", type=int, default=32)
    ap.add_argument("--local", type=int, default=0)
    ap.add_argument("--wg", default="1,1,1")
    ap.add_argument("--code-size", type=int, default=None)
    a = ap.parse_args()
    code = b"".join(struct.pack("<I", int(w, 16)) for w in a.words)
    size = len(code) if a.code_size is None else a.code_size
    code = code[:size]
    name = bytes.fromhex(a.name_hex) if a.name_hex else a.name.encode()
    sym = name + b"\0"
    sym_off = 0x20 + len(code)
    meta_off = sym_off + len(sym)
    wx, wy, wz = (int(v) for v in a.wg.split(","))
    meta = struct.pack("<I", 1) + struct.pack(
        "<8I", sym_off, a.regs, a.local, wx, wy, wz, 0, size)
    header = b"WAVE" + struct.pack("<HHIIIIII", 1, 0, 0x20, size, sym_off,
                                   len(sym), meta_off, len(meta))
    with open(a.out, "wb") as f:
        f.write(header + code + sym + meta)


if __name__ == "__main__":
    main()
