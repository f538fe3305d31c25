#!/usr/bin/env bash
# hsa-examples.sh BINDIR EXAMPLES_DIR - every example kernel on a GPU agent
# (wave-run --device=hsa) against the reference emulator, byte for byte.
#
# The hardware half of issue 8's tests (ctest label gpu-amd, run by
# scripts/test.sh too). Each example runs twice with the same named
# arguments (fixed-seed random data): once on the emulator at the agent's
# wavefront size, once through the AMDGCN stage and the HSA runtime; every
# buffer the kernel writes must come back identical (formats/amdgcn-abi.md
# lists what can differ, and no example uses it).
#
# Exit status: 0 all identical, 1 a difference or a failed run, 77 skipped
# (no HSA runtime library, no HSA runtime device or no GPU agent: wave-run
# --list-devices exits 2).
set -uo pipefail
bindir="$1" examples="$2"
run="$bindir/wave-run" as="$bindir/wave-as"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

"$run" --list-devices >"$work/devices" 2>"$work/err"
rc=$?
if [ $rc -eq 2 ]; then
  echo "hsa-examples: skipped: $(cat "$work/err")"
  exit 77
elif [ $rc -ne 0 ]; then
  cat "$work/err" >&2
  exit 1
fi
wave=$(grep -m1 -oP 'wavefront size: \K[0-9]+' "$work/devices")
echo "hsa-examples: agent 0: $(head -1 "$work/devices"), wave width $wave"

# name | written buffers | wave-run arguments
cases=$(cat <<'CASES'
vector_add|c|--grid 16 --arg a=random:1000:1 --arg b=random:1000:2 --arg c=zeros:1000 --arg n=1000
saxpy|y|--grid 8 --arg x=random:1000:3 --arg y=random:1000:4 --arg alpha=2.5 --arg n=1000
reduce_tree|output|--grid 4 --arg input=random:1000:5 --arg output=zeros:4 --arg n=1000
wave_reduce|sum count|--grid 8 --arg input=random:512:6 --arg sum=zeros:16 --arg count=zeros:16
prefix_sum|output|--grid 3 --arg input=random:700:7 --arg output=zeros:700 --arg n=700
histogram|bins|--grid 4 --arg data=random:5000:8 --arg bins=zeros:16 --arg n=5000 --arg nbins=16
gemm|c|--grid 2,2,1 --arg a=random:16384:9 --arg b=random:16384:10 --arg c=zeros:16384 --arg m=128 --arg n=128 --arg k=128
haxpy_f16|y|--grid 4 --arg x=random:400:11 --arg y=random:400:12 --arg alpha2=0x3E003E00 --arg npairs=200
bscale_bf16|out|--grid 4 --arg x=random:400:13 --arg y=random:400:14 --arg out=zeros:400 --arg scale2=0x3F403F40 --arg npairs=200
CASES
)

failed=0
while IFS='|' read -r name bufs args; do
  "$as" "$examples/$name.wave" -o "$work/$name.wbin" || { failed=1; continue; }
  outs_emu=() outs_hsa=()
  for b in $bufs; do
    outs_emu+=(--out "$b=$work/$name.$b.emu")
    outs_hsa+=(--out "$b=$work/$name.$b.hsa")
  done
  # shellcheck disable=SC2086 # the argument list is meant to split
  if ! "$run" "$work/$name.wbin" --wave-width "$wave" $args "${outs_emu[@]}" ||
     ! "$run" "$work/$name.wbin" --device=hsa $args "${outs_hsa[@]}"; then
    echo "FAIL $name: a run failed"; failed=1; continue
  fi
  same=1
  for b in $bufs; do
    cmp -s "$work/$name.$b.emu" "$work/$name.$b.hsa" || { same=0; echo "FAIL $name: buffer $b differs"; }
  done
  [ $same -eq 1 ] && echo "PASS $name" || failed=1
done <<<"$cases"
exit $failed
