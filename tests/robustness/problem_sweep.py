#!/usr/bin/env python3
"""The problem sweep: random problems nobody tuned the search for — one to three parameters and one
or two results of every value type, awkward values (the 64-bit ints' ends, -0.0, 1e300, empty and
long strs and lists, strs of lines and of bytes 0 and 255), outputs copied from an input, joined
lines, a length or random, with and without constants — searched by `gpusynth search -g enumerate`
(every fifth by `-g portfolio`), on one thread or two. Each must end as a search ends (exit status
0, solved, with every train case passed; or 1, the budget spent) with its outcome as JSON, within
the time limit: never a crash, a hang, a sanitizer's report or a usage error.

    problem_sweep.py GPUSYNTH [--problems N] [--budget N] [--first SEED]

The problems are drawn from their seeds (SEED, SEED + 1, ...): a failure names the seed, and
`problem_sweep.py GPUSYNTH --first SEED --problems 1 --keep DIR` writes that problem into DIR.
"""
import argparse
import json
import os
import random
import subprocess
import sys
import tempfile

TYPES = ["int", "float", "bool", "str", "[int]", "[float]", "[bool]", "[str]"]
ALPHABETS = ["ab", "abc \n", "abcdefghijklmnopqrstuvwxyz ", "x\n", "01234", "\u00ff\u0000a"]


class Draw:
    def __init__(self, seed):
        self.r = random.Random(seed)

    def int(self):
        c = self.r.random()
        if c < 0.05:
            return self.r.choice([2**63 - 1, -2**63, 0, -1])
        return self.r.randint(-5, 10) if c < 0.6 else self.r.randint(-10**6, 10**6)

    def str(self):
        alphabet = self.r.choice(ALPHABETS)
        n = self.r.choice([0, 1, 2, 3, 5, 10, 40, 200]) if self.r.random() < 0.9 else self.r.randint(300, 2000)
        return "".join(self.r.choice(alphabet) for _ in range(n))

    def value(self, t):
        if t == "int":
            return self.int()
        if t == "float":
            return self.r.choice([0.0, -0.0, 1.5, self.r.uniform(-100, 100), 1e300, -1e-300, float(self.int())])
        if t == "bool":
            return self.r.random() < 0.5
        if t == "str":
            return self.str()
        n = self.r.choice([0, 0, 1, 2, 3, 5, 8, 20, 100]) if self.r.random() < 0.95 else 1000
        return [self.value(t[1:-1]) for _ in range(n)]


def problem(seed):
    d = Draw(seed)
    params = [d.r.choice(TYPES) for _ in range(d.r.randint(1, 3))]
    results = [d.r.choice(TYPES) for _ in range(1 if d.r.random() < 0.85 else 2)]
    mode = d.r.random()  # how the outputs follow from the inputs

    def outputs(inputs):
        out = []
        for t in results:
            same = [i for i, p in enumerate(params) if p == t]
            sized = [i for i, p in enumerate(params) if p.startswith("[") or p == "str"]
            if mode < 0.4 and same:
                out.append(inputs[d.r.choice(same)] if mode < 0.1 else inputs[same[0]])
            elif t == "str" and mode < 0.6 and "[str]" in params:
                out.append("\n".join(inputs[params.index("[str]")]))
            elif t == "int" and mode < 0.7 and sized:
                out.append(len(inputs[sized[0]]))
            else:
                out.append(d.value(t))
        return out

    def case():
        inputs = [d.value(p) for p in params]
        return {"inputs": inputs, "outputs": outputs(inputs)}

    head = ", ".join(f"a{i}: {p}" for i, p in enumerate(params))
    result = results[0] if len(results) == 1 else "(" + ", ".join(results) + ")"
    p = {"name": f"sweep-{seed}", "signature": f"fn solve({head}) -> {result}",
         "train": [case() for _ in range(d.r.choice([1, 2, 3, 5, 10, 20, 50, 100]))],
         "test": [case() for _ in range(d.r.randint(0, 5))]}
    if d.r.random() < 0.3:
        t = d.r.choice(["int", "str", "[int]"])
        p["constants"] = {t: [d.value(t) for _ in range(d.r.randint(1, 3))]}
    if "float" in params + results:
        p["float_tolerance"] = d.r.choice([0, 0.001])
    return p


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("gpusynth")
    ap.add_argument("--problems", type=int, default=60)
    ap.add_argument("--budget", type=int, default=50000)
    ap.add_argument("--first", type=int, default=1)
    ap.add_argument("--timeout", type=int, default=300, help="seconds a search may take")
    ap.add_argument("--keep", help="write the problems into this folder")
    args = ap.parse_args()
    failures, solved = [], 0
    with tempfile.TemporaryDirectory() as tmp:
        folder = args.keep or tmp
        os.makedirs(folder, exist_ok=True)
        for seed in range(args.first, args.first + args.problems):
            path = os.path.join(folder, f"sweep-{seed}.json")
            with open(path, "w") as f:
                json.dump(problem(seed), f)
            generator = "portfolio" if seed % 5 == 0 else "enumerate"
            command = [args.gpusynth, "search", "-p", path, "-g", generator, "--budget", str(args.budget),
                       "--threads", str(1 + seed % 2), "--seed", str(seed), "--json", "-"]
            try:
                r = subprocess.run(command, capture_output=True, text=True, timeout=args.timeout)
            except subprocess.TimeoutExpired:
                failures.append(f"seed {seed} ({generator}): no end in {args.timeout} s")
                continue
            bad = [w for w in ("Sanitizer", "runtime error", "terminate called") if w in r.stderr]
            if r.returncode not in (0, 1) or bad:
                tail = r.stderr.strip().splitlines()[-3:]
                failures.append(f"seed {seed} ({generator}): exit status {r.returncode}: " + " | ".join(tail))
                continue
            try:
                outcome = json.loads(r.stdout)
            except json.JSONDecodeError:
                failures.append(f"seed {seed} ({generator}): no JSON outcome on stdout")
                continue
            if outcome["solved"] != (r.returncode == 0) or (
                    outcome["solved"] and outcome["best_train_passed"] != outcome["train_cases"]):
                failures.append(f"seed {seed} ({generator}): exit status {r.returncode} with outcome {outcome}")
                continue
            solved += outcome["solved"]
    print(f"problem sweep: {args.problems} random problems at {args.budget} candidates, {solved} solved, "
          f"{len(failures)} failed")
    for f in failures:
        print("  " + f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
