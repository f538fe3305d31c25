#!/usr/bin/env bats
# wave-run --device=hsa and --list-devices where there is no AMD GPU (the
# usual case for CI): one line saying so and exit 2, nothing on stdout and no
# output file left behind; the GPU options' own usage errors. The runs on a
# GPU are test/gpu/hsa-examples.sh (ctest label gpu-amd).
bats_require_minimum_version 1.5.0

setup() {
  load common
  cd "$BATS_TEST_TMPDIR"
  tiny_wave tiny.wave
  wave-as tiny.wave -o tiny.wbin
}

# Tests of the no-GPU messages run only where the ROCm driver is absent.
no_kfd() {
  [ ! -e /dev/kfd ] || skip "/dev/kfd exists: this machine may have an AMD GPU"
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
  run -2 --separate-stderr wave-run tiny.wbin --no-cache
  [ "${stderr_lines[0]}" = "wave-run: --no-cache, --clang and --ld-lld need --device=hsa" ]
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
