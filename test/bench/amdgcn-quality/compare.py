#!/usr/bin/env python3
# ===- compare.py - AMDGCN code quality: wave-as against clang -O3 --------=== #
#
# Two sets of kernels (--set examples|fe|all, default all), each compared
# with clang -O3 on an OpenCL C twin:
#  * examples: every examples/NAME.wave with a twin cl/NAME.cl; ours is
#      wave-as --target=amdgcn-amd-amdhsa --mcpu=gfx942 examples/NAME.wave
#  * fe: every frontend end-to-end kernel test/lit/fe/e2e/NAME.py (the
#    Python dialect) with a twin cl/fe/NAME.cl, through the whole pipeline:
#      wave-fe NAME.py | wave-opt -O2 | wave-ra
#        | wave-as --target=amdgcn-amd-amdhsa --mcpu=gfx942 -o NAME.hsaco
#    plus one clang-only row, cl/fe/mma_mfma.cl: mma's tile product on the
#    matrix cores (__builtin_amdgcn_mfma_f32_16x16x4f32), not bit-identical
#    to WAVE's per-lane MMA and not counted in the targets.
# Clang's side of both is
#   clang-22 -x cl -cl-std=CL2.0 --target=amdgcn-amd-amdhsa -mcpu=gfx942
#            -nogpulib -O3 -c cl/NAME.cl
# (the fe twins also with -cl-fp32-correctly-rounded-divide-sqrt: the
# frontend's `/` on f32 is WAVE's IEEE fdiv). It prints one Markdown table
# per set, one row per kernel: instructions in the kernel, instructions in
# the hottest loop, VGPRs and SGPRs, ours against clang's; then two summary
# lines over the rows of both tables, checking
#   issue 7's targets:  loop instructions <= 1.5x clang's, VGPRs <= 1.25x;
#   issue 29's targets: loop instructions <= 1.10x clang's, kernel
#                       instructions <= 1.20x, VGPRs <= clang's + 10%.
# The kernel symbol of a row is the `.kernel` of our assembly and the
# `kernel void NAME` of the twin (the fe file name may differ: mandelbrot.py
# holds `mandel`, mma.py `mma16`).
#
# How things are counted (the parser functions below; --self-test checks
# them on hand-written llvm-objdump text):
#  * Kernel instructions: the instructions of `llvm-objdump -d` whose address
#    lies in the kernel symbol's [value, value + size) (from the symbol
#    table; up to the next disassembled symbol when the size is 0), minus the
#    run of s_nop / s_code_end that pads the code after the final s_endpgm.
#  * Loops: every backward branch (s_branch or s_cbranch_*, target address
#    <= branch address) closes the address interval [target, branch];
#    intervals with the same target (several latches of one loop) are one
#    loop. A loop is innermost when no other interval lies inside it; the
#    hottest loop is the innermost one with the most instructions, 0 when
#    there is no loop.
#  * VGPRs, SGPRs: `.vgpr_count` and `.sgpr_count` of the kernel in the code
#    object v5 metadata (`llvm-readelf --notes`).
#
# A benchmark, not a test: exit status 0 unless a build fails (ours or
# clang's: 1) or a tool is missing (2). A kernel we cannot build is shown as
# "ours: failed (<first line of stderr>)" and the others are still measured.
#
#   test/bench/amdgcn-quality/compare.py --bindir build/bin
#   test/bench/amdgcn-quality/compare.py --set fe --kernels mma,mma_mfma
#   test/bench/amdgcn-quality/compare.py --kernels gemm --show-loops
#   test/bench/amdgcn-quality/compare.py --self-test
#   test/bench/amdgcn-quality/compare.py --count dump.txt --kernel NAME
#
# ===----------------------------------------------------------------------=== #
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from fractions import Fraction

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
TRIPLE = "amdgcn-amd-amdhsa"

CL_DIR = os.path.join(HERE, "cl")
FE_DIR = os.path.join(ROOT, "test", "lit", "fe", "e2e")
FE_CL_DIR = os.path.join(CL_DIR, "fe")
# Extra clang flags for the fe twins: the frontend's f32 `/` is WAVE's fdiv,
# IEEE division (OpenCL's `/` may be 2.5 ulp without this flag).
FE_CLANG_FLAGS = ["-cl-fp32-correctly-rounded-divide-sqrt"]
# Clang-only rows of the fe table (cl/fe/NAME.cl with no WAVE side): twin
# name -> (the row it follows, its label).
FE_CLANG_ONLY = {
    "mma_mfma": ("mma", "mma_mfma (clang only: MFMA 16x16x4 f32, not bit-identical)"),
}

