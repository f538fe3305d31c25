"""doc_commands.py: run the commands a document shows, as a user would.

Shared by readme_commands.py and man_commands.py: the commands run in
order, each with bash (pipefail), in a scratch directory that holds copies
of the repository's examples/ and test/lit/ (the files the commands name),
with the tools under test first on PATH. A command that needs what a test
machine lacks is skipped, and said so: an AMD GPU (--device=hsa,
--list-devices, the gpu-amd suite), or building and installing the project
itself (scripts/, cmake, ninja), which the suite's own build already does.
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
    (re.compile(r"^(bash scripts/|scripts/|cmake |ninja )"),
     "builds the project (the suite's own build and examples/ tests do)"),
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
        why = next((w for r, w in SKIP if r.search(cmd)), None)
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
