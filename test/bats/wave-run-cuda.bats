#!/usr/bin/env bats
# wave-run --device=cuda as a process: the exit status and the one-line
# message of each way the CUDA path can end without a GPU -- no driver
# library (WAVE_CUDA_DRIVER names a missing file, or a library that is no
# driver), no device, a device index out of range -- and, with the stub
# driver of test/gpu/stub-cuda/, a PTX JIT failure, a kernel fault and a
# timeout; the usage errors of the CUDA options; --list-devices with one or
# neither runtime. What the stub driver is called with is checked by
# test/lit/run/cuda-*.test.
bats_require_minimum_version 1.5.0

setup() {
  load common
  cd "$BATS_TEST_TMPDIR"
  STUB="$(cd "$WAVE_BIN/.." && pwd)/lib/libwave-cuda-stub.so"
  # The PTX cache of the runs below, not the user's.
  export XDG_CACHE_HOME="$BATS_TEST_TMPDIR/cache"
  tiny_wave tiny.wave
  wave-as tiny.wave -o tiny.wbin
}

# Tests that run the stub driver.
need_stub() {
  [ -f "$STUB" ] || skip "no stub CUDA driver at $STUB"
}

@test "--device=cuda without the CUDA driver runs nothing and writes nothing (exit 2)" {
  run -2 --separate-stderr env WAVE_CUDA_DRIVER=/nonexistent/libcuda.so.1 \
    wave-run tiny.wbin --device=cuda --dump-u32 0:4 --out x=out.bin
  assert_output ""
  [ "${#stderr_lines[@]}" -eq 1 ]
  [ "$stderr" = "wave-run: error: CUDA driver not found: dlopen /nonexistent/libcuda.so.1: /nonexistent/libcuda.so.1: cannot open shared object file: No such file or directory" ]
  [ ! -e out.bin ]
}

@test "a library without the driver's entry points is refused (exit 1)" {
  run -1 --separate-stderr env WAVE_CUDA_DRIVER=libm.so.6 \
    wave-run tiny.wbin --device=cuda
  assert_output ""
  [ "$stderr" = "wave-run: error: CUDA driver 'libm.so.6' has no entry point 'cuInit'" ]
}

@test "a driver that finds no device says so in one line (exit 2)" {
  need_stub
  run -2 --separate-stderr env WAVE_CUDA_DRIVER="$STUB" WAVE_CUDA_STUB_FAIL=nodevice \
    wave-run tiny.wbin --device=cuda
  assert_output ""
  [ "$stderr" = "wave-run: error: no CUDA device: cuInit failed: CUDA_ERROR_NO_DEVICE (no CUDA-capable device is detected)" ]
}

@test "--agent picks the CUDA device, and one out of range is no device (exit 2)" {
  need_stub
  run -2 --separate-stderr env WAVE_CUDA_DRIVER="$STUB" \
    wave-run tiny.wbin --device=cuda --agent 1
  [ "$stderr" = "wave-run: error: no CUDA device 1: there is 1 (see --list-devices)" ]
}

@test "--list-devices lists the stub's device and says there is no HSA runtime (exit 0)" {
  need_stub
  no_kfd
  run -0 --separate-stderr env WAVE_CUDA_DRIVER="$STUB" wave-run --list-devices
  [ "$stderr" = "" ]
  [ "${lines[0]}" = "no HSA runtime device: /dev/kfd (the ROCm kernel driver) is missing; use --device=emu" ]
  [[ "${lines[1]}" == "CUDA driver 12.4 ("*"libwave-cuda-stub.so)" ]]
  [ "${lines[2]}" = "cuda device 0: Stub GPU" ]
}

@test "--list-devices with neither runtime gives both reasons (exit 2)" {
  no_kfd
  run -2 --separate-stderr env WAVE_CUDA_DRIVER=/nonexistent wave-run --list-devices
  assert_output ""
  [ "${#stderr_lines[@]}" -eq 2 ]
  [ "${stderr_lines[0]}" = "wave-run: error: no HSA runtime device: /dev/kfd (the ROCm kernel driver) is missing; use --device=emu" ]
  [[ "${stderr_lines[1]}" == "wave-run: error: CUDA driver not found: dlopen /nonexistent: "* ]]
}

@test "a PTX JIT failure shows the driver's log (exit 1)" {
  need_stub
  run -1 --separate-stderr env WAVE_CUDA_DRIVER="$STUB" WAVE_CUDA_STUB_FAIL=jit \
    wave-run tiny.wbin --device=cuda --dump-u32 0:4
  assert_output ""
  [ "${stderr_lines[0]}" = "wave-run: error: PTX JIT compilation for sm_90 failed: cuModuleLoadDataEx: CUDA_ERROR_INVALID_PTX (a PTX JIT compilation failed)" ]
  [ "${stderr_lines[1]}" = "ptxas application ptx input, line 1; error   : stub JIT failure" ]
}

@test "a kernel fault names the kernel and writes nothing (exit 1)" {
  need_stub
  cat >named.wave <<'WAVE'
.kernel named
.registers 4
.param x, buffer, u32, readwrite
    device_store_u32 r0, r0
    halt
.end
WAVE
  wave-as named.wave -o named.wbin
  run -1 --separate-stderr env WAVE_CUDA_DRIVER="$STUB" WAVE_CUDA_STUB_FAIL=launch \
    wave-run named.wbin --device=cuda --arg x=zeros:4 --print x --out x=out.bin
  assert_output ""
  [ "$stderr" = "wave-run: error: kernel 'named' faulted on the GPU: CUDA_ERROR_ILLEGAL_ADDRESS (an illegal memory access was encountered)" ]
  [ ! -e out.bin ]
}

