#!/usr/bin/env bash
# The package, as a user installs and links it: `cmake --install` the build tree into a fresh
# prefix, then configure, build and run tests/package/external against it (find_package(gpusynth),
# gpusynth::compiler), and run the installed gpusynth.
#   package_test.sh BUILD_DIR WORK_DIR
set -euo pipefail
build=$1 work=$2
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$work" && mkdir -p "$work"
cmake --install "$build" --prefix "$work/prefix" >"$work/install.log"
echo "installed into $work/prefix: $(find "$work/prefix" -type f | wc -l) files"
for f in bin/gpusynth lib/cmake/gpusynth/gpusynthConfig.cmake include/gpusynth/vm/opcodes.def \
         share/gpusynth/problems/psb1 share/doc/gpusynth/LICENSE; do
  [ -e "$work/prefix/$f" ] || { echo "FAIL: $f not installed"; exit 1; }
done
"$work/prefix/bin/gpusynth" --version
cmake -S "$here/external" -B "$work/external" -G Ninja -DCMAKE_PREFIX_PATH="$work/prefix" \
      -DCMAKE_BUILD_TYPE=Release >"$work/configure.log" 2>&1 || { cat "$work/configure.log"; exit 1; }
cmake --build "$work/external" >"$work/build.log" 2>&1 || { cat "$work/build.log"; exit 1; }
got=$("$work/external/collatz")
echo "$got"
[ "$got" = "collatz(27) = 112" ] || { echo "FAIL: expected collatz(27) = 112"; exit 1; }
# The installed command solves a bundled problem from share/ (the portfolio: 23,000 candidates).
out=$("$work/prefix/bin/gpusynth" search -p "$work/prefix/share/gpusynth/problems/psb1/smallest.json" \
      -d cpu --budget 50000 -q)
echo "${out%%$'\n'*}"
echo "package_test: passed"
