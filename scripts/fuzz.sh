#!/usr/bin/env bash
# Builds the libFuzzer targets (tests/fuzz/README.md) with clang 14 in build/fuzz and runs each
# for SECONDS (default 20) from its seed corpus: what CI does on every run. Any crash, sanitizer
# report, broken property or hang (a single input running over 10 s) fails it, and the input is
# kept under build/fuzz/crashes/. Options: SECONDS, then libFuzzer flags for every target;
# FUZZ_SANITIZERS (default address,undefined) names the sanitizers, FUZZ_TARGETS the targets.
# Another sanitizer set builds in build/fuzz-SET (e.g. build/fuzz-undefined), its own corpus.
#
#   bash scripts/fuzz.sh                 # 20 s per target
#   bash scripts/fuzz.sh 3600 -jobs=2    # an hour each, two processes each
#   FUZZ_SANITIZERS=undefined FUZZ_TARGETS="input_fuzzer" bash scripts/fuzz.sh 3600
#                                        # UBSan only: 2-6x the executions/s of ASan + UBSan
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-20}
shift || true
sanitizers=${FUZZ_SANITIZERS:-address,undefined}
build=build/fuzz
[ "$sanitizers" = address,undefined ] || build=build/fuzz-${sanitizers//,/-}
compiler=${GPUSYNTH_FUZZ_CXX:-clang++-14}
command -v "$compiler" >/dev/null || { echo "fuzz.sh: no $compiler (apt-get install clang-14 libclang-rt-14-dev)"; exit 2; }
read -r -a targets <<<"${FUZZ_TARGETS:-compiler_fuzzer bytecode_fuzzer input_fuzzer records_fuzzer}"

cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER="$compiler" \
  -DGPUSYNTH_FUZZ=ON -DGPUSYNTH_FUZZ_SANITIZERS="$sanitizers" -DGPUSYNTH_CUDA=OFF -DGPUSYNTH_TORCH=OFF -DGPUSYNTH_MPI=OFF -DGPUSYNTH_TESTS=OFF \
  -DGPUSYNTH_BENCH=OFF >/dev/null
cmake --build "$build" --target "${targets[@]}" -- -j"${GPUSYNTH_FUZZ_JOBS:-2}"

# Seed corpora: the test programs, their compiled containers, and the bundled problem files
# with one selector byte in front for each reader.
corpus=$build/corpus
mkdir -p "$corpus/compiler_fuzzer" "$corpus/bytecode_fuzzer" "$corpus/input_fuzzer" "$corpus/records_fuzzer" \
  "$build/crashes"
find tests/programs docs/examples -name '*.syn' -exec cp {} "$corpus/compiler_fuzzer/" \;
cp tests/python/frontend/*.py "$corpus/compiler_fuzzer/"  # the typed-Python front end's corpus
for f in docs/examples/*.syn; do
  out=$corpus/bytecode_fuzzer/$(basename "$f" .syn).gsbc
  [ -f "$out" ] || [ ! -x build/release/jobs/gpusynth ] || build/release/jobs/gpusynth compile "$f" -o "$out" >/dev/null 2>&1 || true
done
[ -n "$(ls -A "$corpus/bytecode_fuzzer")" ] || printf 'GSBC' >"$corpus/bytecode_fuzzer/empty"
i=0
for f in problems/psb1/*.json problems/listfunctions/c00[0-9].json; do
  [ -f "$f" ] || continue
  # Selectors 2, 6 and 10: the PSB reader against each of its three signatures.
  for selector in 0 1 2 3 6 10; do
    { printf "\\x$(printf %02x $selector)"; head -c 4096 "$f"; } >"$corpus/input_fuzzer/seed-$i-$selector"
  done
  i=$((i + 1))
done

# Records files: a small format 2 campaign's (tests/fuzz/seeds/).
cp tests/fuzz/seeds/records_fuzzer/* "$corpus/records_fuzzer/"
# The inputs that once failed a target (tests/fuzz/regressions/TARGET-*, TARGET without
# "_fuzzer"): in its corpus, so every run replays them first.
for t in "${targets[@]}"; do
  for f in tests/fuzz/regressions/"${t%_fuzzer}"-*; do [ -f "$f" ] && cp "$f" "$corpus/$t/"; done
done

# libhdf5 leaks on some of its error paths (tests/robustness/libhdf5-leaks.supp).
export LSAN_OPTIONS=suppressions=$PWD/tests/robustness/libhdf5-leaks.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}
# The targets run side by side, GPUSYNTH_FUZZ_JOBS (default 2) at a time, each for SECONDS on one
# core; what each found is printed in the targets' order once all have ended.
fuzz_one() {
  local t=$1 max_len=8192
  [ "$t" = records_fuzzer ] && max_len=131072
  shift
  local rc=0
  "$build/tests/fuzz/$t" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=4096 -max_len=$max_len \
    -print_final_stats=1 -artifact_prefix="$build/crashes/$t-" "$@" "$corpus/$t" >"$build/$t.log" 2>&1 || rc=$?
  echo $rc >"$build/$t.status"
}
for t in "${targets[@]}"; do
  while [ "$(jobs -rp | wc -l)" -ge "${GPUSYNTH_FUZZ_JOBS:-2}" ]; do sleep 0.2; done
  echo "fuzz.sh: $t for $seconds s"
  rm -f "$build/$t.status"
  fuzz_one "$t" "$@" &
done
wait
status=0
for t in "${targets[@]}"; do
  if [ "$(cat "$build/$t.status" 2>/dev/null)" != 0 ]; then
    tail -40 "$build/$t.log"
    echo "fuzz.sh: $t FAILED (input kept in $build/crashes/)"
    status=1
  else
    echo "fuzz.sh: $t"
    grep -E "stat::number_of_executed_units|stat::peak_rss_mb|cov: " "$build/$t.log" | tail -3
  fi
done
[ $status -eq 0 ] && echo "fuzz.sh: every target ran $seconds s with no failure"
exit $status
