#!/usr/bin/env python3
"""Success rates of program search: successes out of N runs per problem, for several settings.

    python3 bench/success_rates.py --suite problems/psb1 [--problems a,b,...] [--seeds 1-5]
        [--budget 300000] [--setting NAME="OPTIONS" ...] [--jobs 2] [--threads 1]
        [--out bench/results/success] [--json PATH]

A run is one `gpusynth campaign` over the chosen problems with one --seed (each problem's seed is
derived from it and the problem's name), so N seeds are N independent runs of every problem. Each
setting is a name and extra campaign options, e.g. --setting error="--case-scores error"
--setting pass="--case-scores pass"; the default is the campaign's defaults alone. Campaigns run
--jobs at a time, each in OUT/SETTING/seed-S; re-running the same command resumes them (a
finished campaign is skipped). Prints, per problem and setting, runs solved on the train cases,
runs whose solution also passes every test case (generalises), and the median candidates to a
solution; writes JSON with the machine it ran on. Not a test: nothing here checks a target.
"""
import argparse
import concurrent.futures
import json
import os
import shlex
import shutil
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cluster_scaling import machine  # noqa: E402


def fail(message):
    print(f"success_rates: {message}", file=sys.stderr)
    sys.exit(2)


def parse_seeds(text):
    seeds = []
    for part in text.split(","):
        if "-" in part:
            lo, hi = part.split("-", 1)
            seeds.extend(range(int(lo), int(hi) + 1))
        else:
            seeds.append(int(part))
    if not seeds:
        fail("--seeds names no seed")
    return seeds


def parse_settings(items):
    settings = {}
    for item in items or ["default="]:
        if "=" not in item:
            fail(f"--setting must be NAME=\"OPTIONS\", not '{item}'")
        name, options = item.split("=", 1)
        if not name or "/" in name or name in settings:
            fail(f"--setting name '{name}' is empty, has a '/' or is given twice")
        settings[name] = shlex.split(options)
    return settings


def make_suite(suite, problems, directory):
    """The chosen problems of suite as symbolic links in directory (all of them when none)."""
    available = sorted(f[:-5] for f in os.listdir(suite) if f.endswith(".json"))
    chosen = problems or available
    missing = [p for p in chosen if p not in available]
    if missing:
        fail(f"{suite} has no problem {', '.join(missing)}")
    shutil.rmtree(directory, ignore_errors=True)
    os.makedirs(directory)
    for p in chosen:
        os.symlink(os.path.abspath(os.path.join(suite, p + ".json")), os.path.join(directory, p + ".json"))
    return chosen


def read_summary(path):
    lines = []
    if os.path.exists(path):
        with open(path) as f:
            lines = [json.loads(line) for line in f if line.strip()]
    return {line["problem"]: line for line in lines}


