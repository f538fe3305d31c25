#!/usr/bin/env bats
# wave-objdump.bats - command-line behaviour of wave-objdump: stdin, -o,
# several inputs, exit codes and error lines.

load common

setup() {
  tiny_wave "$BATS_TEST_TMPDIR/tiny.wave"
  wave-as "$BATS_TEST_TMPDIR/tiny.wave" -o "$BATS_TEST_TMPDIR/tiny.wbin"
}

@test "reads standard input when no file is given" {
  run --separate-stderr wave-objdump --kernels <"$BATS_TEST_TMPDIR/tiny.wbin"
  assert_success
  assert_output --partial "<stdin>: file format wbin version 1"
  assert_output --partial " tiny"
}

@test "reads standard input for '-'" {
  run --separate-stderr wave-objdump -t - <"$BATS_TEST_TMPDIR/tiny.wbin"
  assert_success
  assert_output --partial "kernel tiny"
}

@test "-o writes the listing to a file and nothing to stdout" {
  run wave-objdump -d "$BATS_TEST_TMPDIR/tiny.wbin" -o "$BATS_TEST_TMPDIR/out.txt"
  assert_success
  assert_output ""
  run grep -c "halt" "$BATS_TEST_TMPDIR/out.txt"
  assert_output "1"
}

@test "several inputs are listed in order" {
  cp "$BATS_TEST_TMPDIR/tiny.wbin" "$BATS_TEST_TMPDIR/copy.wbin"
  run wave-objdump -t "$BATS_TEST_TMPDIR/tiny.wbin" "$BATS_TEST_TMPDIR/copy.wbin"
  assert_success
  assert_line --index 0 --partial "tiny.wbin: file format"
  assert_output --partial "copy.wbin: file format"
}

@test "a malformed input exits 1 with one error line and the other inputs still print" {
  head -c 40 "$BATS_TEST_TMPDIR/tiny.wbin" >"$BATS_TEST_TMPDIR/bad.wbin"
  run --separate-stderr wave-objdump -t "$BATS_TEST_TMPDIR/bad.wbin" "$BATS_TEST_TMPDIR/tiny.wbin"
  assert_failure 1
  assert_output --partial "tiny.wbin: file format"
  [ "$(printf '%s\n' "$stderr" | wc -l)" -eq 1 ]
  [[ "$stderr" == *"bad.wbin:0x8: error: "* ]]
}

@test "a missing file is an I/O error: exit 2" {
  run --separate-stderr wave-objdump "$BATS_TEST_TMPDIR/nope.wbin"
  assert_failure 2
  [[ "$stderr" == "wave-objdump: error: '$BATS_TEST_TMPDIR/nope.wbin': "* ]]
}

@test "empty input is rejected without a crash" {
  run --separate-stderr wave-objdump - </dev/null
  assert_failure 1
  [[ "$stderr" == *"<stdin>:0x0: error: file too small"* ]]
}

@test "random bytes are rejected without a crash" {
  head -c 4096 /dev/urandom >"$BATS_TEST_TMPDIR/random.bin"
  printf 'WAVE\001\000' | dd of="$BATS_TEST_TMPDIR/random.bin" conv=notrunc 2>/dev/null
  run wave-objdump -x -d -s "$BATS_TEST_TMPDIR/random.bin"
  [ "$status" -eq 0 ] || [ "$status" -eq 1 ]
}

@test "an unknown flag is a usage error: exit 2" {
  run --separate-stderr wave-objdump --bogus
  assert_failure 2
  [[ "$stderr" == *"Try 'wave-objdump --help' for more information."* ]]
}

@test "--json takes a single input" {
  run --separate-stderr wave-objdump --json "$BATS_TEST_TMPDIR/tiny.wbin" "$BATS_TEST_TMPDIR/tiny.wbin"
  assert_failure 2
}

@test "--help prints usage on stdout and exits 0" {
  run --separate-stderr wave-objdump --help
  assert_success
  assert_output --partial "--disassemble"
  [ -z "$stderr" ]
}

@test "-o FILE is left alone when any input fails; stdout still gets the good ones" {
  cd "$BATS_TEST_TMPDIR"
  printf '.kernel k\n    halt\n.end\n' > k.wave
  wave-as k.wave -o good.wbin
  printf 'WAVE\001' > bad.wbin
  echo previous > out.txt
  run wave-objdump --kernels good.wbin bad.wbin -o out.txt
  assert_failure 1
  [ "$(cat out.txt)" = previous ]
  run wave-objdump --kernels good.wbin bad.wbin
  assert_failure 1
  assert_output --partial "good.wbin"
}

@test "an unknown --mcpu is a usage error: exit 2, naming the processors" {
  run --separate-stderr wave-objdump --mcpu=gfx999 "$BATS_TEST_TMPDIR/tiny.wbin"
  assert_failure 2
  assert_output ""
  [[ "$stderr" == "wave-objdump: unknown processor 'gfx999' for --mcpu; supported: gfx942, gfx950, gfx90a, gfx1100, gfx1200, gfx1250"* ]]
  [[ "$stderr" == *"Try 'wave-objdump --help' for more information." ]]
}

@test "--mcpu without --kernels is a usage error: exit 2" {
  run --separate-stderr wave-objdump -d --mcpu=gfx942 "$BATS_TEST_TMPDIR/tiny.wbin"
  assert_failure 2
  [[ "$stderr" == "wave-objdump: --mcpu needs --kernels"* ]]
  run --separate-stderr wave-objdump -x --mcpu=gfx942 "$BATS_TEST_TMPDIR/tiny.wbin"
  assert_success
  assert_output --partial "gfx942  SIMD  131072 64    4 metadata"
}

@test "--mcpu adds the AMDGCN stage's VGPR count, and a relocatable input exits 1" {
  run --separate-stderr wave-objdump --mcpu=gfx1100 "$BATS_TEST_TMPDIR/tiny.wbin"
  assert_success
  assert_output --partial " amdgcn "
  wave-as -c "$BATS_TEST_TMPDIR/tiny.wave" -o "$BATS_TEST_TMPDIR/tiny.o"
  run --separate-stderr wave-objdump --mcpu=gfx1100 "$BATS_TEST_TMPDIR/tiny.o"
  assert_failure 1
  assert_output ""
  [[ "$stderr" == "wave-objdump: error: '$BATS_TEST_TMPDIR/tiny.o': relocatable object; --mcpu needs an executable"* ]]
}
