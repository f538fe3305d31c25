"""doc_commands.py: run the commands a document shows, as a user would.

Shared by readme_commands.py and man_commands.py: the commands run in
order, each with bash (pipefail), in a scratch directory that holds copies
of the repository's examples/ and test/lit/ (the files the commands name),
with the tools under test first on PATH. A command that needs what a test
machine lacks is skipped, and said so: an AMD GPU (--device=hsa,
--list-devices, the gpu-amd suite), an NVIDIA GPU (--device=cuda, the
gpu-nvidia suite, scripts/device-check.sh), or building and installing the project
itself (scripts/, cmake, ninja), which the suite's own build already does.
So is a command that needs a tool the machine may lack when the tool cannot
be found the way the command would look for it: ptxas for `wave-as
--emit=cubin` ($WAVE_PTXAS, else ptxas on the commands' PATH).
Every other command must exit 0.
"""
import contextlib
import os
import re
import shutil
import subprocess
import tempfile

SKIP = [
    (re.compile(r"--device=hsa|--list-devices|gpu-amd|hsa-examples"), "needs an AMD GPU"),
    (re.compile(r"--device=cuda|gpu-nvidia|cuda-suite|device-check"), "needs an NVIDIA GPU"),
    (re.compile(r"^(bash scripts/|scripts/|cmake |ninja )"),
     "builds the project (the suite's own build and examples/ tests do)"),
]


def have_ptxas(env):
    """Whether wave-as --emit=cubin finds a ptxas without --ptxas."""
    return bool(env.get("WAVE_PTXAS")) or \
        shutil.which("ptxas", path=env.get("PATH")) is not None


# Commands that need a tool, skipped when it is not there: (pattern, whether
# it is there given the commands' environment, why).
SKIP_WITHOUT = [
    (re.compile(r"--emit[= ]cubin"), have_ptxas,
     "needs ptxas (the CUDA toolkit); not found"),
]


def tool_env(bindir):
    """The environment the commands run in: BINDIR first on PATH, and
    examples/Makefile pointed at it."""
    bindir = os.path.abspath(bindir)
    return dict(os.environ, PATH=bindir + os.pathsep + os.environ["PATH"],
                WAVE_BIN=bindir)


@contextlib.contextmanager
def scratch(src):
    """A temporary directory with copies of SRC's examples/ and test/lit/."""
    with tempfile.TemporaryDirectory() as tmp:
        shutil.copytree(os.path.join(src, "examples"), os.path.join(tmp, "examples"))
        shutil.copytree(os.path.join(src, "test", "lit"), os.path.join(tmp, "test", "lit"))
        yield tmp


class Runner:
    """Runs commands and counts them; prints one line per command."""

    def __init__(self):
        self.ran = self.skipped = 0
        self.failed = []

    def run(self, cmd, cwd, env, label=""):
        why = next((w for r, w in SKIP if r.search(cmd)), None) or \
            next((w for r, there, w in SKIP_WITHOUT
                  if r.search(cmd) and not there(env)), None)
        if why:
            print(f"skip: {cmd}  ({why})")
            self.skipped += 1
            return
        r = subprocess.run(["bash", "-o", "pipefail", "-c", cmd], cwd=cwd, env=env,
                           capture_output=True, text=True, timeout=600)
        self.ran += 1
        if r.returncode:
            self.fail(cmd, f"exit {r.returncode}\n{r.stdout}{r.stderr}", label)
        else:
            print(f"ok: {cmd}")

    def fail(self, cmd, why, label=""):
        self.failed.append(cmd)
        print(f"FAIL: {label}{cmd}\n  {why}")

    def summary(self, what):
        print(f"{what}: {self.ran} ran, {len(self.failed)} failed, {self.skipped} skipped")
        return 1 if self.failed else 0