# Targets of issues 7 and 29 ("Quality (benchmark)"): per issue, (what,
# Measure field, largest ratio ours/clang, how the line shows it). Checked
# on every row with both sides built (clang-only rows excluded).
TARGETS = [
    ("issue 7", [("loop insts", "loop", Fraction(3, 2), "<= 1.5x clang"),
                 ("VGPRs", "vgprs", Fraction(5, 4), "<= 1.25x clang")]),
    ("issue 29", [("loop insts", "loop", Fraction(11, 10), "<= 1.10x clang"),
                  ("insts", "insts", Fraction(6, 5), "<= 1.20x clang"),
                  ("VGPRs", "vgprs", Fraction(11, 10), "<= clang + 10%")]),
]


# --- llvm-objdump -d text ----------------------------------------------------

@dataclass
class Inst:
    addr: int          # byte address
    mnemonic: str
    operands: str
    target: int = -1   # branch target address, -1 for anything else


# "0000000000001900 <vector_add>:"
_SYMBOL_RE = re.compile(r"^([0-9A-Fa-f]+) <([^>]+)>:\s*$")
# "\ts_cbranch_execz 15   // 00000000001C: BF88000F <vector_add+0x5c>"
_INST_RE = re.compile(r"^\s+([a-z_][a-z0-9_.]*)\b(.*?)//\s*([0-9A-Fa-f]+):(.*)$")
_ANNOT_RE = re.compile(r"<([^>+]+)(?:\+(0x[0-9A-Fa-f]+))?>")


def is_branch(mnemonic):
    """Direct branches whose target is in the instruction (SOPP simm16)."""
    return mnemonic == "s_branch" or mnemonic.startswith("s_cbranch_")


def parse_objdump(text):
    """Parses `llvm-objdump -d` output.

    Returns (insts, symbols): every instruction in address order, and the
    address of every symbol header. A branch's target comes from its simm16
    operand (target = address + 4 + 4 * sign-extended simm16); when the
    operand is not a number, from the `<symbol+0xOFF>` annotation.
    """
    insts, symbols = [], {}
    for line in text.splitlines():
        m = _SYMBOL_RE.match(line)
        if m:
            symbols[m.group(2)] = int(m.group(1), 16)
            continue
        m = _INST_RE.match(line)
        if not m:
            continue
        mnemonic, operands = m.group(1), m.group(2).strip()
        inst = Inst(int(m.group(3), 16), mnemonic, operands)
        if is_branch(mnemonic):
            inst.target = _branch_target(inst, m.group(4), symbols)
        insts.append(inst)
    insts.sort(key=lambda i: i.addr)
    return insts, symbols


def _branch_target(inst, comment, symbols):
    first = inst.operands.split(",")[0].strip()
    try:
        simm = int(first, 0) & 0xFFFF
    except ValueError:
        simm = None
    if simm is not None:
        if simm >= 0x8000:
            simm -= 0x10000
        return inst.addr + 4 + 4 * simm
    m = _ANNOT_RE.search(comment) or _ANNOT_RE.search(inst.operands)
    if m and m.group(1) in symbols:
        return symbols[m.group(1)] + int(m.group(2) or "0", 16)
    return -1


def kernel_range(name, symbols, symtab=None):
    """[start, end) of kernel NAME: its symbol-table value and size when the
    size is known; else up to the next function symbol of the symbol table
    (labels the assembler kept as symbols do not end a kernel), or without a
    symbol table up to the next header of the disassembly."""
    if symtab and name in symtab:
        start, size, _ = symtab[name]
        if size > 0:
            return start, start + size
        later = [v for v, _, kind in symtab.values() if kind == "FUNC" and v > start]
    elif name in symbols:
        start = symbols[name]
        later = [a for a in symbols.values() if a > start]
    else:
        raise KeyError(f"no symbol '{name}' in the disassembly")
    return start, min(later) if later else 1 << 64


def kernel_insts(insts, start, end):
    """The kernel's instructions, without the s_nop / s_code_end padding
    that follows its final s_endpgm."""
    body = [i for i in insts if start <= i.addr < end]
    last = len(body)
    while last > 0 and body[last - 1].mnemonic in ("s_nop", "s_code_end"):
        last -= 1
    if last < len(body) and last > 0 and body[last - 1].mnemonic == "s_endpgm":
        body = body[:last]
    return body


def find_loops(insts):
    """Loops as (start, end) address intervals, one per backward-branch
    target, sorted by start."""
    ends = {}
    for i in insts:
        if i.target >= 0 and i.target <= i.addr:
            ends[i.target] = max(ends.get(i.target, i.addr), i.addr)
    return sorted(ends.items())


