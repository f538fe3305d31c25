#!/usr/bin/env python3
"""cuda_suite.py: every example, conformance and compiler end-to-end kernel
on an NVIDIA GPU (wave-run --device=cuda) against the reference emulator.

Usage:
  cuda_suite.py BIN_DIR REPO_ROOT [-j N] [--filter REGEX] [--keep DIR]
                [--timeout SECONDS] [--device cuda|emu] [--strict-nan]
                [--list]

On the GPU a wave is a 32-lane warp, so each kernel runs twice with the same
arguments: on the emulator with --wave-width 32 and with --device=cuda. Its
standard output (--dump-*, --print) and every --out buffer must come back
identical byte for byte; kernels that use fsin, fcos, fexp2 or flog2 may
differ by 2 ulp per f32 (formats/isa.md §4.7; compare_outputs.py). NaN
results may differ in payload only (formats/nvptx-abi.md, "Where results
can differ": NVIDIA's canonical NaN is 0x7FFFFFFF, x86's 0xFFC00000): such
a run counts as the same, with a note; --strict-nan makes it a difference.

Kernels:
  examples/       the EXAMPLES table below (assembly, the kernel-language
                  sources through wave-fe | wave-opt -O2 | wave-ra | wave-as,
                  gemm.wir, the link/ pair); an example file the table does
                  not name is reported as skipped, so a new one is noticed;
  conformance/    every *.wave of test/conformance and test/lit/run: each
                  RUN line is replayed (substitutions as in test/lit.cfg.py);
                  lines that build inputs run as written, every wave-run
                  invocation is run on both sides, FileCheck and expected-
                  failure lines (not, expect_exit.py, bad-*) are left out,
                  except a fault-* file's 'expect_exit.py N wave-run ...':
                  the device must exit N too (within 10 s; a deadlock that
                  needs the emulator's wave width is skipped); emulator-only
                  flags (--stats, --trace, --dump-regs,
                  --jobs, --max-instructions on the GPU) are dropped;
  fe-e2e/         test/lit/fe/e2e kernels in four languages at the -O levels
                  of their RUN lines, inputs from test/utils/fe_e2e.py;
  mir-e2e/        test/lit/ra/e2e/*.wir at the levels and --max-registers of
                  their RUN lines, inputs from test/utils/mir_e2e.py.
The e2e kernels dump all of device memory they use, inputs included.

A few kernels observe the emulator's sequential schedule (isa.md §4.2,
§4.3: workgroups one after another, waves round-robin, lanes of an atomic in
ascending order), which a GPU does not reproduce: ORDER_DEPENDENT runs on
both sides and counts as skipped when it differs; NOT_ON_GPU is not run.

Prints one table row per comparison (kernel, result, detail) and the line
'cuda-suite: N run, N same, N differ, N errors, N skipped'.
Exit status: 0 nothing differs and no run failed, 1 otherwise, 77 no usable
CUDA device (wave-run --device=cuda exits 2: no driver or no device, or a
wave-run without the cuda device). --device emu runs the "GPU" side on the
emulator too (a check of this harness on a machine without a GPU).
"""
import argparse
import concurrent.futures
import os
import re
import shlex
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import threading
import time

sys.dont_write_bytecode = True  # keep the source tree free of __pycache__
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from compare_outputs import compare  # noqa: E402

EMU_WIDTH = 32
TRANSCENDENTAL = re.compile(r"\b(fsin|fcos|fexp2|flog2)\b")
TRANSCENDENTAL_ULP = 2
M32 = 0xFFFFFFFF

# Results fixed by the emulator's schedule, not by the ISA: the GPU may
# legitimately give others (formats/nvptx-abi.md, "Where results can
# differ": Concurrency, Plain stores of one instruction to one address).
ORDER_DEPENDENT = {
    "conformance/execution-model/workgroup-order.wave":
        "tickets in the emulator's workgroup order (isa.md 4.2)",
    "conformance/execution-model/workgroup-sequential.wave":
        "plain read-modify-write race between workgroups",
    "conformance/synchronization/atomics-lane-order.wave":
        "racing plain stores of one instruction (nvptx-abi.md)",
    "conformance/synchronization/atomics-across-waves.wave":
        "tickets in round-robin wave order (isa.md 4.3)",
    "conformance/synchronization/round-robin-order.wave":
        "exact round-robin wave interleaving (isa.md 4.3)",
    "lit/run/barrier-atomics.wave":
        "tickets in round-robin wave order (isa.md 4.3)",
}
NOT_ON_GPU = {
    "lit/run/parallel-order.wave":
        "spin-waits on the emulator's workgroup order (may never end)",
}

