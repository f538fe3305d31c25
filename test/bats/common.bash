# common.bash - shared setup for the Bats CLI tests.
#
# Puts the built tools first on PATH (WAVE_BIN, else build/bin of the
# checkout) and loads bats-support and bats-assert from Debian's packages.
bats_require_minimum_version 1.5.0

WAVE_SOURCE_DIR="${WAVE_SOURCE_DIR:-$(cd "$BATS_TEST_DIRNAME/../.." && pwd)}"
WAVE_BIN="${WAVE_BIN:-$WAVE_SOURCE_DIR/build/bin}"
PATH="$WAVE_BIN:$PATH"
export WAVE_SOURCE_DIR WAVE_BIN PATH

load '/usr/lib/bats/bats-support/load'
load '/usr/lib/bats/bats-assert/load'

# The tools this project ships; each has a man page and completions.
WAVE_TOOLS=(wave-as wave-dis wave-objdump wave-run wave-opt wave-ra wave-fe wave-link wave-compiler)

# tiny_wave FILE: writes formats/wbin.md "Example"'s worked example kernel to FILE.
tiny_wave() {
  cat >"$1" <<'WAVE'
; tiny example
.kernel tiny
.registers 4
.workgroup_size 4, 1, 1
    mov r0, sr_lane_id
    mov_imm r1, 4
    imul r2, r0, r1
    device_store_u32 r2, r0
    halt
.end
WAVE
}

# no_kfd: skips the test unless wave-run reaches the check for the ROCm
# kernel driver and finds it missing: ROCm's HSA runtime library, which
# wave-run loads with dlopen ($WAVE_HSA_RUNTIME, else libhsa-runtime64.so.1;
# scripts/deps.sh installs it), must load, and /dev/kfd must not exist.
# Tests of the no-GPU messages ("no HSA runtime device: ...") use it.
no_kfd() {
  [ ! -e /dev/kfd ] || skip "/dev/kfd exists: this machine may have an AMD GPU"
  python3 -c 'import ctypes, os
ctypes.CDLL(os.environ.get("WAVE_HSA_RUNTIME") or "libhsa-runtime64.so.1")' \
    2>/dev/null ||
    skip "the HSA runtime library does not load: wave-run stops before /dev/kfd"
}
