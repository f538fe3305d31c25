#!/usr/bin/env python3
"""Check libwave's layering: every area includes only the areas it declares.

Usage: check_layering.py SOURCE_DIR

Reads the areas and their edges from SOURCE_DIR/libwave/CMakeLists.txt
(`wave_add_area(NAME DEPENDS A B ...)`), then every file under
libwave/lib/NAME/ and libwave/include/wave/NAME/. An `#include "wave/X/..."`
with X neither NAME nor one of NAME's DEPENDS is an error, as are an area
folder that is not declared, a declared area that does not exist, an edge to
an undeclared area, an area declared before one it depends on (the list is
bottom-up), and a cycle. Prints one `FILE:LINE: error: ...` per violation
and exits 1 if there is any; prints the graph's areas bottom-up and exits 0
otherwise.
"""

import os
import re
import sys

AREA_CALL = re.compile(r"^\s*wave_add_area\(([^)]*)\)", re.M)
INCLUDE = re.compile(r'^\s*#\s*include\s+"wave/(\w+)/')


def read_areas(cmake_path):
    """[(name, [deps], line)] in declaration order."""
    text = open(cmake_path, encoding="utf-8").read()
    areas = []
    for m in AREA_CALL.finditer(text):
        words = m.group(1).split()
        name, deps, mode = words[0], [], None
        for w in words[1:]:
            if w in ("DEPENDS", "LIBS"):
                mode = w
            elif mode == "DEPENDS":
                deps.append(w)
        areas.append((name, deps, text.count("\n", 0, m.start()) + 1))
    return areas


def main(argv):
    if len(argv) != 2:
        sys.stderr.write(__doc__)
        return 2
    root = argv[1]
    cmake = os.path.join("libwave", "CMakeLists.txt")
    areas = read_areas(os.path.join(root, cmake))
    errors = []
    declared = {}
    for i, (name, deps, line) in enumerate(areas):
        where = f"{cmake}:{line}"
        for d in deps:
            if d not in dict((a[0], 1) for a in areas):
                errors.append(f"{where}: error: area {name} depends on "
                              f"undeclared area {d}")
            elif d not in declared:
                errors.append(f"{where}: error: area {name} is declared "
                              f"before {d}, which it depends on (the list "
                              "is bottom-up, so this is a cycle or a "
                              "misordering)")
        declared[name] = set(deps)
    lib_dir = os.path.join(root, "libwave", "lib")
    folders = sorted(d for d in os.listdir(lib_dir)
                     if os.path.isdir(os.path.join(lib_dir, d)))
    for f in folders:
        if f not in declared:
            errors.append(f"libwave/lib/{f}: error: area {f} is not "
                          f"declared in {cmake}")
    for name in declared:
        if name not in folders:
            errors.append(f"{cmake}: error: declared area {name} has no "
                          f"folder libwave/lib/{name}")
    for name, allowed in declared.items():
        for base in (os.path.join("libwave", "lib", name),
                     os.path.join("libwave", "include", "wave", name)):
            for dirpath, _, files in os.walk(os.path.join(root, base)):
                for fn in sorted(files):
                    path = os.path.join(dirpath, fn)
                    rel = os.path.relpath(path, root)
                    with open(path, encoding="utf-8", errors="replace") as fh:
                        for lineno, text in enumerate(fh, 1):
                            m = INCLUDE.match(text)
                            if not m or m.group(1) == name:
                                continue
                            if m.group(1) not in allowed:
                                errors.append(
                                    f"{rel}:{lineno}: error: area {name} "
                                    f"includes wave/{m.group(1)}/, which is "
                                    f"not among its DEPENDS in {cmake}")
    for e in errors:
        print(e)
    if errors:
        return 1
    print("areas (bottom-up): " + " ".join(a[0] for a in areas))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
