#!/usr/bin/env bats
# wave-as process behaviour (docs/conventions.md §12): stdin and '-', output
# naming, the terminal guard, exit codes, diagnostics format, atomic output.

load common

setup() {
  cd "$BATS_TEST_TMPDIR"
  printf '.kernel k\n    halt\n.end\n' > good.wave
  printf '.kernel k\n    iaddd r0, r1, r2\n    iadd r300, r1, r2\n    halt\n.end\n' > bad.wave
}

@test "assembling a file writes INPUT.wbin next to it" {
  run wave-as good.wave
  assert_success
  [ -f good.wbin ]
  [ "$(wc -c < good.wbin)" -eq 74 ]
}

@test "stdin input goes to stdout" {
  run --separate-stderr bash -c 'wave-as < good.wave | wc -c'
  assert_success
  assert_output 74
}

@test "an explicit - reads stdin and -o - writes stdout" {
  wave-as -o ref.wbin good.wave
  run bash -c 'wave-as - -o - < good.wave | cmp - ref.wbin'
  assert_success
}

@test "-o names the output file" {
  run wave-as good.wave -o elsewhere.wbin
  assert_success
  [ -f elsewhere.wbin ]
  [ ! -f good.wbin ]
}

@test "binary output to a terminal is refused without -f" {
  command -v script >/dev/null || skip "script(1) not available"
  run script -qec "wave-as -o - good.wave" /dev/null
  [ "$status" -eq 2 ]
  assert_output --partial "refusing to write binary output to a terminal"
  run script -qec "wave-as -f -o - good.wave" /dev/null
  assert_success
}

@test "errors give file:line:col, the source line and a caret, and exit 1" {
  run --separate-stderr wave-as bad.wave -o out.wbin
  [ "$status" -eq 1 ]
  [[ "$stderr" == *"bad.wave:2:5: error: unknown instruction 'iaddd'"* ]]
  [[ "$stderr" == *"    iaddd r0, r1, r2"* ]]
  [[ "$stderr" == *"    ^~~~~"* ]]
}

@test "all errors of a file are reported in one run" {
  run --separate-stderr wave-as bad.wave -o out.wbin
  [ "$status" -eq 1 ]
  [[ "$stderr" == *"bad.wave:2:5: error:"* ]]
  [[ "$stderr" == *"bad.wave:3:10: error: invalid register index 300: must be 0-254"* ]]
}

@test "no output file is left behind after an error" {
  run wave-as bad.wave -o out.wbin
  [ "$status" -eq 1 ]
  [ ! -e out.wbin ]
  run wave-as bad.wave
  [ ! -e bad.wbin ]
  [ -z "$(ls -A | grep -v -e '^good.wave$' -e '^bad.wave$')" ]
}

@test "an existing output file is untouched by a failed run" {
  echo precious > out.wbin
  run wave-as bad.wave -o out.wbin
  [ "$status" -eq 1 ]
  [ "$(cat out.wbin)" = precious ]
}

@test "a missing input file is an I/O error with exit 2" {
  run --separate-stderr wave-as x.wave
  [ "$status" -eq 2 ]
  [ "$stderr" = "wave-as: error: 'x.wave': No such file or directory" ]
}

@test "an input without kernels is valid and gives the 36-byte file" {
  run bash -c 'printf "; no kernels\n" | wave-as | wc -c'
  assert_success
  assert_output 36
}

@test "empty input is refused with exit 1 and no output file" {
  run --separate-stderr wave-as -o out.wbin </dev/null
  [ "$status" -eq 1 ]
  [ "$stderr" = "wave-as: error: '<stdin>': no kernels in input (the input is empty)" ]
  [ ! -e out.wbin ]
}

@test "random bytes fail cleanly with exit 1" {
  head -c 4096 /dev/urandom > random.wave
  run wave-as random.wave -o random.wbin
  [ "$status" -eq 1 ]
  [ ! -e random.wbin ]
}

@test "--help and --version exit 0" {
  run wave-as --help
  assert_success
  assert_output --partial "--show-encoding"
  run wave-as --version
  assert_success
  assert_output --partial "wave-as"
}

@test "an unknown flag is a usage error with exit 2" {
  run --separate-stderr wave-as --bogus
  [ "$status" -eq 2 ]
  [[ "$stderr" == *"Try 'wave-as --help' for more information."* ]]
}

@test "--warn=error turns warnings into errors" {
  printf '.kernel k\n    @p0 halt\n.end\n' > warn.wave
  run wave-as warn.wave -o warn.wbin
  assert_success
  run wave-as --warn=error warn.wave -o warn.wbin
  [ "$status" -eq 1 ]
  run -2 wave-as --warn=bogus warn.wave
}

@test "--verbose reports the size and path" {
  run --separate-stderr wave-as -v good.wave -o v.wbin
  assert_success
  [ "$stderr" = "Assembled 74 bytes to v.wbin" ]
}

@test "--dump-hex and --show-encoding print instead of writing" {
  run wave-as --dump-hex good.wave
  assert_success
  assert_line --index 0 --partial "00000000: 57 41 56 45"
  [ ! -e good.wbin ]
  run wave-as --show-encoding good.wave
  assert_success
  assert_output --partial "halt"
  assert_output --partial "; encoding: [0x3F000090]"
  [ ! -e good.wbin ]
}
