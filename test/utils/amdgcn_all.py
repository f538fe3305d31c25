#!/usr/bin/env python3
"""Translates, assembles and links every WAVE kernel under the given
directories for every AMDGCN target and checks each code object:
llvm-objdump decodes every instruction, the metadata names the kernel with
the target's wave size, and the VGPR count in the metadata is 1 + the highest
VGPR the code uses, or with AGPRs (spilled VGPRs on CDNA) align4 of that plus
1 + the highest AGPR (SGPRs: at least).

Sources the WAVE assembler must reject (`bad-*.wave`) are left out. A kernel
the emulator faults on (`fault-*.wave`) may instead be refused with one
"error: kernel '...', PC 0x...:" line and exit status 1.

usage: amdgcn_all.py BINDIR OUT_DIR DIR..."""
import os, re, subprocess, sys

import kernel_checks

TARGETS = {"gfx942": 64, "gfx950": 64, "gfx90a": 64, "gfx1100": 32,
           "gfx1200": 32, "gfx1250": 32}


def check(bindir, out, path, target, wave):
    """Returns (checked, [failure messages]) for one source and target."""
    name = path.replace(os.sep, "_")
    hsaco = os.path.join(out, f"{name}.{target}.hsaco")
    r = subprocess.run([os.path.join(bindir, "wave-as"),
                        "--target=amdgcn-amd-amdhsa", f"--mcpu={target}",
                        path, "-o", hsaco], capture_output=True, text=True)
    if r.returncode != 0:
        refused = re.search(r"error: kernel '[^']*', PC 0x[0-9a-f]+: ", r.stderr)
        if (os.path.basename(path).startswith("fault-") and r.returncode == 1
                and refused and not os.path.exists(hsaco)):
            return 0, []
        return 0, [f"FAIL {path} {target}: wave-as: {r.stderr.strip()}"]
    dis = subprocess.run(["llvm-objdump-22", "-d", f"--mcpu={target}", hsaco],
                         capture_output=True, text=True, check=True).stdout
    notes = subprocess.run(["llvm-readelf-22", "--notes", hsaco],
                           capture_output=True, text=True, check=True).stdout
    fails = []
    if "<unknown>" in dis:
        fails.append(f"FAIL {path} {target}: undecodable instruction")
    vmax = max([int(m) for m in re.findall(r"\bv(\d+)\b", dis)] +
               [int(m) for m in re.findall(r"\bv\[\d+:(\d+)\]", dis)] + [0])
    smax = max([int(m) for m in re.findall(r"\bs(\d+)\b", dis)] +
               [int(m) for m in re.findall(r"\bs\[\d+:(\d+)\]", dis)] + [-1])
    kernels = len(re.findall(r"^\s*\.kernel\b", open(path).read(), re.M))
    if kernels == 0:  # an empty code object
        if re.search(r"\.(vgpr_count|wavefront_size)", notes):
            fails.append(f"FAIL {path} {target}: metadata for no kernel")
        os.remove(hsaco)
        return 1, fails
    vgpr = [int(x) for x in re.findall(r"\.vgpr_count:\s+(\d+)", notes)]
    sgpr = [int(x) for x in re.findall(r"\.sgpr_count:\s+(\d+)", notes)]
    waves = [int(x) for x in re.findall(r"\.wavefront_size:\s+(\d+)", notes)]
    # Spilled VGPRs in AGPRs (gfx90a/942/950) follow the VGPRs from
    # accum_offset = align4(VGPRs); the count covers both.
    amax = max([int(m) for m in re.findall(r"\ba(\d+)\b", dis)] + [-1])
    want = vmax + 1 if amax < 0 else max(4, (vmax + 4) & ~3) + amax + 1
    if not vgpr or max(vgpr) != want:
        fails.append(f"FAIL {path} {target}: .vgpr_count {vgpr} but code uses v{vmax}"
                     + (f" and a{amax}" if amax >= 0 else ""))
    if not sgpr or max(sgpr) < smax + 1:
        fails.append(f"FAIL {path} {target}: .sgpr_count {sgpr} but code uses s{smax}")
    if not waves or any(w != wave for w in waves):
        fails.append(f"FAIL {path} {target}: .wavefront_size {waves}, want {wave}")
    os.remove(hsaco)
    return 1, fails


def is_object(path):
    """Sources of relocatable objects (`.extern`/`.global`, or no kernel)
    translate only once linked."""
    with open(path, "rb") as f:
        text = f.read().decode("utf-8", "replace")
    return (re.search(r"^\s*\.(extern|global)\b", text, re.M) is not None
            or re.search(r"^\s*\.kernel\b", text, re.M) is None)


def main():
    bindir, out = sys.argv[1:3]
    os.makedirs(out, exist_ok=True)
    paths = kernel_checks.sources(
        sys.argv[3:], lambda p: p.endswith(".wave") and not is_object(p))
    jobs = [(bindir, out, p, t, w) for p in paths for t, w in TARGETS.items()]
    return kernel_checks.run_checks(jobs, check, "code objects")


if __name__ == "__main__":
    sys.exit(main())
