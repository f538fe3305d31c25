#!/usr/bin/env bats
# wave-run -j/--jobs N (workgroups run at once; 0 = one per hardware thread;
# default $WAVE_RUN_JOBS when set and non-empty, else 0): every value prints
# the same stdout as formats/isa.md §4.2's one-workgroup-after-another order,
# bad values are usage errors (exit 2, nothing on stdout) naming --jobs or
# WAVE_RUN_JOBS, --jobs on the command line wins over the environment, and
# --help lists the option. Expected values come from seq, never from wave-run.
bats_require_minimum_version 1.5.0

setup() {
  load common
  cd "$BATS_TEST_TMPDIR"
  # The tests choose WAVE_RUN_JOBS themselves (lit's emu_jobs sets it).
  unset WAVE_RUN_JOBS
  # 8 workgroups of 32 threads. Thread g (global id) stores g at 4g and the
  # ticket it took from the counter at 2048 at 1024 + 4g. In grid order
  # (workgroups in turn, lanes ascending) thread g gets ticket g, so
  # --dump-u32 0:512 prints 0..255 twice.
  cat >gid.wave <<'WAVE'
.kernel gid
.registers 12
.workgroup_size 32, 1, 1
    mov     r0, sr_workgroup_id_x
    mov     r1, sr_workgroup_size_x
    mov     r2, sr_thread_id_x
    imad    r3, r0, r1, r2              ; g
    mov_imm r4, 4
    imul    r5, r3, r4                  ; 4g
    device_store_u32 r5, r3
    mov_imm r6, 2048
    mov_imm r7, 1
    atomic_add r8, r6, r7, .device      ; ticket
    mov_imm r9, 1024
    iadd    r10, r5, r9
    device_store_u32 r10, r8
    halt
.end
WAVE
  wave-as gid.wave -o gid.wbin
  { seq 0 255; seq 0 255; } >expected.txt
}

# run_gid ARGS...: runs the kernel on 8 workgroups with ARGS, dumping the ids
# and tickets and the statistics.
run_gid() {
  wave-run gid.wbin --grid 8,1,1 "$@" --dump-u32 0:512 --stats
}

@test "--jobs 1, --jobs 2, -j 2, --jobs 0 all print the same stdout" {
  run -0 --separate-stderr run_gid --jobs 1
  [ "$stderr" = "" ]
  local want="$output"
  # The dumped values are those of the grid order, computed by seq.
  [ "$(printf '%s\n' "$want" | head -n 512)" = "$(cat expected.txt)" ]
  [[ "$want" == *"Workgroups executed: 8"* ]]
  for args in "--jobs 2" "-j 2" "--jobs 0" "--jobs=2" "-j 0" "--jobs 1024"; do
    # shellcheck disable=SC2086 # word splitting of $args is intended
    run -0 --separate-stderr run_gid $args
    [ "$stderr" = "" ]
    [ "$output" = "$want" ] || { echo "differs with $args"; false; }
  done
}

@test "bad --jobs values are usage errors naming --jobs (exit 2, no stdout)" {
  for value in abc -1 1025; do
    run -2 --separate-stderr wave-run gid.wbin --grid 8,1,1 --jobs "$value" --dump-u32 0:4
    assert_output ""
    # One message line naming the option and its value, then STYLE.md's
    # usage hint, nothing else.
    [ "${#stderr_lines[@]}" -eq 2 ] || { echo "--jobs $value: $stderr"; false; }
    [[ "${stderr_lines[0]}" == "wave-run: "*"--jobs"*"$value"* ]] || { echo "--jobs $value: $stderr"; false; }
    [ "${stderr_lines[1]}" = "Try 'wave-run --help' for more information." ]
  done
  run -2 --separate-stderr wave-run gid.wbin -j 1025 --dump-u32 0:4
  assert_output ""
  [[ "${stderr_lines[0]}" == "wave-run: "*"--jobs"* ]]
}

@test "WAVE_RUN_JOBS=2 gives the same stdout as --jobs 1" {
  run -0 run_gid --jobs 1
  local want="$output"
  WAVE_RUN_JOBS=2 run -0 --separate-stderr run_gid
  [ "$stderr" = "" ]
  [ "$output" = "$want" ]
  # Empty means unset (default 0).
  WAVE_RUN_JOBS= run -0 --separate-stderr run_gid
  [ "$stderr" = "" ]
  [ "$output" = "$want" ]
}

@test "a bad WAVE_RUN_JOBS is a usage error naming WAVE_RUN_JOBS (exit 2, no stdout)" {
  for value in abc 1025; do
    WAVE_RUN_JOBS="$value" run -2 --separate-stderr wave-run gid.wbin --grid 8,1,1 --dump-u32 0:4
    assert_output ""
    [ "${#stderr_lines[@]}" -eq 2 ] || { echo "WAVE_RUN_JOBS=$value: $stderr"; false; }
    [[ "${stderr_lines[0]}" == "wave-run: "*"WAVE_RUN_JOBS"*"$value"* ]] || { echo "WAVE_RUN_JOBS=$value: $stderr"; false; }
    [ "${stderr_lines[1]}" = "Try 'wave-run --help' for more information." ]
  done
}

@test "--jobs on the command line wins over a bad WAVE_RUN_JOBS" {
  run -0 run_gid --jobs 1
  local want="$output"
  WAVE_RUN_JOBS=abc run -0 --separate-stderr run_gid --jobs 2
  [ "$stderr" = "" ]
  [ "$output" = "$want" ]
  WAVE_RUN_JOBS=abc run -0 --separate-stderr run_gid -j 1
  [ "$stderr" = "" ]
  [ "$output" = "$want" ]
  # ...and a bad --jobs is reported as such even when WAVE_RUN_JOBS is good.
  WAVE_RUN_JOBS=2 run -2 --separate-stderr run_gid --jobs abc
  assert_output ""
  [[ "${stderr_lines[0]}" == "wave-run: "*"--jobs"*"abc"* ]]
}

@test "--help lists -j/--jobs" {
  run -0 wave-run --help
  assert_line --regexp '^ +-j, ?--jobs N +.*'
}

# skip_if_sanitized: ulimit -v means nothing to an ASan binary, which
# reserves terabytes of address space for its shadow memory.
skip_if_sanitized() {
  # (Not a grep of the binary for "AddressSanitizer": LLVM's instrumentation
  # passes, linked into every build for the NVPTX stage, name it too.)
  if ASAN_OPTIONS=help=1 wave-run --version 2>&1 | grep -q "flags for AddressSanitizer"; then
    skip "sanitized build: ulimit -v does not apply"
  fi
}

@test "a huge local memory runs in bounded memory at any --jobs, or fails cleanly" {
  skip_if_sanitized
  cd "$BATS_TEST_TMPDIR"
  printf '.kernel k\n.local_memory 1073741824\n    halt\n.end\n' > big.wave
  wave-as big.wave -o big.wbin
  # Enough for one workgroup's 1 GiB, not for one per thread and runner:
  # the run uses fewer threads.
  for j in 1 2 4; do
    run bash -c "ulimit -v 4194304 && wave-run big.wbin --grid 3 --jobs $j"
    assert_success
  done
  # Not enough for even one workgroup: the same clean error at every --jobs
  # (it was std::bad_alloc and SIGABRT, exit 134, with --jobs 2).
  for j in 1 2; do
    run bash -c "ulimit -v 1000000 && wave-run big.wbin --grid 3 --jobs $j"
    assert_failure 2
    assert_output "wave-run: error: out of memory"
  done
}