@test "a launch that outlives --timeout stops the run (exit 3)" {
  need_stub
  run -3 --separate-stderr env WAVE_CUDA_DRIVER="$STUB" WAVE_CUDA_STUB_FAIL=hang \
    wave-run tiny.wbin --device=cuda --timeout 0.1 --dump-u32 0:4
  assert_output ""
  [ "$stderr" = "wave-run: error: kernel 'tiny' did not complete in 0.10 s (--timeout)" ]
}

@test "the stub runs a kernel end to end: device memory comes back (exit 0)" {
  need_stub
  run -0 --separate-stderr env WAVE_CUDA_DRIVER="$STUB" \
    wave-run tiny.wbin --device=cuda --fill-iota 0:u32:2 --dump-f32 0:2 --timing
  assert_output $'0.0\n1.0'
  [[ "${stderr_lines[0]}" =~ ^wave-run:\ dispatch\ 1:\ [0-9]+\.[0-9]{3}\ us$ ]]
}

@test "a relocatable object is refused before the driver is opened (exit 1)" {
  wave-as -c tiny.wave -o tiny.o
  run -1 --separate-stderr env WAVE_CUDA_DRIVER=/nonexistent \
    wave-run tiny.o --device=cuda
  [ "$stderr" = "wave-run: error: 'tiny.o' is a relocatable object; link it with wave-link" ]
}

@test "CUDA runs waves of 32 lanes; HSA-only options are usage errors (exit 2)" {
  run -2 --separate-stderr wave-run tiny.wbin --device=cuda --wave-width 64
  [ "${stderr_lines[0]}" = "wave-run: invalid --wave-width '64' with --device=cuda: a wave is a warp of 32 lanes" ]
  for opt in "--clang clang" "--ld-lld ld.lld"; do
    # shellcheck disable=SC2086
    run -2 --separate-stderr wave-run tiny.wbin --device=cuda $opt
    [ "${stderr_lines[0]}" = "wave-run: --clang and --ld-lld need --device=hsa" ]
  done
}

@test "the PTX is cached under \$XDG_CACHE_HOME/wavetools, used again, and --no-cache bypasses it" {
  need_stub
  export WAVE_CUDA_DRIVER="$STUB"
  run -0 wave-run tiny.wbin --device=cuda --dump-u32 0:1
  ptx=("$XDG_CACHE_HOME"/wavetools/*.ptx)
  [ "${#ptx[@]}" -eq 1 ] && [ -s "${ptx[0]}" ]
  grep -q '^\.target sm_' "${ptx[0]}"
  # An entry is found again: the stub's JIT sees the entry's bytes, a
  # comment longer, where --no-cache translates afresh.
  fresh=$(wc -c < "${ptx[0]}")
  printf '// from the cache\n' >> "${ptx[0]}"
  cached=$(wc -c < "${ptx[0]}")
  run -0 env WAVE_CUDA_STUB_LOG=log.txt wave-run tiny.wbin --device=cuda
  grep -q "cuModuleLoadDataEx ptx_bytes=$cached " log.txt
  rm log.txt
  run -0 env WAVE_CUDA_STUB_LOG=log.txt wave-run tiny.wbin --device=cuda --no-cache
  grep -q "cuModuleLoadDataEx ptx_bytes=$fresh " log.txt
  [ "$(wc -c < "${ptx[0]}")" -eq "$cached" ]
}

@test "--no-cache needs a GPU device (exit 2)" {
  run -2 --separate-stderr wave-run tiny.wbin --no-cache
  [ "${stderr_lines[0]}" = "wave-run: --no-cache needs --device=hsa or --device=cuda" ]
}

@test "--trace and --stats need the emulator (exit 2)" {
  need_stub
  run -2 --separate-stderr env WAVE_CUDA_DRIVER="$STUB" wave-run tiny.wbin --device=cuda --stats
  [ "$stderr" = "wave-run: error: --stats needs the emulator (--device=emu)" ]
}

@test "an HSA code object does not run with --device=cuda (exit 2)" {
  wave-as --target=amdgcn-amd-amdhsa --mcpu=gfx942 tiny.wave -o tiny.hsaco
  run -2 --separate-stderr wave-run tiny.hsaco --kernel tiny --device=cuda
  [ "${stderr_lines[0]}" = "wave-run: 'tiny.hsaco' is an HSA code object; it runs only with --device=hsa" ]
}

@test "a metadata workgroup size with a zero runs nothing on the GPU, as on the emulator (exit 0)" {
  need_stub
  # formats/isa.md §4.2: the metadata's three components, zeros included.
  printf '.kernel z\n.registers 4\n.workgroup_size 64, 0, 1\n    mov r1, sr_thread_id_x\n    mov_imm r2, 7\n    device_store_u32 r0, r2\n.end\n' > z.wave
  wave-as z.wave -o z.wbin
  run -0 wave-run z.wbin --dump-u32 0:1
  [ "$output" = "0" ]
  run -0 env WAVE_CUDA_DRIVER="$STUB" WAVE_CUDA_STUB_LOG=log.txt \
    wave-run z.wbin --device=cuda --dump-u32 0:1
  [ "$output" = "0" ]
  ! grep -q cuLaunchKernel log.txt
}
