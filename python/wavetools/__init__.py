"""wavetools: run WAVE kernels from Python.

The host runtime API of wavetools (libwave's wave/Host/Runtime.h) for
Python: open a device, put NumPy arrays in buffers that stay on it, compile
or load kernels and call them like functions.

    import numpy as np
    import wavetools as wt

    mod = wt.compile_source('''
    @kernel
    def saxpy(a: f32, x: f32[:], y: f32[:], n: u32):
        i = global_id(0)
        if i < n:
            y[i] = a * x[i] + y[i]
    ''', "python")
    x = np.arange(1000, dtype=np.float32)
    y = np.ones(1000, dtype=np.float32)
    mod.saxpy(2.0, x, y, len(x), grid=4)   # y is written back: 2 * x + 1

Devices: "emu", the reference emulator; "hsa:N", an AMD GPU agent, when
ROCm's HSA runtime loads; and "cuda:N", an NVIDIA GPU, when the CUDA driver
loads (wt.devices() lists them; wt.device("cuda", device_memory=...,
timeout=...) or wt.device("hsa", ...) opens one). On a GPU, buffers live in one
allocation made when the device opens, modules are translated and loaded
once, and a kernel fault leaves the device unusable (open it again);
docs/host-api.md says more.

Every failure raises wavetools.Error; its .code says what went wrong
("invalid_argument", "no_device", "compile", "fault", "limit", "io",
"backend") and str(e) says it in the tools' words.
"""

import os as _os
import threading as _threading

from ._wavetools import (Buffer, Device, Error, Event, Kernel, Module, Stream,
                         device, devices)
from ._wavetools import __version__  # noqa: F401 - wavetools' version

__all__ = [
    "Buffer", "Device", "Error", "Event", "Kernel", "Module", "Stream",
    "compile", "compile_source", "default_device", "device", "devices", "load",
]

_default_device = None
_default_lock = _threading.Lock()


def default_device():
    """default_device() -> Device

    The device that compile(), compile_source() and load() use when given
    none: the emulator ("emu"), opened on first use and kept for the life of
    the process.
    """
    global _default_device
    with _default_lock:
        if _default_device is None:
            _default_device = device("emu")
        return _default_device


def compile(path, device=None, lang=None, opt_level=2, max_registers=32):
    """compile(path, device=None, lang=None, opt_level=2, max_registers=32) -> Module

    Reads and compiles the kernel source file `path` through the whole
    pipeline, as wave-compiler does, and loads the result on `device`
    (None: default_device()). The language comes from the extension (.py
    .cpp .rs .ts .wir .wave) unless `lang` names one ("python", "cpp",
    "rust", "typescript"); `opt_level` is 0 to 3 and `max_registers` 1 to
    256, wave-compiler's -O and --max-registers. Raises Error with code
    "io" for an unreadable file and "compile" with every diagnostic
    (source lines and carets included) when the source does not compile.
    """
    dev = device if device is not None else default_device()
    return dev.compile(_os.fspath(path), lang, opt_level, max_registers)


def compile_source(text, lang, name="<source>", device=None, opt_level=2,
                   max_registers=32):
    """compile_source(text, lang, name="<source>", device=None, opt_level=2,
    max_registers=32) -> Module

    Compiles the kernel source `text`, in language `lang` ("python",
    "cpp", "rust", "typescript"), and loads it on `device` (None:
    default_device()). `name` names the source in diagnostics. Raises
    Error with code "compile" and every diagnostic when it does not
    compile.
    """
    dev = device if device is not None else default_device()
    return dev.compile_source(text, lang, name, opt_level, max_registers)


def load(path_or_bytes, device=None):
    """load(path_or_bytes, device=None) -> Module

    Loads a .wbin (formats/wbin.md) from a file path or from bytes onto
    `device` (None: default_device()). Raises Error with code "io" for an
    unreadable file and "compile" for a malformed one.
    """
    dev = device if device is not None else default_device()
    return dev.load(path_or_bytes)
