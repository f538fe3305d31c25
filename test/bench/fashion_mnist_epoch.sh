#!/bin/sh
# One epoch of the Fashion-MNIST example (examples/fashion-mnist/train.py:
# 60,000 images, batch 64, 17 launches per step) on the emulator through the
# Python package, with one emulator thread per launch and with one per
# hardware thread; prints each run's images per second (train.py's own
# figure) and the kernels' share of the device time (--profile).
# Usage: test/bench/fashion_mnist_epoch.sh [BUILD_DIR]   (default: build)
set -eu
B=${1:-build}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3
for J in 1 0; do
  echo "== --jobs $J"
  PYTHONPATH="$B/python" "$PY" "$(dirname "$0")/../../examples/fashion-mnist/train.py" \
    --epochs 1 --jobs "$J" --test-limit 1000 --profile --out "$T" 2>"$T/progress"
  tr '\r' '\n' <"$T/progress" | grep 'images/s' | tail -1
done
