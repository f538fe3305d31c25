#!/usr/bin/env bash
# consumers.sh BUILD_DIR WORK_DIR - install a built wavetools tree into
# WORK_DIR/prefix, then build and run three programs against the installed
# tree only: a C++ CMake project (find_package(wavetools CONFIG),
# wavetools::wave, wave_add_kernels), a C program compiled with pkg-config's
# flags, and a Python script importing the installed package. Each prints
# one "... ok" line; any failure exits non-zero. PYTHON names the
# interpreter the Python package was built for (default python3).
set -euo pipefail
build=$(cd "$1" && pwd)
work=$2
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
rm -rf "$work"
mkdir -p "$work"
prefix=$work/prefix

# quiet CMD...: runs CMD with its output in a log, shown only on failure.
quiet() {
  "$@" >"$work/log" 2>&1 || { cat "$work/log" >&2; return 1; }
}

quiet cmake --install "$build" --prefix "$prefix"

# C++ through the CMake package.
quiet cmake -S "$here/cpp-consumer" -B "$work/cpp" -G Ninja \
  -DCMAKE_CXX_COMPILER="${CXX:-clang++-22}" -DCMAKE_PREFIX_PATH="$prefix" \
  -DCMAKE_INSTALL_PREFIX="$work/consumer-prefix"
quiet cmake --build "$work/cpp"
"$work/cpp/consumer"
quiet cmake --install "$work/cpp"
test -s "$work/consumer-prefix/share/consumer/saxpy.wbin"

# C through pkg-config.
libdir=$(dirname "$(find "$prefix" -name wavetools.pc -print -quit)")
export PKG_CONFIG_PATH=$libdir
# shellcheck disable=SC2046
"${CC:-clang-22}" -std=c99 -Wall -Werror -o "$work/c-consumer" \
  "$here/c-consumer/main.c" $(pkg-config --cflags --libs wavetools)
"$work/c-consumer" "$here/cpp-consumer/saxpy.py"

# Python from the installed package.
PYTHONPATH=$prefix/lib/python3/dist-packages "${PYTHON:-python3}" "$here/python-consumer.py" \
  "$here/cpp-consumer/saxpy.py"
