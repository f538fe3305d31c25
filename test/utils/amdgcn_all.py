#!/usr/bin/env python3
"""Translates, assembles and links every example for every AMDGCN target and
checks each code object: llvm-objdump decodes every instruction, the
metadata names the kernel with the target's wave size, and the VGPR count in
the metadata is 1 + the highest VGPR the code uses (SGPRs: at least).

usage: amdgcn_all.py BINDIR EXAMPLES_DIR OUT_DIR"""
import os, re, subprocess, sys

TARGETS = {"gfx942": 64, "gfx950": 64, "gfx90a": 64, "gfx1100": 32,
           "gfx1200": 32, "gfx1250": 32}


def main():
    bindir, examples, out = sys.argv[1:4]
    os.makedirs(out, exist_ok=True)
    failures = 0
    checked = 0
    for name in sorted(os.listdir(examples)):
        if not name.endswith(".wave"):
            continue
        for target, wave in TARGETS.items():
            hsaco = os.path.join(out, f"{name}.{target}.hsaco")
            r = subprocess.run([os.path.join(bindir, "wave-as"),
                                "--target=amdgcn-amd-amdhsa", f"--mcpu={target}",
                                os.path.join(examples, name), "-o", hsaco],
                               capture_output=True, text=True)
            if r.returncode != 0:
                print(f"FAIL {name} {target}: wave-as: {r.stderr.strip()}")
                failures += 1
                continue
            dis = subprocess.run(["llvm-objdump-22", "-d", f"--mcpu={target}", hsaco],
                                 capture_output=True, text=True, check=True).stdout
            notes = subprocess.run(["llvm-readelf-22", "--notes", hsaco],
                                   capture_output=True, text=True, check=True).stdout
            if "<unknown>" in dis:
                print(f"FAIL {name} {target}: undecodable instruction")
                failures += 1
            vmax = max([int(m) for m in re.findall(r"\bv(\d+)\b", dis)] +
                       [int(m) for m in re.findall(r"\bv\[\d+:(\d+)\]", dis)] + [0])
            smax = max([int(m) for m in re.findall(r"\bs(\d+)\b", dis)] +
                       [int(m) for m in re.findall(r"\bs\[\d+:(\d+)\]", dis)] + [0])
            vgpr = [int(x) for x in re.findall(r"\.vgpr_count:\s+(\d+)", notes)]
            sgpr = [int(x) for x in re.findall(r"\.sgpr_count:\s+(\d+)", notes)]
            waves = [int(x) for x in re.findall(r"\.wavefront_size:\s+(\d+)", notes)]
            if not vgpr or max(vgpr) != vmax + 1:
                print(f"FAIL {name} {target}: .vgpr_count {vgpr} but code uses v{vmax}")
                failures += 1
            if not sgpr or max(sgpr) < smax + 1:
                print(f"FAIL {name} {target}: .sgpr_count {sgpr} but code uses s{smax}")
                failures += 1
            if not waves or any(w != wave for w in waves):
                print(f"FAIL {name} {target}: .wavefront_size {waves}, want {wave}")
                failures += 1
            checked += 1
    print(f"checked {checked} code objects, {failures} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
