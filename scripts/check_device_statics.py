#!/usr/bin/env python3
"""Fails when a PTX file holds a function-local static of gpusynth's code with no initializer.

nvcc gives `static constexpr T table;` (a constexpr constructor, no braces) inside a
__host__ __device__ function no initializer in device memory: the GPU reads zeros where the CPU
reads the constructor's values, and the two backends silently disagree (the first GPU run found
the lexer's character classes so). `static constexpr T table{};` is initialized on both. Usage:
    check_device_statics.py FILE.ptx ...
"""
import re
import sys

# A .global/.const variable whose mangled name is a function-local static in namespace gs
# (_ZZN2gs...), declared without "= {...}".
UNINITIALIZED = re.compile(r"^\.(global|const)\s[^=]*\s(_ZZN2gs\w*)(\[\d+\])?;\s*$")


def main(paths):
    if not paths:
        print(__doc__)
        return 2
    bad = []
    for path in paths:
        with open(path, encoding="utf-8", errors="replace") as f:
            for line_no, line in enumerate(f, 1):
                m = UNINITIALIZED.match(line)
                if m:
                    bad.append(f"{path}:{line_no}: {m.group(2)} has no initializer in device memory")
    for b in bad:
        print(b)
    if bad:
        print("check_device_statics: write `static constexpr T name{};` (with braces) in host+device code")
        return 1
    print(f"check_device_statics: {len(paths)} PTX files, every function-local static initialized")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
