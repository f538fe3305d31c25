#!/usr/bin/env python3
"""run_gpu_bench.py: WAVE kernels on an NVIDIA GPU against cuBLAS and PyTorch.

Usage:
  run_gpu_bench.py [--bin-dir DIR] [--n 4096] [--vec-elems N] [--repeat 10]
                   [--gemm NAME,...] [--timeout S] [--run-timeout S]
                   [--no-torch] [--no-ptxas] [--ptx-dir DIR] [--keep DIR]
  run_gpu_bench.py --check-emu [--bin-dir DIR]
  run_gpu_bench.py --device emu --n 256 --vec-elems 65536   # dry run

Benchmarks (README.md in this directory has the targets):
  * GEMM: C = A x B, f32, N x N row-major (N = 4096), with each tiled kernel
    of this directory (gemm_tiled.wave: 8x8 per thread, 128x128 tiles;
    gemm_tiled_4x4.wave: 4x4 per thread, 64x64 tiles) through
    `wave-run --device=cuda --timing --repeat R`; the best dispatch time t
    gives 2 N^3 / t FLOP/s. Baseline: torch.mm on the same GPU with
    torch.backends.cuda.matmul.allow_tf32 = False (cuBLAS SGEMM), best of R
    timed with CUDA events after a warm-up.
  * vector_add: C = A + B over n f32 (default n = 2^28: 1 GiB per operand,
    3 GiB of WAVE device memory -- WAVE device addresses are 32 bits, so the
    three operands must fit in 4 GiB together), 4 elements per thread;
    3 * 4n bytes / t. Baseline: torch.add(a, b, out=c) on 1 GiB tensors.

Inputs are wave-run's named-launch generators (random:N:SEED, splitmix64,
uniform in [0, 1)), regenerated here element by element for the checks:
  * GEMM at N: 16 sampled elements of C against a float64 dot product (math.
    fsum) of the regenerated row and column, within K * 2^-24 * sum|a b|
    (the bound of K sequential f32 fma); with PyTorch also all of C against
    torch.mm of the same A and B (read back with --out), max relative error
    below 1e-4.
  * vector_add: 16 sampled elements, exactly f32(a + b).
--check-emu checks the kernels on the emulator at small sizes (exact
integer-valued products, random inputs against float64, the tails of
vector_add, the generator formula) and needs no GPU.

Prints a table (kernel, best time, GFLOP/s or GB/s, baseline, ratio) and
whether each target is met. Exit status: 0 all runs and checks passed
(targets are reported, not enforced), 1 a run or a check failed, 2 usage.
Standard library only, plus PyTorch when present.
"""
import argparse
import math
import os
import random
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import time

sys.dont_write_bytecode = True  # keep the source tree free of __pycache__
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))

# name -> (source, tile, k slice)
GEMMS = {
    "gemm_tiled": ("gemm_tiled.wave", 128, 8),
    "gemm_tiled_4x4": ("gemm_tiled_4x4.wave", 64, 16),
}
GEMM_TARGET = 0.50   # of cuBLAS SGEMM (TF32 off)
VADD_TARGET = 0.80   # of torch add bandwidth
SEED_A, SEED_B = 1, 2
MASK64 = (1 << 64) - 1
DISPATCH = re.compile(r"dispatch (\d+): ([0-9.]+) us")


# --- wave-run's random:N:SEED, element by element ---------------------------

def splitmix_f32(seed, i):
    """Element i of `random:N:SEED` for f32 (wave-run(1), Named arguments):
    the (i+1)-th splitmix64 output z, (z >> 40) * 2^-24."""
    z = (seed + (i + 1) * 0x9E3779B97F4A7C15) & MASK64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    z ^= z >> 31
    return (z >> 40) * 2.0 ** -24


def f32(x):
    return struct.unpack("<f", struct.pack("<f", x))[0]


# --- running tools ----------------------------------------------------------

