# Dataclass errors Sema finds (formats/kernel-languages.md §9,
# "Dataclasses"): unknown, missing and repeated fields of a construction,
# unknown methods and fields, operators the dataclass does not define (with
# the dunder to write), a dataclass on the right of a scalar operator, a
# method that changes self called on a temporary, a dataclass kernel
# parameter. One located error each, all in one run, exit 1. `v += v` with
# only __add__ is `v = v + v`, as in Python, and no error.
# RUN: not wave-fe %s 2>&1 | FileCheck %s --implicit-check-not=error:
# RUN: not wave-fe %s -o %t.mir; test ! -e %t.mir
from dataclasses import dataclass
from wave import *


@dataclass
class V2:
    x: f32
    y: f32

    def __add__(self, o: "V2") -> "V2":
        return V2(self.x + o.x, self.y + o.y)

    def scale(self, k: f32):
        self.x *= k


@kernel
def k(out: f32[:], n: u32):
    # CHECK-DAG: {{.*}}bad-dataclass.py:[[@LINE+1]]:19: error: struct 'V2' has no field 'z'
    a = V2(x=1.0, z=2.0)
    # CHECK-DAG: {{.*}}bad-dataclass.py:[[@LINE+1]]:9: error: missing field(s) 'y' in the literal of 'V2'
    b = V2(1.0)
    # CHECK-DAG: {{.*}}bad-dataclass.py:[[@LINE+1]]:17: error: field 'x' is given twice
    c = V2(1.0, x=2.0)
    v = V2(1.0, 2.0)
    # CHECK-DAG: {{.*}}bad-dataclass.py:[[@LINE+1]]:7: error: no method 'nope' on type 'V2'
    v.nope()
    # CHECK-DAG: {{.*}}bad-dataclass.py:[[@LINE+1]]:16: error: struct 'V2' has no field 'z'
    out[0] = v.z
    # CHECK-DAG: {{.*}}bad-dataclass.py:[[@LINE+1]]:11: error: no operator '/' for 'V2' and 'V2'; define '__truediv__' in dataclass 'V2'
    w = v / v
    # CHECK-DAG: {{.*}}bad-dataclass.py:[[@LINE+1]]:7: error: no operator '-=' for 'V2'; define '__isub__' or '__sub__' in dataclass 'V2'
    v -= v
    # CHECK-DAG: {{.*}}bad-dataclass.py:[[@LINE+1]]:13: error: invalid operands to '+' ('float literal' and 'V2'): a struct operator takes the struct on the left
    u = 1.0 + v
    # CHECK-DAG: {{.*}}bad-dataclass.py:[[@LINE+1]]:5: error: 'V2::scale' takes '&mut self': call it on a variable
    V2(1.0, 2.0).scale(2.0)
    v += v
    # CHECK-DAG: {{.*}}bad-dataclass.py:[[@LINE+1]]:13: error: expected 'V2' in the initial value of 'd', found 'float literal'
    d: V2 = 1.0


@kernel
# CHECK-DAG: {{.*}}bad-dataclass.py:[[@LINE+1]]:11: error: kernel parameter 'v' has type 'V2'; kernel parameters are buffers or bool, i32, u32, f16, f32 scalars (one 32-bit register each, formats/kernel-abi.md)
def takes(v: V2):
    pass
