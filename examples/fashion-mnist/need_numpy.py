"""need_numpy.py - NumPy for the example's scripts, whatever python3 ran them.

`from need_numpy import np` gives NumPy. When the interpreter has none (a
pyenv or venv Python first on PATH), the script starts again under Debian's
/usr/bin/python3, which has python3-numpy; without that either, it exits
with one line naming the package.
"""
import os
import sys

try:
    import numpy as np  # noqa: F401 (re-exported)
except ImportError:
    if os.path.exists("/usr/bin/python3") and sys.executable != "/usr/bin/python3":
        os.execv("/usr/bin/python3", ["/usr/bin/python3"] + sys.argv)
    sys.exit("%s: needs NumPy (Debian package python3-numpy)"
             % os.path.basename(sys.argv[0]))
