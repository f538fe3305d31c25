#!/usr/bin/env bash
# device-bundle.sh [BIN_DIR] OUT.tar.xz - packs what a lent GPU machine
# needs to run scripts/device-check.sh from a build made here: stripped
# copies of the tools the suite and the benchmark call (bin/) and every
# shared library they load that is not part of the C and C++ runtimes
# (lib/: z3, zlib, zstd; the HSA runtime and the CUDA driver are loaded with
# dlopen, never linked, so they are not packed), and the kernel of the
# emulator's scaling benchmark, compiled (kernels/), so that the machine, which
# cannot install packages, needs nothing else. Unpack it in the repository
# root and run
#   LD_LIBRARY_PATH=$PWD/device-bundle/lib scripts/device-check.sh device-bundle/bin
# The carry limit of the device tool is 64 MiB; the bundle is about 50.
set -euo pipefail
if [[ $# -lt 1 || $# -gt 2 ]]; then
  echo "usage: $0 [BIN_DIR] OUT.tar.xz" >&2
  exit 2
fi
bindir=build/bin
[[ $# -eq 2 ]] && { bindir=$1; shift; }
out=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/device-bundle/bin" "$tmp/device-bundle/lib"
tools=(wave-as wave-run wave-fe wave-opt wave-ra wave-link wave-dis wave-objdump)
for t in "${tools[@]}"; do
  strip -o "$tmp/device-bundle/bin/$t" "$bindir/$t"
done
# Libraries outside glibc and the compiler runtimes, as the loader here
# resolves them.
for t in "${tools[@]}"; do ldd "$bindir/$t"; done |
  awk '$2 == "=>" && $3 ~ /^\// {print $3}' | sort -u |
  grep -Ev '/(libc|libm|libdl|libpthread|librt|libstdc\+\+|libgcc_s)\.so' |
  while read -r lib; do cp -L "$lib" "$tmp/device-bundle/lib/"; done
# The scaling benchmark's kernel, compiled here: wave-compiler (Clang inside)
# would not fit the carry limit.
mkdir -p "$tmp/device-bundle/kernels"
"$bindir/wave-compiler" "$(dirname "$0")/../test/bench/kernels/gemm_blocked.py" \
  -o "$tmp/device-bundle/kernels/gemm_blocked.wbin"
tar -C "$tmp" -cJf "$out" device-bundle
echo "$out: $(du -h "$out" | cut -f1) ($(ls "$tmp/device-bundle/lib" | tr '\n' ' '))"
