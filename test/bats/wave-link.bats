#!/usr/bin/env bats
# wave-link: separate compilation of WAVE assembly, symbol resolution
# diagnostics, --gc-sections/--entry, output handling (formats/wbin.md
# "Linking").

load common

setup() {
  cd "$BATS_TEST_TMPDIR"
  # out[tid] = twice(tid) = 2*tid + 1, through twice -> inc (lib.wave).
  cat > main.wave <<'WAVE'
.extern twice
.kernel k
    .registers 5
    .call_base 3
    .param out, buffer, u32, write
    mov r1, sr_thread_id_x
    mov r3, r1
    call twice
    mov r2, r3
    mov_imm r4, 2
    shl r4, r1, r4
    iadd r4, r4, r0
    device_store_u32 r4, r2
    halt
.end
WAVE
  cat > lib.wave <<'WAVE'
.global twice
.func twice
    .registers 2
    .call_base 1
    iadd r0, r0, r0
    mov r1, r0
    call inc
    mov r0, r1
    return
.end
.func inc
    .registers 2
    mov_imm r1, 1
    iadd r0, r0, r1
    return
.end
.func unused
    .registers 1
    return
.end
WAVE
  wave-as -c main.wave -o main.o
  wave-as -c lib.wave -o lib.o
}

# expected N: 2*i + 1 for i < N, one per line.
expected() { seq 0 $(($1 - 1)) | awk '{ print 2 * $1 + 1 }'; }

@test "separately assembled objects link into the single-file executable" {
  run wave-link main.o lib.o -o app.wbin
  assert_success
  assert_output ''
  # The same source in one file, assembled without -c (wave-as links it).
  sed '/^\.extern/d' main.wave > single.wave
  cat lib.wave >> single.wave
  wave-as single.wave -o single.wbin
  cmp app.wbin single.wbin
  run wave-run app.wbin --workgroup 16,1,1 --set-reg r0:256 --dump-u32 256:16
  assert_success
  assert_output "$(expected 16)"
}

@test "the order of function-only inputs does not change the output" {
  mv lib.wave lib-all.wave
  sed -n '1,/^\.end/p' lib-all.wave > twice.wave
  sed -n '/^\.end/,$p' lib-all.wave | sed 1d > rest.wave
  # twice calls inc, which lives in the other file: make it global there.
  sed -i 's/^\.func inc/.global inc\n.func inc/' rest.wave
  sed -i '1i .extern inc' twice.wave
  wave-as -c twice.wave -o twice.o
  wave-as -c rest.wave -o rest.o
  wave-link main.o twice.o rest.o -o a.wbin
  wave-link main.o rest.o twice.o -o b.wbin
  wave-link rest.o main.o twice.o -o c.wbin
  cmp a.wbin b.wbin
  cmp a.wbin c.wbin
}

@test "an undefined symbol is one error, exit 1, and no output" {
  run wave-link main.o -o app.wbin
  assert_failure 1
  assert_output "wave-link: error: undefined symbol 'twice', called from kernel 'k' (main.o)"
  [ ! -e app.wbin ]
}

@test "a duplicate symbol names both files and leaves an existing output alone" {
  cp lib.o lib2.o
  echo keep > app.wbin
  run wave-link main.o lib.o lib2.o -o app.wbin
  assert_failure 1
  assert_output "wave-link: error: duplicate symbol 'twice': defined in lib.o and lib2.o"
  [ "$(cat app.wbin)" = keep ]
}

@test "--gc-sections discards unreachable functions and their undefined references" {
  printf '.extern missing\n.func dead\n    call missing\n    return\n.end\n' > dead.wave
  wave-as -c dead.wave -o dead.o
  run wave-link main.o lib.o dead.o -o app.wbin
  assert_failure 1
  assert_output "wave-link: error: undefined symbol 'missing', called from function 'dead' (dead.o)"
  run wave-link --gc-sections --print-gc-sections main.o lib.o dead.o -o app.wbin
  assert_success
  assert_line "wave-link: removing unused function 'lib.o: unused'"
  assert_line "wave-link: removing unused function 'dead.o: dead'"
  [ "${#lines[@]}" -eq 2 ]
}

@test "--entry keeps the named kernels only" {
  printf '.kernel other\n    halt\n.end\n' > other.wave
  wave-as -c other.wave -o other.o
  wave-link main.o other.o lib.o -o both.wbin
  run wave-objdump --kernels both.wbin
  assert_output --partial other
  wave-link --entry other main.o other.o lib.o -o one.wbin
  run wave-run one.wbin --kernel k
  assert_failure
  run wave-link --entry nope main.o lib.o -o x.wbin
  assert_failure 1
  assert_output "wave-link: error: --entry 'nope' names no kernel of the inputs"
}

@test "recursion is reported with its call chain" {
  printf '.kernel k\n    call f\n    halt\n.end\n.func f\n    call f\n    return\n.end\n' > rec.wave
  wave-as -c rec.wave -o rec.o
  run wave-link rec.o -o r.wbin
  assert_failure 1
  assert_output --partial "recursive call chain k -> f -> f"
  [ ! -e r.wbin ]
}

@test "executables and corrupt objects are rejected with exit 1" {
  wave-as lib.wave -o exe.wbin
  run wave-link main.o exe.wbin -o out.wbin
  assert_failure 1
  assert_output --partial "exe.wbin: not a relocatable object"
  head -c 100 main.o > cut.o
  run wave-link cut.o -o out.wbin
  assert_failure 1
  assert_output --regexp '^cut\.o:0x[0-9a-f]+: error: '
  [ ! -e out.wbin ]
}

@test "stdin and -o - work in a pipeline" {
  run bash -c 'wave-link - lib.o -o - < main.o | wave-run - --workgroup 4,1,1 --set-reg r0:64 --dump-u32 64:4'
  assert_success
  assert_output "$(expected 4)"
}

@test "-r merges objects that link like their inputs" {
  wave-link -r lib.o main.o -o merged.o
  wave-link merged.o -o a.wbin
  run wave-link main.o lib.o -o b.wbin
  cmp a.wbin b.wbin
  run wave-link -r --strip lib.o
  assert_failure 2
}

@test "a linked executable disassembles to assembly that reassembles identically" {
  wave-link --strip main.o lib.o -o app.wbin
  run bash -c 'wave-dis app.wbin | wave-as -o - | cmp - app.wbin'
  assert_success
}
