#!/usr/bin/env bash
# deps.sh - install the Debian packages wavetools needs, if any are missing.
#
# Safe to run any number of times: it asks apt-get only for packages that are
# not installed yet. Needs root (or sudo) only when something is missing.
# clang-22 and lld-22 are also the AMDGCN stage's assembler and linker
# (wave-as --target=amdgcn-amd-amdhsa); llvm-22 brings llvm-readelf-22 and
# llvm-objdump-22, which the AMDGCN tests inspect code objects with.
# libclang-22-dev gives Clang's static libraries and headers: wave-fe
# --cpp-frontend=clang parses C++ kernels with Clang's front end in process.
# libhsa-runtime-dev gives ROCm's HSA headers, the types and constants of
# wave-run --device=hsa (its hsa.h also checks the AQL packet layout in the
# unit tests); the runtime library it brings along is loaded with dlopen,
# never linked, and is needed only to run on an AMD GPU.
# python3-dev, pybind11-dev and python3-numpy build and test the Python
# package wavetools; python3-matplotlib and dataset-fashion-mnist are the
# Fashion-MNIST example's; pkg-config checks the installed wavetools.pc.
set -euo pipefail

PACKAGES=(
  cmake ninja-build make python3
  clang-22 lld-22 llvm-22 llvm-22-dev llvm-22-tools libclang-rt-22-dev
  libclang-22-dev
  libzstd-dev libz3-dev zlib1g-dev
  libcli11-dev libgtest-dev libgmock-dev libbenchmark-dev
  libhsa-runtime-dev
  bats bats-assert bats-support mandoc bsdutils zsh
  python3-numpy python3-matplotlib dataset-fashion-mnist
  python3-dev pybind11-dev pkg-config
)

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "deps.sh: installing ${missing[*]}" >&2
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "deps.sh: need root to install: ${missing[*]}" >&2; exit 2; }
  SUDO=sudo
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
