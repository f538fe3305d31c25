#!/usr/bin/env bash
# cuda-suite.sh BIN_DIR REPO_ROOT [cuda_suite.py options] - every example,
# conformance and compiler end-to-end kernel on an NVIDIA GPU (wave-run
# --device=cuda) against the reference emulator, byte for byte.
#
# The NVIDIA half of the hardware tests (ctest label gpu-nvidia, run by
# scripts/test.sh and scripts/device-check.sh too). A wave is one 32-lane
# warp on the GPU, so the emulator runs each kernel at --wave-width 32 with
# the same arguments; every dump and every buffer must come back identical
# (fsin/fcos/fexp2/flog2 kernels: within 2 ulp; NaN payloads may differ,
# formats/nvptx-abi.md, unless --strict-nan). The kernels, what is left
# out and why are in cuda_suite.py, which prints one row per comparison and
# the line "cuda-suite: N run, N same, N differ, N errors, N skipped".
# Runs in parallel (one job per core), each wave-run capped at 60 seconds.
#
# Exit status: 0 all identical, 1 a difference or a failed run, 77 skipped
# (no usable CUDA device: wave-run --device=cuda exits 2, which is also what
# a wave-run built without the CUDA device does).
set -uo pipefail
if [ $# -lt 2 ]; then
  echo "usage: cuda-suite.sh BIN_DIR REPO_ROOT [cuda_suite.py options]" >&2
  exit 2
fi
bindir="$1" root="$2"
shift 2
if ! command -v python3 >/dev/null; then
  echo "cuda-suite: python3 is required" >&2
  exit 1
fi
PYTHONDONTWRITEBYTECODE=1 exec python3 "$root/test/gpu/cuda_suite.py" "$bindir" "$root" "$@"
