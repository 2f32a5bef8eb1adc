#!/usr/bin/env bash
# The demo: builds gpusynth (CPU; CUDA too when nvcc is present) and compiles and runs the
# bundled example programs in docs/examples/ on the arguments their "// args:" line gives.
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