# examples/: name -> (source, how it is built, wave-run arguments).
# Assembly kernels take the arguments of test/gpu/hsa-examples.sh, the
# kernel-language ones those of examples/Makefile; every buffer parameter is
# written back with --out. The register-launched ones dump their memory.
EXAMPLES = [
    ("vector_add", "vector_add.wave", "asm",
     "--grid 16 --arg a=random:1000:1 --arg b=random:1000:2 "
     "--arg c=zeros:1000 --arg n=1000"),
    ("saxpy", "saxpy.wave", "asm",
     "--grid 8 --arg x=random:1000:3 --arg y=random:1000:4 --arg alpha=2.5 "
     "--arg n=1000"),
    ("reduce_tree", "reduce_tree.wave", "asm",
     "--grid 4 --arg input=random:1000:5 --arg output=zeros:4 --arg n=1000"),
    ("wave_reduce", "wave_reduce.wave", "asm",
     "--grid 8 --arg input=random:512:6 --arg sum=zeros:16 "
     "--arg count=zeros:16"),
    ("prefix_sum", "prefix_sum.wave", "asm",
     "--grid 3 --arg input=random:700:7 --arg output=zeros:700 --arg n=700"),
    ("histogram", "histogram.wave", "asm",
     "--grid 4 --arg data=random:5000:8 --arg bins=zeros:16 --arg n=5000 "
     "--arg nbins=16"),
    ("gemm", "gemm.wave", "asm",
     "--grid 2,2,1 --arg a=random:16384:9 --arg b=random:16384:10 "
     "--arg c=zeros:16384 --arg m=128 --arg n=128 --arg k=128"),
    ("haxpy_f16", "haxpy_f16.wave", "asm",
     "--grid 4 --arg x=random:400:11 --arg y=random:400:12 "
     "--arg alpha2=0x3E003E00 --arg npairs=200"),
    ("bscale_bf16", "bscale_bf16.wave", "asm",
     "--grid 4 --arg x=random:400:13 --arg y=random:400:14 "
     "--arg out=zeros:400 --arg scale2=0x3F403F40 --arg npairs=200"),
    ("gemm.wir", "gemm.wir", "mir",
     "--grid 3,3,1 --arg 0:@RAND:1600:15 --arg 16384:@RAND:1600:16 "
     "--set-reg 0:0 --set-reg 1:16384 --set-reg 2:32768 --set-reg 3:40 "
     "--dump-memory 0:0x9d00"),
    ("link", "link/main.wave link/lib.wave", "link",
     "--workgroup 8 --set-reg r0:0 --dump-u32 0:16"),
]
for _lang in ("py", "cpp", "rs", "ts"):
    EXAMPLES.append(("vector_add." + _lang, "vector_add." + _lang, "fe",
                     "--arg a=random:256:17 --arg b=random:256:18 "
                     "--arg c=zeros:256 --arg n=256"))
for _lang in ("py", "cpp"):
    EXAMPLES.append(("gemm." + _lang, "gemm." + _lang, "fe",
                     "--grid 2,2,1 --arg a=random:1024:19 "
                     "--arg b=random:1024:20 --arg c=zeros:1024 --arg n=32"))
EXAMPLE_SOURCES = re.compile(r".*\.(wave|wir|py|cpp|rs|ts)$")

PROBE = """\
.kernel probe
.registers 8
.workgroup_size 32, 1, 1
    mov     r1, sr_lane_id
    mov_imm r2, 2
    shl     r3, r1, r2
    mov_imm r4, 100
    iadd    r4, r4, r1
    device_store_u32 r3, r4
    halt
.end
"""


class Ctx:
    def __init__(self, args):
        self.bindir = os.path.abspath(args.bin_dir)
        self.root = os.path.abspath(args.repo_root)
        self.device = args.device
        self.timeout = args.timeout
        self.nan_payloads = not args.strict_nan
        self.work = None
        self.env = dict(os.environ)
        self.env["PATH"] = self.bindir + os.pathsep + self.env.get("PATH", "")
        # Many runs at once: one emulator thread each (results do not
        # depend on it, test/lit/run/parallel-order.wave).
        self.env["WAVE_RUN_JOBS"] = "1"
        self.env["PYTHONDONTWRITEBYTECODE"] = "1"
        self.lock = threading.Lock()
        self.rows = []
        self.dis_cache = {}

    def tool(self, name):
        return os.path.join(self.bindir, name)

    def row(self, name, result, detail=""):
        with self.lock:
            self.rows.append((name, result, detail))


def sh(ctx, cmd, cwd, stdin=None, timeout=None):
    """Runs a shell command line; returns CompletedProcess (bytes)."""
    return subprocess.run(["bash", "-o", "pipefail", "-c", cmd], cwd=cwd,
                          env=ctx.env, input=stdin, capture_output=True,
                          timeout=timeout or 300)


def first_line(data):
    text = data.decode("utf-8", "replace") if isinstance(data, bytes) else data
    for line in text.splitlines():
        if line.strip():
            return line.strip()[:160]
    return ""


