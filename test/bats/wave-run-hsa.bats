#!/usr/bin/env bats
# wave-run --device=hsa and --list-devices where there is no AMD GPU (the
# usual case for CI) or no HSA runtime library (WAVE_HSA_RUNTIME names a
# missing file, or a library that is not the runtime): one line saying so
# and exit 2, nothing on stdout and no output file left behind; the GPU
# options' own usage errors; no tool linked against the runtime. The runs on
# a GPU are test/gpu/hsa-examples.sh (ctest label gpu-amd).
bats_require_minimum_version 1.5.0

setup() {
  load common
  cd "$BATS_TEST_TMPDIR"
  tiny_wave tiny.wave
  wave-as tiny.wave -o tiny.wbin
}

@test "--list-devices without the ROCm driver says so in one line (exit 2 without CUDA)" {
  no_kfd
  run -2 --separate-stderr env WAVE_CUDA_DRIVER=/nonexistent wave-run --list-devices
  assert_output ""
  [ "${stderr_lines[0]}" = "wave-run: error: no HSA runtime device: /dev/kfd (the ROCm kernel driver) is missing; use --device=emu" ]
}

@test "--device=hsa without the ROCm driver runs nothing and writes nothing (exit 2)" {
  no_kfd
  run -2 --separate-stderr wave-run tiny.wbin --device=hsa --dump-u32 0:4 --out x=out.bin
  assert_output ""
  [ "${#stderr_lines[@]}" -eq 1 ]
  [[ "$stderr" == "wave-run: error: no HSA runtime device: "* ]]
  [ ! -e out.bin ]
}

@test "--device=hsa without the HSA runtime library says so in one line (exit 2)" {
  run -2 --separate-stderr env WAVE_HSA_RUNTIME=/nonexistent/libhsa-runtime64.so.1 \
    wave-run tiny.wbin --device=hsa --dump-u32 0:4 --out x=out.bin
  assert_output ""
  [ "${#stderr_lines[@]}" -eq 1 ]
  [ "$stderr" = "wave-run: error: HSA runtime not found: dlopen /nonexistent/libhsa-runtime64.so.1: /nonexistent/libhsa-runtime64.so.1: cannot open shared object file: No such file or directory" ]
  [ ! -e out.bin ]
}

@test "a library without the HSA runtime's entry points is refused (exit 1)" {
  run -1 --separate-stderr env WAVE_HSA_RUNTIME=libm.so.6 \
    wave-run tiny.wbin --device=hsa
  assert_output ""
  [ "$stderr" = "wave-run: error: HSA runtime 'libm.so.6' has no entry point 'hsa_init'" ]
}

@test "--list-devices with neither runtime library gives both reasons (exit 2)" {
  run -2 --separate-stderr env WAVE_HSA_RUNTIME=/nonexistent WAVE_CUDA_DRIVER=/nonexistent \
    wave-run --list-devices
  assert_output ""
  [ "${#stderr_lines[@]}" -eq 2 ]
  [[ "${stderr_lines[0]}" == "wave-run: error: HSA runtime not found: dlopen /nonexistent: "* ]]
  [[ "${stderr_lines[1]}" == "wave-run: error: CUDA driver not found: dlopen /nonexistent: "* ]]
}

@test "--list-devices without the HSA runtime library still lists the CUDA devices (exit 0)" {
  STUB="$(cd "$WAVE_BIN/.." && pwd)/lib/libwave-cuda-stub.so"
  [ -f "$STUB" ] || skip "no stub CUDA driver at $STUB"
  run -0 --separate-stderr env WAVE_HSA_RUNTIME=/nonexistent WAVE_CUDA_DRIVER="$STUB" \
    wave-run --list-devices
  [ "$stderr" = "" ]
  [[ "${lines[0]}" == "HSA runtime not found: dlopen /nonexistent: "* ]]
  [[ "${lines[1]}" == "CUDA driver 12.4 ("*"libwave-cuda-stub.so)" ]]
  [ "${lines[2]}" = "cuda device 0: Stub GPU" ]
}