def hottest_loop(insts):
    """(instructions, (start, end)) of the innermost loop with the most
    instructions; (0, None) when there is no loop."""
    loops = find_loops(insts)
    best = (0, None)
    for lo, hi in loops:
        if any((lo, hi) != (a, b) and lo <= a and b <= hi for a, b in loops):
            continue  # contains another loop: not innermost
        n = sum(1 for i in insts if lo <= i.addr <= hi)
        if n > best[0]:
            best = (n, (lo, hi))
    return best


# --- llvm-readelf output -----------------------------------------------------

def parse_symtab(text):
    """`llvm-readelf -s --wide`: name -> (value, size, type)."""
    table = {}
    for line in text.splitlines():
        f = line.split()
        # Num: Value Size Type Bind Vis Ndx Name
        if len(f) >= 8 and f[0].endswith(":") and f[0][:-1].isdigit():
            try:
                table[f[7]] = (int(f[1], 16), int(f[2], 0), f[3])
            except ValueError:
                continue
    return table


def parse_notes(text):
    """`llvm-readelf --notes` (code object v5 metadata): kernel name ->
    {key: value} for the scalar keys of each amdhsa.kernels entry
    (".vgpr_count" -> "5", ...). Nested lists (.args) are skipped."""
    kernels, current, item_indent, in_kernels = [], None, None, False
    for line in text.splitlines():
        stripped = line.strip()
        if not stripped:
            continue
        indent = len(line) - len(line.lstrip())
        if indent == 0 and not stripped.startswith("-"):
            # A top-level key: amdhsa.kernels opens the list, others end it.
            in_kernels = stripped.startswith("amdhsa.kernels:")
            current, item_indent = None, None
            continue
        if not in_kernels:
            continue
        if stripped.startswith("- ") and (item_indent is None or indent == item_indent):
            item_indent = indent
            current = {}
            kernels.append(current)
            stripped, indent = stripped[2:].lstrip(), indent + 2
        if current is None or indent != item_indent + 2:
            continue
        m = re.match(r"^(\.[A-Za-z_0-9]+):\s*(.*)$", stripped)
        if m and m.group(2):
            current[m.group(1)] = m.group(2).strip().strip("'\"")
    return {k[".name"]: k for k in kernels if ".name" in k}


# --- Building and measuring --------------------------------------------------

@dataclass
class Measure:
    insts: int = 0
    loop: int = 0
    vgprs: int = 0
    sgprs: int = 0
    loop_text: str = ""
    error: str = ""     # first line of the failing tool's stderr


def first_line(text):
    """The first line of a tool's stderr that says "error", else the first
    non-empty one (clang may print warnings before its error)."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    for line in lines:
        if "error" in line:
            return line
    return lines[0] if lines else "no message"


def run(cmd, stdin=None):
    p = subprocess.run(cmd, input=stdin, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True)
    return p.returncode, p.stdout, p.stderr


def measure(obj, kernel, tools):
    """Counts instructions, hottest-loop instructions and registers of
    KERNEL in the code object or relocatable object OBJ."""
    res = Measure()
    rc, dis, err = run([tools.objdump, "-d", obj])
    if rc != 0:
        res.error = "llvm-objdump: " + first_line(err)
        return res
    rc, syms, err = run([tools.readelf, "-s", "--wide", obj])
    rc2, notes, err2 = run([tools.readelf, "--notes", obj])
    if rc != 0 or rc2 != 0:
        res.error = "llvm-readelf: " + first_line(err or err2)
        return res
    insts, symbols = parse_objdump(dis)
    try:
        start, end = kernel_range(kernel, symbols, parse_symtab(syms))
    except KeyError as e:
        res.error = str(e.args[0])
        return res
    body = kernel_insts(insts, start, end)
    res.insts = len(body)
    res.loop, span = hottest_loop(body)
    if span:
        res.loop_text = "\n".join(
            f"  {i.addr:6x}: {i.mnemonic} {i.operands}".rstrip()
            for i in body if span[0] <= i.addr <= span[1])
    meta = parse_notes(notes).get(kernel)
    if meta is None:
        res.error = f"no metadata for kernel '{kernel}'"
        return res
    res.vgprs = int(meta.get(".vgpr_count", "0"))
    res.sgprs = int(meta.get(".sgpr_count", "0"))
    return res


def build_ours(name, tools, mcpu, outdir):
    """examples/NAME.wave through wave-as: (object, kernel, error)."""
    src = os.path.join(ROOT, "examples", name + ".wave")
    out = os.path.join(outdir, name + ".hsaco")
    rc, _, err = run([tools.wave_as, f"--target={TRIPLE}", f"--mcpu={mcpu}",
                      src, "-o", out])
    if rc != 0 or not os.path.exists(out):
        return None, name, first_line(err)
    return out, name, ""


_WAVE_KERNEL_RE = re.compile(r"^\s*\.kernel\s+([A-Za-z_][A-Za-z0-9_.]*)", re.M)
_CL_KERNEL_RE = re.compile(r"\b(?:__)?kernel\s+void\s+([A-Za-z_][A-Za-z0-9_]*)\s*\(")


def build_ours_fe(name, tools, mcpu, outdir):
    """test/lit/fe/e2e/NAME.py through the whole pipeline, as a pipe
    (wave-fe | wave-opt -O2 | wave-ra | wave-as --target): (object, kernel,
    error). Each stage's text is kept beside the object (--keep)."""
    src = os.path.join(FE_DIR, name + ".py")
    out = os.path.join(outdir, name + ".hsaco")
    stages = [("wave-fe", [tools.wave_fe, src], name + ".wir"),
              ("wave-opt", [tools.wave_opt, "-O2"], name + ".O2.wir"),
              ("wave-ra", [tools.wave_ra], name + ".wave"),
              ("wave-as", [tools.wave_as, f"--target={TRIPLE}",
                           f"--mcpu={mcpu}", "-", "-o", out], None)]
    text = None
    for tool, cmd, keep in stages:
        rc, stdout, err = run(cmd, text)
        if rc != 0:
            line = first_line(err)
            return None, name, line if line.startswith(tool) else f"{tool}: {line}"
        if keep:
            with open(os.path.join(outdir, keep), "w", encoding="utf-8") as f:
                f.write(stdout)
        text = stdout
    if not os.path.exists(out):
        return None, name, "wave-as: no output"
    m = _WAVE_KERNEL_RE.search(text_of(os.path.join(outdir, name + ".wave")))
    return out, m.group(1) if m else name, ""


