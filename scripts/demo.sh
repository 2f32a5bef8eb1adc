#!/usr/bin/env bash
# The demo: builds gpusynth (CPU; CUDA too when nvcc is present) and compiles and runs the
# bundled example programs in docs/examples/ on the arguments their "// args:" line gives, then
# filters the example candidate file on the example problem with `gpusynth eval`.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/cuda/bin"
cmake --preset release >/dev/null
cmake --build --preset release --target gpusynth
gpusynth=build/release/jobs/gpusynth
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
