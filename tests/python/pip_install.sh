#!/usr/bin/env bash
# `pip install .` as a user runs it, into a fresh virtual environment, offline (--no-index: the
# in-tree backend needs no build packages), reusing this build's folder so that nothing is
# compiled twice; then the installed package is imported from outside the checkout and used.
# usage: pip_install.sh PYTHON BUILD_DIR
set -euo pipefail
python=$1
build=$(cd "$2" && pwd)
source=$(cd "$(dirname "$0")/../.." && pwd)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
"$python" -m venv "$scratch/venv"
"$scratch/venv/bin/pip" install --no-index --quiet --config-settings "build-dir=$build" "$source"
cd "$scratch"
"$scratch/venv/bin/python" - <<'PY'
import gpusynth, sys
assert gpusynth.__file__.startswith(sys.prefix), gpusynth.__file__
p = gpusynth.Problem("fn solve(xs: [int]) -> int", train=[(([1, 2],), 3), (([],), 0)])
[r] = gpusynth.evaluate(p, ["fn solve(xs: [int]) -> int { return sum(xs); }"])
assert r.passes, r
print("pip_install: gpusynth", gpusynth.__version__, "installed at", gpusynth.__file__)
PY
"$scratch/venv/bin/pip" uninstall --yes --quiet gpusynth
