#!/usr/bin/env python3
"""Twenty everyday problems, posed as a new user would pose them to gpusynth: a signature and
random examples of a short Python function, half of them train and half test (up to 20 each).
Nobody tuned the search for them; bench/success_rates.py runs them as a suite, to find what a
user trying the tool on their own problems meets (docs/results.md "Everyday problems").

    python3 bench/everyday_problems.py OUT_DIR [--seed 7]

Writes OUT_DIR/NAME.json (docs/problems.md); the same seed writes the same files.
"""
import argparse
import json
import math
import os
import random


def fibonacci(n):
    a, b = 0, 1
    for _ in range(n):
        a, b = b, a + b
    return a


def problems(rng):
    words = ["cat", "dog", "a", "tree", "sky", "blue", "hello", "x", "zebra", "moon"]

    def sentence():
        return " ".join(rng.choice(words) for _ in range(rng.randint(1, 5)))

    def ints(least=0, most=8):
        return [rng.randint(-50, 50) for _ in range(rng.randint(least, most))]

    fizz = {0: "FizzBuzz"}
    return {
        # name: (signature, arguments drawn, the answer)
        "digit-sum": ("fn solve(n: int) -> int", lambda: [rng.randint(0, 99999)],
                      lambda n: sum(int(c) for c in str(n))),
        "reverse-words": ("fn solve(s: str) -> str", lambda: [sentence()], lambda s: " ".join(s.split(" ")[::-1])),
        "count-vowels": ("fn solve(s: str) -> int", lambda: [sentence()], lambda s: sum(c in "aeiou" for c in s)),
        "fizzbuzz": ("fn solve(n: int) -> str", lambda: [rng.randint(1, 100)],
                     lambda n: fizz.get(n % 15, "Fizz" if n % 3 == 0 else "Buzz" if n % 5 == 0 else str(n))),
        "range-or-zero": ("fn solve(xs: [int]) -> int", lambda: [ints()], lambda xs: max(xs) - min(xs) if xs else 0),
        "running-max": ("fn solve(xs: [int]) -> [int]", lambda: [ints()],
                        lambda xs: [max(xs[:i + 1]) for i in range(len(xs))]),
        "palindrome": ("fn solve(s: str) -> bool",
                       lambda: [rng.choice(["abba", "abc", "racecar", "x", "", "ab", "aa", "level", "hello", "noon",
                                            "abcba", "abca"])],
                       lambda s: s == s[::-1]),
        "second-largest": ("fn solve(xs: [int]) -> int", lambda: [rng.sample(range(-50, 50), rng.randint(2, 7))],
                           lambda xs: sorted(xs)[-2]),
        "fibonacci": ("fn solve(n: int) -> int", lambda: [rng.randint(0, 40)], fibonacci),
        "factorial": ("fn solve(n: int) -> int", lambda: [rng.randint(0, 15)], math.factorial),
        "word-count": ("fn solve(s: str) -> int", lambda: [sentence()], lambda s: len(s.split())),
        "last-word-length": ("fn solve(s: str) -> int", lambda: [sentence()], lambda s: len(s.split()[-1])),
        "count-evens": ("fn solve(xs: [int]) -> int", lambda: [ints()], lambda xs: sum(x % 2 == 0 for x in xs)),
        "sum-positive": ("fn solve(xs: [int]) -> int", lambda: [ints()], lambda xs: sum(x for x in xs if x > 0)),
        "abs-first-last": ("fn solve(xs: [int]) -> int", lambda: [ints(1)], lambda xs: abs(xs[0] - xs[-1])),
        "countdown-lines": ("fn solve(n: int) -> str", lambda: [rng.randint(1, 12)],
                            lambda n: "\n".join(str(i) for i in range(n, 0, -1))),
        "repeat-string": ("fn solve(s: str, n: int) -> str", lambda: [rng.choice(["a", "b", "xy"]), rng.randint(0, 6)],
                          lambda s, n: s * n),
        "gcd": ("fn solve(a: int, b: int) -> int", lambda: [rng.randint(1, 100), rng.randint(1, 100)], math.gcd),
        "is-sorted": ("fn solve(xs: [int]) -> bool",
                      lambda: [sorted(rng.sample(range(20), 4)) if rng.random() < 0.5 else rng.sample(range(20), 4)],
                      lambda xs: xs == sorted(xs)),
        "capitalize": ("fn solve(s: str) -> str", lambda: [sentence()], lambda s: s[0].upper() + s[1:]),
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    os.makedirs(args.out, exist_ok=True)
    for name, (signature, draw, answer) in problems(rng).items():
        cases, seen = [], set()
        for _ in range(400):  # distinct arguments, up to 40 (fewer where there are not as many)
            arguments = draw()
            key = json.dumps(arguments)
            if key not in seen:
                seen.add(key)
                cases.append({"inputs": arguments, "outputs": [answer(*arguments)]})
            if len(cases) == 40:
                break
        half = len(cases) // 2
        with open(os.path.join(args.out, name + ".json"), "w") as f:
            json.dump({"name": name, "signature": signature, "train": cases[:half], "test": cases[half:]}, f)
        print(f"{name}: {half} train, {len(cases) - half} test cases")


if __name__ == "__main__":
    main()
