#!/usr/bin/env python3
"""Settings of one bench/success_rates.py run against a baseline setting, problem by problem.

    python3 bench/compare_settings.py RESULTS.json BASELINE [SETTING ...] [--prepared N]

For each setting (default: every other one in the file): problems solved on the train cases and
generalising (all seeds together), problems it solves that the baseline does not and the other
way round, and over the problems both solve the median candidates to a solution of each and the
median and geometric mean of the per-problem ratio baseline / setting. --prepared N subtracts N
candidates spent before the search proper from every count (the enumeration's lambda bodies,
50,000 by default, when every problem has a list parameter); counts below it are taken as 1.
Not a test: nothing here checks a target.
"""
import argparse
import json
import statistics
import sys


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("results")
    ap.add_argument("baseline")
    ap.add_argument("settings", nargs="*")
    ap.add_argument("--prepared", type=int, default=0)
    args = ap.parse_args()
    with open(args.results) as f:
        data = json.load(f)
    names = list(data["settings"])
    if args.baseline not in names:
        sys.exit(f"compare_settings: no setting '{args.baseline}' in {args.results} (it has {', '.join(names)})")
    settings = args.settings or [n for n in names if n != args.baseline]
    for s in settings:
        if s not in names:
            sys.exit(f"compare_settings: no setting '{s}' in {args.results} (it has {', '.join(names)})")

    def count(r):
        return max(1, r["median_candidates_to_solution"] - args.prepared)

    print(f"{'setting':<16} {'solved':>7} {'general':>8} {'gained':>7} {'lost':>5} {'both':>5} "
          f"{'median base':>12} {'median it':>10} {'median ratio':>13} {'geo ratio':>10}")
    for s in [args.baseline] + settings:
        solved = sum(p["settings"][s]["solved"] for p in data["problems"])
        general = sum(p["settings"][s]["generalised"] for p in data["problems"])
        both, gained, lost = [], 0, 0
        for p in data["problems"]:
            b, x = p["settings"][args.baseline], p["settings"][s]
            if b["solved"] and x["solved"]:
                both.append((count(b), count(x)))
            gained += bool(x["solved"] and not b["solved"])
            lost += bool(b["solved"] and not x["solved"])
        ratios = [b / x for b, x in both]
        row = f"{s:<16} {solved:>7} {general:>8} {gained:>7} {lost:>5} {len(both):>5}"
        if both:
            row += (f" {statistics.median(b for b, _ in both):>12,.0f} {statistics.median(x for _, x in both):>10,.0f}"
                    f" {statistics.median(ratios):>13.2f} {statistics.geometric_mean(ratios):>10.2f}")
        print(row)


if __name__ == "__main__":
    main()
