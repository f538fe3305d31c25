#!/usr/bin/env bats
# wave-as-amdgcn.bats - process behaviour of wave-as --target=amdgcn-amd-amdhsa
# (docs/conventions.md §12; libwave/README.md "The AMDGCN stage"): usage errors,
# finding clang and ld.lld, reporting their failures, temporary files, input
# kinds, output naming, and that the result is one ELF code object per input.
#
# Tests that run the real clang-22 and ld.lld-22 call needs_toolchain.

load common

AMD=(--target=amdgcn-amd-amdhsa)

# Each test works in its own directory w/ (bats keeps its own scratch files
# in $BATS_TEST_TMPDIR, which would spoil the "no file left" checks).
setup() {
  mkdir "$BATS_TEST_TMPDIR/w"
  cd "$BATS_TEST_TMPDIR/w"
  cp "$WAVE_SOURCE_DIR/examples/vector_add.wave" va.wave
  cat > two.wave <<'WAVE'
.kernel first_k
.registers 2
.workgroup_size 64, 1, 1
.param out, buffer, u32, write
    mov r1, sr_thread_id_x
    device_store_u32 r0, r1
    halt
.end
.kernel second_k
.registers 2
.workgroup_size 32, 1, 1
.param out, buffer, u32, write
    mov_imm r1, 7
    device_store_u32 r0, r1
    halt
.end
WAVE
}

needs_toolchain() {
  command -v clang-22 >/dev/null && command -v ld.lld-22 >/dev/null ||
    skip "clang-22 and ld.lld-22 are not installed"
}

# fake_tool NAME BODY: an executable shell script bin/NAME in the test dir.
fake_tool() {
  mkdir -p bin
  printf '#!/bin/sh\n%s\n' "$2" > "bin/$1"
  chmod +x "bin/$1"
}

