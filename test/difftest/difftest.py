#!/usr/bin/env python3
"""difftest: differential testing of wave-as's AMDGCN backend.

Generates random kernels (wavegen.py), runs each in the reference emulator
(wave-run) and in an external executor of the AMDGCN translation, and
compares their standard output byte for byte:

    difftest.py --executor 'CMD' --targets gfx942,gfx1100,gfx1200 \\
                --count N --seed S --jobs J --out DIR

CMD is a command that speaks wave-run's command line and runs the code
object wave-as makes for the processor in $GFX (it is run as
`GFX=gfxNNN CMD k.wbin --wave-width W ARGS...` in the test's directory; exit
status 125 means "cannot run this", which is counted as skipped). Every
disagreement is kept in DIR/<target>-<seed>/ (kernel, arguments, input,
both outputs, the commands), and a summary per target is printed.

    difftest.py --translate-only --count N --seed S [--jobs J] [--out DIR]

needs no executor: each kernel must run on wave-run (wave widths 32 and 64)
and translate for gfx942, gfx950, gfx90a, gfx1100, gfx1200 and gfx1250,
both to assembly (-S, checked by llvm-mc-22) and to a code object. A
refusal of the translator counts as a failure, with its message.
Exit status: 0 when everything agreed / passed, 1 otherwise.
"""
import argparse
import concurrent.futures
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import wavegen  # noqa: E402

WIDTH = {"gfx942": 64, "gfx950": 64, "gfx90a": 64, "gfx1100": 32, "gfx1200": 32,
         "gfx1250": 32, "sm_70": 32, "sm_80": 32, "sm_90": 32}
ALL_TARGETS = ["gfx942", "gfx950", "gfx90a", "gfx1100", "gfx1200", "gfx1250"]
# NVIDIA targets (--targets sm_70,sm_80,sm_90): translate-only checks PTX
# (and ptxas, when $WAVE_PTXAS names one); an executor is wave-run
# --device=cuda itself.
NVPTX_TARGETS = ["sm_70", "sm_80", "sm_90"]


def find_tool(explicit, name):
    # Tests run in their own directories: a path given relative to ours
    # must still name the tool there.
    if explicit:
        return os.path.abspath(explicit) if os.sep in explicit else explicit
    built = os.path.join(HERE, "..", "..", "build", "bin", name)
    if os.path.exists(built):
        return os.path.abspath(built)
    return shutil.which(name) or name


def find_llvm_mc(explicit):
    """llvm-mc of LLVM 22: llvm-mc-22 on PATH, else LLVM 22's bin directory."""
    if explicit:
        return explicit
    for cand in (shutil.which("llvm-mc-22"), "/usr/lib/llvm-22/bin/llvm-mc"):
        if cand and os.path.exists(cand):
            return cand
    return "llvm-mc-22"


def run(cmd, cwd, timeout, env=None):
    # A tool that is being relinked is briefly missing or not executable:
    # retry for a while before giving up.
    for attempt in range(60):
        try:
            r = subprocess.run(cmd, cwd=cwd, capture_output=True, timeout=timeout, env=env)
            return r.returncode, r.stdout, r.stderr
        except subprocess.TimeoutExpired as e:
            return 124, e.stdout or b"", (e.stderr or b"") + b"\ntimeout\n"
        except OSError as e:
            err = e
            time.sleep(2)
    return 127, b"", str(err).encode()


def run_executor(executor, target, wave_as, width, args, cwd, timeout):
    """The executor on k.wbin in cwd, as the module docstring says: GFX
    names the target, WAVE_AS the assembler (for executors that rebuild)."""
    env = dict(os.environ, GFX=target, WAVE_AS=os.path.abspath(wave_as))
    cmd = shlex.split(executor) + ["k.wbin", "--wave-width", str(width)] + args
    return run(cmd, cwd, timeout, env)


def first_line(b, n=400):
    t = b.decode(errors="replace").strip()
    lines = [l for l in t.split("\n") if "error" in l] or t.split("\n")
    return lines[0][:n] if lines else ""


