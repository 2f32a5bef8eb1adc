#!/usr/bin/env bash
# Makes the GPU kit on a CPU machine with nvcc and apt (docs/pipeline.md "On a GPU"), since the
# device machine has neither apt nor internet:
#   scripts/gpu-kit.sh [DIR]        (default .kit, which git ignores)
# writes two tarballs:
#   DIR/gpu-kit.tar.xz      the `gpu` preset's binaries that scripts/gpu-check.sh runs (sm_90),
#                           with every shared library they load beyond the C and C++ runtimes
#   DIR/gpu-sysroot.tar.xz  Debian 12's Open MPI, HDF5, Boost.Program_options, nlohmann-json and
#                           GoogleTest, runtime and development files (Boost's headers cut to
#                           those program_options includes), for building the libtorch, MPI and
#                           NCCL parts there against PyTorch's own libtorch
# Then, on the device machine (the `device` tool's run, carrying DIR):
#   scripts/gpu-check.sh "$OUT" DIR/gpu-kit.tar.xz DIR/gpu-sysroot.tar.xz
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-.kit}
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)

# 1. The binaries.
targets="jobs/gpusynth bench/pipeline_bench tests/unit/stage_equivalence_test tests/unit/backend_equivalence_test
 tests/unit/batch_lexer_cuda_test tests/unit/bank_device_cuda_test bench/bank_device_bench"
[ -f build/gpu/build.ninja ] || cmake --preset gpu
ninja -C build/gpu $(for t in $targets; do basename "$t"; done)
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/kit/bin" "$stage/kit/lib"
for t in $targets; do strip -o "$stage/kit/bin/$(basename "$t")" "build/gpu/$t"; done
for f in "$stage"/kit/bin/*; do ldd "$f" | awk '$3 ~ /^\// {print $3}'; done | sort -u |
  grep -v -E '/(libc|libm|libdl|libpthread|librt|libstdc\+\+|libgcc_s|ld-linux-x86-64)\.so' |
  xargs -I{} cp -L {} "$stage/kit/lib/"
echo "$PWD" > "$stage/kit/source-dir"
tar -C "$stage/kit" -cJf "$dir/gpu-kit.tar.xz" bin lib source-dir
echo "gpu-kit: $dir/gpu-kit.tar.xz ($(du -h "$dir/gpu-kit.tar.xz" | cut -f1)):" \
  "$(ls "$stage/kit/bin" | wc -l) programs, $(ls "$stage/kit/lib" | wc -l) libraries"

# 2. The sysroot.
packages="openmpi-bin openmpi-common libopenmpi3 libpmix2 libhwloc15 libhwloc-plugins libevent-core-2.1-7
 libevent-pthreads-2.1-7 libmunge2 libhdf5-103-1 libhdf5-cpp-103-1 libhdf5-hl-100 libhdf5-hl-cpp-100 libsz2
 libaec0 libboost-program-options1.74.0 libfabric1 libucx0 libibverbs1 ibverbs-providers librdmacm1 libpsm2-2
 libpsm-infinipath1 libnl-3-200 libnl-route-3-200 libnuma1 libltdl7 libxnvctrl0 ocl-icd-libopencl1
 libpciaccess0 libcurl4 libopenmpi-dev libhdf5-dev hdf5-helpers libboost-program-options-dev
 libboost-program-options1.74-dev libboost1.74-dev libpmix-dev libhwloc-dev libevent-dev libibverbs-dev
 libnl-3-dev libnl-route-3-dev libaec-dev zlib1g-dev libnuma-dev libltdl-dev nlohmann-json3-dev libgtest-dev
 libgmock-dev"
mkdir -p "$stage/debs" "$stage/root"
(cd "$stage/debs" && apt-get download $packages > "$stage/apt.log" 2>&1) || {
  cat "$stage/apt.log"
  exit 1
}
for f in "$stage"/debs/*.deb; do dpkg -x "$f" "$stage/root"; done
root=$stage/root
# Boost: only the headers program_options pulls in (the project includes nothing else of it).
echo '#include <boost/program_options.hpp>' | g++ -std=c++20 -M -x c++ - -I"$root/usr/include" |
  tr ' \\' '\n\n' | grep "^$root/usr/include/boost/" | sort -u > "$stage/boost-used"
mv "$root/usr/include/boost" "$stage/boost-all"
while read -r f; do
  rel=${f#"$root"/usr/include/boost/}
  mkdir -p "$root/usr/include/boost/$(dirname "$rel")"
  cp "$stage/boost-all/$rel" "$root/usr/include/boost/$rel"
done < "$stage/boost-used"
rm -rf "$root/usr/share/doc" "$root/usr/share/man" "$root/usr/share/lintian" "$root/usr/share/locale"
# HDF5's link line names libcurl and libcrypto: the kit's copies (Debian's, as HDF5 was built
# against), with the development names a linker looks for.
lib=$root/usr/lib/x86_64-linux-gnu
cp -n "$stage"/kit/lib/* "$lib/"
ln -sf libcurl.so.4 "$lib/libcurl.so"
ln -sf libcrypto.so.3 "$lib/libcrypto.so"
tar -C "$root" -cJf "$dir/gpu-sysroot.tar.xz" .
echo "gpu-kit: $dir/gpu-sysroot.tar.xz ($(du -h "$dir/gpu-sysroot.tar.xz" | cut -f1)):" \
  "$(ls "$stage/debs" | wc -l) Debian packages, $(wc -l < "$stage/boost-used") Boost headers"