def timed(ctx, argv, cwd):
    """argv under timeout(1); returns (rc, stdout, stderr); rc 124 = timeout."""
    cmd = ["timeout", "-k", "5", str(ctx.timeout)] + argv
    try:
        r = subprocess.run(cmd, cwd=cwd, env=ctx.env, capture_output=True,
                           timeout=ctx.timeout + 30)
        return r.returncode, r.stdout, r.stderr
    except subprocess.TimeoutExpired as e:
        return 124, e.stdout or b"", e.stderr or b""


# --- one comparison ---------------------------------------------------------

DROP_FLAGS = {"--stats", "--trace", "--dump-regs"}
DROP_VALUE = {"--wave-width", "-j", "--jobs", "--device"}
OUTPUT_OPTS = ("--dump-u32", "--dump-f32", "--dump-f16", "--dump-bf16",
               "--dump-memory", "--print", "--out")


def strip_opts(tokens, drop_value):
    out, i = [], 0
    while i < len(tokens):
        t = tokens[i]
        name = t.split("=", 1)[0]
        if name in DROP_FLAGS:
            i += 1
        elif name in drop_value:
            i += 1 if "=" in t else 2
        else:
            out.append(t)
            i += 1
    return out


def rename_outs(tokens, suffix):
    """--out NAME=FILE -> --out NAME=FILE.SUFFIX; returns (tokens, [(orig,
    renamed)])."""
    out, files, i = [], [], 0
    while i < len(tokens):
        t = tokens[i]
        if t == "--out" and i + 1 < len(tokens):
            val, i = tokens[i + 1], i + 2
        elif t.startswith("--out="):
            val, i = t[len("--out="):], i + 1
        else:
            out.append(t)
            i += 1
            continue
        name, _, path = val.partition("=")
        if path == "-":  # standard output: compared with it
            out += ["--out", val]
            continue
        files.append((path, path + "." + suffix))
        out += ["--out", "%s=%s.%s" % (name, path, suffix)]
    return out, files


def find_wbin(tokens, cwd):
    for t in tokens:
        p = t if os.path.isabs(t) else os.path.join(cwd, t)
        if os.path.isfile(p):
            try:
                with open(p, "rb") as f:
                    if f.read(4) == b"WAVE":
                        return p
            except OSError:
                pass
    return None


def tolerance(ctx, wbin):
    """2 ulp when the kernel uses a transcendental, else 0."""
    if not wbin:
        return 0
    if wbin not in ctx.dis_cache:
        r = subprocess.run([ctx.tool("wave-dis"), wbin], capture_output=True,
                           env=ctx.env)
        text = r.stdout.decode("utf-8", "replace") if r.returncode == 0 else ""
        ctx.dis_cache[wbin] = TRANSCENDENTAL_ULP if TRANSCENDENTAL.search(
            text) else 0
    return ctx.dis_cache[wbin]


def run_pair(ctx, name, tokens, cwd, order_reason=None, stdout_file=None):
    """Runs `wave-run TOKENS` on the emulator and on the device, compares,
    and records one row. Returns the emulator's stdout (or None)."""
    if not any(t.split("=", 1)[0] in OUTPUT_OPTS for t in tokens):
        ctx.row(name, "skipped", "no output to compare")
        return None
    emu, emu_files = rename_outs(strip_opts(tokens, DROP_VALUE), "emu")
    dev, dev_files = rename_outs(
        strip_opts(tokens, DROP_VALUE | {"--max-instructions"}), "gpu")
    emu = [ctx.tool("wave-run")] + emu + ["--wave-width", str(EMU_WIDTH)]
    if ctx.device == "emu":
        dev = [ctx.tool("wave-run")] + dev + ["--device=emu", "--wave-width",
                                              str(EMU_WIDTH)]
    else:
        dev = [ctx.tool("wave-run")] + dev + ["--device=" + ctx.device]
    rc, out_e, err_e = timed(ctx, emu, cwd)
    if rc != 0:
        why = "emulator timed out" if rc == 124 else "emulator exits %d" % rc
        ctx.row(name, "skipped", "%s: %s" % (why, first_line(err_e)))
        return None
    # Later RUN lines may read what this one wrote.
    if stdout_file:
        with open(os.path.join(cwd, stdout_file), "wb") as f:
            f.write(out_e)
    for orig, emu_path in emu_files:
        shutil.copyfile(os.path.join(cwd, emu_path), os.path.join(cwd, orig))
    rc, out_g, err_g = timed(ctx, dev, cwd)
    if rc != 0:
        why = "timed out after %ds" % ctx.timeout if rc == 124 else \
            "exit %d" % rc
        ctx.row(name, "gpu-error", "%s: %s" % (why, first_line(err_g)))
        return out_e
    ulp = tolerance(ctx, find_wbin(tokens, cwd))
    pairs = [("stdout", out_e, out_g, False)]
    for (orig, pe), (_, pg) in zip(emu_files, dev_files):
        try:
            with open(os.path.join(cwd, pe), "rb") as f:
                a = f.read()
            with open(os.path.join(cwd, pg), "rb") as f:
                b = f.read()
        except OSError as e:
            ctx.row(name, "gpu-error", "--out %s: %s" % (orig, e))
            return out_e
        pairs.append(("--out " + os.path.basename(orig), a, b, True))
    notes = []
    for what, a, b, binary in pairs:
        ok, msg = compare(a, b, ulp, binary, ctx.nan_payloads)
        if not ok:
            if order_reason:
                ctx.row(name, "skipped",
                        "order-dependent, differs as allowed: " + order_reason)
            else:
                ctx.row(name, "differs", "%s %s" % (what, msg))
            return out_e
        if msg != "same":
            notes.append("%s %s" % (what, msg))
    ctx.row(name, "same", "; ".join(notes))
    return out_e


