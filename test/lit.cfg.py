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
# suffix above matches, so they need no entry).
config.excludes = ["Inputs", "README.md", "CMakeLists.txt", "lit.cfg.py",
                   "lit.site.cfg.py.in"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(
    getattr(config, "wave_tools_dir", config.test_source_root), "..", "test")

# Tools under test first on PATH, then LLVM's FileCheck/not/split-file.
path = os.path.pathsep.join([config.wave_tools_dir, config.llvm_tools_dir,
                             config.environment.get("PATH", os.environ["PATH"])])
config.environment["PATH"] = path
for var in ("HOME", "TMPDIR", "ASAN_OPTIONS", "UBSAN_OPTIONS"):
    if var in os.environ:
        config.environment[var] = os.environ[var]
config.environment["UBSAN_OPTIONS"] = config.environment.get(
    "UBSAN_OPTIONS", "print_stacktrace=1:halt_on_error=1")

config.substitutions.append(("%python", shutil.which("python3") or "python3"))
config.substitutions.append(("%S_src", config.wave_source_dir))
config.substitutions.append(("%examples", os.path.join(config.wave_source_dir, "examples")))
config.substitutions.append(("%utils", os.path.join(config.wave_source_dir, "test", "utils")))
config.substitutions.append(("%bindir", config.wave_tools_dir))

if config.wave_fuzz:
    config.available_features.add("fuzz")
if config.wave_sanitize:
    config.available_features.add("sanitize")
