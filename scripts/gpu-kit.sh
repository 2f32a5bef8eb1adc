#!/usr/bin/env bash
# Makes the GPU kit on a CPU machine with nvcc (docs/pipeline.md "On a GPU"): builds the `gpu`
# preset's binaries that scripts/gpu-check.sh runs, for sm_90, and packs them with every shared
# library they load beyond the C and C++ runtimes into one tarball, since the device machine has
# no apt and no internet:
#   scripts/gpu-kit.sh [KIT]          (default .kit/gpu-kit.tar.xz; /.kit/ is git-ignored)
# Then, on the device machine (the `device` tool's run, carrying .kit):
#   scripts/gpu-check.sh "$OUT" .kit/gpu-kit.tar.xz
set -euo pipefail
cd "$(dirname "$0")/.."
kit=${1:-.kit/gpu-kit.tar.xz}
targets="jobs/gpusynth bench/pipeline_bench tests/unit/stage_equivalence_test tests/unit/backend_equivalence_test
 tests/unit/batch_lexer_cuda_test"
[ -f build/gpu/build.ninja ] || cmake --preset gpu
ninja -C build/gpu $(for t in $targets; do basename "$t"; done)
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/bin" "$stage/lib"
for t in $targets; do strip -o "$stage/bin/$(basename "$t")" "build/gpu/$t"; done
for f in "$stage"/bin/*; do ldd "$f" | awk '$3 ~ /^\// {print $3}'; done | sort -u |
  grep -v -E '/(libc|libm|libdl|libpthread|librt|libstdc\+\+|libgcc_s|ld-linux-x86-64)\.so' |
  xargs -I{} cp -L {} "$stage/lib/"
echo "$PWD" > "$stage/source-dir"
mkdir -p "$(dirname "$kit")"
tar -C "$stage" -cJf "$kit" bin lib source-dir
echo "gpu-kit: $kit ($(du -h "$kit" | cut -f1)): $(ls "$stage/bin" | wc -l) programs, $(ls "$stage/lib" | wc -l) libraries"