class Runner:
    def __init__(self, a):
        self.a = a
        self.wave_as = find_tool(a.wave_as, "wave-as")
        self.wave_run = find_tool(a.wave_run, "wave-run")
        self.llvm_mc = find_llvm_mc(a.llvm_mc)
        self.lock = threading.Lock()
        self.opt = wavegen.options_from(a)
        self.counts = {}
        self.failures = []

    def bump(self, target, key):
        with self.lock:
            c = self.counts.setdefault(target, {})
            c[key] = c.get(key, 0) + 1

    def keep(self, d, name, test, extra):
        dest = os.path.join(self.a.out, name)
        if os.path.exists(dest):
            shutil.rmtree(dest)
        test.write(dest)
        for fname, data in extra.items():
            mode = "wb" if isinstance(data, bytes) else "w"
            with open(os.path.join(dest, fname), mode) as f:
                f.write(data)
        return dest

    def one(self, seed):
        test = wavegen.generate(seed, self.opt)
        with tempfile.TemporaryDirectory(prefix="difftest-") as d:
            test.write(d)
            rc, out, err = run([self.wave_as, "k.wave", "-o", "k.wbin"], d, self.a.timeout)
            if rc != 0:
                self.bump("wavegen", "invalid")
                self.report(f"seed {seed}: wave-as rejects the kernel: {first_line(err)}")
                self.keep(d, f"invalid-{seed}", test, {"stderr.txt": err})
                return
            if self.a.translate_only:
                return self.translate_only(seed, test, d)
            refs = {}
            for target in self.targets:
                w = WIDTH[target]
                if w not in refs:
                    refs[w] = run([self.wave_run, "k.wbin", "--wave-width", str(w)] + test.args,
                                  d, self.a.timeout)
                rrc, rout, rerr = refs[w]
                if rrc != 0:
                    self.bump(target, "invalid")
                    self.report(f"seed {seed} {target}: wave-run fails: {first_line(rerr)}")
                    self.keep(d, f"invalid-{target}-{seed}", test, {"stderr.txt": rerr})
                    continue
                erc, eout, eerr = run_executor(self.a.executor, target, self.wave_as, w,
                                               test.args, d, self.a.exec_timeout)
                self.bump(target, "run")
                if erc == 125:
                    self.bump(target, "skipped")
                    continue
                if erc == 0 and eout == rout:
                    self.bump(target, "agreed")
                    continue
                kind = "disagreed" if erc == 0 else "executor-errors"
                self.bump(target, kind)
                cmdline = ("wave-run k.wbin --wave-width %d %s\n"
                           "GFX=%s %s k.wbin --wave-width %d %s\n" % (
                               w, " ".join(map(shlex.quote, test.args)), target,
                               self.a.executor, w, " ".join(map(shlex.quote, test.args))))
                dest = self.keep(d, f"{target}-{seed}", test, {
                    "expected.txt": rout, "actual.txt": eout, "executor-stderr.txt": eerr,
                    "target": target + "\n", "commands.sh": cmdline,
                    "k.wbin": open(os.path.join(d, "k.wbin"), "rb").read()})
                nd = diff_count(rout, eout)
                self.report(f"seed {seed} {target}: {kind} (exit {erc}, {nd} lines differ) -> {dest}"
                            + (f": {first_line(eerr)}" if erc else ""))

    def translate_only(self, seed, test, d):
        ok = True
        for w in (64, 32):
            rc, out, err = run([self.wave_run, "k.wbin", "--wave-width", str(w)] + test.args,
                               d, self.a.timeout)
            if rc != 0:
                ok = False
                self.bump("wave-run", "failed")
                self.report(f"FAIL seed {seed}: wave-run --wave-width {w}: {first_line(err)}")
        self.bump("wave-run", "run")
        for target in self.targets:
            self.bump(target, "run")
            msgs = []
            if target in NVPTX_TARGETS:
                msgs = self.translate_nvptx(target, d)
            else:
                msgs = self.translate_amdgcn(target, d)
            if msgs:
                ok = False
                self.bump(target, "failed")
                for m in msgs:
                    self.report(f"FAIL seed {seed} {target}: {m}")
            else:
                self.bump(target, "passed")
        if not ok and self.a.out:
            self.keep(d, f"translate-{seed}", test, {})

    def translate_nvptx(self, target, d):
        msgs = []
        rc, out, err = run([self.wave_as, "--target=nvptx64-nvidia-cuda", f"--mcpu={target}",
                            "k.wbin", "-o", f"{target}.ptx"], d, self.a.timeout)
        if rc != 0:
            return [f"wave-as: {first_line(err)}"]
        ptxas = os.environ.get("WAVE_PTXAS")
        if ptxas:
            rc, out, err = run([ptxas, f"-arch={target}", f"{target}.ptx", "-o", os.devnull],
                               d, self.a.timeout)
            if rc != 0:
                msgs.append(f"ptxas: {first_line(err)}")
        return msgs

    def translate_amdgcn(self, target, d):
        msgs = []
        rc, out, err = run([self.wave_as, "--target=amdgcn-amd-amdhsa", f"--mcpu={target}",
                            "-S", "k.wbin", "-o", f"{target}.s"], d, self.a.timeout)
        if rc != 0:
            msgs.append(f"wave-as -S: {first_line(err)}")
        else:
            rc, out, err = run([self.llvm_mc, "-triple=amdgcn-amd-amdhsa", f"-mcpu={target}",
                                "-filetype=obj", f"{target}.s", "-o", os.devnull],
                               d, self.a.timeout)
            if rc != 0 or b"error" in err:
                msgs.append(f"llvm-mc: {first_line(err)}")
            rc, out, err = run([self.wave_as, "--target=amdgcn-amd-amdhsa",
                                f"--mcpu={target}", "k.wbin", "-o", f"{target}.hsaco"],
                               d, self.a.timeout)
            if rc != 0:
                msgs.append(f"wave-as (code object): {first_line(err)}")
        return msgs

    def report(self, msg):
        with self.lock:
            self.failures.append(msg)
            print(msg, flush=True)


