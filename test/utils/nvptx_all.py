#!/usr/bin/env python3
"""Translates every WAVE kernel under the given directories to PTX for
sm_70, sm_80 and sm_90 (wave-as --target=nvptx64-nvidia-cuda) and checks
each module: `.version 7.8`, `.target sm_NN`, `.address_size 64`, and one
`.entry` per kernel of the source. Kernel-language sources (`.py`, `.cpp`,
`.rs`, `.ts` files holding a kernel) go through wave-fe | wave-opt -O2 |
wave-ra | wave-as first. When $WAVE_PTXAS names a ptxas, every module must
also pass `ptxas -arch=sm_NN` (not in CI: ptxas is not a Debian main
package).

Sources the WAVE assembler must reject (`bad-*`), relocatable objects and
sources without kernels are left out. A kernel the emulator faults on
(`fault-*.wave`) may instead be refused with one
"error: kernel '...', PC 0x...:" line and exit status 1.

usage: nvptx_all.py BINDIR OUT_DIR DIR..."""
import os, re, subprocess, sys

import kernel_checks

TARGETS = ["sm_70", "sm_80", "sm_90"]
LANGS = (".py", ".cpp", ".rs", ".ts")


def tool(bindir, name):
    return os.path.join(bindir, name)


def to_wbin(bindir, out, path):
    """The .wbin of a kernel-language source, or an error message."""
    wbin = os.path.join(out, path.replace(os.sep, "_") + ".wbin")
    data = None
    for cmd in (["wave-fe", path], ["wave-opt", "-O2"], ["wave-ra"],
                ["wave-as", "-", "-o", wbin]):
        r = subprocess.run([tool(bindir, cmd[0])] + cmd[1:], input=data,
                           capture_output=True)
        if r.returncode != 0:
            return None, f"{cmd[0]}: {r.stderr.decode(errors='replace').strip()}"
        data = r.stdout
    return wbin, None


def check(bindir, out, path, kernels, target):
    """Returns (checked, [failure messages]) for one source and target."""
    src = path
    if path.endswith(LANGS):
        src, why = to_wbin(bindir, out, path)
        if not src:
            return 0, [f"FAIL {path}: {why}"]
    ptx = os.path.join(out, f"{path.replace(os.sep, '_')}.{target}.ptx")
    r = subprocess.run([tool(bindir, "wave-as"), "--target=nvptx64-nvidia-cuda",
                        f"--mcpu={target}", src, "-o", ptx],
                       capture_output=True, text=True)
    if r.returncode != 0:
        refused = re.search(r"error: kernel '[^']*', PC 0x[0-9a-f]+: ", r.stderr)
        if (os.path.basename(path).startswith("fault-") and r.returncode == 1
                and refused and not os.path.exists(ptx)):
            return 0, []
        return 0, [f"FAIL {path} {target}: wave-as: {r.stderr.strip()}"]
    text = open(ptx).read()
    fails = []
    for want in (".version 7.8", f".target {target}", ".address_size 64"):
        if want not in text:
            fails.append(f"FAIL {path} {target}: no '{want}'")
    entries = len(re.findall(r"^\.visible \.entry ", text, re.M))
    if entries != kernels:
        fails.append(f"FAIL {path} {target}: {entries} .entry, {kernels} kernels")
    ptxas = os.environ.get("WAVE_PTXAS")
    if ptxas:
        r = subprocess.run([ptxas, f"-arch={target}", ptx, "-o", os.devnull],
                           capture_output=True, text=True)
        if r.returncode != 0:
            fails.append(f"FAIL {path} {target}: ptxas: {r.stderr.strip()[:400]}")
    os.remove(ptx)
    return 1, fails


def kernel_count(path):
    """Kernels in a source; 0 for relocatable objects and helper files."""
    with open(path, "rb") as f:
        text = f.read().decode("utf-8", "replace")
    if path.endswith(".wave"):
        if re.search(r"^\s*\.(extern|global)\b", text, re.M):
            return 0
        return len(re.findall(r"^\s*\.kernel\b", text, re.M))
    # Kernel languages: one kernel per marker (formats/kernel-languages.md).
    if path.endswith(".ts"):
        return len(re.findall(r"^export function\b", text, re.M))
    if path.endswith(".rs"):
        return len(re.findall(r"^\s*#\[kernel", text, re.M))
    if path.endswith(".py"):
        return len(re.findall(r"^@kernel\b", text, re.M))
    return len(re.findall(r"\bwave::kernel\b|\b__kernel\b", text))


def main():
    bindir, out = sys.argv[1:3]
    os.makedirs(out, exist_ok=True)
    counts = {p: kernel_count(p) for p in kernel_checks.sources(
        sys.argv[3:], lambda p: p.endswith((".wave",) + LANGS))}
    jobs = [(bindir, out, p, n, t) for p, n in counts.items() if n
            for t in TARGETS]
    return kernel_checks.run_checks(jobs, check, "PTX modules")


if __name__ == "__main__":
    sys.exit(main())
