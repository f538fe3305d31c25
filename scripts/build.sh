#!/usr/bin/env bash
# build.sh [BUILD_DIR] [extra cmake args...] - configure and build wavetools.
#
# Installs missing Debian packages first (scripts/deps.sh). BUILD_DIR defaults
# to build/. Re-running only rebuilds what changed.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bash "$root/scripts/deps.sh"
dir="${1:-$root/build}"
shift || true
if [ ! -f "$dir/build.ninja" ]; then
  CC=clang-22 CXX=clang++-22 cmake -G Ninja -S "$root" -B "$dir" \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo "$@" >/dev/null
fi
if ! ninja -C "$dir" ${NINJA_FLAGS:-} >"$dir/ninja.log" 2>&1; then
  cat "$dir/ninja.log" >&2
  echo "build.sh: build failed in $dir" >&2
  exit 1
fi
