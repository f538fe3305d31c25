#!/usr/bin/env bash
# quickstart.sh - install what is missing, build wavetools, and run a real
# kernel through the pipeline, from source first:
#  1. examples/gemm.py (Python) and its twin examples/gemm.cpp (C++) are
#     compiled by wave-compiler, which runs the single tools wave-fe |
#     wave-opt -O2 | wave-ra | wave-as (frontend, optimizer, structurizer,
#     register allocator, assembler) in one process and prints that pipe
#     with -v;
#  2. examples/gemm.wave (hand-written assembly) is assembled by wave-as;
#  3. examples/gemm.wir (MIR) is compiled by wave-opt -O2 | wave-ra |
#     wave-as;
# each runs a 128x128x128 f32 matrix multiply in wave-run's reference
# emulator, and the result is checked element by element against the same
# product computed in Python. Inputs are small integers, so every f32
# product and partial sum is exact and the comparison can demand
# bit-for-bit equality.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bash "$root/scripts/build.sh" "$root/build"
bin="$root/build/bin"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

N=128
"$bin/wave-as" "$root/examples/gemm.wave" -o "$work/gemm.wbin"
echo "== wave-objdump --kernels gemm.wbin"
"$bin/wave-objdump" --kernels "$work/gemm.wbin" | tail -n +2

python3 - "$work" "$N" <<'PY'
import random, struct, sys
work, n = sys.argv[1], int(sys.argv[2])
rng = random.Random(2026)
for name in ("a", "b"):
    vals = [float(rng.randint(-8, 8)) for _ in range(n * n)]
    with open(f"{work}/{name}.bin", "wb") as f:
        f.write(struct.pack(f"<{n*n}f", *vals))
PY

A=0 B=$((N * N * 4)) C=$((2 * N * N * 4))

# check OUT: compares the dumped C in OUT with the product of a.bin and b.bin.
check() {
  python3 - "$work" "$N" "$1" <<'PY'
import struct, sys
work, n, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
def load(name):
    with open(f"{work}/{name}.bin", "rb") as f:
        return struct.unpack(f"<{n*n}f", f.read())
a, b = load("a"), load("b")
lines = open(out).read().split("\n")
got = [float(x) for x in lines[: n * n]]
want = [sum(a[i * n + k] * b[k * n + j] for k in range(n)) for i in range(n) for j in range(n)]
print("   C[0][0:4] from wave-run:", got[:4])
print("   C[0][0:4] from Python:  ", want[:4])
bad = [(i, g, w) for i, (g, w) in enumerate(zip(got, want)) if g != w]
if bad:
    i, g, w = bad[0]
    print(f"   MISMATCH: {len(bad)} of {n*n} elements differ; first C[{i//n}][{i%n}] = {g}, expected {w}")
    sys.exit(1)
print(f"   all {n*n} elements equal the Python reference: OK")
PY
}

for src in gemm.py gemm.cpp; do
  echo "== wave-compiler -v examples/$src (from source; the equivalent pipe:)"
  (cd "$root" && "$bin/wave-compiler" -v "examples/$src" -o "$work/$src.wbin") 2>&1 |
    sed 's/^/   /'
  "$bin/wave-objdump" --kernels "$work/$src.wbin" | sed -n '4,5s/^/   /p'
  echo "== wave-run $src.wbin --grid $((N / 16)),$((N / 16)),1 (C = A x B, ${N}x${N} f32)"
  "$bin/wave-run" "$work/$src.wbin" --grid $((N / 16)),$((N / 16)),1 \
    --device-memory $((3 * N * N * 4)) \
    --arg $A:"$work/a.bin" --arg $B:"$work/b.bin" \
    --set-reg 0:$A --set-reg 1:$B --set-reg 2:$C --set-reg 3:$N \
    --dump-f32 $C:$((N * N)) --stats >"$work/out-$src.txt"
  grep -A1 "Instructions executed" "$work/out-$src.txt" | head -1 | sed 's/^ */   /'
  check "$work/out-$src.txt"
done

echo "== wave-run gemm.wbin --grid $((N / 64)),$((N / 64)),1 (C = A x B, ${N}x${N} f32)"
"$bin/wave-run" "$work/gemm.wbin" --grid $((N / 64)),$((N / 64)),1 \
  --device-memory $((3 * N * N * 4)) \
  --arg $A:"$work/a.bin" --arg $B:"$work/b.bin" \
  --set-reg 0:$A --set-reg 1:$B --set-reg 2:$C \
  --set-reg 3:$N --set-reg 4:$N --set-reg 5:$N \
  --dump-f32 $C:$((N * N)) --stats >"$work/out.txt"
grep -A1 "Instructions executed" "$work/out.txt" | head -1 | sed 's/^ */   /'
check "$work/out.txt"

echo "== wave-opt -O2 examples/gemm.wir | wave-ra | wave-as (the compiler path)"
"$bin/wave-opt" -O2 "$root/examples/gemm.wir" |
  "$bin/wave-ra" --stats 2>"$work/ra-stats.txt" |
  "$bin/wave-as" - -o "$work/gemm-mir.wbin"
grep -E "  instructions$|  registers used|  values spilled" "$work/ra-stats.txt" | sed 's/^ */   /'
echo "== wave-run gemm-mir.wbin --grid $((N / 16)),$((N / 16)),1"
"$bin/wave-run" "$work/gemm-mir.wbin" --grid $((N / 16)),$((N / 16)),1 \
  --device-memory $((3 * N * N * 4)) \
  --arg $A:"$work/a.bin" --arg $B:"$work/b.bin" \
  --set-reg 0:$A --set-reg 1:$B --set-reg 2:$C --set-reg 3:$N \
  --dump-f32 $C:$((N * N)) --stats >"$work/out-mir.txt"
grep -A1 "Instructions executed" "$work/out-mir.txt" | head -1 | sed 's/^ */   /'
check "$work/out-mir.txt"
