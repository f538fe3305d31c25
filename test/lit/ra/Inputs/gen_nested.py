#!/usr/bin/env python3
"""gen_nested.py N: a MIR kernel with N if-statements nested inside each
other (each on its own condition), for wave-ra's nesting-depth limit."""
import sys

n = int(sys.argv[1])
out = ["kernel @nested(ptr<device> %p, u32 %x) {", "^entry:", "  br ^t0", ""]
for i in range(n):
    out += ["^t%d:" % i, "  %%c%d = icmp gt u32 %%x, %d" % (i, i),
            "  condbr %%c%d, ^t%d, ^e%d" % (i, i + 1, i), ""]
out += ["^t%d:" % n, "  store u32 %x, ptr<device> %p", "  br ^e%d" % (n - 1),
        ""]
for i in range(n - 1, -1, -1):
    out += ["^e%d:" % i, "  br ^e%d" % (i - 1) if i else "  ret", ""]
print("\n".join(out).rstrip() + "\n}")