# only_files NAME...: the test dir holds the two sources and NAMEs only.
only_files() {
  local f extra=()
  for f in $(ls -A); do
    case " va.wave two.wave $* " in
      *" $f "*) ;;
      *) extra+=("$f") ;;
    esac
  done
  [ ${#extra[@]} -eq 0 ] || fail "unexpected files: ${extra[*]}"
}

@test "an unknown --target is a usage error naming both targets" {
  run --separate-stderr wave-as --target=x86_64 va.wave
  [ "$status" -eq 2 ]
  [[ "$stderr" == *"wave-as: unknown target 'x86_64'; supported: wave, amdgcn-amd-amdhsa"* ]]
  [[ "$stderr" == *"Try 'wave-as --help' for more information."* ]]
  only_files
}

@test "--target=wave is the default target" {
  run wave-as --target=wave va.wave -o a.wbin
  assert_success
  wave-as va.wave -o b.wbin
  cmp a.wbin b.wbin
}

@test "the amdgcn target needs --mcpu" {
  run --separate-stderr wave-as "${AMD[@]}" va.wave
  [ "$status" -eq 2 ]
  [[ "$stderr" == *"needs --mcpu=CPU; supported: gfx942,"* ]]
  only_files
}

@test "an unknown processor is a usage error listing the supported ones" {
  run --separate-stderr wave-as "${AMD[@]}" --mcpu=gfx999 va.wave
  [ "$status" -eq 2 ]
  [[ "$stderr" == *"wave-as: unknown processor 'gfx999'; supported: gfx942, gfx950, gfx90a, gfx1100, gfx1200, gfx1250"* ]]
  only_files
}

@test "amdgcn options without the amdgcn target are usage errors" {
  for opt in --mcpu=gfx942 -S --clang=clang --ld-lld=ld.lld; do
    run --separate-stderr wave-as "$opt" va.wave
    [ "$status" -eq 2 ] || fail "$opt: exit $status"
    [[ "$stderr" == *"needs --target=amdgcn-amd-amdhsa"* ]] || fail "$opt: $stderr"
  done
  only_files
}

@test "WAVE-only options with the amdgcn target are usage errors" {
  for opt in -c --dump-hex --show-encoding --no-symbols; do
    run --separate-stderr wave-as "${AMD[@]}" --mcpu=gfx942 "$opt" va.wave
    [ "$status" -eq 2 ] || fail "$opt: exit $status"
    [[ "$stderr" == *"$opt cannot be used with --target=amdgcn-amd-amdhsa"* ]] ||
      fail "$opt: $stderr"
  done
  only_files
}

@test "a missing clang named by WAVE_CLANG is an error with exit 1" {
  WAVE_CLANG=/nonexistent/clang run --separate-stderr wave-as "${AMD[@]}" --mcpu=gfx942 va.wave
  [ "$status" -eq 1 ]
  [ "$stderr" = "wave-as: error: cannot find clang: \$WAVE_CLANG names '/nonexistent/clang', which is not an executable file; install clang-22 or pass --clang=PATH" ]
  only_files
}

@test "no clang on PATH is an error naming everything looked for" {
  mkdir empty
  run --separate-stderr env PATH="$PWD/empty" "$WAVE_BIN/wave-as" "${AMD[@]}" --mcpu=gfx942 va.wave
  [ "$status" -eq 1 ]
  [ "$stderr" = "wave-as: error: cannot find clang: tried --clang, \$WAVE_CLANG, clang-22 and clang on PATH; install clang-22 or pass --clang=PATH" ]
  only_files empty
}

@test "no ld.lld on PATH is an error naming everything looked for" {
  fake_tool clang-22 'exit 0'
  run --separate-stderr env PATH="$PWD/bin" "$WAVE_BIN/wave-as" "${AMD[@]}" --mcpu=gfx942 va.wave
  [ "$status" -eq 1 ]
  [[ "$stderr" == *"cannot find ld.lld: tried --ld-lld, \$WAVE_LD_LLD, ld.lld-22 and ld.lld on PATH"* ]]
  only_files bin
}

@test "a relocatable object is refused" {
  wave-as -c va.wave -o va.o
  run --separate-stderr wave-as "${AMD[@]}" --mcpu=gfx942 -S va.o
  [ "$status" -eq 1 ]
  [ "$stderr" = "wave-as: error: 'va.o': relocatable object; link it with wave-link first" ]
  only_files va.o
}

@test "a corrupt .wbin is reported with its offset" {
  printf 'WAVE\001\000\000\000' > bad.wbin
  run --separate-stderr wave-as "${AMD[@]}" --mcpu=gfx942 -S bad.wbin
  [ "$status" -eq 1 ]
  [[ "$stderr" == "bad.wbin:0x"*": error: "* ]]
  only_files bad.wbin
}

@test "errors in the assembly source are reported as without a target" {
  printf '.kernel k\n    iaddd r0, r1, r2\n    halt\n.end\n' > bad.wave
  run --separate-stderr wave-as "${AMD[@]}" --mcpu=gfx942 bad.wave
  [ "$status" -eq 1 ]
  [[ "$stderr" == *"bad.wave:2:5: error: unknown instruction 'iaddd'"* ]]
  only_files bad.wave
}

@test "-S writes AMDGCN assembly next to the input" {
  run wave-as "${AMD[@]}" --mcpu=gfx942 -S va.wave
  assert_success
  [ -s va.s ]
  grep -q '\.amdhsa_kernel vector_add' va.s
  only_files va.s
}

@test "-S -o - writes the assembly to stdout" {
  run --separate-stderr wave-as "${AMD[@]}" --mcpu=gfx1100 -S -o - va.wave
  assert_success
  [[ "$output" == *".amdhsa_kernel vector_add"* ]]
  only_files
}

@test "a .wbin input translates like its assembly source" {
  wave-as va.wave -o va.wbin
  wave-as "${AMD[@]}" --mcpu=gfx942 -S -o from-wave.s - < va.wave
  wave-as "${AMD[@]}" --mcpu=gfx942 -S -o from-wbin.s - < va.wbin
  cmp from-wave.s from-wbin.s
}

@test "stdin input writes the code object to stdout" {
  needs_toolchain
  wave-as "${AMD[@]}" --mcpu=gfx942 < va.wave > out.hsaco
  [ "$(head -c4 out.hsaco | od -An -c | tr -d ' ')" = '177ELF' ]
}

@test "a .hsaco for gfx942 and for gfx1100 is an ELF file" {
  needs_toolchain
  for cpu in gfx942 gfx1100; do
    run wave-as "${AMD[@]}" --mcpu=$cpu va.wave
    assert_success
    [ "$(head -c4 va.hsaco | od -An -c | tr -d ' ')" = '177ELF' ] || fail "$cpu: not ELF"
    mv va.hsaco va-$cpu.hsaco
  done
}

@test "a .wbin input file gives INPUT.hsaco" {
  needs_toolchain
  wave-as va.wave -o va.wbin
  run wave-as "${AMD[@]}" --mcpu=gfx1200 va.wbin
  assert_success
  [ "$(head -c4 va.hsaco | od -An -c | tr -d ' ')" = '177ELF' ]
}

@test "several kernels make one code object listing each in its notes" {
  needs_toolchain
  run wave-as "${AMD[@]}" --mcpu=gfx942 two.wave -o two.hsaco
  assert_success
  run llvm-readelf-22 --notes two.hsaco
  assert_success
  assert_output --regexp '\.name:[[:space:]]+first_k'
  assert_output --regexp '\.name:[[:space:]]+second_k'
  assert_output --regexp '\.symbol:[[:space:]]+first_k\.kd'
  assert_output --regexp '\.symbol:[[:space:]]+second_k\.kd'
}

@test "a failing clang: its stderr, exit 1, the old output untouched" {
  fake_tool fake-clang 'echo "fake-clang: error: out of cheese" >&2; exit 3'
  fake_tool ld.lld 'exit 0'
  echo precious > va.hsaco
  run --separate-stderr wave-as "${AMD[@]}" --mcpu=gfx942 \
    --clang="$PWD/bin/fake-clang" --ld-lld=bin/ld.lld va.wave
  [ "$status" -eq 1 ]
  [[ "$stderr" == *"wave-as: error: clang failed (exit 3):"* ]]
  [[ "$stderr" == *"fake-clang: error: out of cheese"* ]]
  [ "$(cat va.hsaco)" = precious ]
  run wave-as "${AMD[@]}" --mcpu=gfx942 --clang=bin/fake-clang \
    --ld-lld=bin/ld.lld va.wave -o other.hsaco
  [ "$status" -eq 1 ]
  only_files bin va.hsaco
}

@test "a relative --clang path with a slash is used as is" {
  fake_tool fake-clang 'echo "relative clang ran" >&2; exit 1'
  run --separate-stderr wave-as "${AMD[@]}" --mcpu=gfx942 --clang=./bin/fake-clang \
    --ld-lld=/bin/true va.wave
  [ "$status" -eq 1 ]
  [[ "$stderr" == *"relative clang ran"* ]]
}

@test "TMPDIR stays empty after a success and after a failure" {
  needs_toolchain
  mkdir tmp
  TMPDIR="$PWD/tmp" run wave-as "${AMD[@]}" --mcpu=gfx942 va.wave
  assert_success
  [ -z "$(ls -A tmp)" ] || fail "left in TMPDIR: $(ls -A tmp)"
  fake_tool clang 'echo nope >&2; exit 3'
  TMPDIR="$PWD/tmp" WAVE_CLANG=bin/clang run wave-as "${AMD[@]}" --mcpu=gfx942 va.wave -o x.hsaco
  [ "$status" -eq 1 ]
  [ -z "$(ls -A tmp)" ] || fail "left in TMPDIR: $(ls -A tmp)"
}

@test "SIGTERM and SIGINT stop clang and leave nothing in TMPDIR" {
  mkdir tmp
  # A clang that writes its pid and waits; ld.lld is never reached.
  fake_tool slow-clang 'echo $$ > "$PWD/clang.pid"; exec sleep 30'
  for sig in TERM INT; do
    rm -f clang.pid
    TMPDIR="$PWD/tmp" WAVE_CLANG="$PWD/bin/slow-clang" \
      wave-as "${AMD[@]}" --mcpu=gfx942 va.wave -o x.hsaco &
    as=$!
    for _ in $(seq 100); do [ -s clang.pid ] && break; sleep 0.1; done
    [ -s clang.pid ] || fail "the fake clang never started"
    [ -n "$(ls -A tmp)" ] || fail "no temporary directory while clang runs"
    kill -s "$sig" "$as"
    st=0
    wait "$as" || st=$?
    [ "$st" -eq 130 ] || fail "SIG$sig: exit status $st, expected 130"
    # (Reparented, the killed clang is reaped a moment later.)
    for _ in $(seq 50); do kill -0 "$(cat clang.pid)" 2>/dev/null || break; sleep 0.1; done
    ! kill -0 "$(cat clang.pid)" 2>/dev/null || fail "SIG$sig: clang still runs"
    [ -z "$(ls -A tmp)" ] || fail "SIG$sig: left in TMPDIR: $(ls -A tmp)"
    [ ! -e x.hsaco ] || fail "SIG$sig: an output was written"
  done
}

@test "a code object is refused to a terminal without -f; assembly text is not" {
  command -v script >/dev/null || skip "script(1) not available"
  needs_toolchain
  run script -qec "wave-as ${AMD[*]} --mcpu=gfx942 -o - va.wave" /dev/null
  [ "$status" -eq 2 ]
  assert_output --partial "refusing to write binary output to a terminal"
  run script -qec "wave-as ${AMD[*]} --mcpu=gfx942 -S -o - va.wave" /dev/null
  assert_success
}

@test "-S never replaces an input whose name ends in .s" {
  cp va.wave k.s
  run --separate-stderr wave-as "${AMD[@]}" --mcpu=gfx942 -S k.s
  [ "$status" -eq 2 ]
  [[ "$stderr" == *"'k.s': the output would replace the input; name it with -o"* ]]
  cmp k.s va.wave
}