def text_of(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def cl_kernel(src):
    """The first kernel's name in the OpenCL C file SRC, None without one."""
    m = _CL_KERNEL_RE.search(text_of(src))
    return m.group(1) if m else None


def build_clang(src, tools, mcpu, outdir, extra):
    """The OpenCL C twin SRC with clang -O3: (object, kernel, error)."""
    if not os.path.exists(src):
        return None, None, f"no {os.path.relpath(src, HERE)}"
    kernel = cl_kernel(src)
    if kernel is None:
        return None, None, f"no kernel in {os.path.relpath(src, HERE)}"
    out = os.path.join(outdir, os.path.basename(src)[:-3] + ".o")
    rc, _, err = run([tools.clang, "-x", "cl", "-cl-std=CL2.0",
                      f"--target={TRIPLE}", f"-mcpu={mcpu}", "-nogpulib",
                      "-O3", *extra, "-c", src, "-o", out])
    if rc != 0:
        return None, kernel, first_line(err)
    return out, kernel, ""


def ratio(ours, clang):
    if clang == 0:
        return "-" if ours == 0 else "inf"
    return f"{ours / clang:.2f}"


def cell(ours, clang, field, with_ratio):
    """"ours/clang (ratio)" for FIELD of two Measures; a side that failed
    reads "failed", one not built (--clang-only, clang-only rows) "-"."""
    def show(m):
        if m is None:
            return "-"
        return "failed" if m.error else str(getattr(m, field))
    text = f"{show(ours)}/{show(clang)}"
    if with_ratio and ours is not None and clang is not None \
            and not ours.error and not clang.error:
        text += f" ({ratio(getattr(ours, field), getattr(clang, field))})"
    return text


def md_escape(text):
    return text.replace("|", "\\|")


def example_names():
    names = []
    for f in sorted(os.listdir(os.path.join(ROOT, "examples"))):
        if f.endswith(".wave"):
            names.append(f[:-5])
    return names


def fe_names():
    """The frontend end-to-end kernels with a Python version, each followed
    by the clang-only rows that belong to it."""
    names = []
    for f in sorted(os.listdir(FE_DIR)):
        if f.endswith(".py"):
            names.append(f[:-3])
            names += [k for k, (after, _) in FE_CLANG_ONLY.items()
                      if after == f[:-3]]
    return names


# --- Tools -------------------------------------------------------------------

@dataclass
class Tools:
    wave_as: str
    wave_fe: str
    wave_opt: str
    wave_ra: str
    clang: str
    objdump: str
    readelf: str


def find_tool(explicit, env, names):
    """The option's tool if given (and nothing else), else $ENV, else the
    first of NAMES on PATH; None when not found."""
    if explicit:
        candidates = [explicit]
    elif env and os.environ.get(env):
        candidates = [os.environ[env]]
    else:
        candidates = names
    for cand in candidates:
        path = shutil.which(cand)
        if path:
            return path
    return None


def find_tools(args):
    """The tools the run needs; missing ones as messages. Our tools are
    needed unless --clang-only, the frontend pipeline's only for --set fe
    or all."""
    def ours(tool):
        path = os.path.join(args.bindir, tool)
        return path if os.access(path, os.X_OK) else None
    found = Tools(ours("wave-as"), ours("wave-fe"), ours("wave-opt"),
                  ours("wave-ra"),
                  find_tool(args.clang, "WAVE_CLANG", ["clang-22", "clang"]),
                  find_tool(args.objdump, None, ["llvm-objdump-22", "llvm-objdump"]),
                  find_tool(args.readelf, None, ["llvm-readelf-22", "llvm-readelf"]))
    needed = []
    if not args.clang_only:
        needed.append(("wave-as", found.wave_as))
        if args.set in ("fe", "all"):
            needed += [("wave-fe", found.wave_fe), ("wave-opt", found.wave_opt),
                       ("wave-ra", found.wave_ra)]
    ours_missing = [tool for tool, path in needed if not path]
    missing = [f"{', '.join(ours_missing)} in {args.bindir} (--bindir)"] \
        if ours_missing else []
    missing += [what for what, path in (
        ("clang-22 (--clang, $WAVE_CLANG)", found.clang),
        ("llvm-objdump-22 (--objdump)", found.objdump),
        ("llvm-readelf-22 (--readelf)", found.readelf)) if not path]
    return found, missing


# --- Main --------------------------------------------------------------------

@dataclass
class KernelSet:
    key: str            # --set value
    prefix: str         # row names in notes and the summary ("fe/")
    caption: str        # the line above its table
    names: list


def kernel_sets(args):
    sets = []
    if args.set in ("examples", "all"):
        sets.append(KernelSet(
            "examples", "",
            "Examples (wave-as on examples/NAME.wave; twins in cl/):",
            example_names()))
    if args.set in ("fe", "all"):
        sets.append(KernelSet(
            "fe", "fe/",
            "Frontend kernels (wave-fe → wave-opt -O2 → wave-ra → wave-as "
            "on test/lit/fe/e2e/NAME.py; twins in cl/fe/):",
            fe_names()))
    if args.kernels:
        wanted = args.kernels.split(",")
        unknown = [k for k in wanted if not any(k in s.names for s in sets)]
        if unknown and args.set == "examples":
            # As before --set existed: any name is an example (a missing
            # one fails with "no cl/NAME.cl").
            sets[0].names = wanted
            return sets
        if unknown:
            raise KeyError(", ".join(unknown))
        for s in sets:
            s.names = [k for k in wanted if k in s.names]
    return [s for s in sets if s.names]


def measure_row(kset, name, tools, args, workdir):
    """(label, ours, clang) for NAME of KSET; ours is None when not built
    (--clang-only, clang-only rows)."""
    if kset.key == "fe":
        outdir = os.path.join(workdir, "fe")
        os.makedirs(outdir, exist_ok=True)
        src = os.path.join(FE_CL_DIR, name + ".cl")
        extra = FE_CLANG_FLAGS + args.clang_flag
    else:
        outdir = workdir
        src = os.path.join(CL_DIR, name + ".cl")
        extra = args.clang_flag
    c_obj, c_kernel, c_err = build_clang(src, tools, args.mcpu, outdir, extra)
    c = measure(c_obj, c_kernel, tools) if c_obj else Measure(error=c_err)
    o = None
    clang_only = kset.key == "fe" and name in FE_CLANG_ONLY
    if not args.clang_only and not clang_only:
        build = build_ours_fe if kset.key == "fe" else build_ours
        o_obj, o_kernel, o_err = build(name, tools, args.mcpu, outdir)
        o = measure(o_obj, o_kernel, tools) if o_obj else Measure(error=o_err)
    label = FE_CLANG_ONLY[name][1] if clang_only else name
    return label, o, c


def compare(args):
    try:
        sys.stdout.reconfigure(encoding="utf-8")
    except (AttributeError, ValueError):
        pass
    tools, missing = find_tools(args)
    if missing:
        print("compare.py: error: cannot find " + ", ".join(missing),
              file=sys.stderr)
        return 2
    try:
        sets = kernel_sets(args)
    except KeyError as e:
        print(f"compare.py: error: no kernel named {e.args[0]} in --set "
              f"{args.set}", file=sys.stderr)
        return 2
    workdir = args.keep or tempfile.mkdtemp(prefix="amdgcn-quality-")
    os.makedirs(workdir, exist_ok=True)
    clang_version = first_line(run([tools.clang, "--version"])[1])

    tables, all_rows, failed = [], [], False
    for kset in sets:
        rows, notes = [], []
        for name in kset.names:
            label, o, c = measure_row(kset, name, tools, args, workdir)
            if c.error:
                notes.append(f"{kset.prefix}{name}: clang: failed ({c.error})")
                failed = True
            if o is not None and o.error:
                notes.append(f"{kset.prefix}{name}: ours: failed ({o.error})")
                failed = True
            rows.append((label, o, c))
            all_rows.append((kset.prefix + name, o, c))
        tables.append((kset, rows, notes))

    print(f"AMDGCN code quality, --mcpu={args.mcpu}: wave-as against "
          f"{clang_version} -O3 (OpenCL C twins in cl/)")
    for kset, rows, notes in tables:
        print()
        if len(sets) > 1 or kset.key != "examples":
            print(kset.caption)
            print()
        print("| kernel | insts ours/clang (ratio) | loop insts ours/clang (ratio) "
              "| VGPRs ours/clang | SGPRs ours/clang |")
        print("|---|---|---|---|---|")
        for label, o, c in rows:
            print(f"| {md_escape(label)} | {cell(o, c, 'insts', True)} "
                  f"| {cell(o, c, 'loop', True)} "
                  f"| {cell(o, c, 'vgprs', False)} "
                  f"| {cell(o, c, 'sgprs', False)} |")
        if notes:
            print()
            for n in notes:
                print(md_escape(n))
    print()
    if args.clang_only:
        print("Targets: not checked (--clang-only)")
    else:
        for line in summary(all_rows):
            print(line)

    if args.show_loops:
        for name, o, c in all_rows:
            for who, m in (("ours", o), ("clang", c)):
                if m is not None and not m.error and m.loop_text:
                    print(f"\n{name}, {who}: hottest loop ({m.loop} instructions)")
                    print(m.loop_text)
    if args.keep:
        print(f"\nbuild products kept in {workdir}")
    else:
        shutil.rmtree(workdir, ignore_errors=True)
    return 1 if failed else 0


def meets(o, c, field, limit):
    """Whether ours is within LIMIT times clang's FIELD; no loop on both
    sides meets a loop target, a loop where clang has none misses it."""
    ov, cv = getattr(o, field), getattr(c, field)
    if cv == 0:
        return ov == 0
    return ov <= limit * cv


def summary(rows):
    """One line per issue: how many rows meet each of its targets, and which
    miss. Rows without our side (clang-only) are not counted; rows where a
    build failed are listed as not checked."""
    checked, unchecked = [], []
    for name, o, c in rows:
        if o is None:
            continue
        if o.error or c is None or c.error:
            unchecked.append(name)
        else:
            checked.append((name, o, c))
    lines = []
    for issue, targets in TARGETS:
        parts = []
        for what, field, limit, shown in targets:
            miss = [f"{name} {ratio(getattr(o, field), getattr(c, field))}"
                    for name, o, c in checked
                    if not meets(o, c, field, limit)]
            part = (f"{what} {shown}: {len(checked) - len(miss)}/"
                    f"{len(checked)} met")
            if miss:
                part += f" (missed: {', '.join(miss)})"
            parts.append(part)
        line = f"Targets ({issue}): " + "; ".join(parts)
        if unchecked:
            line += f"; not checked (a build failed): {', '.join(unchecked)}"
        lines.append(line)
    return lines


# --- Self-test ---------------------------------------------------------------

# Hand-written llvm-objdump text: a kernel with a two-latch loop (one latch
# an s_branch with an unsigned simm16, one an s_cbranch with the annotation
# only) nested in an outer loop, a second innermost loop, forward branches,
# and s_nop / s_code_end padding; then a callable function that must not be
# counted. Addresses are those of a linked code object.
SELF_TEST_DUMP = """\
k.hsaco:\tfile format elf64-amdgpu

Disassembly of section .text:

0000000000001900 <k>:
\ts_load_dwordx2 s[0:1], s[0:1], 0x0   // 000000001900: C0060000 00000000
\ts_mov_b32 s2, 0                      // 000000001908: BE820080
\tv_add_u32_e32 v1, s2, v0             // 00000000190C: 68020002
\ts_cbranch_scc1 2                     // 000000001910: BF850002 <k+0x1c>
\tv_add_u32_e32 v1, 1, v1              // 000000001914: 68020281
\ts_cbranch_vccnz 65532                // 000000001918: BF87FFFC <k+0xc>
\ts_add_i32 s2, s2, 1                  // 00000000191C: 81028102
\ts_cbranch_execnz BB0_1               // 000000001920: BF89FFFA <k+0xc>
\ts_cmp_lg_u32 s2, 8                   // 000000001924: BF078802
\ts_cbranch_scc1 65527                 // 000000001928: BF85FFF7 <k+0x8>
\tv_mov_b32_e32 v2, 0                  // 00000000192C: 7E040280
\tds_read_b32 v3, v2                   // 000000001930: D86C0000 03000002
\ts_waitcnt lgkmcnt(0)                 // 000000001938: BF8CC07F
\tv_add_u32_e32 v2, 1, v2              // 00000000193C: 68040481
\tv_cmp_gt_u32_e32 vcc, 64, v2         // 000000001940: 7D9804C0
\ts_cbranch_vccnz 65530                // 000000001944: BF87FFFA <k+0x30>
\ts_endpgm                             // 000000001948: BF810000
\ts_nop 0                              // 00000000194C: BF800000
\ts_code_end                           // 000000001950: BF9F0000

0000000000001a00 <__clang_ocl_kern_imp_k>:
\ts_branch 65535                       // 000000001A00: BF82FFFF <__clang_ocl_kern_imp_k>
\ts_setpc_b64 s[30:31]                 // 000000001A04: BE801D1E
"""

SELF_TEST_NOTES = """\
Displaying notes found in: .note
  Owner                Data size \tDescription
  AMDGPU               0x000002dc\tNT_AMDGPU_METADATA (AMDGPU Metadata)
    AMDGPU Metadata:
        ---
amdhsa.kernels:
  - .agpr_count:     0
    .args:
      - .offset:         0
        .size:           8
        .value_kind:     global_buffer
    .name:           k
    .sgpr_count:     14
    .symbol:         k.kd
    .vgpr_count:     5
  - .args:           []
    .name:           other
    .sgpr_count:     3
    .vgpr_count:     1
amdhsa.target:   amdgcn-amd-amdhsa--gfx942
amdhsa.version:
  - 1
  - 2
...
"""


def counts_text(text, kernel):
    insts, symbols = parse_objdump(text)
    start, end = kernel_range(kernel, symbols)
    body = kernel_insts(insts, start, end)
    n, span = hottest_loop(body)
    loops = find_loops(body)
    where = f" at 0x{span[0]:x}..0x{span[1]:x}" if span else ""
    return (f"{kernel}: {len(body)} instructions, {len(loops)} loops, "
            f"hottest loop {n} instructions{where}")


def self_test():
    checks = []

    def check(what, got, want):
        checks.append(what)
        if got != want:
            raise AssertionError(f"{what}: got {got!r}, want {want!r}")

    insts, symbols = parse_objdump(SELF_TEST_DUMP)
    check("symbols", symbols, {"k": 0x1900, "__clang_ocl_kern_imp_k": 0x1A00})
    check("kernel range", kernel_range("k", symbols), (0x1900, 0x1A00))
    body = kernel_insts(insts, *kernel_range("k", symbols))
    check("kernel instructions (padding dropped)", len(body), 17)
    by_addr = {i.addr: i for i in body}
    check("forward branch target", by_addr[0x1910].target, 0x191C)
    check("simm16 65532 is -4", by_addr[0x1918].target, 0x190C)
    check("target from the annotation", by_addr[0x1920].target, 0x190C)
    check("loops (latches merged by target)", find_loops(body),
          [(0x1908, 0x1928), (0x190C, 0x1920), (0x1930, 0x1944)])
    check("hottest loop: innermost, most instructions", hottest_loop(body),
          (6, (0x190C, 0x1920)))
    check("no loop", hottest_loop(body[:3]), (0, None))
    symtab = parse_symtab(
        "Symbol table '.symtab' contains 2 entries:\n"
        "   Num:    Value          Size Type    Bind   Vis       Ndx Name\n"
        "     0: 0000000000000000     0 NOTYPE  LOCAL  DEFAULT   UND \n"
        "     1: 0000000000001900    76 FUNC    GLOBAL PROTECTED   7 k\n")
    check("symbol table", symtab, {"k": (0x1900, 76, "FUNC")})
    check("range from the symbol size", kernel_range("k", symbols, symtab),
          (0x1900, 0x194C))
    symtab0 = {"k": (0x1900, 0, "FUNC"), "k_label": (0x1910, 0, "NOTYPE"),
               "__clang_ocl_kern_imp_k": (0x1A00, 8, "FUNC")}
    check("size 0: up to the next function", kernel_range("k", symbols, symtab0),
          (0x1900, 0x1A00))
    notes = parse_notes(SELF_TEST_NOTES)
    check("metadata kernels", sorted(notes), ["k", "other"])
    check("vgpr_count", notes["k"][".vgpr_count"], "5")
    check("sgpr_count", notes["k"][".sgpr_count"], "14")
    check("second kernel", notes["other"][".sgpr_count"], "3")
    check("ratio", (ratio(3, 2), ratio(0, 0), ratio(1, 0)), ("1.50", "-", "inf"))
    check("targets: exact limits",
          [meets(Measure(insts=12), Measure(insts=10), "insts", Fraction(6, 5)),
           meets(Measure(insts=13), Measure(insts=10), "insts", Fraction(6, 5)),
           meets(Measure(vgprs=11), Measure(vgprs=10), "vgprs", Fraction(11, 10)),
           meets(Measure(vgprs=4), Measure(vgprs=3), "vgprs", Fraction(11, 10)),
           meets(Measure(loop=0), Measure(loop=0), "loop", Fraction(11, 10)),
           meets(Measure(loop=5), Measure(loop=0), "loop", Fraction(3, 2))],
          [True, False, True, False, True, False])
    good = Measure(insts=10, loop=10, vgprs=10)
    check("summary lines", summary([
        ("a", good, Measure(insts=10, loop=10, vgprs=10)),
        ("fe/b", Measure(insts=13, loop=12, vgprs=12), good),
        ("fe/c_clang_only", None, good),
        ("fe/d", Measure(error="x"), good)]), [
        "Targets (issue 7): loop insts <= 1.5x clang: 2/2 met; VGPRs <= "
        "1.25x clang: 2/2 met; not checked (a build failed): fe/d",
        "Targets (issue 29): loop insts <= 1.10x clang: 1/2 met (missed: "
        "fe/b 1.20); insts <= 1.20x clang: 1/2 met (missed: fe/b 1.30); "
        "VGPRs <= clang + 10%: 1/2 met (missed: fe/b 1.20); not checked (a "
        "build failed): fe/d"])
    check("twin's kernel name", _CL_KERNEL_RE.search(
        "// kernel `k`\n__attribute__((x))\nkernel void mma16(global uchar *m)"
        ).group(1), "mma16")
    check("our kernel name", _WAVE_KERNEL_RE.search(
        ".file 1 \"m.py\"\n\n.kernel mandel\n.registers 13\n").group(1),
        "mandel")
    print(f"self-test: {len(checks)} checks passed")
    print(counts_text(SELF_TEST_DUMP, "k"))
    return 0


def main():
    ap = argparse.ArgumentParser(
        description="AMDGCN code quality: wave-as --target=amdgcn-amd-amdhsa "
                    "against clang -O3 on the OpenCL C twins of the examples "
                    "and of the frontend end-to-end kernels (the counting "
                    "rules are in this script's header)")
    ap.add_argument("--bindir", default=os.path.join(ROOT, "build", "bin"),
                    help="directory holding wave-as, wave-fe, wave-opt and "
                         "wave-ra (default: build/bin)")
    ap.add_argument("--mcpu", default="gfx942",
                    help="target processor (default gfx942; cl/wave.h's DPP "
                         "scans need a gfx9 target)")
    ap.add_argument("--set", choices=("examples", "fe", "all"), default="all",
                    help="kernels to compare: the examples, the frontend "
                         "end-to-end kernels (test/lit/fe/e2e/*.py through "
                         "wave-fe, wave-opt -O2, wave-ra, wave-as), or both "
                         "(default all)")
    ap.add_argument("--kernels", help="comma-separated kernel names, as the "
                    "table's rows name them (default: all of --set)")
    ap.add_argument("--clang", help="clang to use (default $WAVE_CLANG, clang-22, clang)")
    ap.add_argument("--objdump", help="llvm-objdump to use (default llvm-objdump-22)")
    ap.add_argument("--readelf", help="llvm-readelf to use (default llvm-readelf-22)")
    ap.add_argument("--clang-flag", action="append", default=[],
                    help="extra flag for clang, e.g. -DWAVE_BENCH_ALLOW_UNROLL")
    ap.add_argument("--clang-only", action="store_true",
                    help="measure clang's side only (no wave-as needed)")
    ap.add_argument("--show-loops", action="store_true",
                    help="print the hottest loop of both sides")
    ap.add_argument("--keep", metavar="DIR",
                    help="build in DIR and keep the objects")
    ap.add_argument("--self-test", action="store_true",
                    help="check the objdump/readelf parsers on built-in text")
    ap.add_argument("--count", metavar="FILE",
                    help="print the counts of --kernel in saved llvm-objdump -d text")
    ap.add_argument("--kernel", help="kernel for --count")
    args = ap.parse_args()
    if args.self_test:
        return self_test()
    if args.count:
        if not args.kernel:
            ap.error("--count needs --kernel")
        with open(args.count, encoding="utf-8") as f:
            text = f.read()
        try:
            print(counts_text(text, args.kernel))
        except KeyError as e:
            print(f"compare.py: error: {e.args[0]}", file=sys.stderr)
            return 1
        return 0
    return compare(args)


if __name__ == "__main__":
    sys.exit(main())