def run_campaign(args, suite, out, seed, options):
    command = [args.gpusynth, "campaign", "--suite", suite, "--out", out, "--seed", str(seed), "--budget",
               str(args.budget), "--device", args.device, "--threads", str(args.threads), "--record-every", "0",
               "--quiet"] + options
    start = time.monotonic()
    with open(out + ".log", "w") as log:
        code = subprocess.run(command, stdout=log, stderr=subprocess.STDOUT).returncode
    return code, time.monotonic() - start, command


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--suite", default=os.path.join(ROOT, "problems/psb1"))
    ap.add_argument("--problems", default="", help="comma-separated problem names (default: the whole suite)")
    ap.add_argument("--seeds", default="1-5", help="runs: seeds as 1-5 or 1,3,7")
    ap.add_argument("--budget", type=int, default=300000, help="candidates per run of a problem")
    ap.add_argument("--setting", action="append", help='NAME="campaign options" (repeatable)')
    ap.add_argument("--jobs", type=int, default=max(1, (os.cpu_count() or 1)), help="campaigns at a time")
    ap.add_argument("--threads", type=int, default=1, help="CPU threads per campaign")
    ap.add_argument("--device", default="cpu")
    ap.add_argument("--gpusynth", default=os.path.join(ROOT, "build/release/jobs/gpusynth"))
    ap.add_argument("--out", default=os.path.join(ROOT, "bench/results/success"))
    ap.add_argument("--json", default="", help="where the JSON goes (default: OUT.json)")
    args = ap.parse_args()
    if not os.access(args.gpusynth, os.X_OK):
        fail(f"{args.gpusynth}: not an executable (build it: cmake --workflow --preset release)")
    if not os.path.isdir(args.suite):
        fail(f"{args.suite}: not a folder of problems")
    if args.budget <= 0 or args.jobs <= 0 or args.threads < 0:
        fail("--budget and --jobs must be positive, --threads at least 0")
    seeds = parse_seeds(args.seeds)
    settings = parse_settings(args.setting)
    os.makedirs(args.out, exist_ok=True)
    problems = make_suite(args.suite, [p for p in args.problems.split(",") if p], os.path.join(args.out, "suite"))
    suite = os.path.join(args.out, "suite")
    about = machine()

    jobs = [(name, seed) for seed in seeds for name in settings]
    print(f"{len(problems)} problems x {len(seeds)} seeds x {len(settings)} settings = {len(jobs)} campaigns, "
          f"{args.jobs} at a time, budget {args.budget:,} candidates", flush=True)
    failures = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        futures = {}
        for name, seed in jobs:
            out = os.path.join(args.out, name, f"seed-{seed}")
            os.makedirs(os.path.dirname(out), exist_ok=True)
            ledger = os.path.join(out, "campaign.jsonl")
            if os.path.exists(ledger):  # a resume keeps what an earlier binary found: say so
                with open(ledger) as f:
                    finished = sum(1 for line in f if line.strip())
                print(f"{out}: resuming, {finished} problems already in its ledger (another --out starts afresh)",
                      flush=True)
            futures[pool.submit(run_campaign, args, suite, out, seed, settings[name])] = (name, seed, out)
        for done, future in enumerate(concurrent.futures.as_completed(futures), 1):
            name, seed, out = futures[future]
            code, seconds, command = future.result()
            summary = read_summary(os.path.join(out, "campaign.jsonl"))
            solved = sum(1 for line in summary.values() if line["solved"])
            print(f"  [{done}/{len(jobs)}] {name} seed {seed}: {solved}/{len(summary)} solved, {seconds:.0f} s"
                  + ("" if code == 0 else f", exit status {code} (see {out}.log)"), flush=True)
            if code != 0:
                failures.append(" ".join(shlex.quote(c) for c in command))

    rows = []
    for problem in problems:
        row = {"problem": problem, "settings": {}}
        for name in settings:
            runs = [read_summary(os.path.join(args.out, name, f"seed-{s}", "campaign.jsonl")).get(problem)
                    for s in seeds]
            runs = [r for r in runs if r is not None]
            solved = [r for r in runs if r["solved"]]
            row["settings"][name] = {
                "runs": len(runs),
                "solved": len(solved),
                "generalised": sum(1 for r in solved if r["generalises"]),
                "median_candidates_to_solution": statistics.median(r["candidates"] for r in solved) if solved else None,
                "seconds": sum(r["seconds"] for r in runs),
            }
        rows.append(row)

    names = list(settings)
    print(f"\nmachine: {about['cpu']}, {about['hardware_threads']} hardware threads, commit {about['git_commit']}; "
          f"budget {args.budget:,} candidates; seeds {args.seeds}")
    print("cells: solved/runs (generalised) median candidates to a solution\n")
    width = max(len(p) for p in problems + ["problem"])
    print(f"{'problem':<{width}}  " + "  ".join(f"{n:>26}" for n in names))
    totals = {n: [0, 0, 0] for n in names}
    for row in rows:
        cells = []
        for n in names:
            s = row["settings"][n]
            median = s["median_candidates_to_solution"]
            cells.append(f"{s['solved']}/{s['runs']} ({s['generalised']}) " + (f"{median:>10,.0f}" if median else f"{'-':>10}"))
            totals[n][0] += s["solved"]
            totals[n][1] += s["runs"]
            totals[n][2] += s["generalised"]
        print(f"{row['problem']:<{width}}  " + "  ".join(f"{c:>26}" for c in cells))
    print(f"{'total':<{width}}  " + "  ".join(f"{f'{t[0]}/{t[1]} ({t[2]})':>26}" for t in totals.values()))
    path = args.json or args.out.rstrip("/") + ".json"
    with open(path, "w") as f:
        json.dump({"machine": about, "options": vars(args), "settings": {n: settings[n] for n in names},
                   "seeds": seeds, "problems": rows}, f, indent=1)
    print(f"\nwrote {path}")
    if failures:
        fail(f"{len(failures)} campaigns failed; e.g. {failures[0]}")


if __name__ == "__main__":
    main()
