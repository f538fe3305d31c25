# lit configuration for wavetools: one suite over test/lit, test/conformance
# and test/examples. Tests are RUN-line files; see test/README.md.
import os
import shutil

import lit.formats
import lit.util

config.name = "wavetools"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".wave", ".test", ".wir", ".txt"]
# Directory names are matched at every depth, so only names that never hold
# lit tests belong here (test/fuzz and test/bench hold C++ sources, which no
# suffix above matches, so they need no entry; test/bench/gpu holds WAVE
# kernels of the GPU benchmark, which lit/bench/gpu-kernels.test runs).
config.excludes = ["Inputs", "README.md", "CMakeLists.txt", "lit.cfg.py",
                   "lit.site.cfg.py.in", "gpu"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(
    getattr(config, "wave_tools_dir", config.test_source_root), "..", "test")

# Tools under test first on PATH, then LLVM's FileCheck/not/split-file.
path = os.path.pathsep.join([config.wave_tools_dir, config.llvm_tools_dir,
                             config.environment.get("PATH", os.environ["PATH"])])
config.environment["PATH"] = path
for var in ("HOME", "TMPDIR", "ASAN_OPTIONS", "UBSAN_OPTIONS", "WAVE_RUN_JOBS",
            "WAVE_PTXAS"):
    if var in os.environ:
        config.environment[var] = os.environ[var]
# `lit --param emu_jobs=N` runs every wave-run of the suite with --jobs N
# (scripts/test.sh runs the emulator's tests with 1 and with 2).
if lit_config.params.get("emu_jobs"):
    config.environment["WAVE_RUN_JOBS"] = lit_config.params["emu_jobs"]
# What wave-run translates for a GPU (stub drivers included) is cached in
# the build tree, never in the user's ~/.cache.
config.environment["XDG_CACHE_HOME"] = os.path.join(config.test_exec_root,
                                                    "xdg-cache")
config.environment["UBSAN_OPTIONS"] = config.environment.get(
    "UBSAN_OPTIONS", "print_stacktrace=1:halt_on_error=1")

config.substitutions.append(("%python", shutil.which("python3") or "python3"))
config.substitutions.append(("%S_src", config.wave_source_dir))
config.substitutions.append(("%examples", os.path.join(config.wave_source_dir, "examples")))
config.substitutions.append(("%utils", os.path.join(config.wave_source_dir, "test", "utils")))
config.substitutions.append(("%bindir", config.wave_tools_dir))
# The stub CUDA driver (test/gpu/stub-cuda/): `env WAVE_CUDA_DRIVER=%cuda_stub
# wave-run --device=cuda ...` runs the CUDA path without a GPU.
config.substitutions.append(("%cuda_stub", getattr(config, "wave_cuda_stub", "")))
# The stub HSA runtime (test/gpu/stub-hsa/): `env WAVE_HSA_RUNTIME=%hsa_stub
# wave-run --device=hsa ...` runs the HSA path without an AMD GPU.
config.substitutions.append(("%hsa_stub", getattr(config, "wave_hsa_stub", "")))

# The AMDGCN stage's external tools (libwave/README.md "The AMDGCN stage"):
# clang-22 and ld.lld-22 assemble and link code objects, llvm-readelf-22 and
# llvm-objdump-22 inspect them. Each is looked for on PATH under its versioned
# name, then unversioned in LLVM 22's own bin directory. Tests that run them say
# "REQUIRES: amdgcn-toolchain"; scripts/deps.sh installs them, so CI runs those
# tests.
def find_llvm22_tool(name):
    return (shutil.which(name + "-22") or
            shutil.which(name, path=config.llvm_tools_dir))

amdgcn_clang = find_llvm22_tool("clang")
amdgcn_lld = find_llvm22_tool("ld.lld")
if amdgcn_clang and amdgcn_lld:
    config.available_features.add("amdgcn-toolchain")
# %clang_amdgcn takes -mcpu= and the input kind (-x assembler, -x cl).
config.substitutions.append(("%clang_amdgcn", "%s --target=amdgcn-amd-amdhsa"
                             % (amdgcn_clang or "clang-22")))
config.substitutions.append(("%ld_lld_amdgcn", amdgcn_lld or "ld.lld-22"))
config.substitutions.append(("%readelf",
                             find_llvm22_tool("llvm-readelf") or "llvm-readelf-22"))
config.substitutions.append(("%objdump_amdgcn",
                             find_llvm22_tool("llvm-objdump") or "llvm-objdump-22"))

if config.wave_fuzz:
    config.available_features.add("fuzz")
if config.wave_sanitize:
    config.available_features.add("sanitize")

# The Python module wavetools (python/), when the build has it. Tests that
# import it say "REQUIRES: python-bindings" and run `%wtpython`: the
# interpreter the module was built for (Debian's python3, which has NumPy),
# with the build's python/ on PYTHONPATH. In a sanitized build that
# interpreter is not instrumented, so the ASan runtime (which carries
# UBSan's) is preloaded and leak detection is off (the interpreter keeps
# its objects at exit); without the runtime the tests are unsupported.
wave_python_dir = getattr(config, "wave_python_dir", "")
if wave_python_dir:
    wtpython = ["env", "PYTHONPATH=" + wave_python_dir]
    usable = True
    if config.wave_sanitize:
        asan_runtime = getattr(config, "wave_asan_runtime", "")
        usable = bool(asan_runtime)
        asan_options = config.environment.get("ASAN_OPTIONS", "")
        wtpython += ["LD_PRELOAD=" + asan_runtime,
                     "ASAN_OPTIONS=" + (asan_options + ":" if asan_options
                                        else "") + "detect_leaks=0"]
    if usable:
        config.available_features.add("python-bindings")
    wtpython.append(config.wave_python_executable or "python3")
    config.substitutions.append(("%wtpython", " ".join(wtpython)))
    # The interpreter alone, for scripts that set up their own PYTHONPATH
    # (lit/install runs the installed package).
    config.substitutions.append(("%bindings_python",
                                 config.wave_python_executable or "python3"))
