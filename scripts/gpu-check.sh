#!/usr/bin/env bash
# What a session with a GPU runs (one call on the device machine; docs/pipeline.md): the sm_90
# build, the GPU-labelled tests (backend equivalence, CUDA batch lexer) and the pipeline
# benchmark on CPU, CUDA and CUDA with one warp per program, with their logs under
# bench/results/ to commit. The device machine has no apt: HDF5 and Boost.Program_options come
# from Debian .debs unpacked into a prefix (../shared/scripts/fetch-runtime-debs.sh DIR --dev on a
# connected machine, carried over), given here as GPUSYNTH_PREFIX.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/cuda/bin"
prefix_args=()
if [ -n "${GPUSYNTH_PREFIX:-}" ]; then
  prefix_args=(-DCMAKE_PREFIX_PATH="$GPUSYNTH_PREFIX/usr" -DHDF5_ROOT="$GPUSYNTH_PREFIX/usr")
  export LD_LIBRARY_PATH="$GPUSYNTH_PREFIX/usr/lib/x86_64-linux-gnu:${LD_LIBRARY_PATH:-}"
fi
out=bench/results
mkdir -p "$out"
cmake --preset gpu "${prefix_args[@]}" > "$out/gpu-configure.log"
cmake --build --preset gpu -j "$(nproc)" > "$out/gpu-build.log"
nvidia-smi > "$out/gpu-nvidia-smi.log" 2>&1 || true
ctest --test-dir build/gpu -L gpu -V > "$out/gpu-tests.log" 2>&1 || echo "gpu-check: GPU tests FAILED (see $out/gpu-tests.log)"
build/gpu/bench/pipeline_bench --sizes 1000,10000,100000,1000000 --devices cpu,cuda,cuda-warp \
  --out "$out/pipeline-gpu.json" > "$out/pipeline-gpu.log" 2>&1 || echo "gpu-check: benchmark FAILED"
tail -n 20 "$out/gpu-tests.log" "$out/pipeline-gpu.log"
