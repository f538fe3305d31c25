#!/usr/bin/env bats
# wave-opt.bats - command-line behaviour of wave-opt: stdin and '-', -o and
# atomic output, exit codes for bad input, unknown passes and usage errors,
# --help and --version. What the passes do is tested by test/lit/opt/.

load common

setup() {
  cat >"$BATS_TEST_TMPDIR/k.wir" <<'MIR'
kernel @k(ptr<device> %p, u32 %n) {
^entry:
  %a = add u32 %n, 1
  %b = add u32 %n, 1
  %dead = mul u32 %a, %b
  store u32 %b, ptr<device> %p
  ret
}
MIR
  cat >"$BATS_TEST_TMPDIR/bad.wir" <<'MIR'
kernel @k(u32 %n) {
^entry:
  %a = add i32 %n, 1
  ret
}
MIR
}

@test "reads standard input when no file is given" {
  run --separate-stderr wave-opt -O0 <"$BATS_TEST_TMPDIR/k.wir"
  assert_success
  assert_line --index 0 "kernel @k(ptr<device> %p, u32 %n) {"
  [ -z "$stderr" ]
}

@test "reads standard input for '-' and writes standard output for -o -" {
  run --separate-stderr wave-opt -O0 - -o - <"$BATS_TEST_TMPDIR/k.wir"
  assert_success
  assert_line "  %dead = mul u32 %a, %b"
}

@test "-O0 is the identity on printed MIR" {
  run wave-opt -O0 "$BATS_TEST_TMPDIR/k.wir"
  assert_success
  assert_output "$(cat "$BATS_TEST_TMPDIR/k.wir")"
}

@test "the default level optimises" {
  run --separate-stderr wave-opt "$BATS_TEST_TMPDIR/k.wir"
  assert_success
  refute_output --partial "%dead"
  refute_output --partial "%b ="
}

@test "-o writes the file and nothing to stdout" {
  run wave-opt "$BATS_TEST_TMPDIR/k.wir" -o "$BATS_TEST_TMPDIR/out.wir"
  assert_success
  assert_output ""
  run wave-opt -O0 "$BATS_TEST_TMPDIR/out.wir"
  assert_success
  assert_output "$(cat "$BATS_TEST_TMPDIR/out.wir")"
}

@test "rewriting a file in place is safe" {
  run wave-opt "$BATS_TEST_TMPDIR/k.wir" -o "$BATS_TEST_TMPDIR/k.wir"
  assert_success
  run grep -c "mul" "$BATS_TEST_TMPDIR/k.wir"
  assert_output "0"
}

@test "a failed run leaves the previous output file untouched" {
  echo "previous" >"$BATS_TEST_TMPDIR/out.wir"
  run wave-opt "$BATS_TEST_TMPDIR/bad.wir" -o "$BATS_TEST_TMPDIR/out.wir"
  assert_failure 1
  assert_equal "$(cat "$BATS_TEST_TMPDIR/out.wir")" "previous"
  run ls "$BATS_TEST_TMPDIR"
  refute_output --partial "temp-stream"
}

@test "invalid MIR exits 1 with a located diagnostic and no output" {
  run --separate-stderr wave-opt "$BATS_TEST_TMPDIR/bad.wir"
  assert_failure 1
  assert_output ""
  [[ "$stderr" == "$BATS_TEST_TMPDIR/bad.wir:3:16: error: '%n' has type 'u32', expected 'i32'"* ]]
  [[ "$stderr" == *"^"* ]]
}

@test "an unknown pass exits 1 and names the pass" {
  run --separate-stderr wave-opt --passes=dce,nosuchpass "$BATS_TEST_TMPDIR/k.wir"
  assert_failure 1
  assert_output ""
  assert_equal "$stderr" "wave-opt: error: unknown pass 'nosuchpass'; 'wave-opt --print-passes' lists them"
}

@test "--print-passes lists the registered passes" {
  run wave-opt --print-passes
  assert_success
  assert_line --regexp "^dce - "
  assert_line --regexp "^cse - "
  assert_line --regexp "^simplifycfg - "
}

@test "-O together with --passes is a usage error: exit 2" {
  run --separate-stderr wave-opt -O1 --passes=dce "$BATS_TEST_TMPDIR/k.wir"
  assert_failure 2
  [[ "$stderr" == *"Try 'wave-opt --help' for more information."* ]]
}

@test "an unknown option is a usage error: exit 2" {
  run --separate-stderr wave-opt --bogus
  assert_failure 2
  [[ "$stderr" == "wave-opt: "* ]]
  [[ "$stderr" == *"Try 'wave-opt --help' for more information."* ]]
}

@test "a missing file is an I/O error: exit 2" {
  run --separate-stderr wave-opt "$BATS_TEST_TMPDIR/nope.wir"
  assert_failure 2
  [[ "$stderr" == "wave-opt: error: '$BATS_TEST_TMPDIR/nope.wir': "* ]]
}

@test "--stats and --print-after-all go to stderr, not into the output" {
  run --separate-stderr wave-opt --passes=cse,dce --stats --print-after-all "$BATS_TEST_TMPDIR/k.wir"
  assert_success
  refute_output --partial "IR Dump"
  [[ "$stderr" == *"; *** IR Dump After cse ***"* ]]
  [[ "$stderr" == *"1 dce - instructions removed"* ]]
}

@test "wave-opt output pipes into another wave-opt" {
  run bash -c "wave-opt -O2 '$BATS_TEST_TMPDIR/k.wir' | wave-opt -O0 --verify-roundtrip"
  assert_success
  assert_line "  store u32 %a, ptr<device> %p"
}

@test "--help prints usage on stdout and exits 0" {
  run --separate-stderr wave-opt --help
  assert_success
  assert_output --partial "--passes"
  assert_output --partial "--verify-each"
  [ -z "$stderr" ]
}

@test "--version prints the project version" {
  run wave-opt --version
  assert_success
  assert_output --partial "wave-opt (wavetools)"
}

@test "--passes= with an empty list runs no pass and keeps FILE as the input" {
  # CLI11 alone would take the next argument as the list (issue 24).
  run --separate-stderr wave-opt --passes= "$BATS_TEST_TMPDIR/k.wir"
  assert_success
  assert_output "$(cat "$BATS_TEST_TMPDIR/k.wir")"
  run --separate-stderr wave-opt "$BATS_TEST_TMPDIR/k.wir" --passes= -o -
  assert_success
  assert_line "  %dead = mul u32 %a, %b"
}

@test "an argument after -- that ends in '=' stays a file name" {
  run --separate-stderr wave-opt -O0 -- --x=
  assert_failure 2
  [[ "$stderr" == *"--x="* ]]
}
