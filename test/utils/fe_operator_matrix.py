#!/usr/bin/env python3
"""fe_operator_matrix.py - every operator on every scalar type, in every dialect.

Usage: fe_operator_matrix.py [--stride K] WAVE_FE [LANGUAGE...]

Compiles one small kernel per (dialect, operator, left type, right type) --
binary operators, their compound assignments, unary operators and the
intrinsics of formats/kernel-languages.md §3-4 -- and requires wave-fe to
either accept it (exit 0, MIR that verifies) or reject it with a diagnostic
(exit 1). A crash, another exit status or an "internal error" (lowered MIR
that does not verify) is a failure. Which combinations are valid is not
checked here; the dialects' lit tests do that. C++ runs through both
frontends (--cpp-frontend=builtin and clang).

--stride K compiles every K-th kernel only (for sanitized builds, where
each wave-fe start costs tens of milliseconds). Prints each failure with its
kernel and a summary; exits 1 if any failed.
"""
import argparse
import itertools
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

# Scalar type spellings per dialect: i32 u32 f16 f32 f64 bool
# (formats/kernel-languages.md §2).
TYPES = {
    "python": ["i32", "u32", "f16", "f32", "f64", "bool"],
    "cpp": ["int", "unsigned", "half", "float", "double", "bool"],
    "rust": ["i32", "u32", "f16", "f32", "f64", "bool"],
    "typescript": ["i32", "u32", "f16", "f32", "number", "boolean"],
}
BINARY = {
    "python": ["+", "-", "*", "/", "//", "%", "<<", ">>", "&", "|", "^", "**",
               "<", "==", "and", "or"],
    "cpp": ["+", "-", "*", "/", "%", "<<", ">>", "&", "|", "^", "<", "==",
            "&&", "||"],
    "rust": ["+", "-", "*", "/", "%", "<<", ">>", "&", "|", "^", "<", "==",
             "&&", "||"],
    "typescript": ["+", "-", "*", "/", "%", "<<", ">>", ">>>", "&", "|", "^",
                   "**", "<", "===", "&&", "||"],
}
COMPARISONS_AND_LOGIC = {"<", "==", "===", "and", "or", "&&", "||"}
UNARY = {
    "python": ["-x", "+x", "~x", "not x"],
    "cpp": ["-x", "+x", "~x", "!x", "++x", "--x", "x++", "x--",
            "x ? x : y"],
    "rust": ["-x", "!x", "if x > y { x } else { y }"],
    "typescript": ["-x", "+x", "~x", "!x", "++x", "--x", "x++", "x--",
                   "x ? x : y"],
}
INTRINSICS = (
    [f"{f}(x)" for f in ("sqrt", "rsqrt", "rcp", "sin", "cos", "exp2", "log2",
                         "floor", "ceil", "round", "trunc", "fract", "exp",
                         "log", "abs", "reduce_add", "reduce_min",
                         "reduce_max", "prefix_sum", "any", "all", "ballot")]
    + [f"{f}(x, y)" for f in ("min", "max", "shuffle", "shuffle_up",
                              "shuffle_down", "shuffle_xor", "broadcast")]
    + ["clamp(x, y, x)", "fma(x, y, x)"])


def cast(lang, ty, expr):
    """EXPR written as a conversion to TY in LANG."""
    if lang == "cpp":
        return f"({ty})({expr})"
    if lang == "rust":
        return f"({expr}) as {ty}"
    if lang == "typescript":
        ty = {"number": "f64", "boolean": "bool"}.get(ty, ty)
    return f"{ty}({expr})"


def kernel(lang, t1, t2, body, result):
    """A kernel k(p) with x: T1 = p[0], y: T2 = p[1], BODY, p[0] = RESULT."""
    x, y = cast(lang, t1, "p[0]"), cast(lang, t2, "p[1]")
    out = cast(lang, TYPES[lang][3], result)
    if lang == "python":
        return (f"@kernel\ndef k(p: f32[:]):\n    x: {t1} = {x}\n"
                f"    y: {t2} = {y}\n    {body}\n    p[0] = {out}\n")
    if lang == "cpp":
        return (f"__kernel void k(float* p) {{\n  {t1} x = {x};\n"
                f"  {t2} y = {y};\n  {body};\n  p[0] = {out};\n}}\n")
    if lang == "rust":
        return (f"#[kernel]\npub fn k(p: &mut [f32]) {{\n"
                f"    let mut x: {t1} = {x};\n    let y: {t2} = {y};\n"
                f"    {body};\n    p[0] = {out};\n}}\n")
    return (f"export function k(p: f32[]): void {{\n  let x: {t1} = {x};\n"
            f"  const y: {t2} = {y};\n  {body};\n  p[0] = {out};\n}}\n")


def declare(lang, name, expr):
    """A local NAME initialized with EXPR, its type inferred."""
    return {"python": f"{name} = {expr}", "cpp": f"auto {name} = {expr}",
            "rust": f"let {name} = {expr}",
            "typescript": f"const {name} = {expr}"}[lang]


def cases(lang):
    """(description, source) for every combination in LANG."""
    types = TYPES[lang]
    for t1, t2 in itertools.product(types, repeat=2):
        for op in BINARY[lang]:
            yield (f"{t1} {op} {t2}",
                   kernel(lang, t1, t2, declare(lang, "z", f"x {op} y"), "z"))
            if op not in COMPARISONS_AND_LOGIC:
                yield (f"{t1} {op}= {t2}",
                       kernel(lang, t1, t2, f"x {op}= y", "x"))
    for ty in types:
        for expr in UNARY[lang] + INTRINSICS:
            yield (f"{expr} on {ty}",
                   kernel(lang, ty, ty, declare(lang, "z", expr), "z"))


def run(wave_fe, lang, frontend, source):
    """wave-fe's exit status and stderr for SOURCE."""
    cmd = [wave_fe, "-x", lang, "-", "-o", "/dev/null"]
    if frontend:
        cmd.append(f"--cpp-frontend={frontend}")
    r = subprocess.run(cmd, input=source.encode(), capture_output=True,
                       timeout=120)
    return r.returncode, r.stderr.decode("utf-8", "replace")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--stride", type=int, default=1, metavar="K")
    parser.add_argument("wave_fe")
    parser.add_argument("langs", nargs="*", metavar="LANGUAGE",
                        help=" ".join(TYPES) + " (default: all)")
    args = parser.parse_args()
    for lang in args.langs:
        if lang not in TYPES:
            parser.error(f"unknown language '{lang}'")
    jobs = []
    for lang in args.langs or list(TYPES):
        for frontend in (["builtin", "clang"] if lang == "cpp" else [None]):
            for what, source in cases(lang):
                jobs.append((lang, frontend, what, source))
    jobs = jobs[::args.stride]
    wave_fe = args.wave_fe
    with ThreadPoolExecutor(max_workers=2) as pool:
        results = list(pool.map(lambda j: run(wave_fe, j[0], j[1], j[3]),
                                jobs))
    failed = accepted = 0
    for (lang, frontend, what, source), (rc, err) in zip(jobs, results):
        accepted += rc == 0
        if rc in (0, 1) and "internal error" not in err:
            continue
        failed += 1
        name = lang + (f" ({frontend})" if frontend else "")
        print(f"FAIL {name}: {what}: exit {rc}\n{source}{err[-800:]}")
    print(f"{len(jobs)} kernels, {accepted} accepted, "
          f"{len(jobs) - accepted - failed} rejected, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
