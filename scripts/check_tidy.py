#!/usr/bin/env python3
"""The clang-tidy check: the checks in .clang-tidy over every library's C++ files, with the compile
commands of a build (CMake writes them), clang-tidy 14 (Debian 12's). Any finding fails.

    python3 scripts/check_tidy.py BUILD_DIR      # from anywhere; GPUSYNTH_TIDY_JOBS processes (2)

Exit status: 0 no findings, 1 findings (printed), 2 no compile commands, 77 skipped (no clang-tidy,
or a version other than 14).

Nearly all of clang-tidy's time goes to parsing, and most of that to the headers a file includes
(the standard library, Boost.Program_options, nlohmann/json, pybind11: 3-4 s each). So the files
are checked in batches: one translation unit per library and set of compile flags that includes
its .cpp files, each header parsed once a batch rather than once a file. A batch that does not
compile as one translation unit (two files' file-local names collide) is checked up to the file of
its first error, which parsed as it would alone, and from that file on as a new batch (named in the
output: each split costs the batch's time again, so such names are best renamed); a file that
does not compile alone is a finding, as before.

neural/ is left out: clang 14 cannot parse Debian's libtorch 1.13 headers; cluster's NCCL file
needs CUDA's headers. Only files this build compiles are checked (the MPI sources are optional).
"""

import concurrent.futures
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

LIBRARIES = ["base", "vm", "compiler", "pipeline", "suites", "trees", "search", "records", "cluster", "jobs",
             "python"]
LEFT_OUT = {"cluster/nccl_collective.cpp"}
COMPILE_ERROR = "[clang-diagnostic-error]"
FINDING = re.compile(r"(warning|error): ")
COLOUR = re.compile(r"\x1b\[[0-9;]*m")


def say(text):
    print(f"check_tidy: {text}", flush=True)


def tool_version(tool):
    out = subprocess.run([tool, "--version"], capture_output=True, text=True).stdout
    match = re.search(r"version (\d+)\.", out)
    return match.group(1) if match else "unknown"


def compile_args(entry):
    """The compiler's arguments of one compile command, without the compiler, the source and -o."""
    args = entry["arguments"] if "arguments" in entry else shlex.split(entry["command"])
    kept, skip = [], False
    for arg in args[1:]:
        if skip:
            skip = False
        elif arg == "-o":
            skip = True
        elif arg != "-c" and arg != entry["file"]:
            kept.append(arg)
    return kept


def batches(root, build):
    """[(directory, args, [source, ...])]: this build's library sources, one group per library and
    set of compile flags."""
    tracked = subprocess.run(["git", "ls-files", *[f"{lib}/*.cpp" for lib in LIBRARIES]], cwd=root,
                             capture_output=True, text=True, check=True).stdout.split()
    wanted = {str(root / path) for path in tracked if path not in LEFT_OUT}
    groups = {}
    for entry in json.loads((build / "compile_commands.json").read_text()):
        source = str(Path(entry["directory"], entry["file"]).resolve())
        if source not in wanted:
            continue
        wanted.remove(source)  # a source two targets compile: checked once, with the first's flags
        library = Path(source).relative_to(root).parts[0]
        args = compile_args(entry)
        groups.setdefault((library, entry["directory"], tuple(args)), []).append(source)
    return [(directory, list(args), sorted(sources)) for (_, directory, args), sources in groups.items()]


class Checker:
    def __init__(self, tool, config, folder):
        self.tool, self.config, self.folder = tool, config, folder
        self.made = 0

    def unit(self, sources):
        """A translation unit of the sources: the source itself for one, else a file that includes them."""
        if len(sources) == 1:
            return sources[0]
        self.made += 1
        path = self.folder / f"batch-{self.made}.cpp"
        path.write_text("".join(f'#include "{source}"\n' for source in sources))
        return str(path)

    def run(self, directory, args, sources):
        """clang-tidy over one batch: its output, and for a batch of several that did not compile,
        the index of the source of its first error, else None."""
        several = len(sources) > 1
        command = [self.tool, "--quiet", f"--config-file={self.config}", self.unit(sources), "--", *args]
        # A batch of several is only split on its first error: clang may stop at the second.
        result = subprocess.run(command + (["-ferror-limit=1"] if several else []), cwd=directory,
                                capture_output=True, text=True)
        output = COLOUR.sub("", result.stdout + result.stderr)
        if not several or COMPILE_ERROR not in output:
            return output, None
        first = next(line for line in output.splitlines() if COMPILE_ERROR in line).split(":")[0]
        # The sources before it parsed as they would alone; one in a header splits the batch in two.
        return output, max(1, sources.index(first) if first in sources else len(sources) // 2)


def main(argv):
    if len(argv) != 2:
        print("usage: check_tidy.py BUILD_DIR", file=sys.stderr)
        return 2
    build = Path(argv[1]).resolve()
    root = Path(__file__).resolve().parent.parent
    tool = os.environ.get("CLANG_TIDY", "clang-tidy")
    if shutil.which(tool) is None:
        say(f"{tool} not found (apt-get install clang-tidy; scripts/install-deps.sh does)")
        return 77
    version = tool_version(tool)
    if version != "14":
        say(f"{tool} is version {version}; the check is set for version 14 (Debian 12), skipped")
        return 77
    if not (build / "compile_commands.json").is_file():
        say(f"no {build / 'compile_commands.json'}")
        return 2

    folder = build / "tidy-batches"
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir()
    checker = Checker(tool, root / ".clang-tidy", folder)
    todo = sorted(batches(root, build), key=lambda batch: -len(batch[2]))
    files = sum(len(sources) for _, _, sources in todo)
    findings, units, collided = set(), 0, []
    jobs = int(os.environ.get("GPUSYNTH_TIDY_JOBS", "2"))
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        running = {pool.submit(checker.run, *batch): batch for batch in todo}
        while running:
            done, _ = concurrent.futures.wait(running, return_when=concurrent.futures.FIRST_COMPLETED)
            for future in done:
                directory, args, sources = running.pop(future)
                output, split = future.result()
                if split is not None:
                    collided.append(str(Path(sources[split]).relative_to(root)))
                    for part in (sources[:split], sources[split:]):
                        running[pool.submit(checker.run, directory, args, part)] = (directory, args, part)
                    continue
                units += 1
                findings.update(line for line in output.splitlines() if FINDING.search(line))
    shutil.rmtree(folder, ignore_errors=True)
    if findings:
        print("\n".join(sorted(findings)))
        say(f"findings in {files} files (the checks: .clang-tidy)")
        return 1
    say(f"{files} files in {units} translation units, no findings")
    if collided:  # each split checks its batch again: a renamed file-local name saves that time
        say(f"batches split at (two files' file-local names collide in one translation unit): {', '.join(sorted(collided))}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
