#!/bin/sh
# wave-run --jobs scaling (issue 28): the four kernels of the issue's table,
# at the issue's sizes, with --jobs 1 and each N given (default: 1 2 4 8 16),
# wall time of the whole process, best of REPEAT runs (default 1). Every run
# writes its result with --out; a result that differs from --jobs 1's by a
# byte fails the script. The last column is the first N's time (-j 1's by
# default) over each N's.
#
#   gemm_blocked  test/bench/kernels/gemm_blocked.py, 2048^2, 256 workgroups
#                 of 256 threads, 128 x 128 tiles staged in local memory
#   histogram     examples/histogram.wave, 64 Mi values, 1024 workgroups
#   reduce_tree   examples/reduce_tree.wave, 32 Mi values, 131072 workgroups
#   gemm          examples/gemm.wave, register-blocked, 2048^2, 1024 workgroups
#
# Inputs come from wave-run's iota: and random: generators (wave-run(1)).
# Usage: test/bench/emu_scaling.sh [BUILD_DIR [JOBS... ]]
#   REPEAT=3 test/bench/emu_scaling.sh build 1 2
# Add --profile-jobs to WAVE_RUN_FLAGS to see each thread's time.
set -eu
B=${1:-build}/bin
[ $# -gt 0 ] && shift
JOBS=${*:-1 2 4 8 16}
REPEAT=${REPEAT:-1}
S=$(dirname "$0")/../..
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
# A device bundle (scripts/device-bundle.sh) carries the kernel compiled.
if [ -x "$B/wave-compiler" ]; then
  "$B/wave-compiler" "$S/test/bench/kernels/gemm_blocked.py" -o "$T/gemm_blocked.wbin"
else
  cp "$B/../kernels/gemm_blocked.wbin" "$T/gemm_blocked.wbin"
fi
"$B/wave-as" "$S/examples/histogram.wave" -o "$T/histogram.wbin"
"$B/wave-as" "$S/examples/reduce_tree.wave" -o "$T/reduce_tree.wbin"
"$B/wave-as" "$S/examples/gemm.wave" -o "$T/gemm.wbin"

N2=$((2048 * 2048)) H=$((64 * 1024 * 1024)) R=$((32 * 1024 * 1024))
run() { # NAME JOBS: runs kernel NAME with --jobs JOBS, output in $T/NAME.JOBS
  case $1 in
  gemm_blocked) set -- "$@" --grid 16,16,1 --arg a=random:$N2:1 \
    --arg b=random:$N2:2 --arg c=zeros:$N2 --arg N=2048 --out c="$T/$1.$2" ;;
  histogram) set -- "$@" --grid 1024,1,1 --arg data=iota:$H \
    --arg bins=zeros:256 --arg n=$H --arg nbins=256 --out bins="$T/$1.$2" ;;
  reduce_tree) set -- "$@" --grid $((R / 256)),1,1 --arg input=random:$R:3 \
    --arg output=zeros:$((R / 256)) --arg n=$R --out output="$T/$1.$2" ;;
  gemm) set -- "$@" --grid 32,32,1 --arg a=random:$N2:1 --arg b=random:$N2:2 \
    --arg c=zeros:$N2 --arg m=2048 --arg n=2048 --arg k=2048 \
    --out c="$T/$1.$2" ;;
  esac
  K=$1 J=$2
  shift 2
  rm -f "$T/$K.$J"
  # shellcheck disable=SC2086 # WAVE_RUN_FLAGS is a list of flags
  "$B/wave-run" "$T/$K.wbin" -j "$J" --max-instructions 0 \
    ${WAVE_RUN_FLAGS:-} "$@" >/dev/null
}

printf '%-13s %4s %9s %8s\n' kernel jobs seconds speedup
for K in gemm_blocked histogram reduce_tree gemm; do
  Base=
  for J in $JOBS; do
    Best=
    I=0
    while [ $I -lt "$REPEAT" ]; do
      T0=$(date +%s.%N)
      run $K "$J"
      T1=$(date +%s.%N)
      Best=$(echo "$T0 $T1 ${Best:-}" | awk '{t = $2 - $1;
        if ($3 == "" || t < $3) print t; else print $3}')
      I=$((I + 1))
    done
    [ -n "$Base" ] || Base=$Best
    if [ -f "$T/$K.1" ] && ! cmp -s "$T/$K.1" "$T/$K.$J"; then
      echo "emu_scaling.sh: $K: -j $J gives other bytes than -j 1" >&2
      exit 1
    fi
    printf '%-13s %4s %9.3f %7.2fx\n' $K "$J" "$Best" \
      "$(echo "$Base $Best" | awk '{print $1 / $2}')"
  done
done
