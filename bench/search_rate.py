#!/usr/bin/env python3
"""Candidates per second of program search, on whole suites, several settings side by side.

    python3 bench/search_rate.py [--suites problems/psb1,problems/listfunctions,...]
        [--problems N] [--budget 300000] [--threads 1,2] [--repeats 3]
        [--setting NAME="OPTIONS" ...] [--binary NAME=BIN ...] [--gpusynth BIN] [--json PATH]

Each problem of each suite (the first N by name with --problems) is searched by `gpusynth search`
with every setting and thread count, the settings taking turns problem by problem so that a noisy
machine hurts them alike, --repeats times. A setting's rate on a suite is its candidates over its
seconds, summed over the suite's problems (a problem solved at once adds little of either); the
table gives the median over the repeats, per thread count, and each setting's ratio to the first
setting's rate in the same repeat (median of the ratios). The default settings are the enumeration
(`-g enumerate`, over its value bank) with its reference evaluator (`--bank-interpreter 1`: each
production through the interpreter) and with its direct paths. (Before the value bank, every
candidate was rendered, compiled and run by the pipeline: docs/results.md "Direct paths in the
value bank" has that engine's rates.) `--binary NAME=BIN` runs setting NAME with another build of
gpusynth (two commits compared in one run: the same options under two names). JSON with the
machine beside the table. Not a test: nothing here checks a target.
"""
import argparse
import json
import os
import shlex
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cluster_scaling import machine  # noqa: E402

DEFAULT_SETTINGS = [
    "interpreter=-g enumerate --bank-interpreter 1",
    "direct=-g enumerate",
]


def fail(message):
    print(f"search_rate: {message}", file=sys.stderr)
    sys.exit(2)


def parse_settings(items):
    settings = {}
    for item in items or DEFAULT_SETTINGS:
        if "=" not in item:
            fail(f"--setting must be NAME=\"OPTIONS\", not '{item}'")
        name, options = item.split("=", 1)
        if not name or name in settings:
            fail(f"--setting name '{name}' is empty or given twice")
        settings[name] = shlex.split(options)
    return settings


def parse_binaries(items, settings, default):
    binaries = {name: default for name in settings}
    for item in items or []:
        name, _, path = item.partition("=")
        if name not in settings:
            fail(f"--binary names no setting: '{item}' (settings: {', '.join(settings)})")
        if not os.access(path, os.X_OK):
            fail(f"--binary {name}: {path}: not an executable")
        binaries[name] = path
    return binaries


def problems_of(suite, limit):
    if not os.path.isdir(suite):
        fail(f"{suite}: not a directory")
    names = sorted(f for f in os.listdir(suite) if f.endswith(".json"))
    if not names:
        fail(f"{suite}: no problem files (*.json)")
    return [os.path.join(suite, f) for f in names[:limit or None]]


def search(binary, problem, budget, threads, options):
    command = [binary, "search", "--problem", problem, "--budget", str(budget), "--threads", str(threads),
               "--quiet", "--json", "-"] + options
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode not in (0, 1):  # 1: not solved
        fail(f"{' '.join(command)} exited {done.returncode}: {done.stderr.strip()[-500:]}")
    try:
        result = json.loads(done.stdout)
    except ValueError:
        fail(f"{' '.join(command)}: no JSON on stdout: {done.stdout[-300:]!r} {done.stderr[-300:]!r}")
    return result["candidates"], result["seconds"], result["solved"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--suites", default="problems/psb1,problems/listfunctions,problems/deepcoder-neo100")
    ap.add_argument("--problems", type=int, default=0, help="the first N problems of each suite (0: all)")
    ap.add_argument("--budget", type=int, default=300000, help="candidates per search")
    ap.add_argument("--threads", default="1,2", help="thread counts, comma-separated")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--setting", action="append", help='NAME="OPTIONS" (repeatable)')
    ap.add_argument("--binary", action="append", help="NAME=BIN: setting NAME runs this gpusynth (repeatable)")
    ap.add_argument("--gpusynth", default=os.path.join(ROOT, "build/dev/jobs/gpusynth"))
    ap.add_argument("--json", default=os.path.join(ROOT, "bench/results/search_rate.json"))
    args = ap.parse_args()
    if not os.access(args.gpusynth, os.X_OK):
        fail(f"{args.gpusynth}: not an executable (build first, or pass --gpusynth)")
    if args.budget < 1 or args.repeats < 1:
        fail("--budget and --repeats must be at least 1")
    settings = parse_settings(args.setting)
    binaries = parse_binaries(args.binary, settings, args.gpusynth)
    threads = [int(t) for t in args.threads.split(",")]
    suites = {s: problems_of(os.path.join(ROOT, s) if not os.path.isabs(s) else s, args.problems)
              for s in args.suites.split(",")}
    # totals[suite][threads][setting][repeat] = [candidates, seconds, solved]
    totals = {s: {t: {n: [[0, 0.0, 0] for _ in range(args.repeats)] for n in settings} for t in threads}
              for s in suites}
    start = time.time()
    for suite, problems in suites.items():
        for t in threads:
            for repeat in range(args.repeats):
                for k, problem in enumerate(problems):
                    for name, options in settings.items():
                        c, sec, solved = search(binaries[name], problem, args.budget, t, options)
                        cell = totals[suite][t][name][repeat]
                        cell[0] += c
                        cell[1] += sec
                        cell[2] += int(solved)
                print(f"  {os.path.basename(suite)}, {t} thread(s), repeat {repeat + 1}/{args.repeats} done "
                      f"({time.time() - start:.0f} s)", file=sys.stderr, flush=True)
    first = next(iter(settings))
    rows = []
    print(f"\ncandidates/s over each suite (median of {args.repeats}), budget {args.budget:,} per problem\n")
    print(f"| suite | problems | threads | setting | candidates/s | × {first} | solved |")
    print("|---|---|---|---|---|---|---|")
    for suite, problems in suites.items():
        for t in threads:
            for name in settings:
                cells = totals[suite][t][name]
                rates = [c / s if s > 0 else 0.0 for c, s, _ in cells]
                base = [c / s if s > 0 else 0.0 for c, s, _ in totals[suite][t][first]]
                ratios = [r / b for r, b in zip(rates, base) if b > 0]
                row = {"suite": os.path.basename(suite), "problems": len(problems), "threads": t, "setting": name,
                       "options": settings[name], "binary": binaries[name], "candidates_per_second": statistics.median(rates),
                       "ratio_to_first": statistics.median(ratios) if ratios else None,
                       "solved": cells[0][2], "repeats": [{"candidates": c, "seconds": s} for c, s, _ in cells]}
                rows.append(row)
                ratio = f"{row['ratio_to_first']:.2f}×" if row["ratio_to_first"] else "–"
                print(f"| {row['suite']} | {len(problems)} | {t} | {name} | {row['candidates_per_second']:,.0f} | "
                      f"{ratio} | {row['solved']}/{len(problems)} |")
    os.makedirs(os.path.dirname(os.path.abspath(args.json)), exist_ok=True)
    with open(args.json, "w") as f:
        json.dump({"machine": machine(), "budget": args.budget, "repeats": args.repeats,
                   "command": " ".join(shlex.quote(a) for a in sys.argv), "rows": rows}, f, indent=2)
    print(f"\nwrote {args.json}")


if __name__ == "__main__":
    main()