def run_fault(ctx, name, stage, cwd):
    """A fault-* case's `expect_exit.py N wave-run ARGS`: the emulator must
    exit N and the device the same (a GPU fault, or the translation's
    refusal, is exit 1), within 10 seconds."""
    try:
        words = shlex.split(split_shell(stage, ["|"])[0])
    except ValueError as e:
        ctx.row(name, "skipped", "unparsable: %s" % e)
        return
    k = next((i for i, w in enumerate(words) if is_wave_run(w)), None)
    if k is None or k < 1 or not words[k - 1].isdigit():
        ctx.row(name, "skipped", "no 'expect_exit.py N wave-run'")
        return
    want = int(words[k - 1])
    toks, _ = wave_run_tokens(" ".join(shlex.quote(w) for w in words[k:]))
    if toks is None:
        ctx.row(name, "skipped", "wave-run cannot be replayed")
        return
    emu = [ctx.tool("wave-run")] + strip_opts(toks, DROP_VALUE)
    rc_e, _, err_e = timed(ctx, emu + ["--wave-width", str(EMU_WIDTH)], cwd)
    if rc_e != want:
        ctx.row(name, "skipped", "emulator exits %d, not %d: %s"
                % (rc_e, want, first_line(err_e)))
        return
    dev = [ctx.tool("wave-run")] + strip_opts(
        toks, DROP_VALUE | {"--max-instructions"})
    dev += ["--device=" + ctx.device]
    dev += (["--wave-width", str(EMU_WIDTH)] if ctx.device == "emu"
            else ["--timeout", "10"])
    rc_g, _, err_g = timed(ctx, dev, cwd)
    if rc_g == want:
        ctx.row(name, "same", "both exit %d: %s" % (want, first_line(err_g)))
    else:
        ctx.row(name, "differs", "emulator exits %d, device %d: %s"
                % (want, rc_g, first_line(err_g)))


# --- RUN lines --------------------------------------------------------------

def run_lines(path):
    lines, cur = [], None
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            m = re.search(r"\bRUN:(.*)$", line)
            if not m:
                continue
            text = m.group(1).strip()
            cur = text if cur is None else cur + " " + text
            if cur.endswith("\\"):
                cur = cur[:-1].rstrip()
                continue
            lines.append(cur)
            cur = None
    if cur is not None:
        lines.append(cur)
    return lines


def split_shell(cmd, ops):
    """Splits at the unquoted operators in OPS (longest first); returns the
    pieces (operators dropped)."""
    pieces, cur, i, quote = [], [], 0, None
    while i < len(cmd):
        c = cmd[i]
        if quote:
            cur.append(c)
            if c == "\\" and quote == '"' and i + 1 < len(cmd):
                cur.append(cmd[i + 1])
                i += 1
            elif c == quote:
                quote = None
            i += 1
            continue
        if c in "'\"":
            quote = c
            cur.append(c)
            i += 1
            continue
        if c == "\\" and i + 1 < len(cmd):
            cur += [c, cmd[i + 1]]
            i += 2
            continue
        if ops == ["|"] and cmd.startswith("||", i):
            cur += ["|", "|"]  # not a pipe
            i += 2
            continue
        op = next((o for o in ops if cmd.startswith(o, i)), None)
        if op:
            pieces.append("".join(cur))
            cur = []
            i += len(op)
        else:
            cur.append(c)
            i += 1
    pieces.append("".join(cur))
    return [p.strip() for p in pieces]


def substitute(line, ctx, src, tmp):
    subs = [("%S_src", ctx.root),
            ("%examples", os.path.join(ctx.root, "examples")),
            ("%utils", os.path.join(ctx.root, "test", "utils")),
            ("%bindir", ctx.bindir),
            ("%python", sys.executable),
            ("%s", src), ("%S", os.path.dirname(src)),
            ("%t", tmp), ("%T", os.path.dirname(tmp))]
    line = line.replace("%%", "\0")
    out, i = [], 0
    while i < len(line):
        if line[i] == "%":
            for k, v in subs:
                if line.startswith(k, i):
                    out.append(v)
                    i += len(k)
                    break
            else:
                out.append("%")
                i += 1
        else:
            out.append(line[i])
            i += 1
    return "".join(out).replace("\0", "%")


