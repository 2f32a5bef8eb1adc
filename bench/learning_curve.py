#!/usr/bin/env python3
"""Learning curves of campaigns: problems solved against problems seen, from each run's ledger.

    python3 bench/learning_curve.py RUN [RUN ...] [--names A,B] [--every 10] [--out PREFIX]

Reads RUN/campaign.jsonl (one line per finished problem, in the order the problems finished; on
one process that is the suite's order) and prints, every --every problems, how many each run
had solved so far and the search policy's step that searched the last of them (the ledger's
"policy", docs/cluster.md "Learning during a campaign"). Writes PREFIX.json (the curves and the
machine) and PREFIX.svg (the plot; no plotting library needed) when --out is given. A run with
learning beside one without shows whether what a campaign learns helps its later problems.
Not a test: nothing here checks a target.
"""

import argparse
import json
import os
import platform
import re
import sys


def read_ledger(run):
    path = os.path.join(run, "campaign.jsonl")
    rows = []
    try:
        with open(path) as f:
            for number, line in enumerate(f, 1):
                if not line.strip():
                    continue
                try:
                    rows.append(json.loads(line))
                except json.JSONDecodeError:
                    print(f"{path}:{number}: not a JSON line, skipped (cut short by a crash?)", file=sys.stderr)
    except OSError as e:
        sys.exit(f"learning_curve: {path}: {e.strerror}")
    if not rows:
        sys.exit(f"learning_curve: {path}: no finished problems")
    return rows


def policy_step(row):
    m = re.search(r"step (\d+)", row.get("policy", ""))
    return int(m.group(1)) if m else None


def curve(rows):
    solved, points = 0, []
    for seen, row in enumerate(rows, 1):
        solved += bool(row.get("solved"))
        points.append({"seen": seen, "solved": solved, "policy_step": policy_step(row)})
    return points


def svg(curves, names, path):
    width, height, pad = 640, 400, 50
    most_seen = max(len(c) for c in curves)
    most_solved = max(max(p["solved"] for p in c) for c in curves) or 1
    colours = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b"]

    def x(seen):
        return pad + (width - 2 * pad) * seen / most_seen

    def y(solved):
        return height - pad - (height - 2 * pad) * solved / most_solved

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" font-family="sans-serif" '
           'font-size="12">', f'<rect width="{width}" height="{height}" fill="white"/>',
           f'<line x1="{pad}" y1="{height - pad}" x2="{width - pad}" y2="{height - pad}" stroke="black"/>',
           f'<line x1="{pad}" y1="{pad}" x2="{pad}" y2="{height - pad}" stroke="black"/>',
           f'<text x="{width / 2}" y="{height - 12}" text-anchor="middle">problems seen (of {most_seen})</text>',
           f'<text x="14" y="{height / 2}" transform="rotate(-90 14 {height / 2})" '
           'text-anchor="middle">problems solved</text>',
           f'<text x="{pad - 6}" y="{y(most_solved) + 4}" text-anchor="end">{most_solved}</text>',
           f'<text x="{pad - 6}" y="{height - pad + 4}" text-anchor="end">0</text>']
    for i, (c, name) in enumerate(zip(curves, names)):
        colour = colours[i % len(colours)]
        points = " ".join(f"{x(p['seen']):.1f},{y(p['solved']):.1f}" for p in [{"seen": 0, "solved": 0}] + c)
        out.append(f'<polyline fill="none" stroke="{colour}" stroke-width="1.5" points="{points}"/>')
        out.append(f'<text x="{pad + 10}" y="{pad + 16 * (i + 1)}" fill="{colour}">{name}: '
                   f'{c[-1]["solved"]} of {c[-1]["seen"]}</text>')
    out.append("</svg>")
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("runs", nargs="+", help="campaign run directories")
    ap.add_argument("--names", help="comma-separated names of the runs (default: the directories)")
    ap.add_argument("--every", type=int, default=10, help="a table row every so many problems")
    ap.add_argument("--out", help="write PREFIX.json and PREFIX.svg")
    args = ap.parse_args()
    names = args.names.split(",") if args.names else args.runs
    if len(names) != len(args.runs):
        sys.exit("learning_curve: --names needs one name per run")
    if args.every < 1:
        sys.exit("learning_curve: --every must be at least 1")
    curves = [curve(read_ledger(run)) for run in args.runs]

    header = f"{'seen':>6}" + "".join(f"  {n[-24:]:>24} {'step':>8}" for n in names)
    print(header)
    for seen in sorted(set(range(args.every, max(map(len, curves)) + 1, args.every)) | {max(map(len, curves))}):
        line = f"{seen:>6}"
        for c in curves:
            if seen <= len(c):
                p = c[seen - 1]
                step = "-" if p["policy_step"] is None else str(p["policy_step"])
                line += f"  {p['solved']:>24} {step:>8}"
            else:
                line += f"  {'':>24} {'':>8}"
        print(line)

    if args.out:
        machine = {"host": platform.node(), "cpu": platform.processor() or platform.machine(),
                   "hardware_threads": os.cpu_count()}
        with open(args.out + ".json", "w") as f:
            json.dump({"machine": machine, "runs": dict(zip(names, args.runs)),
                       "curves": dict(zip(names, curves))}, f, indent=1)
        svg(curves, names, args.out + ".svg")
        print(f"wrote {args.out}.json and {args.out}.svg")


if __name__ == "__main__":
    main()