@test "no tool is linked against the HSA runtime (it is loaded with dlopen)" {
  command -v ldd >/dev/null || skip "no ldd"
  for tool in "${WAVE_TOOLS[@]}"; do
    run -0 ldd "$WAVE_BIN/$tool"
    if [[ "$output" == *libhsa* ]]; then
      echo "$tool: $output" >&2
      return 1
    fi
  done
}

@test "the emulator stays the default device" {
  run -0 wave-run tiny.wbin --dump-u32 0:4
  assert_output $'0\n1\n2\n3'
  run -0 wave-run tiny.wbin --device emu --dump-u32 0:4
  assert_output $'0\n1\n2\n3'
}

@test "GPU options without --device=hsa are usage errors (exit 2)" {
  for opt in "--agent 1" "--timeout 5" "--repeat 3" "--timing"; do
    # shellcheck disable=SC2086
    run -2 --separate-stderr wave-run tiny.wbin $opt
    [ "${stderr_lines[0]}" = "wave-run: --agent, --timeout, --repeat and --timing need --device=hsa or --device=cuda" ]
  done
  run -2 --separate-stderr wave-run tiny.wbin --clang clang
  [ "${stderr_lines[0]}" = "wave-run: --clang and --ld-lld need --device=hsa" ]
}

@test "bad GPU option values are usage errors (exit 2)" {
  run -2 --separate-stderr wave-run tiny.wbin --device gpu
  [[ "$stderr" == *"gpu not in {emu,hsa,cuda}"* ]]
  run -2 --separate-stderr wave-run tiny.wbin --device hsa --repeat 0
  [ "${stderr_lines[0]}" = "wave-run: invalid --repeat '0': must be at least 1" ]
  run -2 --separate-stderr wave-run tiny.wbin --device hsa --timeout soon
  [ "${stderr_lines[0]}" = "wave-run: invalid --timeout 'soon': expected seconds" ]
  run -2 --separate-stderr wave-run tiny.wbin --device hsa --agent x
  [[ "${stderr_lines[0]}" == "wave-run: invalid --agent 'x'"* ]]
}

@test "a binary is needed unless --list-devices (exit 2)" {
  run -2 --separate-stderr wave-run --device hsa
  [ "${stderr_lines[0]}" = "wave-run: BINARY is required" ]
}

@test "an HSA code object runs only on the GPU, by kernel name, with positional arguments (exit 2)" {
  wave-as --target=amdgcn-amd-amdhsa --mcpu=gfx942 tiny.wave -o tiny.hsaco
  run -2 --separate-stderr wave-run tiny.hsaco
  [ "${stderr_lines[0]}" = "wave-run: 'tiny.hsaco' is an HSA code object; it needs --kernel NAME (the kernel's symbol without '.kd')" ]
  run -2 --separate-stderr wave-run tiny.hsaco --kernel tiny --device emu
  [ "${stderr_lines[0]}" = "wave-run: 'tiny.hsaco' is an HSA code object; it runs only with --device=hsa" ]
  run -2 --separate-stderr wave-run tiny.hsaco --kernel tiny --print 'x[0:1]'
  [[ "${stderr_lines[0]}" == "wave-run: 'tiny.hsaco' is an HSA code object; it has no parameter descriptors"* ]]
}

@test "an HSA code object with --kernel goes to the GPU (no GPU here: exit 2)" {
  no_kfd
  wave-as --target=amdgcn-amd-amdhsa --mcpu=gfx942 tiny.wave -o tiny.hsaco
  run -2 --separate-stderr wave-run tiny.hsaco --kernel tiny --dump-u32 0:4
  assert_output ""
  [[ "$stderr" == "wave-run: error: no HSA runtime device: "* ]]
}