def diff_count(a, b):
    la, lb = a.split(b"\n"), b.split(b"\n")
    return sum(1 for x, y in zip(la, lb) if x != y) + abs(len(la) - len(lb))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog=__doc__)
    ap.add_argument("--executor", help="command that speaks wave-run's command line "
                    "(default: $WAVE_DIFFTEST_EXECUTOR)")
    ap.add_argument("--translate-only", action="store_true")
    ap.add_argument("--targets", default=None,
                    help="comma-separated processors (default: gfx942,gfx1100,gfx1200; "
                    "all six with --translate-only)")
    ap.add_argument("--count", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--out", default="difftest-out")
    ap.add_argument("--wave-as"), ap.add_argument("--wave-run"), ap.add_argument("--llvm-mc")
    ap.add_argument("--timeout", type=float, default=120, help="per wave-as/wave-run (s)")
    ap.add_argument("--exec-timeout", type=float, default=600, help="per executor run (s)")
    wavegen.add_options(ap)   # what the kernels contain (wavegen.py --help)
    a = ap.parse_args()
    if not a.translate_only:
        a.executor = a.executor or os.environ.get("WAVE_DIFFTEST_EXECUTOR")
        if not a.executor:
            ap.error("--executor (or --translate-only) is required")
    r = Runner(a)
    r.targets = (a.targets.split(",") if a.targets else
                 (ALL_TARGETS if a.translate_only else ["gfx942", "gfx1100", "gfx1200"]))
    for t in r.targets:
        if t not in WIDTH:
            ap.error(f"unknown target {t}")
    os.makedirs(a.out, exist_ok=True)
    seeds = range(a.seed, a.seed + a.count)
    with concurrent.futures.ThreadPoolExecutor(max(1, a.jobs)) as pool:
        for f in [pool.submit(r.one, s) for s in seeds]:
            f.result()
    bad = 0
    keys = (["run", "passed", "failed"] if a.translate_only else
            ["run", "agreed", "disagreed", "skipped", "executor-errors", "invalid"])
    for target in (["wave-run"] if a.translate_only else []) + r.targets + ["wavegen"]:
        c = r.counts.get(target, {})
        if target == "wavegen" and not c:
            continue
        if target == "wave-run":
            print(f"wave-run: {c.get('run', 0)} kernels, {c.get('failed', 0)} failed")
        elif target == "wavegen":
            print(f"wavegen: {c.get('invalid', 0)} kernels rejected by wave-as")
        else:
            print(f"{target}: " + ", ".join(f"{k} {c.get(k, 0)}" for k in keys))
        bad += sum(c.get(k, 0) for k in ("failed", "disagreed", "executor-errors", "invalid"))
    print(f"difftest: {a.count} kernels, {bad} failures")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
