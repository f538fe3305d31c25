#!/usr/bin/env bats
# wave-fe.bats - command-line behaviour of wave-fe: language from the file
# extension or --lang, stdin and '-', -o and atomic output, --emit, --kernel,
# --workgroup-size, the pipeline into wave-run, exit codes and diagnostics
# (several errors in one run, file:line:col with a caret, notes). What the
# frontends produce is tested by test/lit/fe/.

load common

setup() {
  cat >"$BATS_TEST_TMPDIR/k.py" <<'PY'
@kernel
def add_one(p: u32[:], n: u32):
    i = thread_id()
    if i < n:
        p[i] = p[i] + 1

def twice(x: f32) -> f32:
    return x * 2.0

@kernel
def scale(p: f32[:]):
    i = thread_id()
    p[i] = twice(p[i])

def unused(x: u32) -> u32:
    return x
PY
  cat >"$BATS_TEST_TMPDIR/bad.py" <<'PY'
@kernel
def k(p: u32[:], n: u32):
    x = undefined_name + 1
    p[0] = n * 1.5
    y: i32 = p
PY
}

@test "the language comes from the extension; MIR goes to stdout" {
  run --separate-stderr wave-fe "$BATS_TEST_TMPDIR/k.py"
  assert_success
  # p is read and written: elem(u32) and no access word.
  assert_line --regexp '^kernel @add_one\(ptr<device> elem\(u32\) %p, u32 %n\) workgroup_size\(256, 1, 1\) \{$'
  assert_line "source_filename = \"$BATS_TEST_TMPDIR/k.py\""
  [ -z "$stderr" ]
}

@test "stdin needs --lang; with it '-' and -o - work" {
  run --separate-stderr wave-fe <"$BATS_TEST_TMPDIR/k.py"
  assert_failure 2
  [[ "$stderr" == *"cannot tell the language of '<stdin>'; use --lang"* ]]
  run --separate-stderr wave-fe --lang python - -o - <"$BATS_TEST_TMPDIR/k.py"
  assert_success
  assert_line --partial "kernel @scale("
}

@test "the pipeline runs: wave-fe | wave-opt | wave-ra | wave-as | wave-run" {
  wave-fe "$BATS_TEST_TMPDIR/k.py" --kernel add_one | wave-opt -O2 | wave-ra |
    wave-as - -o "$BATS_TEST_TMPDIR/k.wbin"
  printf '\x0a\x00\x00\x00\x14\x00\x00\x00\x1e\x00\x00\x00\x28\x00\x00\x00' >"$BATS_TEST_TMPDIR/in.bin"
  run wave-run "$BATS_TEST_TMPDIR/k.wbin" --arg "0:$BATS_TEST_TMPDIR/in.bin" \
    --set-reg 0:0 --set-reg 1:3 --dump-u32 0:4
  assert_success
  assert_output "$(printf '11\n21\n31\n40')"
}

@test "--kernel keeps that kernel and the device functions it calls" {
  run --separate-stderr wave-fe --kernel scale "$BATS_TEST_TMPDIR/k.py"
  assert_success
  assert_line --partial "func @twice("
  assert_line --partial "kernel @scale("
  refute_line --partial "@add_one"
  refute_line --partial "@unused"
}

@test "--kernel with an unknown name is an error" {
  run --separate-stderr wave-fe --kernel nope "$BATS_TEST_TMPDIR/k.py"
  assert_failure 1
  [[ "$stderr" == *"no kernel named 'nope'"* ]]
}

@test "--workgroup-size sets the default; a bad value is a usage error" {
  run --separate-stderr wave-fe --workgroup-size 64,2 "$BATS_TEST_TMPDIR/k.py"
  assert_success
  assert_line --partial "workgroup_size(64, 2, 1)"
  run --separate-stderr wave-fe --workgroup-size 0 "$BATS_TEST_TMPDIR/k.py"
  assert_failure 2
  [[ "$stderr" == *"--workgroup-size"* ]]
}

@test "--emit=hir shows inferred types and implicit conversions" {
  run --separate-stderr wave-fe --emit=hir "$BATS_TEST_TMPDIR/k.py"
  assert_success
  assert_line --partial "var i: u32 = thread_id();"
  assert_line --partial "kernel add_one(p: u32[], n: u32)"
}

@test "every error of a file is reported, with line, column and caret; exit 1; no output" {
  echo "previous" >"$BATS_TEST_TMPDIR/out.wir"
  run --separate-stderr wave-fe "$BATS_TEST_TMPDIR/bad.py" -o "$BATS_TEST_TMPDIR/out.wir"
  assert_failure 1
  [ -z "$output" ]
  [[ "$stderr" == *"bad.py:3:9: error: use of undeclared name 'undefined_name'"* ]]
  [[ "$stderr" == *"bad.py:5:14: error:"* ]]
  [[ "$stderr" == *"        ^"* ]]
  [ "$(grep -c ': error:' <<<"$stderr")" -ge 2 ]
  assert_equal "$(cat "$BATS_TEST_TMPDIR/out.wir")" "previous"
}

