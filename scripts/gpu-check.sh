#!/usr/bin/env bash
# What a session with a GPU runs, in one call on the device machine (docs/pipeline.md "On a GPU"):
#   scripts/gpu-check.sh OUT [KIT [SYSROOT]]
# the GPU-labelled tests (the CUDA batch lexer, each stage against the CPU's, whole batches
# against the CPU backend, the value bank's device against the host's), the stage test under
# compute-sanitizer (memcheck, racecheck), the pipeline benchmark on CPU, CUDA and CUDA with one
# warp per program, and a GP and an enumeration campaign on problems/psb1 with -d cuda beside
# -d cpu. Every log and JSON goes to OUT, packed at the end into OUT/gpu-check.tar.gz (the device
# tool returns at most 8 files); a table of what passed is printed last.
#
# SYSROOT (scripts/gpu-kit.sh's gpu-sysroot.tar.xz): also builds, in the background from the
# start at nice 19, the libtorch, MPI and NCCL parts against the machine's PyTorch
# (scripts/gpu-neural-build.sh), and once built runs the neural compiler on CUDA (train-compiler,
# eval-compiler on CUDA and the GPU-trained checkpoint on the CPU) and the collectives (NCCL
# with one rank, MPI with two ranks sharing the GPU, selfplay over NCCL).
#
# KIT: a tarball made on the CPU machine by `scripts/gpu-kit.sh` — the sm_90 binaries and the
# shared libraries they need (the device machine has no apt and no internet). Without it the
# script builds the `gpu` preset here with every core, which needs HDF5, Boost.Program_options,
# nlohmann-json and GoogleTest installed.
#
# GPUSYNTH_CHECK_SECONDS (default 480) bounds the whole run: each step gets what is left of it,
# so a slow step costs the later ones, never the call.
set -uo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: scripts/gpu-check.sh OUT [KIT [SYSROOT]]}
kit=${2:-}
sysroot=${3:-}
mkdir -p "$out/logs"
logs=$out/logs
summary=$out/summary.txt
deadline=$(($(date +%s) + ${GPUSYNTH_CHECK_SECONDS:-480}))
: > "$summary"

say() { echo "[gpu-check $(date +%T)] $*" | tee -a "$summary"; }

# step NAME SECONDS COMMAND...: runs COMMAND with its output in logs/NAME.log, for at most
# SECONDS or what is left before the deadline, and notes pass/fail/timeout and the time taken.
step() {
  local name=$1 limit=$2
  shift 2
  local left=$((deadline - $(date +%s)))
  if [ "$left" -lt 10 ]; then
    say "$name: SKIPPED (no time left)"
    return 0
  fi
  [ "$limit" -gt "$left" ] && limit=$left
  local t0 rc
  t0=$(date +%s)
  timeout -k 5 "$limit" "$@" > "$logs/$name.log" 2>&1
  rc=$?
  local took=$(($(date +%s) - t0))
  case $rc in
    0) say "$name: ok (${took} s)" ;;
    124 | 137) say "$name: TIMEOUT after ${took} s (limit ${limit} s)" ;;
    *) say "$name: FAILED rc=$rc (${took} s): $(tail -n 3 "$logs/$name.log" | tr '\n' ' ' | cut -c1-300)" ;;
  esac
  return 0
}

export PATH="$PATH:/usr/local/cuda/bin"
if [ -n "$kit" ]; then
  root=/tmp/gpusynth-kit
  rm -rf "$root" && mkdir -p "$root" && tar -C "$root" -xJf "$kit" || { say "cannot unpack $kit"; exit 1; }
  bin=$root/bin
  export LD_LIBRARY_PATH="$root/lib:${LD_LIBRARY_PATH:-}"
  # The tests find their data under the source folder they were built in.
  src=$(cat "$root/source-dir")
  if [ "$src" != "$PWD" ] && [ ! -e "$src" ]; then mkdir -p "$(dirname "$src")" && ln -s "$PWD" "$src"; fi
else
  bin=build/gpu/bin
  step configure 300 cmake --preset gpu
  step build 600 cmake --build --preset gpu -j "$(nproc)"
  mkdir -p "$bin"
  for f in jobs/gpusynth bench/pipeline_bench tests/unit/stage_equivalence_test \
    tests/unit/backend_equivalence_test tests/unit/batch_lexer_cuda_test tests/unit/bank_device_cuda_test \
    bench/bank_device_bench; do
    ln -sf "$PWD/build/gpu/$f" "$bin/"
  done
fi

neural=/tmp/gpusynth-neural
if [ -n "$sysroot" ]; then
  say "neural build: started in the background (logs/neural-build.log)"
  (nice -n 19 bash scripts/gpu-neural-build.sh "$sysroot" "$neural" > "$logs/neural-build.log" 2>&1
    echo $? > "$neural.rc") &
fi

say "machine: $(nproc) CPUs, $(uname -r)"
nvidia-smi > "$logs/nvidia-smi.log" 2>&1
nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.sm,clocks.mem,power.draw --format=csv \
  >> "$summary" 2>&1

# Correctness first: a later step's numbers mean nothing if these differ.
step lexer-test 90 "$bin/batch_lexer_cuda_test"
step stage-test 180 "$bin/stage_equivalence_test"
step backend-test 240 "$bin/backend_equivalence_test"
step bank-test 120 "$bin/bank_device_cuda_test"

# The benchmark rows (a table on stdout, JSON beside it).
step pipeline-bench 240 "$bin/pipeline_bench" --sizes 1000,10000,100000,1000000 --devices cpu,cuda,cuda-warp \
  --repeats 3 --out "$out/pipeline-gpu.json"

