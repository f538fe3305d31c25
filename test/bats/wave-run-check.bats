#!/usr/bin/env bats
# wave-run --check[=LIST] and --check-limit=N (wave-run(1) CHECKS): the
# option's syntax (a bad checker name or limit is a usage error, exit 2;
# --check alone never takes the BINARY after it), the exit status (1 when a
# checker found anything, 0 otherwise, with the same stdout as an unchecked
# run), the report limit and its note in the summary, --check with --jobs,
# and --check refused off the emulator.
bats_require_minimum_version 1.5.0

setup() {
  load common
  cd "$BATS_TEST_TMPDIR"
  # copy: outp[i] = inp[i] for i < n; with outp shorter than n it overruns.
  cat >copy.wave <<'WAVE'
.kernel copy
.registers 12
.workgroup_size 32, 1, 1
.param inp, buffer, u32, read
.param outp, buffer, u32, readwrite
.param n, scalar, u32
    mov     r4, sr_workgroup_id_x
    mov     r5, sr_workgroup_size_x
    mov     r6, sr_thread_id_x
    imad    r4, r4, r5, r6
    ucmp_lt p1, r4, r2
    if p1
        mov_imm r7, 2
        shl     r7, r4, r7
        iadd    r8, r0, r7
        device_load_u32 r9, r8
        iadd    r10, r1, r7
        device_store_u32 r10, r9
    endif
    halt
.end
WAVE
  wave-as copy.wave -o copy.wbin
}

@test "a bad --check value is a usage error naming the word" {
  run -2 --separate-stderr wave-run --check=memcheck,bogus copy.wbin \
    --arg inp=iota:4 --arg outp=zeros:4 --arg n=4
  [ -z "$output" ]
  [[ "$stderr" == *"invalid --check value 'bogus'"* ]]
  [[ "$stderr" == *"Try 'wave-run --help'"* ]]
}

@test "an empty item of --check is a usage error" {
  run -2 wave-run --check=memcheck,,initcheck copy.wbin \
    --arg inp=iota:4 --arg outp=zeros:4 --arg n=4
}

@test "a bad --check-limit is a usage error" {
  run -2 --separate-stderr wave-run --check --check-limit=many copy.wbin \
    --arg inp=iota:4 --arg outp=zeros:4 --arg n=4
  [[ "$stderr" == *"--check-limit"* ]]
}

@test "--check alone checks everything and leaves the binary to the positional" {
  run -0 --separate-stderr wave-run --check copy.wbin \
    --arg inp=iota:4 --arg outp=zeros:4 --arg n=4 --print outp
  [ "$output" = "$(seq 0 3)" ]
  [ "$stderr" = "wave-run: check summary: 0 errors (memcheck 0, racecheck 0, initcheck 0, synccheck 0)" ]
}

@test "a finding exits 1 and keeps stdout identical to an unchecked run" {
  run -0 wave-run copy.wbin --arg inp=iota:4 --arg outp=zeros:2 --arg n=4 \
    --print outp
  plain="$output"
  run -1 --separate-stderr wave-run --check=memcheck copy.wbin \
    --arg inp=iota:4 --arg outp=zeros:2 --arg n=4 --print outp
  [ "$output" = "$plain" ]
  [[ "$stderr" == "wave-run: memcheck: kernel 'copy': invalid device write"* ]]
  [[ "$stderr" == *"check summary: 1 error (memcheck 1)" ]]
}

@test "--out is still written when a checker finds something" {
  run -1 wave-run --check=memcheck copy.wbin --arg inp=iota:4 \
    --arg outp=zeros:2 --arg n=4 --out outp=out.bin
  [ "$(stat -c %s out.bin)" = 8 ]
}

@test "--check-limit caps the reports per checker and the summary counts the rest" {
  # Each of 8 workgroups of 32 threads overruns a 2-element buffer: one
  # finding per wave store, 8 in all, 3 shown.
  run -1 --separate-stderr wave-run --check=memcheck --check-limit=3 --grid 8 \
    copy.wbin --arg inp=iota:256 --arg outp=zeros:2 --arg n=256
  [ "$(grep -c 'wave-run: memcheck:' <<<"$stderr")" = 3 ]
  [[ "$stderr" == *"check summary: 8 errors (memcheck 8); 5 not shown (--check-limit=3)" ]]
  run -1 --separate-stderr wave-run --check=memcheck --check-limit=0 --grid 8 \
    copy.wbin --arg inp=iota:256 --arg outp=zeros:2 --arg n=256
  [ "$(grep -c 'wave-run: memcheck:' <<<"$stderr")" = 8 ]
}

@test "--check gives the same reports and output at every --jobs" {
  run -1 --separate-stderr wave-run --check -j1 --grid 8 copy.wbin \
    --arg inp=iota:256 --arg outp=zeros:2 --arg n=256 --print outp
  one="$output|$stderr"
  run -1 --separate-stderr wave-run --check -j4 --grid 8 copy.wbin \
    --arg inp=iota:256 --arg outp=zeros:2 --arg n=256 --print outp
  [ "$output|$stderr" = "$one" ]
}

@test "--check off the emulator is refused with exit 2" {
  # Without an HSA runtime the device error comes first; either way exit 2.
  run -2 --separate-stderr wave-run --check --device=hsa copy.wbin \
    --arg inp=iota:4 --arg outp=zeros:4 --arg n=4
  [[ "$stderr" == *"--check needs the emulator"* ]] ||
    [[ "$stderr" == *"HSA"* || "$stderr" == *"hsa"* ]]
}

@test "--help lists --check and --check-limit" {
  run -0 wave-run --help
  [[ "$output" == *"--check"* ]]
  [[ "$output" == *"--check-limit"* ]]
}