def wave_run_tokens(segment):
    """Tokens after 'wave-run' with redirections removed; (tokens, stdout
    file or None), or (None, why) when the run cannot be replayed."""
    try:
        words = shlex.split(segment)
    except ValueError as e:
        return None, "unparsable: %s" % e
    words = words[1:]
    toks, out_file, i = [], None, 0
    while i < len(words):
        w = words[i]
        if w in (">", "1>", ">>"):
            out_file = words[i + 1] if i + 1 < len(words) else None
            i += 2
        elif w in ("2>", "2>>"):
            i += 2
        elif w in ("2>&1", ">&2", "1>&2"):
            i += 1
        elif re.match(r"^(1?>>?)(.+)$", w):
            out_file = re.match(r"^(1?>>?)(.+)$", w).group(2)
            i += 1
        elif w.startswith("2>"):
            i += 1
        elif w.startswith("<"):
            return None, "reads standard input"
        else:
            toks.append(w)
            i += 1
    if "-" in toks or "--list-devices" in toks:
        return None, "reads standard input" if "-" in toks else "no kernel"
    return toks, out_file


def is_wave_run(word):
    return os.path.basename(word) == "wave-run"


def conformance_case(ctx, rel, path):
    base = os.path.basename(path)
    if base.startswith("bad-"):
        return  # assembler rejects them: nothing to run
    if rel in NOT_ON_GPU:
        ctx.row(rel, "skipped", NOT_ON_GPU[rel])
        return
    lines = run_lines(path)
    if not any("wave-run" in l for l in lines):
        return  # an encoding or assembler test: no kernel run
    cwd = tempfile.mkdtemp(prefix="case-", dir=ctx.work)
    tmp = os.path.join(cwd, "t")
    known = re.compile(r"%(S_src|examples|utils|bindir|python|s|S|t|T)"
                       r"(?![a-zA-Z_])")
    unknown = sorted({m for line in lines for m in re.findall(
        r"%[a-zA-Z_][\w-]*", known.sub("", line.replace("%%", "")))})
    if unknown:
        ctx.row(rel, "skipped", "lit substitution %s unknown here" % unknown[0])
        return
    lines = [substitute(line, ctx, path, tmp) for line in lines]
    n = 0
    for line in lines:
        for stage in split_shell(line, ["&&", "||", ";"]):
            if not stage:
                continue
            segs = split_shell(stage, ["|"])
            try:
                head = shlex.split(segs[0])
            except ValueError:
                continue
            if not head:
                continue
            if base.startswith("fault-") and "expect_exit" in stage:
                n += 1
                run_fault(ctx, "%s#%d" % (rel, n), stage, cwd)
                continue
            if head[0] == "not" or "expect_exit" in stage:
                continue  # an expected failure: emulator-only
            k = next((j for j, s in enumerate(segs)
                      if any(is_wave_run(w) for w in s.split())), None)
            if k is not None:
                n += 1
                name = "%s#%d" % (rel, n)
                if k > 0:
                    ctx.row(name, "skipped", "wave-run reads a pipe")
                    continue
                if not is_wave_run(segs[0].split()[0]):
                    ctx.row(name, "skipped", "wave-run under %r"
                            % segs[0].split()[0])
                    continue
                toks, extra = wave_run_tokens(segs[0])
                if toks is None:
                    ctx.row(name, "skipped", extra)
                    continue
                run_pair(ctx, name, toks, cwd, ORDER_DEPENDENT.get(rel), extra)
                continue
            if "FileCheck" in stage or head[0] in ("cmp", "diff"):
                continue  # a check of the emulator's output
            try:
                r = sh(ctx, stage, cwd)
            except subprocess.TimeoutExpired:
                ctx.row(rel, "error", "setup timed out: " + stage[:80])
                return
            if r.returncode != 0:
                ctx.row(rel, "error", "setup failed: %s: %s" % (
                    stage[:80], first_line(r.stderr)))
                return


# --- examples ---------------------------------------------------------------

