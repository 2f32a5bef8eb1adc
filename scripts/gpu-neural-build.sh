#!/usr/bin/env bash
# Builds the libtorch, MPI and NCCL parts on a GPU machine that has no apt (scripts/gpu-check.sh
# runs it in the background; docs/pipeline.md "On a GPU"):
#   scripts/gpu-neural-build.sh SYSROOT_TARBALL DIR
# SYSROOT_TARBALL is scripts/gpu-kit.sh's gpu-sysroot.tar.xz (Debian 12's Open MPI, HDF5, Boost,
# nlohmann-json and GoogleTest, unpacked into DIR/sysroot); libtorch is the machine's PyTorch's
# and NCCL its nvidia-nccl package's (or TORCH_PREFIX / NCCL_DIR; without NCCL the build has
# none). Builds gpusynth, gpusynth-neural and collective_test (sm_90) in DIR/build and writes
# DIR/env.sh, which sets what Open MPI needs to run from the sysroot and $mpirun.
set -euo pipefail
cd "$(dirname "$0")/.."
tarball=${1:?usage: scripts/gpu-neural-build.sh SYSROOT_TARBALL DIR}
dir=${2:?usage: scripts/gpu-neural-build.sh SYSROOT_TARBALL DIR}
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
sys=$dir/sysroot
rm -rf "$sys" && mkdir -p "$sys"
tar -C "$sys" -xJf "$tarball"
# h5cc names its prefix; dpkg -x made no alternatives links.
sed -i "s|^prefix=\"/usr\"|prefix=\"$sys/usr\"|" "$sys"/usr/bin/h5cc "$sys"/usr/bin/h5c++
lib=$sys/usr/lib/x86_64-linux-gnu
cat > "$dir/env.sh" << EOF
export OPAL_PREFIX=$sys/usr
export LD_LIBRARY_PATH=$lib/openmpi/lib:$lib:$sys/usr/lib/libpsm1:\${LD_LIBRARY_PATH:-}
export PMIX_MCA_mca_base_component_path=$lib/pmix2/lib/pmix
export OMPI_MCA_mca_base_param_files=$sys/etc/openmpi/openmpi-mca-params.conf
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
mpirun=$sys/usr/bin/mpirun.openmpi
EOF
source "$dir/env.sh"
export PATH="$PATH:/usr/local/cuda/bin"

torch=${TORCH_PREFIX:-$(python3 -c 'import torch; print(torch.utils.cmake_prefix_path)')}
nccl=${NCCL_DIR-$(python3 -c 'import nvidia.nccl as n; print(list(n.__path__)[0])' 2> /dev/null || true)}
nccl_args=(-DGPUSYNTH_NCCL=OFF)
if [ -n "$nccl" ] && [ -f "$nccl/include/nccl.h" ]; then
  nccl_lib=$(ls "$nccl"/lib/libnccl.so* | head -n 1)
  nccl_args=(-DGPUSYNTH_NCCL=ON -DGPUSYNTH_NCCL_INCLUDE_DIR="$nccl/include" -DGPUSYNTH_NCCL_LIBRARY="$nccl_lib")
  export LD_LIBRARY_PATH="$nccl/lib:$LD_LIBRARY_PATH"
  echo "export LD_LIBRARY_PATH=$nccl/lib:\$LD_LIBRARY_PATH" >> "$dir/env.sh"
fi
echo "gpu-neural-build: torch at $torch, NCCL: ${nccl:-none}, $(nproc) CPUs"
cmake -S . -B "$dir/build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$sys/usr;$torch" \
  -DHDF5_C_COMPILER_EXECUTABLE="$sys/usr/bin/h5cc" \
  -DMPI_C_COMPILER="$sys/usr/bin/mpicc.openmpi" -DMPI_CXX_COMPILER="$sys/usr/bin/mpicxx.openmpi" \
  -DMPIEXEC_EXECUTABLE="$sys/usr/bin/mpirun.openmpi" \
  -DGPUSYNTH_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90 -DGPUSYNTH_CUDA_JOBS=4 \
  -DGPUSYNTH_TORCH=ON -DGPUSYNTH_MPI=ON "${nccl_args[@]}" -DGPUSYNTH_PYTHON=OFF
ninja -C "$dir/build" -j "$(nproc)" gpusynth gpusynth-neural collective_test
echo "gpu-neural-build: built"
