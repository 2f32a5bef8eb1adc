#!/usr/bin/env python3
"""The option sweep: every numeric option of every command (read from `gpusynth CMD --help`:
the options whose default is a number) given values no range admits — negative, past 64 bits,
nan, inf, trailing junk, empty; two per option, one per neural option, in turn — must be a usage error (exit status 2) whose one line names the
option, from the command line and from a --config file; never a crash, a hang or a run.

    option_sweep.py GPUSYNTH [--neural]
"""
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                                "scripts"))
# The commands, and a numeric option as --help shows it ("--heap 0..268435456 (=1048576)"), as
# the docs' range tables read them.
from option_ranges import COMMANDS, NEURAL, OPTION  # noqa: E402

CONFIG = {"search", "campaign"}  # the commands that read --config
BAD = ["-1", "18446744073709551616", "nan", "inf", "1x", "", "0x10", "1e400"]
# Every value of BAD for every option was ~1,300 runs (170 s in CI, 125 s under the sanitizers):
# the numbers go through one parser (jobs/options.cpp), so two per option, in turn, check as much.
PER_OPTION = 2


def run(gpusynth, args):
    try:
        return subprocess.run([gpusynth] + args, capture_output=True, text=True, timeout=30)
    except subprocess.TimeoutExpired:
        return None


def main():
    gpusynth = sys.argv[1]
    commands = COMMANDS + (NEURAL if "--neural" in sys.argv[2:] else [])
    failures, checked, turn = [], 0, 0
    with tempfile.TemporaryDirectory() as tmp:
        for command in commands:
            help_text = run(gpusynth, [command, "--help"])
            options = OPTION.findall(help_text.stdout if help_text else "")
            if not options:
                failures.append(f"{command}: no numeric options found in --help")
            for option, _range, _default in options:
                # Each option gets PER_OPTION of the bad values in turn (the next option the next
                # ones), so every option is checked and every kind of value reaches every command.
                per_option = 1 if command in NEURAL else PER_OPTION  # each neural call loads libtorch
                for _ in range(per_option):
                    value = BAD[turn % len(BAD)]
                    turn += 1
                    checked += 1
                    given = [f"--{option}={value}"] if value else [f"--{option}", ""]
                    tries = [("command line", [command] + given)]
                    if command in CONFIG:
                        path = os.path.join(tmp, f"{command}-{option}.ini")
                        with open(path, "w") as f:
                            f.write(f"{option} = {value}\n")
                        tries.append(("config file", [command, "--config", path]))
                    for where, args in tries:
                        r = run(gpusynth, args)
                        what = f"{command} --{option}={value!r} ({where})"
                        if r is None:
                            failures.append(f"{what}: hung (30 s)")
                        elif r.returncode != 2:
                            failures.append(f"{what}: exit status {r.returncode}: {r.stderr.strip()[:200]}")
                        elif option not in r.stderr or "takes a number in [" not in r.stderr:
                            failures.append(f"{what}: the error does not name the option's range: {r.stderr.strip()[:200]}")
                        elif r.stderr.count("\n") != 1:
                            failures.append(f"{what}: the error is not one line: {r.stderr!r}")
    for f in failures:
        print(f)
    print(f"option_sweep: {checked} option values over {len(commands)} commands, {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
