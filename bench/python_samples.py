#!/usr/bin/env python3
"""Python model samples judged per second: `gpusynth eval --model-samples` against the way
subprocess harnesses (human-eval, EvalPlus) judge them, with every verdict compared to CPython's.

    python3 bench/python_samples.py [--samples 100000] [--subprocess-samples 1000]
        [--gpusynth build/release/jobs/gpusynth] [--repetitions 3] [--out bench/results/python_samples.json]

1. Generates --samples Python samples for the bundled tasks (docs/examples/samples/tasks) from
   program templates per task — right, wrong, trapping and outside the subset — with varied
   names and constants, so no two samples are the same text.
2. gpusynth: `eval --model-samples` on all of them at --threads 1 and 2 (--repetitions each;
   the median samples/s, wall time of the whole command, start-up and parsing included).
3. CPython in process: every sample exec'd and called on each train case of its task; its
   verdict (passes or not) is compared with gpusynth's, sample by sample.
4. The subprocess harness: --subprocess-samples of them (a seeded random subset) judged as
   human-eval does — one `python3` process per sample running the program and the task's
   checks, with a timeout — on a pool of 1 and of 2 workers; samples/s, and verdicts compared
   with gpusynth's too.
Prints a table; writes the JSON (with the machine) to --out.
"""
import argparse
import concurrent.futures
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from machine_info import ROOT, machine  # noqa: E402

TASKS = os.path.join(ROOT, "docs", "examples", "samples", "tasks")

# Per task: (kind, template). {a}, {b}: variable names; {k}: a small constant; {pad}: a dead
# assignment that makes the text unique. "outside": outside the subset (CPython may pass it).
TEMPLATES = {
    "sum-list": [
        ("right", "def solve(xs: list[int]) -> int:\n    {pad}\n    {a} = 0\n    for {b} in xs:\n        {a} += {b}\n    return {a}\n"),
        ("right", "def solve(xs: list[int]) -> int:\n    {pad}\n    return sum(xs) + {k} - {k}\n"),
        ("right", "def solve(xs: list[int]) -> int:\n    {pad}\n    {a} = 0\n    for {b} in range(len(xs)):\n        {a} += xs[-1 - {b}]\n    return {a}\n"),
        ("wrong", "def solve(xs: list[int]) -> int:\n    {pad}\n    return sum(xs) + {k}\n"),
        ("wrong", "def solve(xs: list[int]) -> int:\n    {pad}\n    {a} = 0\n    for {b} in xs[1:]:\n        {a} += {b}\n    return {a}\n"),
        ("trap", "def solve(xs: list[int]) -> int:\n    {pad}\n    return xs[0] + sum(xs[1:]) + 0 * {k}\n"),
        ("trap", "def solve(xs: list[int]) -> int:\n    {pad}\n    {a} = len(xs) - len(xs)\n    return sum(xs) // ({a} * {k})\n"),
        ("outside", "def solve(xs: list[int]) -> int:\n    {pad}\n    return sum({b} for {b} in xs)\n"),
    ],
    "count-evens": [
        ("right", "from typing import List\n\ndef solve(xs: List[int]) -> int:\n    \"\"\"Count the even numbers.\"\"\"\n    {pad}\n    {a} = 0\n    for {b} in xs:\n        if {b} % 2 == 0:\n            {a} += 1\n    return {a}\n"),
        ("right", "def is_even({b}: int) -> bool:\n    return {b} % 2 == 0\n\ndef solve(xs: list[int]) -> int:\n    {pad}\n    {a} = 0\n    for x in xs:\n        if is_even(x):\n            {a} = {a} + 1\n    return {a}\n"),
        ("wrong", "def solve(xs: list[int]) -> int:\n    {pad}\n    {a} = 0\n    for {b} in xs:\n        if {b} % 2 == 1:\n            {a} += 1\n    return {a}\n"),
        ("wrong", "def solve(xs: list[int]) -> int:\n    {pad}\n    return len(xs) // 2 + {k} - {k}\n"),
        ("trap", "def solve(xs: list[int]) -> int:\n    {pad}\n    {a} = 0\n    for {b} in range(len(xs) + 1):\n        if xs[{b}] % 2 == 0:\n            {a} += 1\n    return {a}\n"),
        ("outside", "def solve(xs: list[int]) -> int:\n    {pad}\n    return len([{b} for {b} in xs if {b} % 2 == 0])\n"),
    ],
    "largest-or-zero": [
        ("right", "def solve(xs: list[int]) -> int:\n    {pad}\n    if len(xs) == 0:\n        return 0\n    {a} = xs[0]\n    for {b} in xs[1:]:\n        {a} = max({a}, {b})\n    return {a}\n"),
        ("right", "def solve(xs: list[int]) -> int:\n    {pad}\n    if len(xs) == 0:\n        return 0\n    return sorted(xs)[-1]\n"),
        ("wrong", "def solve(xs: list[int]) -> int:\n    {pad}\n    {a} = 0\n    for {b} in xs:\n        if {b} > {a}:\n            {a} = {b}\n    return {a}\n"),
        ("trap", "def solve(xs: list[int]) -> int:\n    {pad}\n    return max(xs) + 0 * {k}\n"),
        ("outside", "def solve(xs: list[int]) -> int:\n    {pad}\n    return max(xs) if xs else 0\n"),
    ],
}
NAMES = ["acc", "total", "n", "result", "count", "best", "s", "value", "out", "m"]
ITEMS = ["x", "y", "v", "item", "e", "i", "j", "k2", "z", "w"]


