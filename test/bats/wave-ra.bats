#!/usr/bin/env bats
# wave-ra.bats - command-line behaviour of wave-ra: stdin and '-', -o and
# atomic output, the pipeline into wave-as and wave-run, exit codes and
# messages for bad input (unsupported operations, irreducible control flow,
# too few registers) and usage errors. What the stages produce is tested by
# test/lit/ra/.

load common

setup() {
  cat >"$BATS_TEST_TMPDIR/k.wir" <<'MIR'
kernel @k(ptr<device> %p, u32 %n) workgroup_size(32, 1, 1) {
^entry:
  %tid = sreg thread_id_x
  %v = add u32 %tid, %n
  %off = shl u32 %tid, 2
  %q = ptradd ptr<device> %p, %off
  store u32 %v, ptr<device> %q
  ret
}
MIR
  cat >"$BATS_TEST_TMPDIR/alloca.wir" <<'MIR'
kernel @k(ptr<device> %p) {
^entry:
  %s = alloca u32
  store u32 7, ptr<private> %s
  %v = load u32, ptr<private> %s
  store u32 %v, ptr<device> %p
  ret
}
MIR
  # Two blocks that branch to each other, both entered from the entry.
  cat >"$BATS_TEST_TMPDIR/irreducible.wir" <<'MIR'
kernel @k(u32 %n) {
^entry:
  %c = icmp lt u32 %n, 5
  condbr %c, ^a, ^b

^a:
  %ca = icmp lt u32 %n, 3
  condbr %ca, ^b, ^done

^b:
  %cb = icmp lt u32 %n, 4
  condbr %cb, ^a, ^done

^done:
  ret
}
MIR
  cat >"$BATS_TEST_TMPDIR/params.wir" <<'MIR'
kernel @k(u32 %a, u32 %b, u32 %c, u32 %d, u32 %e) {
^entry:
  ret
}
MIR
}

@test "reads standard input and writes assembly that wave-as accepts" {
  run --separate-stderr wave-ra <"$BATS_TEST_TMPDIR/k.wir"
  assert_success
  assert_line ".kernel k"
  assert_line --regexp '^\.registers [0-9]+$'
  assert_line ".workgroup_size 32, 1, 1"
  [ -z "$stderr" ]
  echo "$output" | wave-as - -o "$BATS_TEST_TMPDIR/k.wbin"
}

@test "'-' and -o - are standard input and output" {
  run --separate-stderr wave-ra - -o - <"$BATS_TEST_TMPDIR/k.wir"
  assert_success
  assert_line ".end"
}

@test "the whole pipeline runs: wave-opt | wave-ra | wave-as | wave-run" {
  wave-opt -O2 "$BATS_TEST_TMPDIR/k.wir" | wave-ra | wave-as - -o "$BATS_TEST_TMPDIR/k.wbin"
  run wave-run "$BATS_TEST_TMPDIR/k.wbin" --set-reg 0:0 --set-reg 1:100 --dump-u32 0:4
  assert_success
  assert_output "$(printf '100\n101\n102\n103')"
}

@test "-o writes the file atomically and nothing to stdout" {
  run wave-ra "$BATS_TEST_TMPDIR/k.wir" -o "$BATS_TEST_TMPDIR/k.wave"
  assert_success
  assert_output ""
  run grep -c "^.kernel k$" "$BATS_TEST_TMPDIR/k.wave"
  assert_output "1"
}

@test "--emit=lir prints virtual registers and is not allocated" {
  run --separate-stderr wave-ra --emit=lir "$BATS_TEST_TMPDIR/k.wir"
  assert_success
  assert_output --partial "%r"
  refute_line --regexp '^\.registers'
}

@test "--stats reports registers, spills and coalesced copies on stderr" {
  run --separate-stderr wave-ra --stats "$BATS_TEST_TMPDIR/k.wir"
  assert_success
  [[ "$stderr" == *"registers used (.registers)"* ]]
  [[ "$stderr" == *"values spilled to local memory"* ]]
  [[ "$stderr" == *"copies coalesced"* ]]
}

@test "--print-interference prints the graph on stderr" {
  run --separate-stderr wave-ra --print-interference "$BATS_TEST_TMPDIR/k.wir"
  assert_success
  [[ "$stderr" == *"interference graph of kernel 'k'"* ]]
}

@test "an alloca without workgroup_size is a located error, exit 1, and no output file" {
  echo "previous" >"$BATS_TEST_TMPDIR/out.wave"
  run --separate-stderr wave-ra "$BATS_TEST_TMPDIR/alloca.wir" -o "$BATS_TEST_TMPDIR/out.wave"
  assert_failure 1
  [[ "$stderr" == *"alloca.wir:3:3: error:"* ]]
  [[ "$stderr" == *"private variables need a workgroup_size attribute"* ]]
  assert_equal "$(cat "$BATS_TEST_TMPDIR/out.wave")" "previous"
}

@test "an alloca in a kernel with workgroup_size lives in local memory" {
  sed 's/^kernel @k(ptr<device> %p) {/kernel @k(ptr<device> %p) workgroup_size(64, 1, 1) {/' \
    "$BATS_TEST_TMPDIR/alloca.wir" >"$BATS_TEST_TMPDIR/alloca-wg.wir"
  run --separate-stderr wave-ra "$BATS_TEST_TMPDIR/alloca-wg.wir"
  assert_success
  assert_line ".local_memory 256"
  assert_output --partial "local_store_u32"
  assert_output --partial "local_load_u32"
}

@test "irreducible control flow is an error naming the kernel and blocks" {
  run --separate-stderr wave-ra "$BATS_TEST_TMPDIR/irreducible.wir"
  assert_failure 1
  [[ "$stderr" == *"@k"* ]]
  [[ "$stderr" == *"^a"* ]]
  [[ "$stderr" == *"^b"* ]]
  [ -z "$output" ]
}

@test "more parameters than --max-registers is an error" {
  run --separate-stderr wave-ra --max-registers 4 "$BATS_TEST_TMPDIR/params.wir"
  assert_failure 1
  [[ "$stderr" == *"5 parameters"* ]]
}

@test "--max-registers outside 1..256 is a usage error" {
  run wave-ra --max-registers 0 "$BATS_TEST_TMPDIR/k.wir"
  assert_failure 2
  run wave-ra --max-registers 257 "$BATS_TEST_TMPDIR/k.wir"
  assert_failure 2
}

@test "--emit accepts only asm and lir" {
  run wave-ra --emit=obj "$BATS_TEST_TMPDIR/k.wir"
  assert_failure 2
}

@test "invalid MIR exits 1 with a located diagnostic" {
  printf 'kernel @k() {\n^entry:\n  %%a = add u32 %%b, 1\n  ret\n}\n' >"$BATS_TEST_TMPDIR/bad.wir"
  run --separate-stderr wave-ra "$BATS_TEST_TMPDIR/bad.wir"
  assert_failure 1
  [[ "$stderr" == *"bad.wir:3:"* ]]
}

@test "a missing input file is an I/O error, exit 2" {
  run --separate-stderr wave-ra "$BATS_TEST_TMPDIR/nope.wir"
  assert_failure 2
  [[ "$stderr" == *"nope.wir"* ]]
}
