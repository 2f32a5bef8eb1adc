#!/usr/bin/env python3
"""Success rates of a study run by slurm/success-rates.sbatch: per problem, the runs (seeds)
finished, how many solved the train cases, how many of those generalise (pass every test case),
the median candidates to a solution and the seeds that solved it.

    python3 slurm/success_summary.py RUN [--problems "a b"] [--seeds "1 2 3"]

RUN holds one directory per task, RUN/PROBLEM/seed-SEED/, whose campaign.jsonl has the task's
result once it has finished. The study is the given problems x seeds (`bash
slurm/success-rates.sbatch --summary` passes those of its environment), or else every task
directory there is; a task without a result is listed as not finished (pending, running, or
failed: its log says which). Prints a table and writes it to RUN/summary.tsv. Python's standard
library only. Exit status 0, or 2 when RUN is not a study.
"""
import argparse
import json
import os
import re
import statistics
import sys


def fail(message):
    print(f"success_summary: {message}", file=sys.stderr)
    sys.exit(2)


def result(run, problem, seed):
    """The task's line of campaign.jsonl, or None while it has none."""
    path = os.path.join(run, problem, f"seed-{seed}", "campaign.jsonl")
    if not os.path.exists(path):
        return None
    with open(path) as f:
        for number, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
            except json.JSONDecodeError:
                # A line cut short by a killed task: the task has not finished.
                print(f"success_summary: {path}:{number}: not JSON, ignored", file=sys.stderr)
                continue
            if row.get("problem") == problem:
                return row
    return None


def task_directories(run):
    """(problem, seed) of every RUN/PROBLEM/seed-SEED/ directory."""
    tasks = []
    for problem in sorted(os.listdir(run)):
        folder = os.path.join(run, problem)
        if not os.path.isdir(folder):
            continue
        for entry in os.listdir(folder):
            match = re.fullmatch(r"seed-(\d+)", entry)
            if match and os.path.isdir(os.path.join(folder, entry)):
                tasks.append((problem, int(match.group(1))))
    return tasks


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("run", help="the study's directory (GPUSYNTH_RUN)")
    ap.add_argument("--problems", default="", help="problem names, separated by spaces or commas")
    ap.add_argument("--seeds", default="", help="seeds, separated by spaces or commas")
    args = ap.parse_args()
    if not os.path.isdir(args.run):
        fail(f"{args.run}: no such directory")
    found = task_directories(args.run)
    problems = args.problems.replace(",", " ").split() or sorted({p for p, _ in found})
    try:
        seeds = [int(s) for s in args.seeds.replace(",", " ").split()] or sorted({s for _, s in found})
    except ValueError:
        fail(f"--seeds '{args.seeds}': not numbers")
    if not problems or not seeds:
        fail(f"{args.run}: no task directories (PROBLEM/seed-SEED/) and no --problems and --seeds")

    rows, unfinished = [], []
    for problem in problems:
        runs = {}
        for seed in seeds:
            r = result(args.run, problem, seed)
            if r is None:
                unfinished.append(f"{problem} seed {seed}")
            else:
                runs[seed] = r
        solved = [s for s in seeds if s in runs and runs[s]["solved"]]
        rows.append({
            "problem": problem,
            "planned": len(seeds),
            "finished": len(runs),
            "solved": len(solved),
            "generalised": sum(1 for s in solved if runs[s]["generalises"]),
            "median": statistics.median(runs[s]["candidates"] for s in solved) if solved else None,
            "solved_seeds": solved,
        })

    settings = os.path.join(args.run, "settings.txt")
    if os.path.exists(settings):
        with open(settings) as f:
            print(f"study {args.run}: {f.read().strip()}")
    print(f"{len(problems)} problems x {len(seeds)} seeds; solved: runs that passed every train case "
          "(of the runs finished), generalised: of those, the ones that pass every test case\n")
    width = max(len(p) for p in problems + ["problem"])
    print(f"{'problem':<{width}}  {'solved':>9}  {'generalised':>11}  {'median candidates':>17}  solved with seeds")
    for r in rows:
        median = f"{r['median']:,.0f}" if r["median"] is not None else "-"
        seeds_solved = " ".join(str(s) for s in r["solved_seeds"]) or "-"
        print(f"{r['problem']:<{width}}  {r['solved']:>4}/{r['finished']:<4}  {r['generalised']:>11}  {median:>17}  {seeds_solved}")
    finished = sum(r["finished"] for r in rows)
    total_solved = sum(r["solved"] for r in rows)
    print(f"{'total':<{width}}  {total_solved:>4}/{finished:<4}  {sum(r['generalised'] for r in rows):>11}")
    print(f"\nproblems solved at least once: {sum(1 for r in rows if r['solved'])} of {len(rows)}")
    if unfinished:
        shown = ", ".join(unfinished[:10]) + (", ..." if len(unfinished) > 10 else "")
        print(f"not finished: {len(unfinished)} of {len(problems) * len(seeds)} tasks ({shown})")
    else:
        print(f"every task finished: {len(problems) * len(seeds)}")

    path = os.path.join(args.run, "summary.tsv")
    with open(path + ".tmp", "w") as f:
        f.write("problem\tplanned\tfinished\tsolved\tgeneralised\tmedian_candidates\tsolved_seeds\n")
        for r in rows:
            median = f"{r['median']:g}" if r["median"] is not None else "-"
            f.write(f"{r['problem']}\t{r['planned']}\t{r['finished']}\t{r['solved']}\t{r['generalised']}\t{median}\t"
                    + (",".join(str(s) for s in r["solved_seeds"]) or "-") + "\n")
    os.replace(path + ".tmp", path)
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
