#!/usr/bin/env python3
"""The records bit-flip sweep: a campaign's records file with one bit flipped, for many bits
drawn at random over the whole file, is read by `gpusynth trace summary` and `trace export`.
Each read must end with exit status 0 (the bit was in space no reader uses, or the reader
recovered) or 1/2 with a message naming the file; never a signal (a crash inside libhdf5), a hang
or another status. A read that exits 0 with output other than the unflipped file's must warn,
naming the file (the damaged column or problem left out); one that does not is a silent change,
and at most --allow-silent of those pass.

    records_bitflip.py GPUSYNTH [--flips N] [--seed S] [--allow-silent K] [--keep DIR]

The file is made by a small campaign (the number-io and count-odds problems, 6 train cases,
enumeration) in a temporary directory. Environment: GPUSYNTH_FLIPS overrides --flips.
"""
import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
TIMEOUT = 20  # seconds per read: a hang


def small_problem(name, out):
    with open(os.path.join(ROOT, "problems", "psb1", name + ".json")) as f:
        p = json.load(f)
    p["train"], p["test"] = p["train"][:6], p["test"][:4]
    with open(out, "w") as f:
        json.dump(p, f)


# libhdf5 leaks on some of its error paths; a sanitizer build's leak check must not count those.
ENV = dict(os.environ, LSAN_OPTIONS=":".join(
    x for x in ["suppressions=" + os.path.join(HERE, "libhdf5-leaks.supp"), os.environ.get("LSAN_OPTIONS")] if x))


def read(gpusynth, records, scratch):
    """(what happened, output) of the two reads of a records file: "error", "read" or
    "warned" (read, with a warning naming the file), else what went wrong."""
    results, warned = [], False
    for args in (["summary", records], ["export", records, "--format", "jsonl", "-o", scratch]):
        if os.path.exists(scratch):
            os.remove(scratch)
        try:
            r = subprocess.run([gpusynth, "trace"] + args, capture_output=True, timeout=TIMEOUT, env=ENV)
        except subprocess.TimeoutExpired:
            return f"hang: trace {args[0]} ran past {TIMEOUT} s", None
        if r.returncode < 0:
            return f"signal {-r.returncode}: trace {args[0]}: {r.stderr.decode(errors='replace')[-300:]}", None
        if r.returncode not in (0, 1, 2):
            return f"exit {r.returncode}: trace {args[0]}", None
        if r.returncode != 0:
            message = r.stderr.decode(errors="replace").strip()
            if records not in message:
                return f"error naming no file: trace {args[0]}: {message[:300]}", None
            return "error", None
        results.append(r.stdout)
        warned |= f"warning: {records}" in r.stderr.decode(errors="replace")
        if args[0] == "export":
            with open(scratch, "rb") as f:
                results.append(f.read())
    return "warned" if warned else "read", results


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("gpusynth")
    parser.add_argument("--flips", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--allow-silent", type=int, default=0)
    parser.add_argument("--keep", help="copy the files of failing flips here")
    args = parser.parse_args()
    flips = int(os.environ.get("GPUSYNTH_FLIPS", args.flips))
    with tempfile.TemporaryDirectory() as tmp:
        suite = os.path.join(tmp, "suite")
        os.makedirs(suite)
        for name in ("number-io", "count-odds"):
            small_problem(name, os.path.join(suite, name + ".json"))
        run = os.path.join(tmp, "run")
        r = subprocess.run([args.gpusynth, "campaign", "--suite", suite, "--out", run, "-g", "enumerate",
                            "--budget", "3000", "--seed", "7", "--record-every", "20"],
                           capture_output=True, text=True, timeout=600)
        if r.returncode != 0:
            sys.exit(f"records_bitflip.py: the campaign failed ({r.returncode}): {r.stderr[-2000:]}")
        original = os.path.join(run, "records.h5")
        with open(original, "rb") as f:
            data = f.read()
        scratch = os.path.join(tmp, "export.jsonl")
        what, expected = read(args.gpusynth, original, scratch)
        if what != "read":
            sys.exit(f"records_bitflip.py: the unflipped file does not read: {what}")
        rng = random.Random(args.seed)
        counts = {"unchanged": 0, "error": 0, "warned": 0, "silent": 0}
        failures, silent = [], []
        flipped = os.path.join(tmp, "flipped.h5")
        for n in range(flips):
            bit = rng.randrange(len(data) * 8)
            damaged = bytearray(data)
            damaged[bit // 8] ^= 1 << (bit % 8)
            with open(flipped, "wb") as f:
                f.write(damaged)
            what, out = read(args.gpusynth, flipped, scratch)
            label = f"byte {bit // 8} bit {bit % 8}"
            if what == "error":
                counts["error"] += 1
            elif what in ("read", "warned") and out == expected:
                counts["unchanged"] += 1
            elif what == "warned":
                counts["warned"] += 1
            elif what == "read":
                counts["silent"] += 1
                silent.append(label)
            else:
                failures.append(f"{label}: {what}")
            if (what not in ("read", "warned", "error") or (what == "read" and out != expected)) and args.keep:
                os.makedirs(args.keep, exist_ok=True)
                shutil.copy(flipped, os.path.join(args.keep, f"flip-{bit // 8}-{bit % 8}.h5"))
            if (n + 1) % 100 == 0:
                print(f"records_bitflip.py: {n + 1}/{flips} flips", file=sys.stderr, flush=True)
        print(f"records_bitflip.py: {flips} single-bit flips of a {len(data)}-byte records file: "
              f"{counts['unchanged']} read unchanged, {counts['error']} refused with an error naming the file, "
              f"{counts['warned']} read in part with a warning naming the file, {counts['silent']} changed "
              f"silently, {len(failures)} crashes, hangs or bad exits")
        for s in silent:
            print(f"  silent change: {s}")
        for f in failures:
            print(f"  FAIL {f}")
        if failures or counts["silent"] > args.allow_silent:
            sys.exit(1)


if __name__ == "__main__":
    main()
