#!/bin/sh
# The cost of wave-run --check (wave-run(1) CHECKS) against a plain run on
# one thread: examples/gemm.wave at 1024x1024x1024 (256 workgroups, named
# launch), plain, --check=memcheck (goal: at most 10x) and all four checkers.
# Usage: test/bench/check_slowdown.sh [BUILD_DIR]   (default: build)
set -eu
B=${1:-build}/bin
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
"$B/wave-as" "$(dirname "$0")/../../examples/gemm.wave" -o "$T/gemm.wbin"
for C in "" --check=memcheck --check; do
  /usr/bin/time -f "gemm 1024 -j1 ${C:-plain}: %e s wall, %U s user" \
    "$B/wave-run" "$T/gemm.wbin" -j1 --grid 16,16,1 --max-instructions 0 \
    --arg a=random:1048576:1 --arg b=random:1048576:2 --arg c=zeros:1048576 \
    --arg m=1024 --arg n=1024 --arg k=1024 --print 'c[0:1]' $C >/dev/null
done
