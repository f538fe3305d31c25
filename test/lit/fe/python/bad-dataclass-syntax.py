# Python classes outside the dataclass dialect (formats/kernel-languages.md
# §9, "Dataclasses"): a class without @dataclass, @dataclass with
# arguments, inheritance, a field without a default after one with a
# default, a default that is not a literal, a buffer field, a class
# variable, a nested class, @staticmethod, a method without self, an
# unsupported dunder, __iadd__ without 'return self', a kernel method, an
# unknown quoted annotation, too many positional fields, a positional
# argument after a keyword one, attribute access on a scalar parameter.
# One located error each (with its caret), all in one run, exit 1.
# RUN: not wave-fe %s 2>&1 | FileCheck %s --implicit-check-not=error:
# RUN: not wave-fe %s -o %t.mir; test ! -e %t.mir
from dataclasses import dataclass
from wave import *


# CHECK: {{.*}}bad-dataclass-syntax.py:[[@LINE+1]]:1: error: only '@dataclass' classes are supported in WAVE kernels; decorate 'Plain' with '@dataclass'
class Plain:
    x: f32


# CHECK: {{.*}}bad-dataclass-syntax.py:[[@LINE+1]]:11: error: '@dataclass' takes no arguments in WAVE kernels
@dataclass(frozen=True)
class Frozen:
    x: f32


@dataclass
class Base:
    x: f32


@dataclass
# CHECK: {{.*}}bad-dataclass-syntax.py:[[@LINE+3]]:14: error: class inheritance is not supported in WAVE kernels
# CHECK-NEXT: {{^}}class Derived(Base):{{$}}
# CHECK-NEXT: {{^}}             ^{{$}}
class Derived(Base):
    y: f32


@dataclass
class V:
    x: f32
    y: f32 = 1.0
    # CHECK: {{.*}}bad-dataclass-syntax.py:[[@LINE+4]]:5: error: field 'z' without a default follows a field with one
    # CHECK-NEXT: {{^}}    z: f32{{$}}
    # CHECK-NEXT: {{^}}    ^{{$}}
    # CHECK-NEXT: {{.*}}bad-dataclass-syntax.py:[[@LINE-4]]:5: note: the first field with a default
    z: f32
    # CHECK: {{.*}}bad-dataclass-syntax.py:[[@LINE+1]]:14: error: the default of a dataclass field is a number or True/False in WAVE kernels
    w: f32 = foo()
    # CHECK: {{.*}}bad-dataclass-syntax.py:[[@LINE+1]]:8: error: a dataclass field is a scalar such as 'f32' or another dataclass
    a: f32[:]
    # CHECK: {{.*}}bad-dataclass-syntax.py:[[@LINE+1]]:5: error: class variables are not supported in WAVE kernels; declare a field with a type, e.g. 'count: f32'
    count = 0

    # CHECK: {{.*}}bad-dataclass-syntax.py:[[@LINE+1]]:5: error: nested classes are not supported in WAVE kernels
    class Inner:
        pass

    # CHECK: {{.*}}bad-dataclass-syntax.py:[[@LINE+1]]:6: error: static and class methods are not supported in WAVE kernels; define a function outside the class
    @staticmethod
    def make(x: f32) -> "V":
        return V(x, x, x)

    # CHECK: {{.*}}bad-dataclass-syntax.py:[[@LINE+1]]:9: error: method '__eq__' is not supported in WAVE kernels (the operators __add__, __sub__, __mul__, __truediv__, __mod__, __neg__ and their __i*__ forms are)
    def __eq__(self, o: "V") -> bool:
        return self.x == o.x

    # CHECK: {{.*}}bad-dataclass-syntax.py:[[@LINE+1]]:15: error: a method of a dataclass takes 'self' first; static and class methods are not supported in WAVE kernels
    def shift(k: f32) -> f32:
        return k

    # CHECK: {{.*}}bad-dataclass-syntax.py:[[@LINE+1]]:9: error: '__iadd__' must end with 'return self' in WAVE kernels
    def __iadd__(self, o: "V") -> "V":
        self.x += o.x

    @kernel
    # CHECK: {{.*}}bad-dataclass-syntax.py:[[@LINE+1]]:5: error: a kernel cannot be a method; define it outside the class
    def run(self, out: f32[:]):
        out[0] = self.x

    # CHECK: {{.*}}bad-dataclass-syntax.py:[[@LINE+1]]:26: error: unknown type "Nope"; a quoted annotation names a '@dataclass' of the file or a WAVE type such as 'f32'
    def bad_ret(self) -> "Nope":
        return 0


@kernel
def k(out: f32[:], n: u32):
    # CHECK: {{.*}}bad-dataclass-syntax.py:[[@LINE+1]]:36: error: 'V' takes 5 field(s); this is argument 6
    v = V(1.0, 2.0, 3.0, 4.0, 5.0, 6.0)
    # CHECK: {{.*}}bad-dataclass-syntax.py:[[@LINE+1]]:15: error: attribute access ('.x') is not supported in WAVE kernels
    out[1] = n.x
    # CHECK: {{.*}}bad-dataclass-syntax.py:[[@LINE+1]]:18: error: positional argument follows keyword argument
    u = V(x=1.0, 2.0)
