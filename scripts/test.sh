#!/usr/bin/env bash
# test.sh - build wavetools and run the whole test suite.
#
# Runs, for a normal build (build/) and then for an AddressSanitizer +
# UndefinedBehaviorSanitizer build with the libFuzzer targets (build-asan/):
#   GoogleTest unit tests, the lit suite (test/lit, test/conformance,
#   example tests, bounded fuzz runs), and the Bats CLI tests; then, once,
#   the emulator's lit tests again with wave-run --jobs 1 (the first run
#   uses every core), the AMD GPU suite (test/gpu/hsa-examples.sh) and the
#   NVIDIA GPU suite (test/gpu/cuda-suite.sh), each skipped without its GPU.
# Installs missing Debian packages first. Ends with one line
# "test.sh: N passed, N failed[, N skipped]" and exits non-zero on any failure.
#
# WAVE_TEST_SANITIZE=0 skips the sanitizer pass (for a quick local run).
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

passed=0 failed=0 skipped=0
fail_names=()

count() { # count NAME PASS FAIL SKIP
  passed=$((passed + $2)); failed=$((failed + $3)); skipped=$((skipped + $4))
  [ "$3" -eq 0 ] || fail_names+=("$1")
  echo "test.sh: $1: $2 passed, $3 failed, $4 skipped" >&2
}

run_suite() { # run_suite LABEL BUILD_DIR
  local label="$1" dir="$2" log
  log="$(mktemp)"

  "$dir/bin/wave-unittests" --gtest_brief=1 >"$log" 2>&1
  local rc=$? p f
  p=$(grep -oP '^\[  PASSED  \] \K[0-9]+' "$log" | tail -1); p=${p:-0}
  f=$(grep -oP '^\[  FAILED  \] \K[0-9]+(?= tests?, listed)' "$log" | tail -1); f=${f:-0}
  if [ $rc -ne 0 ] && [ "$f" -eq 0 ]; then f=1; cat "$log" >&2; fi
  [ "$f" -eq 0 ] || cat "$log" >&2
  count "$label unit" "$p" "$f" 0

  /usr/lib/llvm-22/bin/lit -s "$dir/test" >"$log" 2>&1
  rc=$?
  local lp lf lx lu lxp
  lp=$(grep -oP '^\s+Passed\s*:\s*\K[0-9]+' "$log"); lp=${lp:-0}
  lx=$(grep -oP '^\s+Expectedly Failed\s*:\s*\K[0-9]+' "$log"); lx=${lx:-0}
  lf=$(grep -oP '^\s+Failed\s*:\s*\K[0-9]+' "$log"); lf=${lf:-0}
  lxp=$(grep -oP '^\s+Unexpectedly Passed\s*:\s*\K[0-9]+' "$log"); lxp=${lxp:-0}
  lu=$(grep -oP '^\s+Unsupported\s*:\s*\K[0-9]+' "$log"); lu=${lu:-0}
  lf=$((lf + lxp))
  if [ $rc -ne 0 ] && [ "$lf" -eq 0 ]; then lf=1; fi
  [ "$lf" -eq 0 ] || grep -E '^(FAIL|XPASS|UNRESOLVED)|\*\*\*\*' "$log" >&2 || cat "$log" >&2
  count "$label lit" $((lp + lx)) "$lf" "$lu"

  PATH="$root/$dir/bin:$PATH" WAVE_BIN="$root/$dir/bin" WAVE_SOURCE_DIR="$root" \
    bats --tap test/bats >"$log" 2>&1
  rc=$?
  local bp bf bs
  bs=$(grep -cE '^ok [0-9]+ .*# skip' "$log")
  bp=$(( $(grep -cE '^ok [0-9]+' "$log") - bs ))
  bf=$(grep -cE '^not ok [0-9]+' "$log")
  if [ $rc -ne 0 ] && [ "$bf" -eq 0 ]; then bf=1; cat "$log" >&2; fi
  [ "$bf" -eq 0 ] || grep -A12 -E '^not ok' "$log" >&2
  count "$label bats" "$bp" "$bf" "$bs"
  rm -f "$log"
}

bash scripts/build.sh build || { echo "test.sh: 0 passed, 1 failed"; exit 1; }
run_suite default build

# The emulator's tests once more on one thread: the run above uses every
# core (wave-run's default --jobs), and results must not depend on it.
jobs_log="$(mktemp)"
/usr/lib/llvm-22/bin/lit -s build/test --param emu_jobs=1 \
  --filter '(conformance|lit/run|lit/examples|lit/fe/e2e)/' >"$jobs_log" 2>&1
jrc=$?
jp=$(grep -oP '^\s+Passed\s*:\s*\K[0-9]+' "$jobs_log"); jp=${jp:-0}
jx=$(grep -oP '^\s+Expectedly Failed\s*:\s*\K[0-9]+' "$jobs_log"); jx=${jx:-0}
jf=$(grep -oP '^\s+Failed\s*:\s*\K[0-9]+' "$jobs_log"); jf=${jf:-0}
if [ $jrc -ne 0 ] && [ "$jf" -eq 0 ]; then jf=1; fi
[ "$jf" -eq 0 ] || grep -E '^(FAIL|XPASS|UNRESOLVED)|\*\*\*\*' "$jobs_log" >&2 || cat "$jobs_log" >&2
count "default lit --jobs 1" $((jp + jx)) "$jf" 0
rm -f "$jobs_log"

# The AMD GPU suite (ctest label gpu-amd): skipped without an HSA GPU agent.
bash test/gpu/hsa-examples.sh build/bin examples >&2
case $? in
  0) count "gpu-amd" 1 0 0 ;;
  77) count "gpu-amd" 0 0 1 ;;
  *) count "gpu-amd" 0 1 0 ;;
esac

# The NVIDIA GPU suite (ctest label gpu-nvidia): skipped without a CUDA device.
bash test/gpu/cuda-suite.sh build/bin "$root" >&2
case $? in
  0) count "gpu-nvidia" 1 0 0 ;;
  77) count "gpu-nvidia" 0 0 1 ;;
  *) count "gpu-nvidia" 0 1 0 ;;
esac

if [ "${WAVE_TEST_SANITIZE:-1}" != 0 ]; then
  # allow_user_poisoning=0: Clang's static libraries are not instrumented,
  # but the LLVM allocator templates they share with our instrumented code
  # (BumpPtrAllocator's slow path, which poisons a new slab) may resolve to
  # our copy, and their inlined fast path then writes to memory our copy
  # poisoned. ASan's own checks stay on.
  export ASAN_OPTIONS="detect_leaks=1:abort_on_error=0:allow_user_poisoning=0:${ASAN_OPTIONS:-}"
  export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
  if bash scripts/build.sh build-asan -DWAVE_SANITIZE=ON -DWAVE_FUZZ=ON -DWAVE_BUILD_BENCH=OFF; then
    run_suite asan build-asan
  else
    count "asan build" 0 1 0
  fi
fi

if [ ${#fail_names[@]} -ne 0 ]; then
  echo "test.sh: failing suites: ${fail_names[*]}" >&2
fi
echo "test.sh: $passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
