#!/usr/bin/env python3
"""The layering check (docs/design.md "Layers"): every library folder may use only the folders
in layers below its own, through its #includes and through its CMake link dependencies. An
upward or sideways edge fails, naming the file and line. Run from anywhere:

    python3 scripts/check_layers.py          # exit status 0: no upward edge

tests/, bench/ and the fuzz targets sit above everything and may use any layer.
"""
import pathlib
import re
import sys

# Lowest first; folders in one layer may not use each other.
LAYERS = [
    ["base"],      # types, hashing, random numbers, thread pool, CUDA errors
    ["vm"],        # opcodes, bytecode, verifier, interpreter core, runner
    ["compiler"],  # Syn to bytecode (host + device)
    ["pipeline"],  # batch layout, case sets, stages, CPU and CUDA executors and pipelines
    ["suites"],    # problem files, suites, PSB import, candidate files, a problem's cases
    ["trees"],     # syntax trees, random programs, variation, simplification
    ["search"],    # generators (GP, enumeration, portfolio, external), selection, search loop
    ["records", "neural"],  # HDF5 records | the libtorch compiler and self-play
    ["cluster"],   # campaigns, work queues, ledgers, collectives
    ["jobs", "python"],  # the gpusynth command | the Python package
]
RANK = {folder: rank for rank, layer in enumerate(LAYERS) for folder in layer}
SOURCE = re.compile(r".*\.(h|hpp|cuh|cpp|cu|def|inc)$")
INCLUDE = re.compile(r'^\s*#\s*include\s+"([A-Za-z_]+)/')
LINK = re.compile(r"gpusynth::([A-Za-z_]+)")


def allowed(user, used):
    return used == user or RANK[used] < RANK[user]


def check(root):
    problems = []
    for folder in RANK:
        directory = root / folder
        if not directory.is_dir():
            problems.append(f"{folder}/: a layer in scripts/check_layers.py with no folder")
            continue
        for path in sorted(directory.rglob("*")):
            rel = path.relative_to(root)
            if path.name == "CMakeLists.txt":
                pattern = LINK
            elif SOURCE.match(path.name):
                pattern = INCLUDE
            else:
                continue
            for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
                if pattern is LINK and line.lstrip().startswith("#"):
                    continue
                for used in pattern.findall(line):
                    if used in RANK and not allowed(folder, used):
                        kind = "links" if pattern is LINK else "includes"
                        problems.append(f"{rel}:{number}: {folder} (layer {RANK[folder]}) {kind} "
                                        f"{used} (layer {RANK[used]}): an upward or sideways edge")
    # Every library folder (one with a gpusynth_module) must have a layer.
    for cmake in sorted(root.glob("*/CMakeLists.txt")):
        folder = cmake.parent.name
        if "gpusynth_module(" in cmake.read_text() and folder not in RANK:
            problems.append(f"{folder}/CMakeLists.txt: library {folder} has no layer in scripts/check_layers.py")
    return problems


def main():
    root = pathlib.Path(__file__).resolve().parent.parent
    problems = check(root)
    for problem in problems:
        print(problem)
    if problems:
        print(f"check_layers: {len(problems)} edge(s) against the layers in docs/design.md")
        return 1
    print("check_layers: " + " <- ".join("{" + ", ".join(l) + "}" if len(l) > 1 else l[0] for l in LAYERS))
    return 0


if __name__ == "__main__":
    sys.exit(main())
