# Kernel parameters WAVE cannot take in one 32-bit register
# (formats/kernel-abi.md): an f64 needs a register pair. bool and f16 are
# accepted (test/lit/fe/e2e/params.rs); device functions take f64.
# RUN: not wave-fe %s 2>&1 | FileCheck %s --implicit-check-not=error:

def twice(x: f64) -> f64:
    return x * 2.0

@kernel
# CHECK: bad-kernel-params.py:[[@LINE+1]]:32: error: kernel parameter 'x' has type 'f64', which takes a register pair (formats/isa.md §4.9), but a kernel parameter is one 32-bit register (formats/kernel-abi.md); pass it in a buffer of f64, or as an f32
def k(out: f64[:], flag: bool, x: f64, h: f16):
    out[0] = twice(x) if flag else f64(h)
