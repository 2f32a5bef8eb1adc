#!/usr/bin/env python3
"""Instructions and simulated cache misses of program search, several builds or settings side by
side: what a change saves, where the machine is too noisy for candidates/s to show it.

    python3 bench/search_counts.py --suites DIR[,DIR...] [--problems N] [--budget 1000000]
        [--setting NAME="OPTIONS" ...] [--binary NAME=BIN ...] [--gpusynth BIN] [--jobs 2]
        [--json PATH]

Each problem of each suite (the first N by name with --problems) is searched by `gpusynth search`
on one thread with every setting, under valgrind's cachegrind (`--cache-sim=yes`: the host's
first-level data cache and last-level cache, simulated): the instructions executed, the first-level
data misses and the last-level misses are counts of the program's own work, the same from run to
run and whatever else the machine runs (a search on one thread is deterministic), so one run
gives them and --jobs runs go at once. A VM's candidates/s move by 15 % from run to run (bench/
search_rate.py's medians); these move by nothing, so a change of 2 % shows. They are not time: a
miss costs what the real caches and memory make it, and cachegrind runs some 50 times slower than
the search (1,000,000 candidates of a PSB1 problem: about 30 s). The table gives, for each suite,
each setting's sums over its problems and their ratios to the first setting's; JSON, with every
problem's counts and the machine, beside it. Not a test: nothing here checks a target.
"""
import argparse
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from machine_info import machine  # noqa: E402
from search_rate import fail, parse_binaries, parse_settings, problems_of  # noqa: E402

COUNTS = {"instructions": r"I\s+refs:\s+([\d,]+)", "d1_misses": r"D1\s+misses:\s+([\d,]+)",
          "ll_misses": r"LL\s+misses:\s+([\d,]+)"}


def counted(binary, problem, budget, options):
    command = ["valgrind", "--tool=cachegrind", "--cache-sim=yes", "--cachegrind-out-file=/dev/null", binary,
               "search", "--problem", problem, "--budget", str(budget), "--threads", "1", "--quiet",
               "--json", "-"] + options
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode not in (0, 1):  # 1: not solved
        fail(f"{' '.join(command)} exited {done.returncode}: {done.stderr.strip()[-500:]}")
    counts = {}
    for name, pattern in COUNTS.items():
        m = re.search(pattern, done.stderr)
        if m is None:
            fail(f"{' '.join(command)}: no '{name}' in cachegrind's summary: {done.stderr[-300:]!r}")
        counts[name] = int(m.group(1).replace(",", ""))
    try:
        result = json.loads(done.stdout)
    except ValueError:
        fail(f"{' '.join(command)}: no JSON on stdout: {done.stdout[-300:]!r}")
    counts["candidates"] = result["candidates"]
    counts["solved"] = result["solved"]
    return counts


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--suites", default="problems/psb1")
    ap.add_argument("--problems", type=int, default=0, help="the first N problems of each suite (0: all)")
    ap.add_argument("--budget", type=int, default=1000000, help="candidates per search")
    ap.add_argument("--setting", action="append", help='NAME="OPTIONS" (repeatable; default: -g enumerate)')
    ap.add_argument("--binary", action="append", help="NAME=BIN: setting NAME runs this gpusynth (repeatable)")
    ap.add_argument("--gpusynth", default=os.path.join(ROOT, "build/dev/jobs/gpusynth"))
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="searches at once")
    ap.add_argument("--json", default=os.path.join(ROOT, "bench/results/search_counts.json"))
    args = ap.parse_args()
    if shutil.which("valgrind") is None:
        fail("valgrind is not installed (apt install valgrind)")
    if not os.access(args.gpusynth, os.X_OK):
        fail(f"{args.gpusynth}: not an executable (build first, or pass --gpusynth)")
    if args.budget < 1 or args.jobs < 1:
        fail("--budget and --jobs must be at least 1")
    settings = parse_settings(args.setting or ["enumerate=-g enumerate"])
    binaries = parse_binaries(args.binary, settings, args.gpusynth)
    suites = {s: problems_of(os.path.join(ROOT, s) if not os.path.isabs(s) else s, args.problems)
              for s in args.suites.split(",")}
    runs = [(suite, problem, name) for suite, problems in suites.items() for problem in problems for name in settings]
    print(f"  {len(runs)} searches under cachegrind, {args.jobs} at once", file=sys.stderr, flush=True)
    with ThreadPoolExecutor(args.jobs) as pool:
        results = list(pool.map(lambda r: counted(binaries[r[2]], r[1], args.budget, settings[r[2]]), runs))
    first = next(iter(settings))
    rows = []
    print(f"\ninstructions and simulated misses over each suite, budget {args.budget:,} per problem, one thread\n")
    print(f"| suite | problems | setting | instructions | × {first} | D1 misses | × {first} | LL misses | × {first} "
          f"| solved |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for suite, problems in suites.items():
        sums = {}
        for name in settings:
            mine = [c for (s, _, n), c in zip(runs, results) if s == suite and n == name]
            sums[name] = {k: sum(c[k] for c in mine) for k in COUNTS}
            sums[name]["solved"] = sum(c["solved"] for c in mine)
        for name in settings:
            row = {"suite": os.path.basename(suite), "problems": len(problems), "setting": name,
                   "options": settings[name], "binary": binaries[name], **sums[name],
                   "per_problem": {os.path.basename(p): c for (s, p, n), c in zip(runs, results)
                                   if s == suite and n == name}}
            for k in COUNTS:
                row[f"{k}_ratio"] = sums[name][k] / sums[first][k] if sums[first][k] else None
            rows.append(row)
            cells = " | ".join(f"{row[k]:,} | {row[k + '_ratio']:.3f}" if row[k + "_ratio"] else f"{row[k]:,} | –"
                               for k in COUNTS)
            print(f"| {row['suite']} | {len(problems)} | {name} | {cells} | {row['solved']}/{len(problems)} |")
    os.makedirs(os.path.dirname(os.path.abspath(args.json)), exist_ok=True)
    with open(args.json, "w") as f:
        json.dump({"machine": machine(), "budget": args.budget,
                   "command": " ".join(shlex.quote(a) for a in sys.argv), "rows": rows}, f, indent=2)
    print(f"\nwrote {args.json}")


if __name__ == "__main__":
    main()