def build(ctx, kind, sources, out, level="2", max_regs=None):
    """Builds a .wbin; returns None or an error message."""
    q = shlex.quote
    t = lambda n: q(ctx.tool(n))  # noqa: E731
    ra = t("wave-ra") + (" --max-registers %d" % max_regs if max_regs else "")
    if kind == "asm":
        cmd = "%s %s -o %s" % (t("wave-as"), q(sources[0]), q(out))
    elif kind == "fe":
        cmd = "%s %s | %s -O%s | %s | %s - -o %s" % (
            t("wave-fe"), q(sources[0]), t("wave-opt"), level, ra,
            t("wave-as"), q(out))
    elif kind == "mir":
        cmd = "%s -O%s %s | %s | %s - -o %s" % (
            t("wave-opt"), level, q(sources[0]), ra, t("wave-as"), q(out))
    elif kind == "link":
        objs = []
        for i, s in enumerate(sources):
            objs.append(out + ".%d.o" % i)
        cmd = " && ".join("%s -c %s -o %s" % (t("wave-as"), q(s), q(o))
                          for s, o in zip(sources, objs))
        cmd += " && %s %s -o %s" % (t("wave-link"), " ".join(map(q, objs)),
                                    q(out))
    else:
        return "unknown build kind " + kind
    r = sh(ctx, cmd, os.path.dirname(out))
    if r.returncode != 0:
        return "build failed: " + first_line(r.stderr)
    return None


def buffer_params(ctx, wbin):
    r = subprocess.run([ctx.tool("wave-dis"), wbin], capture_output=True,
                       env=ctx.env)
    text = r.stdout.decode("utf-8", "replace")
    return re.findall(r"^\s*\.param\s+(\w+),\s*buffer\b", text, re.M)


def rand_file(path, count, seed):
    # A small LCG: reproducible f32 data in [-4, 4) without NumPy.
    x, vals = seed * 2654435761 & M32, []
    for _ in range(count):
        x = (1664525 * x + 1013904223) & M32
        vals.append((x >> 8) / float(1 << 24) * 8.0 - 4.0)
    with open(path, "wb") as f:
        f.write(struct.pack("<%df" % count, *vals))


def example_case(ctx, name, sources, kind, args):
    cwd = tempfile.mkdtemp(prefix="ex-", dir=ctx.work)
    srcs = [os.path.join(ctx.root, "examples", s) for s in sources.split()]
    rel = "examples/" + name
    missing = [s for s in srcs if not os.path.isfile(s)]
    if missing:
        ctx.row(rel, "skipped", "missing " + os.path.relpath(missing[0], ctx.root))
        return
    wbin = os.path.join(cwd, "k.wbin")
    err = build(ctx, kind, srcs, wbin)
    if err:
        ctx.row(rel, "error", err)
        return
    toks = [wbin]
    for w in shlex.split(args):
        m = re.match(r"^(\d+):@RAND:(\d+):(\d+)$", w)
        if m:
            p = os.path.join(cwd, "in_%s.bin" % m.group(1))
            rand_file(p, int(m.group(2)), int(m.group(3)))
            w = "%s:%s" % (m.group(1), p)
        toks.append(w)
    if "--set-reg" not in toks:  # a named launch: every buffer comes back
        for b in buffer_params(ctx, wbin):
            toks += ["--out", "%s=%s" % (b, os.path.join(cwd, b + ".bin"))]
    run_pair(ctx, rel, toks, cwd)


# --- frontend and MIR end-to-end kernels ------------------------------------

def option(line, name, default=None):
    m = re.search(r"(?:^|\s)%s[= ](\S+)" % re.escape(name), line)
    return m.group(1) if m else default


def e2e_launch(cwd, bufs, regs, grid):
    """bufs: [(offset, bytes)]; regs: [values]; returns wave-run tokens with
    a dump of every byte the launch uses."""
    toks = ["--grid", "%d,%d,%d" % tuple(grid)]
    end = 0
    for off, data in bufs:
        p = os.path.join(cwd, "in_%x.bin" % off)
        with open(p, "wb") as f:
            f.write(data)
        toks += ["--arg", "%d:%s" % (off, p)]
        end = max(end, off + len(data))
    for r, v in enumerate(regs):
        toks += ["--set-reg", "%d:%d" % (r, v & M32)]
    return toks, end


