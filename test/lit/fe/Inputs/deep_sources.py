#!/usr/bin/env python3
"""Writes kernels whose syntax trees are deeper than any recursion may go.

Usage: deep_sources.py DIR

DIR/sum.{py,cpp,ts,rs}: `y = x + x + ... + x` with 13,300 terms (a left-deep
tree the parsers build in a loop); DIR/elif.py: an if/elif chain of 20,400
branches; DIR/elseif.{cpp,ts,rs}: the same as `else if` chains. These shapes
crashed wave-fe with a stack overflow in the checker.
"""
import os
import sys

TERMS, BRANCHES = 13300, 20400


def main(d):
    s = " + ".join(["x"] * TERMS)
    files = {
        "sum.py": f"@kernel\ndef k(out: u32[:], x: u32):\n    y = {s}\n    out[0] = y\n",
        "sum.cpp": f"__kernel void k(uint32_t* out, uint32_t x) {{\n    uint32_t y = {s};\n    out[0] = y;\n}}\n",
        "sum.ts": f"export function k(out: u32[], x: u32): void {{\n  const y: u32 = {s};\n  out[0] = y;\n}}\n",
        "sum.rs": f"#[kernel]\nfn k(out: &mut [u32], x: u32) {{\n    let y = {s};\n    out[0] = y;\n}}\n",
    }
    py = ["@kernel\ndef k(out: u32[:], x: u32):\n    if x == 0:\n        out[0] = 0\n"]
    py += [f"    elif x == {i}:\n        out[0] = {i}\n" for i in range(1, BRANCHES)]
    files["elif.py"] = "".join(py)
    chain = " else ".join(f"if (x == {i}) {{ out[0] = {i}; }}" for i in range(BRANCHES))
    files["elseif.cpp"] = f"__kernel void k(uint32_t* out, uint32_t x) {{\n{chain}\n}}\n"
    files["elseif.ts"] = f"export function k(out: u32[], x: u32): void {{\n{chain}\n}}\n"
    rchain = " else ".join(f"if x == {i} {{ out[0] = {i}; }}" for i in range(BRANCHES))
    files["elseif.rs"] = f"#[kernel]\nfn k(out: &mut [u32], x: u32) {{\n{rchain}\n}}\n"
    os.makedirs(d, exist_ok=True)
    for name, text in files.items():
        with open(os.path.join(d, name), "w") as f:
            f.write(text)


if __name__ == "__main__":
    main(sys.argv[1])
