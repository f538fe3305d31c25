#!/usr/bin/env bats
# wave-dis process behaviour (docs/conventions.md §12): stdin and '-', -o, exit
# codes, error format on malformed binaries, atomic output, pipelines with
# wave-as.

load common

setup() {
  cd "$BATS_TEST_TMPDIR"
  printf '.kernel k\n.registers 8\n    mov r0, sr_lane_id\n    halt\n.end\n' > good.wave
  wave-as good.wave -o good.wbin
}

@test "disassembles a file to stdout" {
  run wave-dis good.wbin
  assert_success
  assert_line --index 0 ".kernel k"
  assert_line --index 1 ".registers 8"
  assert_line --index 2 "    mov r0, sr_lane_id"
}

@test "reads stdin by default and with -" {
  run bash -c 'wave-dis < good.wbin'
  assert_success
  assert_line --index 0 ".kernel k"
  run bash -c 'wave-dis - < good.wbin'
  assert_success
  assert_line --index 0 ".kernel k"
}

@test "wave-as -o - | wave-dis | wave-as round-trips" {
  run bash -c 'wave-as -o - good.wave | wave-dis | wave-as -o - | cmp - good.wbin'
  assert_success
}

@test "-o writes a file" {
  run wave-dis good.wbin -o out.wave
  assert_success
  grep -q '^.kernel k$' out.wave
}

@test "a malformed binary gives FILE:0xOFFSET: error and exit 1" {
  printf 'WAVE\002\000' > trunc.wbin
  run --separate-stderr wave-dis trunc.wbin -o out.wave
  [ "$status" -eq 1 ]
  [[ "$stderr" == "trunc.wbin:0x"*": error: "* ]]
  [ ! -e out.wave ]
}

@test "a decode error reports the file offset of the instruction" {
  cp good.wbin badop.wbin
  printf '\x42' | dd of=badop.wbin bs=1 seek=$((0x27)) conv=notrunc 2>/dev/null
  run --separate-stderr wave-dis badop.wbin
  [ "$status" -eq 1 ]
  [ "$stderr" = "badop.wbin:0x24: error: invalid opcode 0x42" ]
}

@test "an existing output file is untouched by a failed run" {
  echo precious > out.wave
  head -c 100 /dev/urandom > random.bin
  run wave-dis random.bin -o out.wave
  [ "$status" -eq 1 ]
  [ "$(cat out.wave)" = precious ]
}

@test "random bytes never crash" {
  for i in 1 2 3 4 5; do
    head -c $((i * 64)) /dev/urandom > r.bin
    run wave-dis r.bin
    [ "$status" -eq 1 ]
    run wave-dis --hex r.bin
    [ "$status" -eq 1 ] || [ "$status" -eq 0 ]
  done
}

@test "a missing input file is an I/O error with exit 2" {
  run --separate-stderr wave-dis nope.wbin
  [ "$status" -eq 2 ]
  [ "$stderr" = "wave-dis: error: 'nope.wbin': No such file or directory" ]
}

@test "--hex decodes instruction words" {
  run bash -c 'echo "3F000090 41010010 00000004" | wave-dis --hex'
  assert_success
  assert_line --index 0 "    halt"
  assert_line --index 1 "    mov_imm r1, 4"
}

@test "--help and --version exit 0" {
  run wave-dis --help
  assert_success
  assert_output --partial "--no-directives"
  run wave-dis --version
  assert_success
}

@test "an unknown flag is a usage error with exit 2" {
  run --separate-stderr wave-dis --bogus
  [ "$status" -eq 2 ]
  [[ "$stderr" == *"Try 'wave-dis --help' for more information."* ]]
}
