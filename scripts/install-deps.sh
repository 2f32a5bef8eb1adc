#!/usr/bin/env bash
# Installs the Debian 12 packages gpusynth builds and tests with. Idempotent: installs only
# what is missing, and runs apt-get update only then. CUDA (nvcc) is optional: with it the CUDA
# backends are built too; it is not an apt package here (NVIDIA's CUDA toolkit, /usr/local/cuda/bin/nvcc).
set -euo pipefail

packages=(
  cmake ninja-build g++ python3 git
  clang-format clang-tidy        # the formatting and clang-tidy checks (scripts/check_format.sh, check_tidy.py; version 14)
  clang-14 libclang-rt-14-dev    # libFuzzer and its sanitizers: the fuzz targets (scripts/fuzz.sh, tests/fuzz)
  libboost-program-options-dev   # the command line
  nlohmann-json3-dev             # problem files, --args
  libgtest-dev                   # tests
  libbenchmark-dev               # bench/
  libhdf5-dev                    # run records (records/records.h, docs/trace-format.md)
  zlib1g-dev                     # records/hdf5.cpp checks a chunk's inflated size before libhdf5 reads it
  libopenmpi-dev openmpi-bin     # distributed campaigns: cluster/ (GPUSYNTH_MPI), mpirun for tests/cluster
  slurm-wlm munge                # slurmctld, slurmd, sbatch/srun and munged: tests/slurm runs slurm/ on a local Slurm
  python3-h5py                   # reading records without project code: tests, scripts/plot_trace.py
  python3-matplotlib             # scripts/plot_trace.py
  pybind11-dev python3-dev       # the Python package gpusynth (python/, docs/python.md)
  python3-pytest python3-venv    # its pytest suite, and `pip install .` into a virtual environment (tests/python)
  libtorch-dev                   # the neural compiler: neural/ (GPUSYNTH_TORCH, on in the release preset; CPU only)
  libopenblas0-openmp            # a fast BLAS for Debian's libtorch: the default reference libblas trains ~13x slower
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages present"
  exit 0
fi
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
