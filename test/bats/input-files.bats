#!/usr/bin/env bats
# input-files.bats - inputs that never end (docs/conventions.md §5, §9):
# every read is bounded (4 GiB, the most a .wbin or device memory holds, or
# what device memory has room for), and a tool that reads only .wbin files
# stops at a stream's first chunk when it is not one. Each case was
# "LLVM ERROR: out of memory" (SIGABRT) before.

load common

setup() {
  cd "$BATS_TEST_TMPDIR"
  printf '.kernel k\n.param y, buffer, u32, readwrite\n    halt\n.end\n' > k.wave
  wave-as k.wave -o k.wbin
}

@test "wave-dis, wave-objdump and wave-link on /dev/zero: bad magic at once" {
  for t in "wave-dis /dev/zero" "wave-objdump --kernels /dev/zero" \
           "wave-link /dev/zero -o out.wbin"; do
    run timeout 20 $t
    assert_failure 1
    assert_output "/dev/zero:0x0: error: bad magic: not a .wbin file"
  done
  [ ! -e out.wbin ]
}

@test "wave-run --arg OFFSET:/dev/zero stops where device memory ends" {
  run timeout 20 wave-run k.wbin --arg 0:/dev/zero
  assert_failure 2
  assert_output "wave-run: error: --arg file '/dev/zero': larger than 1048576 bytes"
}
