#!/usr/bin/env bash
# The clang-tidy check: the checks in .clang-tidy over every library's C++ files, with the
# compile commands of a build (CMake writes them), clang-tidy 14 (Debian 12's). Any finding fails.
# neural/ is left out: clang 14 cannot parse Debian's libtorch 1.13 headers. Other clang-tidy
# versions skip (status 77).
#
#   bash scripts/check_tidy.sh BUILD_DIR        # from anywhere
set -euo pipefail
build=$(cd "${1:?usage: check_tidy.sh BUILD_DIR}" && pwd)
cd "$(dirname "$0")/.."
tool=${CLANG_TIDY:-clang-tidy}
if ! command -v "$tool" >/dev/null || ! command -v run-clang-tidy >/dev/null; then
  echo "check_tidy: $tool or run-clang-tidy not found (apt-get install clang-tidy; scripts/install-deps.sh does)"
  exit 77
fi
version=$("$tool" --version | sed -n 's/.*version \([0-9]*\)\..*/\1/p' | head -n 1)
if [ "$version" != 14 ]; then
  echo "check_tidy: $tool is version $version; the check is set for version 14 (Debian 12), skipped"
  exit 77
fi
[ -f "$build/compile_commands.json" ] || { echo "check_tidy: no $build/compile_commands.json"; exit 2; }
mapfile -t files < <(git ls-files 'base/*.cpp' 'vm/*.cpp' 'compiler/*.cpp' 'pipeline/*.cpp' 'suites/*.cpp' \
                       'trees/*.cpp' 'search/*.cpp' 'records/*.cpp' 'cluster/*.cpp' 'jobs/*.cpp' 'python/*.cpp' |
                     grep -v -e nccl_collective.cpp)
# Only files this build compiles (the MPI and NCCL sources are optional).
mapfile -t files < <(for f in "${files[@]}"; do grep -q "\"file\": \"[^\"]*/$f\"" "$build/compile_commands.json" && echo "$f"; done)
log=$(mktemp)
if run-clang-tidy -p "$build" -j "${GPUSYNTH_TIDY_JOBS:-2}" -quiet "${files[@]}" >"$log" 2>&1 &&
   ! grep -qE "(warning|error): " "$log"; then
  echo "check_tidy: ${#files[@]} files, no findings"
  rm -f "$log"
  exit 0
fi
grep -E "(warning|error): " "$log" | sed 's/\x1b\[[0-9;]*m//g' | sort -u
echo "check_tidy: findings in ${#files[@]} files (the checks: .clang-tidy)"
rm -f "$log"
exit 1
