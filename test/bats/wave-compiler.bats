#!/usr/bin/env bats
# wave-compiler.bats - command-line behaviour of wave-compiler
# (docs/conventions.md §12): the reference toolchain's `wave-compiler SRC -o
# OUT --lang L`, the default output name, stdin and '-', -o -, the terminal
# guard, -v's pipe, usage errors, and failing as a whole: no output file
# (and a previous one untouched) when any stage fails. What it compiles is
# tested by test/lit/compiler/.

load common

setup() {
  cd "$BATS_TEST_TMPDIR"
  cat >k.py <<'PY'
@kernel
def add_one(p: u32[:], n: u32):
    i = thread_id()
    if i < n:
        p[i] = p[i] + 1
PY
  cat >bad.py <<'PY'
@kernel
def k(p: u32[:], n: u32):
    x = undefined_name + 1
    y: i32 = p
PY
}

@test "the reference form 'wave-compiler SRC -o OUT --lang L' writes OUT" {
  cp k.py kernel.src
  run --separate-stderr wave-compiler kernel.src -o out.wbin --lang python
  assert_success
  [ -z "$stderr" ]
  run wave-objdump --kernels out.wbin
  assert_output --partial "add_one"
}

@test "a named input writes INPUT.wbin next to it, as wave-as does" {
  run wave-compiler k.py
  assert_success
  [ -f k.wbin ]
}

@test "the output equals the pipe of single tools" {
  wave-compiler k.py -o one.wbin
  wave-fe k.py | wave-opt -O2 | wave-ra | wave-as -o two.wbin
  cmp one.wbin two.wbin
}

@test "the compiled kernel runs: p[i] + 1 for i < n" {
  wave-compiler k.py -o k.wbin
  run wave-run k.wbin --arg p=iota:6 --arg n=4 --print p
  assert_success
  assert_output "$(printf '1\n2\n3\n4\n4\n5')"
}

@test "stdin with --lang and -o - writes the .wbin to stdout" {
  run bash -c 'wave-compiler --lang python -o - < k.py |
    cmp - <(wave-fe --lang python < k.py | wave-opt | wave-ra | wave-as)'
  assert_success
  run bash -c 'wave-compiler --lang py - < k.py | wc -c'
  assert_success
  [ "$output" -gt 36 ]
}

@test "stdin without --lang is a usage error" {
  run --separate-stderr wave-compiler - < k.py
  [ "$status" -eq 2 ]
  [[ "$stderr" == *"cannot tell the language of '<stdin>'; use --lang"* ]]
}

@test "a missing input file is exit 2 and names the file" {
  run --separate-stderr wave-compiler nope.py -o out.wbin
  [ "$status" -eq 2 ]
  [ "$stderr" = "wave-compiler: error: 'nope.py': No such file or directory" ]
  [ ! -e out.wbin ]
}

@test "an unknown --lang is a usage error" {
  run --separate-stderr wave-compiler --lang cobol k.py
  [ "$status" -eq 2 ]
  [[ "$stderr" == *"--lang: cobol not in"* ]]
  [[ "$stderr" == *"Try 'wave-compiler --help' for more information."* ]]
}

@test "a frontend error is located with a caret, exit 1, and no output file" {
  run --separate-stderr wave-compiler bad.py -o bad.wbin
  [ "$status" -eq 1 ]
  [[ "$stderr" == *"bad.py:3:9: error: "* ]]
  [[ "$stderr" == *"bad.py:4:14: error: "* ]]
  [[ "$stderr" == *"^"* ]]
  [ ! -e bad.wbin ]
}

@test "a later stage failing leaves the previous output file untouched" {
  printf 'previous' > out.wbin
  run --separate-stderr wave-compiler --max-registers 1 k.py -o out.wbin
  [ "$status" -eq 1 ]
  [[ "$stderr" == *"wave-compiler: error: "*"--max-registers is 1"* ]]
  [ "$(cat out.wbin)" = previous ]
}

@test "a failing stage writes nothing to stdout either" {
  run --separate-stderr wave-compiler bad.py -o -
  [ "$status" -eq 1 ]
  [ -z "$output" ]
}

@test "empty input says 'no kernels in input', exit 1, no output file" {
  run --separate-stderr wave-compiler --lang rust -o out.wbin - </dev/null
  [ "$status" -eq 1 ]
  [ "$stderr" = "wave-compiler: error: '<stdin>': no kernels in input (the input is empty)" ]
  [ ! -e out.wbin ]
}

@test "device functions only compile with -c, not to an executable" {
  printf '@export\ndef f(a: f32) -> f32:\n    return a\n' > lib.py
  run --separate-stderr wave-compiler lib.py -o lib.wbin
  [ "$status" -eq 1 ]
  [[ "$stderr" == *"'lib.py': no kernels in input; a file of device functions only needs -c"* ]]
  [ ! -e lib.wbin ]
  run wave-compiler -c lib.py -o lib.o
  assert_success
}

@test "-v prints the equivalent pipe of single tools to stderr" {
  run --separate-stderr wave-compiler -v k.py -o k.wbin
  assert_success
  [ "$stderr" = "wave-fe k.py | wave-opt -O2 | wave-ra | wave-as -o k.wbin" ]
  run --separate-stderr wave-compiler -v -O3 --lang python --kernel add_one \
    --workgroup-size 64 --max-registers 16 -c - -o 'a b.o' < k.py
  assert_success
  [ "$stderr" = "wave-fe --lang=python --kernel=add_one --workgroup-size=64,1,1 | wave-opt -O3 | wave-ra --max-registers=16 | wave-as -c -o 'a b.o'" ]
}

@test "-v's pipe stops where --emit stops" {
  run --separate-stderr wave-compiler -v --emit=mir k.py
  assert_success
  [ "$stderr" = "wave-fe k.py | wave-opt -O2" ]
  assert_line --partial "kernel @add_one("
  run --separate-stderr wave-compiler -v -S k.py -o k.wave
  [ "$stderr" = "wave-fe k.py | wave-opt -O2 | wave-ra -o k.wave" ]
}

@test "-S writes WAVE assembly that wave-as assembles to the same .wbin" {
  wave-compiler -S k.py -o k.wave
  wave-as k.wave -o a.wbin
  wave-compiler k.py -o b.wbin
  cmp a.wbin b.wbin
}

@test "binary output to a terminal is refused unless -f" {
  command -v script >/dev/null || skip "script(1) not available"
  run script -qec "wave-compiler -o - k.py" /dev/null
  [ "$status" -eq 2 ]
  run script -qec "wave-compiler -f -o - k.py" /dev/null
  [ "$status" -eq 0 ]
}

@test "options that exclude each other are usage errors" {
  run -2 wave-compiler -c -S k.py
  run -2 wave-compiler -S --emit=mir k.py
  run -2 wave-compiler --mcpu=gfx942 k.py
  run -2 wave-compiler --target=amdgcn-amd-amdhsa k.py
  run -2 wave-compiler --target=nvptx64-nvidia-cuda --emit=asm k.py
  run -2 wave-compiler --target=x86 k.py
  run -2 wave-compiler -O4 k.py
  run -2 wave-compiler --workgroup-size 0 k.py
  run -2 wave-compiler --bogus k.py
  [ ! -e k.wbin ]
}

@test "--help and --version print to stdout and exit 0" {
  run --separate-stderr wave-compiler --help
  assert_success
  assert_output --partial "Usage: wave-compiler"
  [ -z "$stderr" ]
  run wave-compiler --version
  assert_success
  assert_output --partial "wave-compiler"
}
