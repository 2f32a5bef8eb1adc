#!/usr/bin/env bash
# The test suite: the release build (CUDA code compiled when nvcc is present) and its tests,
# then the CPU-only build under AddressSanitizer and UBSan and its tests, then each libFuzzer
# target for a bounded time (scripts/fuzz.sh; GPUSYNTH_FUZZ_SECONDS, default 20). Run from
# anywhere.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/cuda/bin"
cmake --workflow --preset release
cmake --workflow --preset sanitize
bash scripts/fuzz.sh "${GPUSYNTH_FUZZ_SECONDS:-20}"
echo "test.sh: all suites passed"
