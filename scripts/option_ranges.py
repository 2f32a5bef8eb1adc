#!/usr/bin/env python3
"""The ranges of every numeric option, from the commands themselves (`gpusynth CMD --help`), as
the tables of docs/cli.md "Option ranges". --write regenerates them in docs/cli.md; --check
(a ctest) fails when docs/cli.md no longer says what the code does.

    python3 scripts/option_ranges.py GPUSYNTH [--write | --check] [--neural]
"""
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DOC = os.path.join(ROOT, "docs", "cli.md")
COMMANDS = ["compile", "run", "eval", "search", "campaign", "import-psb", "policy-data"]
NEURAL = ["train-policy", "train-compiler", "selfplay", "eval-compiler"]
OPTION = re.compile(r"^\s+(?:-\w \[ --|--)([\w-]+)(?: \])? (N>=[0-9.e+-]+|[0-9.e+-]+\.\.[0-9.e+-]+) \(=([^)]*)\)",
                    re.M)


def table(gpusynth, command):
    out = subprocess.run([gpusynth, command, "--help"], capture_output=True, text=True, timeout=60).stdout
    rows = ["| option | range | default |", "|---|---|---|"]
    for name, rng, default in OPTION.findall(out):
        if rng.startswith("N>="):
            rng = f"{rng[3:]} and up"
        else:
            lo, hi = rng.split("..")
            rng = f"{lo} to {hi}"
        rows.append(f"| `--{name}` | {rng} | {default} |")
    return f"<!-- ranges:{command} -->\n" + "\n".join(rows) + f"\n<!-- /ranges:{command} -->"


def main():
    gpusynth = sys.argv[1]
    commands = COMMANDS + (NEURAL if "--neural" in sys.argv else [])
    with open(DOC) as f:
        doc = f.read()
    stale = []
    for command in commands:
        block = table(gpusynth, command)
        pattern = re.compile(rf"<!-- ranges:{re.escape(command)} -->.*?<!-- /ranges:{re.escape(command)} -->", re.S)
        if not pattern.search(doc):
            stale.append(command)
            continue
        if pattern.search(doc).group(0) != block:
            stale.append(command)
            doc = pattern.sub(lambda _: block, doc)
    if "--write" in sys.argv:
        with open(DOC, "w") as f:
            f.write(doc)
        print(f"option_ranges: docs/cli.md updated ({', '.join(stale) or 'nothing changed'})")
        return 0
    if "--check" in sys.argv and stale:
        print(f"option_ranges: docs/cli.md is out of date for {', '.join(stale)} "
              f"(python3 scripts/option_ranges.py {gpusynth} --write --neural)")
        return 1
    if "--check" not in sys.argv:
        for command in commands:
            print(f"### {command}\n\n{table(gpusynth, command)}\n")
    print(f"option_ranges: {len(commands)} commands, docs/cli.md current")
    return 0


if __name__ == "__main__":
    sys.exit(main())