# The value bank's enumeration with its chunks on the CPU, the host twin and the GPU.
step bank-bench 90 "$bin/bank_device_bench" --cases 50,200,1000 --budget 2000000 --repeats 3 \
  --out "$out/bank-device-gpu.json"

# The same campaign on each backend, GP's and the enumeration's (whose value bank applies its
# heap-free productions on the GPU with -d cuda): the search is deterministic per seed, so the
# solutions must be the same; the records give each one's candidates/s.
for run in "campaign gp 20000" "enumerate enumerate 100000"; do
  read -r name generator budget <<< "$run"
  for d in cuda cpu; do
    rm -rf "/tmp/$name-$d"
    step "$name-$d" 120 "$bin/gpusynth" campaign --suite problems/psb1 --out "/tmp/$name-$d" -g "$generator" \
      --budget "$budget" -s 1 -d "$d"
    cp "/tmp/$name-$d/campaign.jsonl" "$out/$name-psb1-$d.jsonl" 2> /dev/null
  done
done

# Under compute-sanitizer: slow, and what they find is about correctness only.
if command -v compute-sanitizer > /dev/null; then
  step stage-memcheck 120 env GPUSYNTH_STAGE_PROGRAMS=300 compute-sanitizer --tool memcheck \
    --error-exitcode 1 "$bin/stage_equivalence_test"
  step stage-racecheck 90 env GPUSYNTH_STAGE_PROGRAMS=100 compute-sanitizer --tool racecheck \
    --error-exitcode 1 "$bin/stage_equivalence_test"
else
  say "compute-sanitizer: not on this machine"
fi

# The neural compiler on CUDA and the collectives, once the background build is done.
if [ -n "$sysroot" ]; then
  while [ ! -f "$neural.rc" ] && [ $((deadline - $(date +%s))) -gt 60 ]; do sleep 2; done
  if [ "$(cat "$neural.rc" 2> /dev/null)" = 0 ]; then
    say "neural build: ok"
    source "$neural/env.sh"
    nb=$neural/build
    step train-compiler-cuda 100 "$nb/jobs/gpusynth-neural" train-compiler -o /tmp/tc -d cuda --steps 3000 \
      --batch 64 --checkpoint-every 250 --eval-every 500 --log-every 100
    if [ -f /tmp/tc/checkpoint.pt ]; then
      step eval-compiler-cuda 60 "$nb/jobs/gpusynth-neural" eval-compiler -c /tmp/tc/checkpoint.pt -d cuda \
        -n 64 -k 16 --json "$out/eval-compiler-cuda.json"
      step eval-compiler-cpu 45 "$nb/jobs/gpusynth-neural" eval-compiler -c /tmp/tc/checkpoint.pt -d cpu \
        -n 16 -k 16 --repetitions 1 --json "$out/eval-compiler-cpu.json"
      step selfplay-nccl 60 "$mpirun" -n 1 "$nb/jobs/gpusynth-neural" selfplay --from /tmp/tc/checkpoint.pt \
        -o /tmp/sp -d cuda --collective nccl --steps 20
    fi
    step collective-nccl-1 45 "$mpirun" -n 1 "$nb/tests/cluster/collective_test" \
      --gtest_filter=-CollectiveMpi.MismatchedCountsEndTheJobSayingSo
    step collective-mpi-2 60 "$mpirun" -n 2 "$nb/tests/cluster/collective_test" \
      --gtest_filter=-CollectiveMpi.MismatchedCountsEndTheJobSayingSo
  else
    say "neural build: FAILED or unfinished (rc $(cat "$neural.rc" 2> /dev/null || echo none)):" \
      "$(tail -n 3 "$logs/neural-build.log" | tr '\n' ' ' | cut -c1-300)"
  fi
fi

{
  echo
  grep -h -E "^\[(stage equivalence|backend equivalence|batch lexer cuda)\]|^\[  (PASSED|FAILED) " "$logs"/*-test.log
  grep -h -A4 "Failure" "$logs"/*-test.log | head -n 40
  grep -h -E "ERROR SUMMARY|RACECHECK SUMMARY" "$logs"/stage-*check.log
  grep -h -E "pass@|p\(c\)|K99|\[  (PASSED|FAILED) " "$logs"/eval-compiler-*.log "$logs"/collective-*.log 2> /dev/null | head -n 30
  echo
  grep -E "^(dev|cpu|cuda)" "$logs/pipeline-bench.log"
  python3 - "$out" << 'PY'
import json, sys, os
solved = {}
for d in ("cuda", "cpu"):
    path = os.path.join(sys.argv[1], f"campaign-psb1-{d}.jsonl")
    if not os.path.exists(path):
        continue
    rows = [json.loads(l) for l in open(path) if l.strip()]
    solved[d] = sorted(r["problem"] for r in rows if r["solved"])
    cands, secs = sum(r["candidates"] for r in rows), sum(r["seconds"] for r in rows)
    print(f"campaign -d {d}: {len(solved[d])} of {len(rows)} solved, {cands} candidates in {secs:.1f} s "
          f"({cands / max(secs, 1e-9):.0f} candidates/s)")
if len(solved) == 2:
    print("campaign: same problems solved on both" if solved["cuda"] == solved["cpu"]
          else f"campaign: DIFFERENT solved sets: cuda {solved['cuda']} cpu {solved['cpu']}")
PY
} >> "$summary" 2>&1
tar -C "$out" -czf "$out/gpu-check.tar.gz" logs && rm -rf "$logs"
echo
cat "$summary"