def load_tasks():
    tasks = {}
    for name in sorted(os.listdir(TASKS)):
        with open(os.path.join(TASKS, name)) as f:
            p = json.load(f)
        tasks[p["name"]] = [(c["inputs"], c["outputs"][0]) for c in p["train"]]
    return tasks


def generate(count, seed):
    rng = random.Random(seed)
    names = sorted(TEMPLATES)
    samples = []
    for i in range(count):
        task = names[i % len(names)]
        kind, template = rng.choice(TEMPLATES[task])
        a, b = rng.choice(NAMES), rng.choice(ITEMS)
        code = template.format(a=a, b=b, k=rng.randint(1, 9), pad=f"unused_{i} = {i}")
        completion = f"Here is my solution:\n```python\n{code}```\n" if i % 3 == 0 else code
        samples.append({"task_id": task, "completion": completion, "language": "python", "kind": kind,
                        "code": code})
    return samples


def cpython_verdict(code, cases):
    namespace = {}
    try:
        exec(compile(code, "<sample>", "exec"), namespace)
        return all(namespace["solve"](*inputs) == expected for inputs, expected in cases)
    except Exception:  # a failing program fails its task, as a trap does
        return False


def run_gpusynth(binary, samples_path, results_path, threads):
    start = time.perf_counter()
    done = subprocess.run([binary, "eval", "--model-samples", samples_path, "--suite", TASKS, "--results",
                           results_path, "--summary", results_path + ".summary.json", "--threads", str(threads),
                           "--k", "1"], capture_output=True, text=True)
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        sys.exit(f"gpusynth eval failed ({done.returncode}): {done.stderr}")
    return seconds


CHECK = "\n\nimport sys\nfor _inputs, _expected in {cases!r}:\n    if solve(*_inputs) != _expected:\n        sys.exit(1)\n"


