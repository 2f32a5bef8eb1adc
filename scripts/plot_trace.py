#!/usr/bin/env python3
"""Plots a gpusynth run's records (docs/trace-format.md) with h5py and matplotlib only.

    scripts/plot_trace.py RUN [-o DIR]

RUN is a run directory (its records.h5, and the committed shards/*.h5 of a campaign not yet
finished) or one records file.
Writes two PNG files into DIR (default: RUN, or the file's directory):

  solve_rate.png   fraction of problems solved against candidates evaluated per problem
                   (a problem counts as solved from the iteration whose row says solved)
  throughput.png   candidates per second of each iteration (evaluated / the sum of its phase
                   times) against the run's elapsed time, one line per problem

Exit status 2, with a message naming the file, when RUN holds no readable records.
"""
import argparse
import glob
import os
import sys


def fail(message):
    print(f"plot_trace.py: {message}", file=sys.stderr)
    sys.exit(2)


try:
    import h5py
    import matplotlib

    matplotlib.use("Agg")  # files only, no display needed
    import matplotlib.pyplot as plt
except ImportError as e:
    fail(f"needs h5py and matplotlib ({e}); on Debian: apt-get install python3-h5py python3-matplotlib")

PHASES = ["generate_seconds", "compile_seconds", "execute_seconds", "score_seconds", "select_seconds"]


def records_files(run):
    if os.path.isdir(run):
        # records.h5 (or, when there is none, an earlier version's rank files, in rank order),
        # then the committed shards of a campaign not yet finished (as records::records_files).
        files = glob.glob(os.path.join(run, "records.h5"))
        if not files:
            ranks = glob.glob(os.path.join(run, "records.rank-*.h5"))
            files = sorted((f for f in ranks if os.path.basename(f)[13:-3].isdigit()),
                           key=lambda f: int(os.path.basename(f)[13:-3]))
        files += sorted(f for f in glob.glob(os.path.join(run, "shards", "*.h5")) if os.path.isfile(f) and not os.path.islink(f))
        if not files:
            fail(f"{run}: no records file (records.h5 or shards/*.h5) in this directory")
        return files
    if not os.path.exists(run):
        fail(f"{run}: no such run directory or records file")
    return [run]


def read_problems(path):
    """(name, iterations columns as numpy arrays) of each problem of one records file."""
    try:
        try:  # no file lock: a run being written can be read between its flushes
            f = h5py.File(path, "r", locking=False)
        except TypeError:  # h5py before 3.5 has no locking argument
            f = h5py.File(path, "r")
    except OSError as e:
        fail(f"{path}: cannot be read as HDF5 ({e})")
    with f:
        fmt = f.attrs.get("format")  # bytes (a fixed-length string) from format 2, str before
        if (fmt.decode() if isinstance(fmt, bytes) else fmt) != "gpusynth-records" or "problems" not in f:
            fail(f"{path}: not a gpusynth records file")
        problems = []
        for name, group in f["problems"].items():
            if "iterations" not in group:
                print(f"plot_trace.py: warning: {path}: problem {name} has no iterations table", file=sys.stderr)
                continue
            it = group["iterations"]
            columns = ["iteration", "candidates_evaluated", "cumulative_candidates", "elapsed_seconds", "solved"] + PHASES
            rows = min(it[c].shape[0] for c in columns)  # a crash can leave columns of different lengths
            problems.append((name, {c: it[c][:rows] for c in columns}))
        return problems


def plot_solve_rate(problems, out):
    needed = []  # candidates each solved problem took
    for _, it in problems:
        solved = it["solved"].nonzero()[0]
        if len(solved):
            needed.append(int(it["cumulative_candidates"][solved[0]]))
    needed.sort()
    total = len(problems)
    fig, ax = plt.subplots(figsize=(7, 4.5))
    if needed:
        longest = max(int(it["cumulative_candidates"][-1]) if len(it["iteration"]) else 0 for _, it in problems)
        xs = [0] + needed + [max(longest, needed[-1])]
        ys = [0] + [(i + 1) / total for i in range(len(needed))] + [len(needed) / total]
        ax.step(xs, ys, where="post")
    ax.set_xlabel("candidates evaluated per problem")
    ax.set_ylabel("fraction of problems solved")
    ax.set_ylim(0, 1.02)
    ax.set_title(f"solve rate: {len(needed)}/{total} problems solved")
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(out, dpi=100)
    plt.close(fig)


def plot_throughput(problems, out):
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for name, it in problems:
        seconds = sum(it[p] for p in PHASES)
        keep = seconds > 0
        if keep.any():
            ax.plot(it["elapsed_seconds"][keep], it["candidates_evaluated"][keep] / seconds[keep],
                    marker=".", label=name if len(problems) <= 10 else None)
    ax.set_xlabel("elapsed seconds")
    ax.set_ylabel("candidates / s (per iteration)")
    ax.set_title("throughput")
    ax.grid(alpha=0.3)
    if 0 < len(problems) <= 10:
        ax.legend(fontsize="small")
    fig.tight_layout()
    fig.savefig(out, dpi=100)
    plt.close(fig)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter,
                                     epilog="\n".join(__doc__.split("\n")[2:]))
    parser.add_argument("run", metavar="RUN", help="run directory or records file")
    parser.add_argument("-o", "--output", metavar="DIR", help="where the PNG files go (default: RUN's directory)")
    args = parser.parse_args()
    problems = []
    for path in records_files(args.run):
        problems += read_problems(path)
    out_dir = args.output or (args.run if os.path.isdir(args.run) else os.path.dirname(args.run) or ".")
    os.makedirs(out_dir, exist_ok=True)
    plot_solve_rate(problems, os.path.join(out_dir, "solve_rate.png"))
    plot_throughput(problems, os.path.join(out_dir, "throughput.png"))
    print(f"plot_trace.py: {len(problems)} problems -> {out_dir}/solve_rate.png, {out_dir}/throughput.png")


if __name__ == "__main__":
    main()
