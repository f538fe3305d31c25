#!/usr/bin/env python3
"""Writes MIR for bad-threshold.test: @big (201 instructions, over inline's
threshold of 200), @small (200 instructions, at the threshold) and @caller,
which calls both."""


def chain(name, n):
    # n instructions in all: n - 1 adds and the ret.
    lines = ["func @%s(u32 %%x) -> u32 {" % name, "^entry:",
             "  %v0 = add u32 %x, 1"]
    for i in range(1, n - 1):
        lines.append("  %%v%d = add u32 %%v%d, 1" % (i, i - 1))
    lines += ["  ret u32 %%v%d" % (n - 2), "}", ""]
    return lines


out = chain("big", 201) + chain("small", 200) + [
    "func @caller(u32 %a) -> u32 {", "^entry:",
    "  %b = call u32 @big(u32 %a)", "  %s = call u32 @small(u32 %b)",
    "  ret u32 %s", "}"]
print("\n".join(out))