class Bench:
    def __init__(self, args):
        self.args = args
        self.bindir = os.path.abspath(args.bin_dir)
        self.work = None
        self.failures = []

    def tool(self, name):
        return os.path.join(self.bindir, name)

    def assemble(self, source):
        out = os.path.join(self.work, os.path.basename(source)[:-5] + ".wbin")
        r = subprocess.run([self.tool("wave-as"), os.path.join(HERE, source),
                            "-o", out], capture_output=True, text=True)
        if r.returncode != 0:
            raise RuntimeError("wave-as %s: %s" % (source, r.stderr.strip()))
        return out

    def wave_run(self, wbin, run_args, timeout):
        """Returns (times in us, stdout); raises RuntimeError on failure."""
        argv = [self.tool("wave-run"), wbin] + run_args
        if self.args.device == "emu":
            argv += ["--device=emu"]
        else:
            argv += ["--device=" + self.args.device, "--timing", "--repeat",
                     str(self.args.repeat), "--timeout", str(timeout)]
        t0 = time.time()
        try:
            r = subprocess.run(argv, capture_output=True, text=True,
                               timeout=self.args.run_timeout)
        except subprocess.TimeoutExpired:
            raise RuntimeError("wave-run did not finish in %d s "
                               "(--run-timeout)" % self.args.run_timeout)
        wall = time.time() - t0
        if r.returncode != 0:
            raise RuntimeError("wave-run exit %d: %s" % (
                r.returncode, (r.stderr.strip().splitlines() or [""])[-1]))
        times = [float(m.group(2)) for m in DISPATCH.finditer(r.stderr)]
        if self.args.device == "emu":
            times = [wall * 1e6]  # a dry run: the whole process
        if not times:
            raise RuntimeError("no 'dispatch I: T us' lines from --timing")
        return times, r.stdout


# --- GEMM -------------------------------------------------------------------

def gemm_samples(n, count=16):
    r = random.Random(4096)
    pts = [(0, 0), (0, n - 1), (n - 1, 0), (n - 1, n - 1)]
    while len(pts) < count:
        pts.append((r.randrange(n), r.randrange(n)))
    return pts


def check_gemm_samples(c_of, n):
    """c_of(i, j) -> the kernel's C[i][j]; returns (ok, message)."""
    worst, bad = 0.0, []
    for i, j in gemm_samples(n):
        terms = [splitmix_f32(SEED_A, i * n + k) * splitmix_f32(SEED_B, k * n + j)
                 for k in range(n)]
        exact = math.fsum(terms)
        bound = n * 2.0 ** -24 * math.fsum(abs(t) for t in terms) + 1e-30
        got = c_of(i, j)
        err = abs(got - exact)
        worst = max(worst, err / bound)
        if not err <= bound:
            bad.append("C[%d][%d] = %r, float64 %r" % (i, j, got, exact))
    if bad:
        return False, "%d of 16 samples off: %s" % (len(bad), bad[0])
    return True, "16 samples within the f32 bound (worst %.2f of it)" % worst


def read_f32_at(path, index):
    with open(path, "rb") as f:
        f.seek(4 * index)
        return struct.unpack("<f", f.read(4))[0]