@test "a missing input file is an I/O error, exit 2" {
  run --separate-stderr wave-fe "$BATS_TEST_TMPDIR/missing.py"
  assert_failure 2
  [[ "$stderr" == "wave-fe: error: '$BATS_TEST_TMPDIR/missing.py': "* ]]
}

@test "an unknown extension asks for --lang" {
  cp "$BATS_TEST_TMPDIR/k.py" "$BATS_TEST_TMPDIR/k.txt"
  run --separate-stderr wave-fe "$BATS_TEST_TMPDIR/k.txt"
  assert_failure 2
  [[ "$stderr" == *"use --lang"* ]]
  run --separate-stderr wave-fe -x py "$BATS_TEST_TMPDIR/k.txt"
  assert_success
}

@test "the four vector_add examples compile, and to the same MIR" {
  # Only the source positions differ: strip source_filename and !loc.
  for ext in py cpp rs ts; do
    wave-fe "$WAVE_SOURCE_DIR/examples/vector_add.$ext" | wave-opt -O2 |
      sed -e '/^source_filename/d' -e 's/ !loc([0-9]*, [0-9]*)//' >"$BATS_TEST_TMPDIR/va.$ext.wir"
  done
  cmp "$BATS_TEST_TMPDIR/va.py.wir" "$BATS_TEST_TMPDIR/va.cpp.wir"
  cmp "$BATS_TEST_TMPDIR/va.py.wir" "$BATS_TEST_TMPDIR/va.rs.wir"
  cmp "$BATS_TEST_TMPDIR/va.py.wir" "$BATS_TEST_TMPDIR/va.ts.wir"
}

@test "--help lists every option; --version prints one line" {
  run wave-fe --help
  assert_success
  for opt in --lang --emit --kernel --workgroup-size --output; do
    assert_output --partial -- "$opt"
  done
  run wave-fe --version
  assert_success
  assert_output --regexp '^wave-fe '
}

@test "examples/Makefile builds and checks every source example with make -j2" {
  run make -C "$WAVE_SOURCE_DIR/examples" -j2 check WAVE_BIN="$WAVE_BIN" OUT="$BATS_TEST_TMPDIR/ex"
  assert_success
  for src in vector_add.py vector_add.cpp vector_add.rs vector_add.ts gemm.py gemm.cpp; do
    assert_line "PASS $src"
  done
  # Nothing is rebuilt the second time.
  run make -C "$WAVE_SOURCE_DIR/examples" -q check WAVE_BIN="$WAVE_BIN" OUT="$BATS_TEST_TMPDIR/ex"
  assert_success
}

@test "examples/Makefile leaves no target behind when a stage fails" {
  mkdir -p "$BATS_TEST_TMPDIR/src"
  cp "$WAVE_SOURCE_DIR/examples/Makefile" "$BATS_TEST_TMPDIR/src/"
  printf '@kernel\ndef broken(p: u32[:]):\n    p[0] = nope\n' >"$BATS_TEST_TMPDIR/src/broken.py"
  run make -C "$BATS_TEST_TMPDIR/src" WAVE_BIN="$WAVE_BIN" OUT="$BATS_TEST_TMPDIR/out"
  assert_failure
  [[ "$output" == *"use of undeclared name 'nope'"* ]]
  [ ! -e "$BATS_TEST_TMPDIR/out/broken.py.wbin" ]
}

@test "--debug-prefix-map makes builds in different directories byte-identical" {
  cd "$BATS_TEST_TMPDIR"
  mkdir -p a/src b/src
  cp "$WAVE_SOURCE_DIR/examples/vector_add.py" a/src/
  cp "$WAVE_SOURCE_DIR/examples/vector_add.py" b/src/
  for d in a b; do
    wave-fe "$PWD/$d/src/vector_add.py" --debug-prefix-map "$PWD/$d=/build" |
      wave-opt -O2 | wave-ra | wave-as -o "$d.wbin"
    wave-fe "$PWD/$d/src/vector_add.py" | wave-opt -O2 | wave-ra | wave-as -o "$d-plain.wbin"
  done
  cmp a.wbin b.wbin
  ! cmp -s a-plain.wbin b-plain.wbin
  run wave-fe "$PWD/a/src/vector_add.py" --debug-prefix-map /nowhere=/x --debug-prefix-map "$PWD/a=/first" \
    --debug-prefix-map "$PWD/a/src=/last"
  assert_success
  assert_line 'source_filename = "/last/vector_add.py"'
  run wave-fe a/src/vector_add.py --debug-prefix-map nothing
  assert_failure 2
  assert_output --partial "expected OLD=NEW"
}
