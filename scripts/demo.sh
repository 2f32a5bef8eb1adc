#!/usr/bin/env bash
# The demo: builds gpusynth (CPU; CUDA too when nvcc is present), runs a short search campaign
# over the bundled PSB1 problems with HDF5 records and summarises them, then compiles and runs the
# example programs in docs/examples/ and filters the example candidate file with `gpusynth eval`.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/cuda/bin"
cmake --preset release >/dev/null
cmake --build --preset release --target gpusynth
gpusynth=build/release/jobs/gpusynth
# The main job: program search on every PSB1 problem with the portfolio (bottom-up enumeration
# over a value bank, then GP; the default generator), 50,000 candidates each: about 12 s on 2
# cores, 18 of the 29 problems solved and generalising (docs/results.md). --device auto: the GPU when
# there is one, else every CPU core this process may use.
run=build/release/demo-run
rm -rf "$run"
echo "== gpusynth campaign --suite problems/psb1 --out $run --generator portfolio --budget 50000"
$gpusynth campaign --suite problems/psb1 --out "$run" --generator portfolio --budget 50000
echo
echo "== gpusynth trace summary $run"
$gpusynth trace summary "$run"
echo
for program in docs/examples/*.syn; do
  args=$(sed -n 's|^// args: ||p' "$program" | head -n 1)
  echo "== $program"
  sed -n '1s|^// |   |p' "$program"
  $gpusynth compile "$program" -o "build/release/$(basename "${program%.syn}").gsbc"
  echo "   gpusynth run $program --args '$args'"
  if result=$($gpusynth run "$program" --args "$args" --stats); then
    echo "   => $result"
  else
    echo "   => (exit status $?: see the message above)"
  fi
  echo
done
# The batch pipeline: a language model's samples filtered on a problem (--device auto: the GPU
# when there is one, else every CPU core).
echo "== gpusynth eval: docs/examples/eval/samples.jsonl on docs/examples/eval/count-odds.json"
$gpusynth eval -p docs/examples/eval/count-odds.json -c docs/examples/eval/samples.jsonl \
  -o build/release/passing.jsonl
