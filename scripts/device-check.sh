#!/usr/bin/env bash
# device-check.sh [BIN_DIR] - the one command to run on a lent NVIDIA GPU
# machine, from the repository root of a carried build (BIN_DIR defaults to
# build/bin; nothing is built or installed here).
#
# Prints, all to standard output:
#   1. the GPUs (nvidia-smi -L), driver version and compute capability, the
#      libcuda.so.1 the loader finds, and wave-run --list-devices;
#   2. the libraries BIN_DIR/wave-run and wave-as need that ldd cannot find;
#   3. test/gpu/cuda-suite.sh: every example, conformance and compiler
#      end-to-end kernel with --device=cuda against the emulator at wave
#      width 32 (at most SUITE_S seconds, default 180);
#   4. the differential tester (test/difftest/difftest.py) with wave-run
#      --device=cuda as the executor: DIFFTEST_COUNT (300) random kernels
#      from seed DIFFTEST_SEED (70000), at most DIFFTEST_S (120) seconds;
#   5. test/bench/emu_scaling.sh: the emulator with --jobs 1, 2, 4, 8 and
#      16 on the machine's cores (issue 28's table), at most SCALING_S (150)
#      seconds;
#   6. test/bench/gpu/run_gpu_bench.py: the tiled GEMM (N = 4096) and
#      vector_add (1 GiB operands) against cuBLAS and torch add, with the
#      ptxas register report of each kernel (the rest of the budget:
#      DEVICE_CHECK_BUDGET seconds in all, default 470, under 8 minutes).
# With $OUT set, everything is also written to $OUT/device-check.log and
# the kernels' PTX to $OUT/ptx/; DEVICE_CHECK_KEEP=1 also keeps the suite's
# work files in $OUT/cuda-suite/.
#
# Exit status: 0 the suite passed (nothing differs) and the benchmark's
# runs and correctness checks passed; 1 otherwise (the suite's 77, no usable
# CUDA device, is a failure here).
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
bindir="${1:-build/bin}"
budget="${DEVICE_CHECK_BUDGET:-470}"  # seconds for the whole check (< 8 min)
suite_s="${SUITE_S:-180}"
difftest_n="${DIFFTEST_COUNT:-300}"     # random kernels on the GPU
difftest_s="${DIFFTEST_S:-120}"
difftest_seed="${DIFFTEST_SEED:-70000}"
scaling_s="${SCALING_S:-150}"
# A bundle from scripts/device-bundle.sh carries its libraries in ../lib.
if [ -d "$bindir/../lib" ]; then
  export LD_LIBRARY_PATH="$(cd "$bindir/../lib" && pwd)${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fi

step() { echo; echo "== $* ($((SECONDS))s)"; }

check() {
  local rc_suite rc_dt rc_scaling rc_bench left
  echo "device-check: $(date -u '+%Y-%m-%d %H:%M:%S UTC') on $(hostname)," \
       "$(nproc) cores, bin dir $bindir"
  echo "device-check: source $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo '(no git)')" \
       "$(git -C "$root" status --porcelain 2>/dev/null | grep -q . && echo '+ local changes')"

  step "GPUs"
  if command -v nvidia-smi >/dev/null; then
    nvidia-smi -L
    nvidia-smi --query-gpu=index,name,driver_version,compute_cap,memory.total \
      --format=csv
    nvidia-smi 2>/dev/null | grep -m1 -o 'CUDA Version: *[0-9.]*'
  else
    echo "nvidia-smi: not found"
  fi
  ldconfig -p 2>/dev/null | grep -E 'libcuda\.so\.1 ' || echo "libcuda.so.1: not in the ldconfig cache"
  local ptxas; ptxas=$(command -v ptxas || echo /usr/local/cuda/bin/ptxas)
  [ -x "$ptxas" ] && echo "ptxas: $("$ptxas" --version | tail -1)"
  "$bindir/wave-run" --list-devices
  echo "wave-run --list-devices: exit $?"

  step "shared libraries"
  local missing=0 t
  for t in wave-run wave-as; do
    if [ ! -x "$bindir/$t" ]; then
      echo "$bindir/$t: missing"; missing=1; continue
    fi
    if ldd "$bindir/$t" | grep -i 'not found'; then
      missing=1
    fi
  done
  [ $missing -eq 0 ] && echo "ldd: every library of wave-run and wave-as found"

  step "cuda-suite (at most ${suite_s}s)"
  local keep=()
  if [ -n "${OUT:-}" ] && [ "${DEVICE_CHECK_KEEP:-0}" = 1 ]; then
    keep=(--keep "$OUT/cuda-suite")
  fi
  timeout -k 10 "$suite_s" bash test/gpu/cuda-suite.sh "$bindir" "$root" "${keep[@]}"
  rc_suite=$?
  case $rc_suite in
    0) echo "cuda-suite: passed" ;;
    77) echo "cuda-suite: SKIPPED (exit 77): no usable CUDA device" ;;
    124|137) echo "cuda-suite: TIMED OUT after ${suite_s}s" ;;
    *) echo "cuda-suite: FAILED (exit $rc_suite)" ;;
  esac

  step "difftest: ${difftest_n} random kernels, wave-run --device=cuda against the emulator"
  # The differential tester (test/difftest/README.md) with the GPU as the
  # executor: generated kernels of every instruction class, compared byte
  # for byte with the emulator at wave width 32.
  local dt_out="${OUT:-$(mktemp -d)}/difftest"
  timeout -k 10 "$difftest_s" python3 test/difftest/difftest.py \
    --executor "$(cd "$bindir" && pwd)/wave-run --device=cuda" --targets sm_90 \
    --count "$difftest_n" --seed "$difftest_seed" --jobs "$(nproc)" \
    --wave-as "$bindir/wave-as" --wave-run "$bindir/wave-run" --out "$dt_out"
  rc_dt=$?
  [ $rc_dt -eq 124 ] && echo "difftest: TIMED OUT after ${difftest_s}s"

  step "emulator scaling: wave-run --jobs 1..16 (at most ${scaling_s}s)"
  # The bin dir's parent is the build (or bundle) directory of the script.
  timeout -k 10 "$scaling_s" sh test/bench/emu_scaling.sh "$bindir/.." 1 2 4 8 16
  rc_scaling=$?
  [ $rc_scaling -eq 124 ] && echo "emu_scaling: TIMED OUT after ${scaling_s}s"

  left=$((budget - SECONDS))
  [ $left -lt 60 ] && left=60
  step "GPU benchmark (at most ${left}s)"
  local ptx=()
  [ -n "${OUT:-}" ] && ptx=(--ptx-dir "$OUT/ptx")
  timeout -k 10 "$left" python3 test/bench/gpu/run_gpu_bench.py \
    --bin-dir "$bindir" --run-timeout $(( left > 200 ? 150 : left / 2 )) "${ptx[@]}"
  rc_bench=$?
  [ $rc_bench -eq 124 ] && echo "run_gpu_bench: TIMED OUT after ${left}s"

  step "summary"
  echo "device-check: cuda-suite exit $rc_suite, difftest exit $rc_dt," \
       "emu_scaling exit $rc_scaling, run_gpu_bench exit $rc_bench, ${SECONDS}s"
  [ $rc_suite -eq 0 ] && [ $rc_dt -eq 0 ] && [ $rc_bench -eq 0 ]
}

if [ -n "${OUT:-}" ]; then
  mkdir -p "$OUT"
  check 2>&1 | tee "$OUT/device-check.log"
  exit "${PIPESTATUS[0]}"
fi
check 2>&1
