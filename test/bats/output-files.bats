#!/usr/bin/env bats
# output-files.bats - where output goes when -o names something other than a
# regular file, and failed writes to standard output (docs/conventions.md
# §7-§9): devices and FIFOs are written in place, a symbolic link's target is
# replaced and the link kept, and a write that fails is "TOOL: error: ..."
# with exit status 2, never LLVM's fatal "IO failure on output stream".

load common

setup() {
  cd "$BATS_TEST_TMPDIR"
  printf '.kernel k\n    halt\n.end\n' > k.wave
  wave-as k.wave -o k.wbin
}

@test "-o /dev/full is written in place: a clean error, and the device stays a device" {
  [ -c /dev/full ] || skip "no /dev/full"
  run wave-as k.wave -o /dev/full
  assert_failure 2
  assert_output --partial "wave-as: error: '/dev/full': No space left on device"
  [ -c /dev/full ]
}

@test "-o /dev/stdout writes to standard output" {
  run bash -c 'wave-as k.wave -o /dev/stdout -f | cmp - k.wbin'
  assert_success
}

@test "-o FIFO writes into the FIFO, and its reader gets the file" {
  mkfifo pipe
  cat pipe > got.wbin &
  reader=$!
  run wave-as k.wave -o pipe
  assert_success
  wait "$reader"
  [ -p pipe ]
  cmp got.wbin k.wbin
}

@test "-o SYMLINK replaces the link's target and keeps the link" {
  echo old > target.wbin
  ln -s target.wbin link.wbin
  run wave-as k.wave -o link.wbin
  assert_success
  [ -L link.wbin ]
  [ "$(readlink link.wbin)" = target.wbin ]
  cmp target.wbin k.wbin
}

@test "a failed write leaves no temporary file next to the output" {
  mkdir out
  run wave-as k.wave -o out
  assert_failure 2
  run ls -A .
  refute_output --partial ".tmp"
}

@test "standard output on /dev/full: 'cannot write to standard output', exit 2" {
  [ -c /dev/full ] || skip "no /dev/full"
  run bash -c 'wave-dis k.wbin > /dev/full'
  assert_failure 2
  assert_output "wave-dis: error: cannot write to standard output: No space left on device"
  run bash -c 'wave-objdump --kernels k.wbin > /dev/full'
  assert_failure 2
  refute_output --partial "LLVM ERROR"
}

@test "--help and --version on a full or closed standard output fail cleanly" {
  [ -c /dev/full ] || skip "no /dev/full"
  for t in "${WAVE_TOOLS[@]}"; do
    run bash -c "$t --help > /dev/full"
    assert_failure 2
    assert_output "$t: error: cannot write to standard output: No space left on device"
    run bash -c "$t --version >&-"
    assert_failure 2
    refute_output --partial "LLVM ERROR"
  done
}