def fe_case(ctx, rel, path, fe_e2e):
    lines = [l for l in run_lines(path) if "fe_e2e.py" in l]
    if not lines:
        return
    cwd = tempfile.mkdtemp(prefix="fe-", dir=ctx.work)
    for line in lines:
        case = option(line, "--case")
        if case not in fe_e2e.CASES:
            ctx.row(rel, "error", "unknown fe_e2e case %r" % case)
            continue
        c = fe_e2e.CASES[case]()
        bufs, regs, off = [], [], 0
        for kind, val in c["params"]:
            if kind == "scalar":
                regs.append(val)
                continue
            bufs.append((off, val))
            regs.append(off)
            off += (len(val) + 255) // 256 * 256
        toks, end = e2e_launch(cwd, bufs, regs, c["grid"])
        toks += ["--dump-u32", "0:%d" % ((end + 3) // 4)]
        for level in option(line, "--levels", "0,2").split(","):
            name = "%s -O%s" % (rel, level)
            wbin = os.path.join(cwd, "%s.O%s.wbin" % (case, level))
            err = build(ctx, "fe", [path], wbin, level)
            if err:
                ctx.row(name, "error", err)
                continue
            run_pair(ctx, name, [wbin] + toks, cwd)


def mir_case(ctx, rel, path, mir_e2e):
    lines = [l for l in run_lines(path) if "mir_e2e.py" in l]
    if not lines:
        return
    cwd = tempfile.mkdtemp(prefix="mir-", dir=ctx.work)
    seen = set()
    for line in lines:
        case = option(line, "--case")
        regs_opt = option(line, "--max-registers")
        max_regs = int(regs_opt) if regs_opt else None
        try:
            c = mir_e2e.case(case)
        except Exception as e:  # noqa: BLE001 - a case the helper lacks
            ctx.row(rel, "error", "mir_e2e case %r: %s" % (case, e))
            continue
        bufs = [(off, struct.pack("<%dI" % len(w), *[v & M32 for v in w]))
                for off, w in sorted(c["inputs"].items())]
        toks, end = e2e_launch(cwd, bufs, c["regs"], c["grid"])
        out_off, count = c["out"]
        end = max(end, out_off + 4 * count)
        toks += ["--dump-u32", "0:%d" % ((end + 3) // 4)]
        for level in option(line, "--levels", "0,1,2,3").split(","):
            key = (case, level, max_regs)
            if key in seen:
                continue
            seen.add(key)
            name = "%s %s -O%s%s" % (rel, case, level,
                                     " r%d" % max_regs if max_regs else "")
            wbin = os.path.join(cwd, "%s.O%s.r%s.wbin" % (case, level,
                                                          max_regs or 0))
            err = build(ctx, "mir", [path], wbin, level, max_regs)
            if err:
                ctx.row(name, "error", err)
                continue
            run_pair(ctx, name, [wbin] + toks, cwd)


# --- driver -----------------------------------------------------------------

def probe(ctx):
    """None when the device runs kernels; else (exit status, message)."""
    path = os.path.join(ctx.work, "probe.wave")
    with open(path, "w") as f:
        f.write(PROBE)
    wbin = path[:-5] + ".wbin"
    r = subprocess.run([ctx.tool("wave-as"), path, "-o", wbin],
                       capture_output=True, env=ctx.env)
    if r.returncode != 0:
        return 1, "cannot assemble the probe kernel: " + first_line(r.stderr)
    rc, out, err = timed(ctx, [ctx.tool("wave-run"), wbin,
                               "--device=" + ctx.device, "--dump-u32", "0:32"],
                         ctx.work)
    if rc == 2:
        msg = first_line(err) or "wave-run --device=%s exits 2" % ctx.device
        if re.search(r"not in \{|unknown|invalid|unrecogni[sz]ed|--device",
                     msg, re.I):
            msg += " (this wave-run has no --device=%s)" % ctx.device
        return 77, msg
    if rc == 124:
        return 1, "the probe kernel timed out after %ds" % ctx.timeout
    if rc != 0:
        # Report it, but run the suite: its table says more.
        print("cuda-suite: warning: the probe kernel failed: exit %d: %s"
              % (rc, first_line(err)), file=sys.stderr)
        return None
    want = "".join("%d\n" % (100 + i) for i in range(32)).encode()
    if out != want:
        print("cuda-suite: warning: the probe kernel gave wrong values: %s"
              % first_line(out), file=sys.stderr)
    return None


def collect(ctx, args):
    """Returns [(name, callable)] for the thread pool."""
    jobs = []
    sys.path.insert(0, os.path.join(ctx.root, "test", "utils"))
    import fe_e2e  # noqa: E402
    import mir_e2e  # noqa: E402

    named = set()
    for name, sources, kind, run_args in EXAMPLES:
        named.update(sources.split())
        jobs.append(("examples/" + name,
                     lambda n=name, s=sources, k=kind, a=run_args:
                     example_case(ctx, n, s, k, a)))
    exdir = os.path.join(ctx.root, "examples")
    for dirpath, _, files in os.walk(exdir):
        for f in sorted(files):
            rel = os.path.relpath(os.path.join(dirpath, f), exdir)
            if EXAMPLE_SOURCES.match(f) and rel not in named:
                jobs.append(("examples/" + rel,
                             lambda r=rel: ctx.row("examples/" + r, "skipped",
                                                   "no run arguments in "
                                                   "cuda_suite.py EXAMPLES")))
    test = os.path.join(ctx.root, "test")
    for top in ("conformance", os.path.join("lit", "run")):
        for dirpath, _, files in os.walk(os.path.join(test, top)):
            for f in sorted(files):
                if f.endswith(".wave"):
                    p = os.path.join(dirpath, f)
                    rel = os.path.relpath(p, test)
                    jobs.append((rel, lambda r=rel, p=p:
                                 conformance_case(ctx, r, p)))
    fedir = os.path.join(test, "lit", "fe", "e2e")
    for f in sorted(os.listdir(fedir)) if os.path.isdir(fedir) else []:
        if f.endswith((".py", ".cpp", ".rs", ".ts")):
            p = os.path.join(fedir, f)
            jobs.append(("fe-e2e/" + f, lambda r="fe-e2e/" + f, p=p:
                         fe_case(ctx, r, p, fe_e2e)))
    mirdir = os.path.join(test, "lit", "ra", "e2e")
    for f in sorted(os.listdir(mirdir)) if os.path.isdir(mirdir) else []:
        if f.endswith(".wir"):
            p = os.path.join(mirdir, f)
            jobs.append(("mir-e2e/" + f, lambda r="mir-e2e/" + f, p=p:
                         mir_case(ctx, r, p, mir_e2e)))
    if args.filter:
        rx = re.compile(args.filter)
        jobs = [j for j in jobs if rx.search(j[0])]
    return jobs


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("bin_dir")
    ap.add_argument("repo_root")
    ap.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 4)
    ap.add_argument("--filter", help="only kernels whose name matches")
    ap.add_argument("--keep", help="keep the work files in this directory")
    ap.add_argument("--timeout", type=int, default=60,
                    help="seconds per wave-run (default 60)")
    ap.add_argument("--device", default="cuda", choices=["cuda", "emu"],
                    help="emu: the GPU side on the emulator (harness check)")
    ap.add_argument("--strict-nan", action="store_true",
                    help="NaN payloads must match too (by default a "
                         "difference in NaN payloads only counts as the "
                         "same, with a note: formats/nvptx-abi.md)")
    ap.add_argument("--list", action="store_true",
                    help="list the kernel files and exit")
    args = ap.parse_args()
    ctx = Ctx(args)
    if not os.access(ctx.tool("wave-run"), os.X_OK):
        print("cuda-suite: no wave-run in %s" % ctx.bindir, file=sys.stderr)
        return 1
    if args.keep:
        os.makedirs(args.keep, exist_ok=True)
        ctx.work = os.path.abspath(args.keep)
    else:
        ctx.work = tempfile.mkdtemp(prefix="cuda-suite-")
    try:
        if args.device != "emu" and not args.list:
            p = probe(ctx)
            if p:
                rc, msg = p
                print("cuda-suite: %s: %s" % ("skipped" if rc == 77 else
                                              "error", msg))
                return rc
        jobs = collect(ctx, args)
        if args.list:
            for name, _ in jobs:
                print(name)
            return 0
        print("cuda-suite: %d kernel files, device %s, emulator at wave width "
              "%d, %d jobs" % (len(jobs), args.device, EMU_WIDTH, args.jobs))
        sys.stdout.flush()

        def guarded(item):
            name, fn = item
            try:
                fn()
            except Exception as e:  # noqa: BLE001 - one case, not the suite
                ctx.row(name, "error", "harness: %s: %s" %
                        (type(e).__name__, e))

        def on_term(signum, frame):
            # timeout(1) or ctest stopping us: the table so far, then out
            # (the wave-run processes get the signal too).
            report(ctx, interrupted=True)
            if not args.keep:  # twice: workers may still be writing
                shutil.rmtree(ctx.work, ignore_errors=True)
                time.sleep(0.2)
                shutil.rmtree(ctx.work, ignore_errors=True)
            os._exit(1)

        signal.signal(signal.SIGTERM, on_term)
        with concurrent.futures.ThreadPoolExecutor(max(1, args.jobs)) as pool:
            list(pool.map(guarded, jobs))
    finally:
        if not args.keep:
            shutil.rmtree(ctx.work, ignore_errors=True)

    return report(ctx)


def report(ctx, interrupted=False):
    """Prints the table and the summary line; returns the exit status."""
    rows = sorted(list(ctx.rows), key=lambda r: r[0])
    width = min(60, max([len(r[0]) for r in rows] + [6]))
    print("%-*s  %-9s  %s" % (width, "kernel", "result", "detail"))
    for name, result, detail in rows:
        print("%-*s  %-9s  %s" % (width, name, result, detail))
    count = lambda what: sum(1 for r in rows if r[1] == what)  # noqa: E731
    same, differ, skipped = count("same"), count("differs"), count("skipped")
    errors = count("gpu-error") + count("error")
    run = same + differ + errors
    print("cuda-suite: %d run, %d same, %d differ, %d errors, %d skipped%s"
          % (run, same, differ, errors, skipped,
             " (INTERRUPTED: the rest did not run)" if interrupted else ""))
    sys.stdout.flush()
    if run == 0 and not interrupted:
        print("cuda-suite: nothing was compared", file=sys.stderr)
        return 1
    return 0 if differ == 0 and errors == 0 and not interrupted else 1


if __name__ == "__main__":
    sys.exit(main())
