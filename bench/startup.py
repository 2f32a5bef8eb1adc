#!/usr/bin/env python3
"""Start-up cost of the command line: wall time of `gpusynth --version` and of a small real
command (compile + run of docs/examples/collatz.syn), for gpusynth (no libtorch) and for
gpusynth-neural (the same program with libtorch linked, as every command was before the split,
docs/design.md "A torch-free command"). Medians of repeated runs, both binaries interleaved in one
run so that the ratio is taken under the same load. Prints a table; writes JSON with the machine.

    python3 bench/startup.py [--build build/release] [--repeats 21] [--out bench/results/startup.json]
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time

from machine_info import machine

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def shared_libraries(binary):
    out = subprocess.run(["ldd", binary], capture_output=True, text=True).stdout
    return sum(1 for line in out.splitlines() if "=>" in line or line.strip().startswith("/"))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--build", default=os.path.join(ROOT, "build", "release"))
    ap.add_argument("--repeats", type=int, default=21)
    ap.add_argument("--out", default=os.path.join(ROOT, "bench", "results", "startup.json"))
    a = ap.parse_args()
    binaries = {name: os.path.join(a.build, "jobs", name) for name in ("gpusynth", "gpusynth-neural")}
    for name, path in binaries.items():
        if not os.access(path, os.X_OK):
            print(f"startup: no {name} at {path} (build with the release preset, GPUSYNTH_TORCH=ON)",
                  file=sys.stderr)
            return 2
    example = os.path.join(ROOT, "docs", "examples", "collatz.syn")
    commands = {"--version": ["--version"], "run collatz.syn": ["run", example, "--args", "[27]"]}
    times = {(b, c): [] for b in binaries for c in commands}
    for _ in range(a.repeats):
        for c, args in commands.items():
            for b, path in binaries.items():
                t = time.perf_counter()
                subprocess.run([path] + args, check=True, stdout=subprocess.DEVNULL)
                times[(b, c)].append(time.perf_counter() - t)
    rows = []
    print(f"{'command':<18} {'gpusynth s':>11} {'gpusynth-neural s':>18} {'ratio':>7}")
    for c in commands:
        plain = statistics.median(times[("gpusynth", c)])
        neural = statistics.median(times[("gpusynth-neural", c)])
        print(f"{c:<18} {plain:>11.4f} {neural:>18.4f} {neural / plain:>6.1f}x")
        rows.append({"command": c, "gpusynth_s": plain, "gpusynth_neural_s": neural, "ratio": neural / plain})
    libs = {b: shared_libraries(p) for b, p in binaries.items()}
    print(f"shared libraries: gpusynth {libs['gpusynth']}, gpusynth-neural {libs['gpusynth-neural']}")
    os.makedirs(os.path.dirname(a.out), exist_ok=True)
    with open(a.out, "w") as f:
        json.dump({"machine": machine(), "repeats": a.repeats, "rows": rows, "shared_libraries": libs}, f, indent=1)
    print(f"-> {a.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