def run_gemm(b, name, torch):
    source, tile, bk = GEMMS[name]
    n = b.args.n
    if n % tile or n % bk:
        raise RuntimeError("N = %d is not a multiple of %d" % (n, tile))
    wbin = b.assemble(source)
    files = {x: os.path.join(b.work, "%s.%s.bin" % (name, x)) for x in "abc"}
    run_args = ["--grid", "%d,%d,1" % (n // tile, n // tile),
                "--arg", "a=random:%d:%d" % (n * n, SEED_A),
                "--arg", "b=random:%d:%d" % (n * n, SEED_B),
                "--arg", "c=zeros:%d" % (n * n),
                "--arg", "m=%d" % n, "--arg", "n=%d" % n, "--arg", "k=%d" % n,
                "--out", "c=" + files["c"]]
    if torch is not None:
        run_args += ["--out", "a=" + files["a"], "--out", "b=" + files["b"]]
    times, _ = b.wave_run(wbin, run_args, b.args.timeout)
    ok, msg = check_gemm_samples(lambda i, j: read_f32_at(files["c"], i * n + j), n)
    if ok and torch is not None:
        ok, msg2 = check_gemm_torch(torch, files, n)
        msg += "; " + msg2
    for f in files.values():
        if os.path.exists(f) and not b.args.keep:
            os.remove(f)
    return min(times), ok, msg


def load_tensor(torch, path, n):
    with open(path, "rb") as f:
        data = bytearray(f.read())
    return torch.frombuffer(data, dtype=torch.float32).reshape(n, n)


def check_gemm_torch(torch, files, n):
    a = load_tensor(torch, files["a"], n).cuda()
    bm = load_tensor(torch, files["b"], n).cuda()
    c = load_tensor(torch, files["c"], n).cuda()
    no_tf32(torch)
    ref = torch.mm(a, bm)
    rel = ((c - ref).abs() / ref.abs().clamp_min(1e-6)).max().item()
    del a, bm, c, ref
    torch.cuda.empty_cache()
    if not rel < 1e-4:
        return False, "torch.mm: max relative error %.3g" % rel
    return True, "all of C matches torch.mm (max rel. error %.2g)" % rel


# --- vector_add -------------------------------------------------------------

def vadd_samples(n, count=16):
    r = random.Random(7)
    pts = sorted({0, 1, n - 2, n - 1} | {r.randrange(n) for _ in range(count)})
    return pts[:count] if len(pts) > count else pts


def run_vadd(b):
    n = b.args.vec_elems
    wbin = b.assemble("vector_add.wave")
    samples = vadd_samples(n)
    run_args = ["--grid", "%d" % ((n + 1023) // 1024),
                "--arg", "a=random:%d:%d" % (n, 3),
                "--arg", "b=random:%d:%d" % (n, 4),
                "--arg", "c=zeros:%d" % n, "--arg", "n=%d" % n]
    for i in samples:
        run_args += ["--print", "c[%d:%d]" % (i, i + 1)]
    times, out = b.wave_run(wbin, run_args, b.args.timeout)
    got = out.split()
    if len(got) != len(samples):
        return min(times), False, "expected %d printed values, got %d" % (
            len(samples), len(got))
    for i, text in zip(samples, got):
        want = f32(splitmix_f32(3, i) + splitmix_f32(4, i))
        if f32(float(text)) != want:
            return min(times), False, "c[%d] = %s, want %r" % (i, text, want)
    return min(times), True, "%d samples exact" % len(samples)


# --- PyTorch baselines ------------------------------------------------------

def best_cuda_time(torch, fn, repeat):
    fn()  # warm-up (cuBLAS handle, kernel selection)
    torch.cuda.synchronize()
    best = float("inf")
    for _ in range(repeat):
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        end.record()
        end.synchronize()
        best = min(best, start.elapsed_time(end) * 1e3)  # ms -> us
    return best


def no_tf32(torch):
    """cuBLAS SGEMM in full f32: no TF32 tensor-core shortcut."""
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.set_float32_matmul_precision("highest")


def torch_baselines(torch, n, vec_elems, repeat):
    out = {}
    no_tf32(torch)
    g = torch.Generator(device="cuda").manual_seed(0)
    a = torch.rand(n, n, device="cuda", dtype=torch.float32, generator=g)
    bm = torch.rand(n, n, device="cuda", dtype=torch.float32, generator=g)
    c = torch.empty(n, n, device="cuda", dtype=torch.float32)
    out["gemm"] = best_cuda_time(torch, lambda: torch.mm(a, bm, out=c), repeat)
    del a, bm, c
    torch.cuda.empty_cache()
    x = torch.rand(vec_elems, device="cuda", dtype=torch.float32, generator=g)
    y = torch.rand(vec_elems, device="cuda", dtype=torch.float32, generator=g)
    z = torch.empty(vec_elems, device="cuda", dtype=torch.float32)
    out["vadd"] = best_cuda_time(torch, lambda: torch.add(x, y, out=z), repeat)
    del x, y, z
    torch.cuda.empty_cache()
    return out


# --- information ------------------------------------------------------------

def gpu_sm(torch):
    if torch is not None:
        major, minor = torch.cuda.get_device_capability()
        return "sm_%d%d" % (major, minor)
    try:
        r = subprocess.run(["nvidia-smi", "--query-gpu=compute_cap",
                            "--format=csv,noheader"], capture_output=True,
                           text=True, timeout=30)
        cap = r.stdout.split()[0]
        return "sm_" + cap.replace(".", "")
    except (OSError, IndexError, subprocess.TimeoutExpired):
        return "sm_90"


def ptxas_info(b, names, sm):
    """Translates each kernel to PTX (wave-as --target=nvptx64-nvidia-cuda)
    and prints its registers and spills as ptxas reports them."""
    ptxas = shutil.which("ptxas") or (
        "/usr/local/cuda/bin/ptxas"
        if os.access("/usr/local/cuda/bin/ptxas", os.X_OK) else None)
    for name, source in names:
        try:
            wbin = b.assemble(source)
        except RuntimeError as e:
            print("ptxas: %s: %s" % (name, e))
            continue
        ptx = wbin[:-5] + ".ptx"
        r = subprocess.run([b.tool("wave-as"), "--target=nvptx64-nvidia-cuda",
                            "--mcpu=" + sm, wbin, "-o", ptx],
                           capture_output=True, text=True)
        if r.returncode != 0:
            print("ptxas: %s: wave-as: %s" % (name, r.stderr.strip()[:200]))
            continue
        if not ptxas:
            print("ptxas: not found; no register report for %s" % name)
            continue
        r = subprocess.run([ptxas, "-arch=" + sm, "-v", ptx, "-o",
                            ptx + ".cubin"], capture_output=True, text=True)
        info = " ".join(l.split("ptxas info    : ")[-1].strip()
                        for l in r.stderr.splitlines()
                        if "Used" in l or "spill" in l)
        print("ptxas %s: %s: %s" % (sm, name, info or r.stderr.strip()[:200]))
        if b.args.ptx_dir:
            os.makedirs(b.args.ptx_dir, exist_ok=True)
            shutil.copyfile(ptx, os.path.join(b.args.ptx_dir,
                                              os.path.basename(ptx)))


# --- the emulator check -----------------------------------------------------

def check_emu(b):
    """The kernels on the emulator at small sizes; returns the exit status."""
    fails = 0

    def report(what, ok, msg):
        nonlocal fails
        print("%-44s %s  %s" % (what, "ok  " if ok else "FAIL", msg))
        fails += 0 if ok else 1

    def run(wbin, args):
        r = subprocess.run([b.tool("wave-run"), wbin, "--wave-width", "32"] +
                           args, capture_output=True, text=True)
        if r.returncode != 0:
            raise RuntimeError(r.stderr.strip())
        return r.stdout

    # The generator formula against wave-run's own random:N:SEED.
    wbin = b.assemble("vector_add.wave")
    path = os.path.join(b.work, "gen.bin")
    run(wbin, ["--grid", "1", "--arg", "a=random:64:%d" % SEED_A,
               "--arg", "b=zeros:64", "--arg", "c=zeros:64", "--arg", "n=64",
               "--out", "a=" + path])
    with open(path, "rb") as f:
        got = struct.unpack("<64f", f.read())
    report("random:N:SEED = splitmix_f32()", all(
        got[i] == splitmix_f32(SEED_A, i) for i in range(64)), "64 values")

    # vector_add: full groups of 4 and every tail length.
    for n in (1024, 1025, 1026, 1027, 3, 4099):
        out = os.path.join(b.work, "vadd.c.bin")
        run(wbin, ["--grid", str((n + 1023) // 1024),
                   "--arg", "a=random:%d:3" % n, "--arg", "b=random:%d:4" % n,
                   "--arg", "c=fill:%d:-1" % n, "--arg", "n=%d" % n,
                   "--out", "c=" + out])
        with open(out, "rb") as f:
            c = struct.unpack("<%df" % n, f.read())
        bad = [i for i in range(n)
               if c[i] != f32(splitmix_f32(3, i) + splitmix_f32(4, i))]
        report("vector_add n=%d" % n, not bad,
               "all exact" if not bad else "%d wrong, first c[%d]" % (
                   len(bad), bad[0]))

    for name, (source, tile, bk) in sorted(GEMMS.items()):
        wbin = b.assemble(source)
        # Whole numbers in [-4, 4]: every product and partial sum is exact,
        # so C must equal the integer product; M != N != K, several tiles.
        m, n, k = 2 * tile, 3 * tile, 5 * bk
        rnd = random.Random(11)
        a = [float(rnd.randint(-4, 4)) for _ in range(m * k)]
        bb = [float(rnd.randint(-4, 4)) for _ in range(k * n)]
        pa, pb, pc = (os.path.join(b.work, "%s.%s" % (name, x)) for x in "abc")
        with open(pa, "wb") as f:
            f.write(struct.pack("<%df" % len(a), *a))
        with open(pb, "wb") as f:
            f.write(struct.pack("<%df" % len(bb), *bb))
        run(wbin, ["--grid", "%d,%d,1" % (n // tile, m // tile),
                   "--arg", "a=@" + pa, "--arg", "b=@" + pb,
                   "--arg", "c=fill:%d:-1" % (m * n), "--arg", "m=%d" % m,
                   "--arg", "n=%d" % n, "--arg", "k=%d" % k,
                   "--out", "c=" + pc])
        with open(pc, "rb") as f:
            c = struct.unpack("<%df" % (m * n), f.read())
        bad = 0
        for i in range(m):
            for j in range(n):
                want = sum(a[i * k + x] * bb[x * n + j] for x in range(k))
                bad += c[i * n + j] != want
        report("%s %dx%dx%d integers" % (name, m, n, k), bad == 0,
               "exact" if not bad else "%d elements wrong" % bad)
        # random:N:SEED inputs, square: the sampled check of the GPU run.
        sq = 2 * tile
        run(wbin, ["--grid", "2,2,1",
                   "--arg", "a=random:%d:%d" % (sq * sq, SEED_A),
                   "--arg", "b=random:%d:%d" % (sq * sq, SEED_B),
                   "--arg", "c=zeros:%d" % (sq * sq), "--arg", "m=%d" % sq,
                   "--arg", "n=%d" % sq, "--arg", "k=%d" % sq,
                   "--out", "c=" + pc])
        ok, msg = check_gemm_samples(lambda i, j: read_f32_at(pc, i * sq + j), sq)
        report("%s %d^3 random, sampled" % (name, sq), ok, msg)
    print("check-emu: %s" % ("all passed" if not fails else "%d failed" % fails))
    return 1 if fails else 0


# --- main -------------------------------------------------------------------

def fmt_us(us):
    return "%.1f us" % us if us < 1e4 else "%.2f ms" % (us / 1e3)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bin-dir", default=os.path.join(ROOT, "build", "bin"))
    ap.add_argument("--n", type=int, default=4096, help="GEMM size (4096)")
    ap.add_argument("--vec-elems", type=int, default=1 << 28,
                    help="vector_add elements (2^28 = 1 GiB per operand)")
    ap.add_argument("--repeat", type=int, default=10)
    ap.add_argument("--gemm", default=",".join(sorted(GEMMS)),
                    help="GEMM kernels to run (default: all)")
    ap.add_argument("--timeout", type=int, default=60,
                    help="seconds per dispatch (wave-run --timeout, 60)")
    ap.add_argument("--run-timeout", type=int, default=300,
                    help="seconds per wave-run process, all dispatches, "
                         "data generation and copies included (300)")
    ap.add_argument("--device", default="cuda", choices=["cuda", "emu"],
                    help="emu: a dry run of the script on the emulator "
                         "(times are whole wave-run processes)")
    ap.add_argument("--no-torch", action="store_true")
    ap.add_argument("--no-ptxas", action="store_true",
                    help="skip the PTX translation and ptxas register report")
    ap.add_argument("--ptx-dir", help="copy each kernel's PTX here")
    ap.add_argument("--check-emu", action="store_true",
                    help="check the kernels on the emulator and exit")
    ap.add_argument("--keep", help="keep work files (and outputs) here")
    args = ap.parse_args()
    b = Bench(args)
    if not os.access(b.tool("wave-run"), os.X_OK):
        print("run_gpu_bench: no wave-run in %s" % b.bindir, file=sys.stderr)
        return 2
    gemms = [g for g in args.gemm.split(",") if g]
    unknown = [g for g in gemms if g not in GEMMS]
    if unknown:
        print("run_gpu_bench: unknown --gemm %s (known: %s)" % (
            ",".join(unknown), ",".join(sorted(GEMMS))), file=sys.stderr)
        return 2
    if args.keep:
        os.makedirs(args.keep, exist_ok=True)
        b.work = os.path.abspath(args.keep)
    else:
        b.work = tempfile.mkdtemp(prefix="gpu-bench-")
    try:
        if args.check_emu:
            return check_emu(b)
        return bench(b, gemms)
    finally:
        if not args.keep:
            shutil.rmtree(b.work, ignore_errors=True)


def bench(b, gemms):
    args = b.args
    torch = None
    if not args.no_torch and args.device != "emu":
        try:
            import torch as _torch
            if _torch.cuda.is_available():
                torch = _torch
            else:
                print("torch: %s, but CUDA is not available: baselines "
                      "unavailable" % _torch.__version__)
        except ImportError as e:
            print("torch: not importable (%s): baselines unavailable" % e)
    if torch is not None:
        print("torch %s, %s, CUDA %s" % (torch.__version__,
                                         torch.cuda.get_device_name(0),
                                         torch.version.cuda))
    n, vn = args.n, args.vec_elems
    vbytes = 4 * vn
    print("GEMM: N = %d, f32, row-major, %d dispatches each (best taken)"
          % (n, args.repeat))
    print("vector_add: n = %d f32 = %.3f GiB per operand, %.3f GiB of WAVE "
          "device memory for the three (32-bit device addresses: at most "
          "4 GiB)" % (vn, vbytes / 2.0 ** 30, 3 * vbytes / 2.0 ** 30))
    if args.device != "emu" and not args.no_ptxas:
        ptxas_info(b, [(g, GEMMS[g][0]) for g in gemms] +
                   [("vector_add", "vector_add.wave")], gpu_sm(torch))
    sys.stdout.flush()

    rows = []  # (kernel, us, rate, unit, ok, note)
    for g in gemms:
        try:
            us, ok, note = run_gemm(b, g, torch)
        except RuntimeError as e:
            us, ok, note = None, False, str(e)
        rows.append((g, us, 2.0 * n ** 3 / (us * 1e3) if us else None,
                     "GFLOP/s", ok, note))
        print("%s: %s" % (g, note))
        sys.stdout.flush()
    try:
        us, ok, note = run_vadd(b)
    except RuntimeError as e:
        us, ok, note = None, False, str(e)
    rows.append(("vector_add", us, 3.0 * vbytes / (us * 1e3) if us else None,
                 "GB/s", ok, note))
    print("vector_add: %s" % note)

    base = {}
    if torch is not None:
        try:
            base = torch_baselines(torch, n, vn, args.repeat)
        except Exception as e:  # noqa: BLE001 - out of memory, driver, ...
            print("torch baselines failed: %s" % e)
    gemm_base = 2.0 * n ** 3 / (base["gemm"] * 1e3) if "gemm" in base else None
    vadd_base = 3.0 * vbytes / (base["vadd"] * 1e3) if "vadd" in base else None

    print()
    print("%-16s %12s %14s %26s %8s  %s" % ("kernel", "best time", "rate",
                                           "baseline", "ratio", "check"))
    for name, us, rate, unit, ok, _ in rows:
        bl = gemm_base if unit == "GFLOP/s" else vadd_base
        blname = "cuBLAS SGEMM" if unit == "GFLOP/s" else "torch add"
        print("%-16s %12s %14s %26s %8s  %s" % (
            name, fmt_us(us) if us else "-",
            "%.1f %s" % (rate, unit) if rate else "-",
            "%s %.1f %s" % (blname, bl, unit) if bl else blname + " n/a",
            "%.2f" % (rate / bl) if rate and bl else "-",
            "ok" if ok else "FAIL"))
    if gemm_base:
        print("%-16s %12s %14s" % ("torch.mm", fmt_us(base["gemm"]),
                                   "%.1f GFLOP/s" % gemm_base))
    if vadd_base:
        print("%-16s %12s %14s" % ("torch add", fmt_us(base["vadd"]),
                                   "%.1f GB/s" % vadd_base))
    best_gemm = max([r[2] for r in rows if r[3] == "GFLOP/s" and r[2]] or [0])
    vrate = rows[-1][2]
    if gemm_base:
        print("target GEMM >= %.0f%% of cuBLAS: %.0f%% (%s)" % (
            100 * GEMM_TARGET, 100 * best_gemm / gemm_base,
            "met" if best_gemm >= GEMM_TARGET * gemm_base else "MISSED"))
    if vadd_base and vrate:
        print("target vector_add >= %.0f%% of torch add: %.0f%% (%s)" % (
            100 * VADD_TARGET, 100 * vrate / vadd_base,
            "met" if vrate >= VADD_TARGET * vadd_base else "MISSED"))
    if not base:
        print("targets: baselines unavailable (no PyTorch with CUDA)")
    failed = [r[0] for r in rows if not r[4]]
    print("run_gpu_bench: %s" % ("all runs and checks passed" if not failed
                                 else "FAILED: " + ", ".join(failed)))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