def subprocess_verdict(code, cases, timeout):
    """human-eval's way: the program and its checks in a fresh interpreter, with a timeout."""
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as f:
        f.write(code + CHECK.format(cases=cases))
        path = f.name
    try:
        done = subprocess.run([sys.executable, path], capture_output=True, timeout=timeout)
        return done.returncode == 0
    except subprocess.TimeoutExpired:
        return False
    finally:
        os.unlink(path)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--samples", type=int, default=100000)
    ap.add_argument("--subprocess-samples", type=int, default=1000)
    ap.add_argument("--gpusynth", default=os.path.join(ROOT, "build", "release", "jobs", "gpusynth"))
    ap.add_argument("--repetitions", type=int, default=3)
    ap.add_argument("--timeout", type=float, default=3.0, help="seconds per subprocess (human-eval: 3)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", default=os.path.join(ROOT, "bench", "results", "python_samples.json"))
    args = ap.parse_args()

    tasks = load_tasks()
    samples = generate(args.samples, args.seed)
    work = tempfile.mkdtemp(prefix="python_samples.")
    samples_path = os.path.join(work, "samples.jsonl")
    with open(samples_path, "w") as f:
        for s in samples:
            f.write(json.dumps({k: s[k] for k in ("task_id", "completion", "language")}) + "\n")

    rows = []
    results_path = os.path.join(work, "results.jsonl")
    for threads in (1, 2):
        times = [run_gpusynth(args.gpusynth, samples_path, results_path, threads) for _ in range(args.repetitions)]
        rows.append({"judge": "gpusynth eval", "workers": threads, "samples": len(samples),
                     "seconds": statistics.median(times), "samples_per_s": len(samples) / statistics.median(times),
                     "runs": times})
    with open(results_path) as f:
        verdicts = [json.loads(line) for line in f]
    gs_pass = [v["passes"] for v in verdicts]
    status = [v["status"] for v in verdicts]

    start = time.perf_counter()
    cp_pass = [cpython_verdict(s["code"], tasks[s["task_id"]]) for s in samples]
    in_process = time.perf_counter() - start
    rows.append({"judge": "CPython exec in process (reference)", "workers": 1, "samples": len(samples),
                 "seconds": in_process, "samples_per_s": len(samples) / in_process})

    disagree, outside, outside_cpython_passes = [], 0, 0
    for i, s in enumerate(samples):
        if status[i] == "compile_error":
            outside += 1
            outside_cpython_passes += cp_pass[i]
            if s["kind"] != "outside":
                disagree.append(i)  # only programs outside the subset may be refused
        elif gs_pass[i] != cp_pass[i]:
            disagree.append(i)

    rng = random.Random(args.seed + 1)
    subset = rng.sample(range(len(samples)), min(args.subprocess_samples, len(samples)))
    sub_disagree = []
    for workers in (1, 2):
        start = time.perf_counter()
        with concurrent.futures.ThreadPoolExecutor(workers) as pool:
            sub = list(pool.map(lambda i: subprocess_verdict(samples[i]["code"], tasks[samples[i]["task_id"]],
                                                             args.timeout), subset))
        seconds = time.perf_counter() - start
        rows.append({"judge": "subprocess per sample (human-eval style)", "workers": workers,
                     "samples": len(subset), "seconds": seconds, "samples_per_s": len(subset) / seconds})
        sub_disagree = [i for i, ok in zip(subset, sub) if status[i] != "compile_error" and ok != gs_pass[i]]

    subprocess_rate = {r["workers"]: r["samples_per_s"] for r in rows if r["judge"].startswith("subprocess")}
    print(f"{len(samples)} Python samples for {len(tasks)} tasks ({sum(gs_pass)} pass in gpusynth); "
          f"{outside} outside the subset ({outside_cpython_passes} of them pass under CPython)")
    print(f"{'judge':44} {'workers':>7} {'samples':>8} {'seconds':>9} {'samples/s':>11} {'vs subprocess':>13}")
    for r in rows:
        ratio = r["samples_per_s"] / subprocess_rate[r["workers"]] if r["workers"] in subprocess_rate else 0
        r["vs_subprocess_same_workers"] = ratio
        print(f"{r['judge']:44} {r['workers']:>7} {r['samples']:>8} {r['seconds']:>9.3f} {r['samples_per_s']:>11.1f} "
              f"{ratio:>12.0f}x")
    print(f"verdicts differing from CPython's (in process, all samples, subset programs): {len(disagree)}")
    print(f"verdicts differing from the subprocess harness's ({len(subset)} samples): {len(sub_disagree)}")
    for i in disagree[:5]:
        print(f"  sample {i} ({samples[i]['task_id']}, {samples[i]['kind']}): gpusynth {status[i]} "
              f"passes={gs_pass[i]}, CPython passes={cp_pass[i]}\n{samples[i]['code']}")

    report = {"machine": machine(), "samples": len(samples), "tasks": sorted(tasks), "passing": sum(gs_pass),
              "outside_subset": outside, "outside_subset_passing_in_cpython": outside_cpython_passes,
              "disagreements_with_cpython": len(disagree), "disagreements_with_subprocess": len(sub_disagree),
              "subprocess_timeout_s": args.timeout, "rows": rows,
              "command": " ".join([os.path.relpath(sys.argv[0], ROOT)] + sys.argv[1:])}
    os.makedirs(os.path.dirname(args.out), exist_ok=True)
    with open(args.out, "w") as f:
        json.dump(report, f, indent=1)
    print(f"wrote {os.path.relpath(args.out, ROOT)}")
    return 1 if disagree or sub_disagree else 0


if __name__ == "__main__":
    sys.exit(main())
