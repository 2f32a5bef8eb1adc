#!/usr/bin/env bash
# Data-parallel `gpusynth selfplay` with real MPI ranks (docs/neural.md "Self-play"). One case
# per call:
#
#   selfplay_mpi_test.sh CASE GPUSYNTH MPIRUN WORKDIR
#
#   checkpoint    a tiny supervised model (train-compiler) to start from: the other cases' fixture
#   same-weights  mpirun -np 2: both ranks end with the same weights hash, not the starting one
#   bad-from      mpirun -np 2 with a missing --from: both ranks fail, naming the file, no hang
#
# Every command runs under `timeout`: a rank waiting for the other forever fails the case.
set -uo pipefail

case_name=$1
gpusynth=$2
mpirun=$3
base=$4
mkdir -p "$base"
tiny=$base/tiny/checkpoint.pt

export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1

fail() {
  echo "FAIL ($case_name): $*" >&2
  exit 1
}

# A few steps, one thread per rank, small programs.
selfplay=(selfplay --steps 3 --batch 4 --samples 8 --levels 1 --lr 1e-3 --threads 1 --log-every 1
          --eval-programs 4 --collective mpi)

case $case_name in
  checkpoint)
    # Trained long enough that some samples are valid bytecode: an untrained model's are all
    # invalid, every reward is 0, and there is no gradient to all-reduce.
    rm -rf "$base/tiny"
    timeout 600 "$gpusynth" train-compiler --out "$base/tiny" --steps 300 --batch 16 --lr 3e-3 --warmup 10 \
      --levels 1 --d-model 64 --heads 4 --layers 1 --ff 128 --max-source 96 --max-bytecode 96 \
      --threads 1 --eval-every 0 --log-every 50 >"$base/tiny.out" 2>&1 </dev/null ||
      { cat "$base/tiny.out" >&2; fail "train-compiler failed"; }
    [ -f "$tiny" ] || fail "no $tiny"
    ;;
  same-weights)
    out=$base/np2
    rm -rf "$out"
    timeout 300 "$mpirun" -np 2 "$gpusynth" "${selfplay[@]}" --from "$tiny" --out "$out" \
      >"$out.out" 2>"$out.err" </dev/null
    status=$?
    [ $status -eq 0 ] || { cat "$out.out" "$out.err" >&2; fail "mpirun exited with $status"; }
    start=$(sed -n 's/^start weights fnv1a \(0x[0-9a-f]*\)$/\1/p' "$out.out")
    rank0=$(sed -n 's/^rank 0 weights fnv1a \(0x[0-9a-f]*\)$/\1/p' "$out.out")
    rank1=$(sed -n 's/^rank 1 weights fnv1a \(0x[0-9a-f]*\)$/\1/p' "$out.out")
    cat "$out.out"
    [ -n "$start" ] && [ -n "$rank0" ] && [ -n "$rank1" ] || fail "a weights line is missing"
    [ "$rank0" = "$rank1" ] || fail "the ranks' weights differ: $rank0 and $rank1"
    [ "$rank0" != "$start" ] || fail "the weights did not change from $start"
    grep -q '2 rank(s) x 4 programs' "$out.out" || fail "not a 2-rank run"
    [ -f "$out/checkpoint.pt" ] || fail "rank 0 wrote no checkpoint"
    ;;
  bad-from)
    out=$base/bad
    rm -rf "$out"
    timeout 120 "$mpirun" -np 2 "$gpusynth" "${selfplay[@]}" --from "$base/missing.pt" --out "$out" \
      >"$out.out" 2>"$out.err" </dev/null
    status=$?
    [ $status -ne 124 ] || fail "timed out: a rank is waiting for the other"
    [ $status -ne 0 ] || fail "a missing checkpoint was accepted"
    [ "$(grep -c 'missing.pt' "$out.err")" -ge 2 ] || { cat "$out.err" >&2; fail "not every rank named the file"; }
    ;;
  *)
    fail "unknown case"
    ;;
esac
echo "ok ($case_name)"
