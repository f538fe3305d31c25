#!/usr/bin/env bats
# wave-run process behaviour (docs/conventions.md §12): exit codes 0/1/2/3, the
# one-line fault format, --help/--version, unknown flags, missing files, stdin
# and '-', and the wave-as | wave-run pipeline.
bats_require_minimum_version 1.5.0

setup() {
  load common
  cd "$BATS_TEST_TMPDIR"
  tiny_wave tiny.wave
  wave-as tiny.wave -o tiny.wbin
}

@test "runs the worked example and dumps lane ids (exit 0)" {
  run -0 wave-run tiny.wbin --dump-u32 0:4
  assert_output $'0\n1\n2\n3'
}

@test "reads the binary from stdin with -" {
  run -0 bash -c 'wave-run - --dump-u32 0:4 < tiny.wbin'
  assert_output $'0\n1\n2\n3'
}

@test "assembles and runs in one pipeline" {
  run -0 bash -c 'wave-as tiny.wave -o - | wave-run - --dump-u32=0x4:0x3'
  assert_output $'1\n2\n3'
}

@test "a kernel fault is one error line naming kernel, pc, wave, lane and address (exit 1)" {
  run -1 --separate-stderr wave-run tiny.wbin --device-memory 8 --dump-u32 0:1
  assert_output ""
  [ "${#stderr_lines[@]}" -eq 1 ]
  [ "$stderr" = "wave-run: error: kernel 'tiny': memory access out of bounds at pc 0x0014 (device_store_u32 r2, r0), workgroup (0,0,0) wave 0 lane 2: address 0x00000008, 4 bytes, device memory is 8 bytes" ]
}

@test "a malformed binary is reported with a file offset (exit 1)" {
  head -c 40 tiny.wbin > bad.wbin
  run -1 --separate-stderr wave-run bad.wbin
  [[ "$stderr" == bad.wbin:0x*": error: "* ]]
}

@test "a file that is not a .wbin is rejected (exit 1)" {
  run -1 --separate-stderr wave-run tiny.wave
  [[ "$stderr" == "tiny.wave:0x0: error: bad magic"* ]]
}

@test "the instruction limit exits 3 without dumps" {
  run -3 --separate-stderr wave-run tiny.wbin --max-instructions 3 --dump-u32 0:4
  assert_output ""
  [ "$stderr" = "wave-run: error: instruction limit exceeded: 4 instructions (limit: 3) at PC 0x00000014 in kernel 'tiny', workgroup (0,0,0)" ]
}

@test "an unknown flag is a usage error (exit 2)" {
  run -2 --separate-stderr wave-run tiny.wbin --bogus
  [[ "$stderr" == *"--bogus"* ]]
  [[ "$stderr" == *"Try 'wave-run --help' for more information."* ]]
}

@test "a missing binary operand is a usage error (exit 2)" {
  run -2 wave-run
}

@test "a missing file is an error naming the file (exit 2)" {
  run -2 --separate-stderr wave-run nosuch.wbin
  [[ "$stderr" == "wave-run: error: 'nosuch.wbin': "* ]]
}

@test "bad option values are usage errors (exit 2)" {
  run -2 wave-run tiny.wbin --grid 1,2
  run -2 wave-run tiny.wbin --wave-width 0
  run -2 wave-run tiny.wbin --wave-width 65
  run -2 wave-run tiny.wbin --set-reg 256:1
  run -2 wave-run tiny.wbin --dump-u32 zero:4
  run -2 wave-run tiny.wbin --kernel nosuch
  run -2 wave-run tiny.wbin --dump-u32 0:1 --dump-u32 0:2
}

@test "every number accepts decimal or 0x hex" {
  run -0 wave-run tiny.wbin --grid 0x1,1,1 --wave-width 0x2 --device-memory 0x100 --dump-u32 0x0:0x2
  assert_output $'0\n1'
}

@test "--kernel selects by name and index" {
  run -0 wave-run tiny.wbin --kernel tiny --dump-u32 0:1
  run -0 wave-run tiny.wbin --kernel 0 --dump-u32 0:1
  run -2 wave-run tiny.wbin --kernel 1
}

@test "--help and --version print to stdout and exit 0" {
  run -0 wave-run --help
  assert_line --partial "Usage: wave-run"
  assert_output --partial "--dump-f32"
  run -0 wave-run --version
  assert_line --index 0 --partial "wave-run (wavetools)"
}

@test "--stats prints the statistics block" {
  run -0 wave-run tiny.wbin --stats
  assert_line "  Instructions executed: 5"
  assert_line "    Atomic lane ops:     0"
  assert_line "  Waves executed: 1"
}

@test "--trace goes to stderr, dumps to stdout" {
  run -0 --separate-stderr wave-run tiny.wbin --trace --dump-u32 0:1
  assert_output "0"
  [[ "${stderr_lines[0]}" == "wg(0,0,0) wave[0] pc=0x0000: "* ]]
}

@test "fills out of device memory fail with exit 1" {
  run -1 --separate-stderr wave-run tiny.wbin --device-memory 16 --fill-zero 8:f32:4
  [[ "$stderr" == *"memory access out of bounds"* ]]
}
