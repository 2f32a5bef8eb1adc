#!/usr/bin/env bash
# Distributed `gpusynth campaign` with real MPI ranks (docs/cluster.md). One case per call:
#
#   campaign_test.sh CASE GPUSYNTH MPIRUN WORKDIR
#
#   reference       one process, the whole suite: what every other case must reproduce
#   same-results    mpirun -np 3 --oversubscribe gives the reference's results and records (-np 2
#                   does in the signal cases, whose resumed runs end as the reference)
#   sigterm-mpirun  SIGTERM to mpirun mid-campaign, then the same command again
#   sigterm-ranks   SIGTERM to every rank (what Slurm does), exit status 3, then again
#   sigkill-rank    SIGKILL to one rank (mpirun ends the job), then again
#   one-sigterm     SIGTERM to a one-process campaign, exit status 3, then again
#   bad-input       an unreadable suite, a run directory of another suite, another seed
#   kill-loop       SIGKILL a one-process campaign at random moments (up to half the time an
#                   uninterrupted run takes), again and again, resuming
#                   each time, until it finishes; GPUSYNTH_KILLS (default 6) kills at least, in as
#                   many rounds as that takes; every round must end as an uninterrupted run
#   full-disk       a campaign on a small tmpfs (in a private mount namespace: skipped, exit 77,
#                   where none can be made) runs out of space: exit 2, no finished problem lost;
#                   with space again, the same command finishes as an uninterrupted run
#   two-campaigns   a second campaign on the same --out, with HDF5's file locking off, is refused
#                   naming the first; the first finishes as an uninterrupted run
#
# "The same results": campaign.jsonl holds each problem once, with the reference's solved,
# generalises, candidates and test counts (seconds differ), and `gpusynth trace summary RUN/`
# prints exactly the reference's table (rows per problem, iterations, rewards, solutions), so the
# joined records have every candidate row once. Every command runs under `timeout`: a hang fails.
set -uo pipefail

case_name=$1
gpusynth=$2
mpirun=$3
base=$4
work=$base/$case_name
here=$(cd "$(dirname "$0")" && pwd)
problems=$(cd "$here/../../problems/psb1" && pwd)

export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1
# mpirun passes SIGTERM on to its ranks only after this many seconds, and SIGKILLs them as many
# seconds later: the ranks need a moment to finish their batches (docs/cluster.md).
export OMPI_MCA_odls_base_sigkill_timeout=5

suite=$work/suite
# Quick problems, some solved within the budget, some not: a few seconds each, enough that a
# two-rank campaign still runs when mpirun passes a SIGTERM on (5 s after it gets it).
# GPUSYNTH_CAMPAIGN_BUDGET (default 12000): the sanitizer build, ~3x slower, sets 8000
# (tests/cluster/CMakeLists.txt). At 6000 the release build's campaign ends before mpirun passes
# a SIGTERM on.
suite_problems=(checksum count-odds digits grade negative-to-zero small-or-large smallest)
count=${#suite_problems[@]}
# GP (-g gp), not the default portfolio: it records every candidate it evaluates, so the records
# of an interrupted and resumed campaign have thousands of rows to lose or duplicate
# (check_records.py counts them); the enumeration records only the programs it proposes.
options=(-g gp --suite "$suite" --budget "${GPUSYNTH_CAMPAIGN_BUDGET:-12000}" --batch 200 --threads 1 -d cpu --seed 1 --record-every 1 -q)

fail() {
  echo "FAIL ($case_name): $*" >&2
  exit 1
}

python=""
for p in python3 /usr/bin/python3; do
  if "$p" -c 'import h5py' >/dev/null 2>&1; then python=$p; break; fi
done

make_suite() {
  mkdir -p "$suite"
  for p in "${suite_problems[@]}"; do cp "$problems/$p.json" "$suite/"; done
}

# The cases that interrupt a one-process campaign run this smaller one, and compare it with an
# uninterrupted run of it (small_reference).
quick=(-g gp --suite "$suite" --budget 3000 --batch 200 --threads 1 -d cpu --seed 1 --record-every 1 -q)

# campaign RUN [launcher words...]: runs the campaign to the end (status 0 required).
campaign() {
  local run=$1
  shift
  timeout 300 "$@" "$gpusynth" campaign "${options[@]}" --out "$run" >"$run.out" 2>"$run.err" </dev/null
  local status=$?
  [ $status -eq 0 ] || { cat "$run.out" "$run.err" >&2; fail "campaign into $run exited with $status"; }
}

# The results of a run directory, one line per problem, in name order, seconds left out.
results() {
  python3 - "$1/campaign.jsonl" <<'EOF'
import json, sys
rows = [json.loads(line) for line in open(sys.argv[1]) if line.strip()]
names = [r["problem"] for r in rows]
dupes = sorted({n for n in names if names.count(n) > 1})
if dupes:
    print("DUPLICATED", *dupes)
for r in sorted(rows, key=lambda r: r["problem"]):
    print(r["problem"], r["solved"], r["generalises"], r["candidates"], r["test_passed"], r["test_cases"])
EOF
}

# same_as_reference RUN [REF]: campaign.jsonl and `gpusynth trace summary RUN` match the
# reference's (REF: another uninterrupted run of the same options).
same_as_reference() {
  local run=$1 ref=${2:-$base/reference/reference}
  [ -f "$ref/campaign.jsonl" ] || fail "no reference run (the cluster.reference test makes it)"
  diff <(results "$ref") <(results "$run") >&2 || fail "$run/campaign.jsonl differs from the reference"
  timeout 60 "$gpusynth" trace summary "$ref" >"$work/ref.summary" 2>&1 || fail "trace summary of the reference"
  [ -e "$run/shards" ] && fail "$run: the shards were not removed after the join"
  timeout 60 "$gpusynth" trace summary "$run" >"$run.summary" 2>"$run.summary.err" ||
    { cat "$run.summary.err" >&2; fail "gpusynth trace summary $run"; }
  diff "$work/ref.summary" "$run.summary" >&2 || fail "the joined records of $run differ from the reference's"
  if [ -n "$python" ]; then
    "$python" "$here/check_records.py" "$run" || fail "h5py reads $run/records.h5 wrongly"
  fi
}

# The ranks of an mpirun (its child processes), by process id.
ranks_of() { ps -o pid= --ppid "$1" | tr -d ' '; }

# wait_for_first_line RUN PID: until RUN/campaign.jsonl has a line (a problem finished, so the
# ranks are searching the others) or the job ended; at most 120 s.
wait_for_first_line() {
  for _ in $(seq 1200); do
    [ -s "$1/campaign.jsonl" ] && return 0
    kill -0 "$2" 2>/dev/null || return 0
    sleep 0.1
  done
  return 1
}

# interrupted RUN: the stop left some problems to do, and campaign.jsonl lists each done one once.
check_interrupted() {
  local run=$1 lines
  lines=$(grep -c . "$run/campaign.jsonl" 2>/dev/null || echo 0)
  [ "$lines" -lt "$count" ] || fail "every problem had finished before the signal: nothing was interrupted (make the budget larger)"
  results "$run" | grep -q DUPLICATED && fail "campaign.jsonl of the interrupted run lists a problem twice"
  echo "interrupted with $lines/$count problems finished"
}

# check_shards RUN: after a stop, a committed shard for each problem in the ledger and no other
# (a part may remain: the problem in progress when a rank was killed), and no records.h5 yet.
check_shards() {
  local run=$1
  [ -f "$run/records.h5" ] && fail "an interrupted campaign joined its records"
  diff <(grep -o '"problem":"[^"]*"' "$run/campaign.jsonl" | cut -d'"' -f4 | sort) \
    <(ls "$run/shards" | grep '\.h5$' | sed 's/\.h5$//' | sort) >&2 ||
    fail "the committed shards are not the problems of campaign.jsonl"
  timeout 60 "$gpusynth" trace summary "$run" >"$run.partial-summary" 2>&1 || fail "trace summary of an interrupted run"
  echo "shards: $(ls "$run/shards" | tr '\n' ' ')"
}

# small_reference: an uninterrupted run of the quick campaign, in $work/small-reference.
# small_seconds: how long it took (whole seconds, at least 1).
small_reference() {
  local began=$SECONDS
  timeout 300 "$gpusynth" campaign "${quick[@]}" --out "$work/small-reference" >/dev/null 2>"$work/small-reference.err" ||
    { cat "$work/small-reference.err" >&2; fail "the uninterrupted quick campaign failed"; }
  small_seconds=$((SECONDS - began > 0 ? SECONDS - began : 1))
}

# The full-disk case needs a tmpfs of its own: it runs again in a private mount namespace.
if [ "$case_name" = full-disk ] && [ -z "${GPUSYNTH_PRIVATE_MOUNTS:-}" ]; then
  for how in "-m" "-Urm"; do
    if unshare $how true 2>/dev/null; then GPUSYNTH_PRIVATE_MOUNTS=1 exec unshare $how bash "$0" "$@"; fi
  done
  echo "SKIP ($case_name): no private mount namespace can be made here (unshare -m)"
  exit 77
fi

rm -rf "$work"
mkdir -p "$work"
make_suite

case $case_name in
  reference)
    campaign "$work/reference"
    [ -f "$work/reference/records.h5" ] || fail "a one-process run must write records.h5"
    [ -e "$work/reference/shards" ] && fail "the shards were not removed after the join"
    grep -q "solved" "$work/reference.out" || fail "no final table"
    results "$work/reference"
    ;;

  same-results)
    n=3
    run=$work/np$n
    campaign "$run" "$mpirun" -np "$n"
    [ -e "$run/shards" ] && fail "-np $n: the shards were not removed after the join"
    grep -q "joined from $count files" "$run.out" || { cat "$run.out"; fail "-np $n: no records joined from $count shards"; }
    grep -Eq "^coordinator: [1-9][0-9]* messages in, [1-9][0-9]* out" "$run.out" || fail "-np $n: no coordinator cost line"
    grep -q "solved .*/$count problems" "$run.out" || fail "-np $n: no final table"
    same_as_reference "$run"
    # The work was shared: more than one rank searched problems.
    busy=$(grep -o '"rank":[0-9]*' "$run/campaign.jsonl" | sort -u | wc -l)
    echo "ranks that searched: $busy"
    [ "$busy" -ge 2 ] || fail "-np $n: one rank did all the work"
    echo "-np $n: same results as one process"
    ;;

  sigterm-mpirun | sigterm-ranks | sigkill-rank)
    run=$work/run
    timeout 300 "$mpirun" -np 2 "$gpusynth" campaign "${options[@]}" --out "$run" >"$run.out" 2>"$run.err" </dev/null &
    job=$!
    wait_for_first_line "$run" "$job" || fail "no problem finished within 120 s"
    mpirun_pid=$(ps -o pid= --ppid $job | tr -d ' ' | head -1)
    kill -0 "$job" 2>/dev/null || { cat "$run.err"; fail "the campaign ended before the signal"; }
    case $case_name in
      sigterm-mpirun) kill -TERM "$mpirun_pid" ;;
      sigterm-ranks) kill -TERM $(ranks_of "$mpirun_pid") ;;
      sigkill-rank) kill -KILL $(ranks_of "$mpirun_pid" | tail -1) ;;
    esac
    signalled=$(date +%s)
    wait $job
    status=$?
    took=$(($(date +%s) - signalled))
    cat "$run.err" >&2
    echo "the job ended $took s after the signal, exit status $status"
    [ $status -ne 124 ] || fail "the job did not end within its timeout after the signal"
    [ $status -ne 0 ] || fail "an interrupted campaign exited with 0"
    [ $took -le 30 ] || fail "the job took $took s to stop"
    if [ "$case_name" = sigterm-ranks ]; then
      [ $status -eq 3 ] || fail "SIGTERM to the ranks: exit status $status, not 3"
    fi
    if [ "$case_name" != sigkill-rank ]; then
      grep -q "stopped by SIGTERM" "$run.err" || fail "rank 0 did not report the stop"
    fi
    check_interrupted "$run"
    check_shards "$run"
    # The same command again resumes and finishes.
    campaign "$run" "$mpirun" -np 2
    grep -q "already done" "$run.err" || fail "the re-run did not resume"
    same_as_reference "$run"
    ;;

  one-sigterm)
    run=$work/run
    timeout 300 "$gpusynth" campaign "${options[@]}" --out "$run" >"$run.out" 2>"$run.err" </dev/null &
    job=$!
    wait_for_first_line "$run" "$job" || fail "no problem finished within 120 s"
    pid=$(ps -o pid= --ppid $job | tr -d ' ' | head -1)
    kill -TERM "$pid"
    wait $job
    status=$?
    cat "$run.err" >&2
    [ $status -eq 3 ] || fail "exit status $status, not 3"
    grep -q "stopped by SIGTERM" "$run.err" || fail "no stop message"
    check_interrupted "$run"
    check_shards "$run"
    campaign "$run"
    same_as_reference "$run"
    ;;

  bad-input)
    # No signal here to pass on: with the delay set above, mpirun waits 10 s after a rank's
    # usage error before it ends the job (45 of this case's 52 s).
    unset OMPI_MCA_odls_base_sigkill_timeout
    # expect_usage WHAT PATTERN COMMAND...: exit status 2 and PATTERN on stderr.
    expect_usage() {
      local what=$1 pattern=$2
      shift 2
      timeout 120 "$@" >"$work/bad.out" 2>"$work/bad.err"
      local status=$?
      [ $status -eq 2 ] || { cat "$work/bad.err" >&2; fail "$what: exit status $status, not 2"; }
      grep -q -- "$pattern" "$work/bad.err" || { cat "$work/bad.err" >&2; fail "$what: no message '$pattern'"; }
      echo "$what: exit 2, '$(grep -m1 -- "$pattern" "$work/bad.err")'"
    }
    small=(--budget 400 --batch 200 --threads 1 -d cpu -q)
    expect_usage "missing suite" "not a directory of problem files" \
      "$mpirun" -np 2 "$gpusynth" campaign --suite "$work/none" --out "$work/r1" "${small[@]}"
    # Only rank 1 cannot read the suite: it says so itself, and nothing runs.
    mkdir -p "$work/half"
    expect_usage "a rank that cannot read the suite" "^gpusynth campaign (rank 1 of 2 on .*): /nonexistent: not a directory" \
      "$mpirun" -np 2 bash -c 'if [ "$OMPI_COMM_WORLD_RANK" = 1 ]; then s=/nonexistent; else s=$0; fi; exec "$1" campaign --suite "$s" --out "$2" "${@:3}"' \
      "$suite" "$gpusynth" "$work/half" "${small[@]}"
    [ -s "$work/half/campaign.jsonl" ] && fail "a campaign ran although rank 1 could not start"
    # A run directory made for another suite.
    mkdir -p "$work/other"
    echo '{"problem":"not-in-this-suite","solved":false,"candidates":1,"seconds":0,"test_passed":0,"test_cases":0,"generalises":false}' >"$work/other/campaign.jsonl"
    expect_usage "run directory of another suite" "belongs to another suite" \
      "$mpirun" -np 2 "$gpusynth" campaign --suite "$suite" --out "$work/other" "${small[@]}"
    expect_usage "run directory of another suite, one process" "belongs to another suite" \
      "$gpusynth" campaign --suite "$suite" --out "$work/other" "${small[@]}"
    # Another seed than the records were written with.
    timeout 120 "$mpirun" -np 2 "$gpusynth" campaign --suite "$suite" --out "$work/seeded" "${small[@]}" --seed 1 >/dev/null 2>&1 ||
      fail "a small campaign failed"
    expect_usage "another seed" "a resumed run must use the same seed" \
      "$mpirun" -np 2 "$gpusynth" campaign --suite "$suite" --out "$work/seeded" "${small[@]}" --seed 8
    # Another search option (the budget); a session option (the threads) may change.
    expect_usage "another budget" "the run was searched with budget = 400 (now 500); a resumed run must search as it began" \
      "$gpusynth" campaign --suite "$suite" --out "$work/seeded" --budget 500 --batch 200 --threads 2 -d cpu -q --seed 1
    expect_usage "a bad option" "unrecognised option" \
      "$mpirun" -np 2 "$gpusynth" campaign --suite "$suite" --out "$work/r2" --no-such-option
    [ "$(grep -c "unrecognised option" "$work/bad.err")" -eq 1 ] || fail "the usage error was printed more than once"
    ;;

  kill-loop)
    small_reference
    kills=0 rounds=0
    while [ $kills -lt "${GPUSYNTH_KILLS:-6}" ]; do
      run=$work/round-$rounds
      rounds=$((rounds + 1))
      while :; do
        "$gpusynth" campaign "${quick[@]}" --out "$run" >>"$run.out" 2>>"$run.err" </dev/null &
        pid=$!
        # Up to half an uninterrupted run (a few seconds; longer under the sanitizers), so that
        # problems finish between kills and every round ends.
        sleep "$(awk -v r=$RANDOM -v t="$small_seconds" 'BEGIN { printf "%.2f", 0.05 + 0.5 * t * r / 32768 }')"
        if kill -KILL $pid 2>/dev/null; then
          wait $pid 2>/dev/null
          kills=$((kills + 1))
        else
          wait $pid || { cat "$run.err" >&2; fail "round $rounds: the campaign failed after $kills kills"; }
          break
        fi
      done
      grep -q "Segmentation\|Abort" "$run.err" && { cat "$run.err" >&2; fail "round $rounds: a crash"; }
      same_as_reference "$run" "$work/small-reference"
      echo "round $rounds: finished after $kills kills in all, the same as an uninterrupted run"
    done
    echo "$kills SIGKILLs in $rounds rounds: nothing lost, nothing twice"
    ;;

  full-disk)
    small_reference
    disk=$work/disk
    mkdir -p "$disk"
    # Half the space the records need (the shards, then records.h5 joined from them).
    need=$(du -sk "$work/small-reference" | cut -f1)
    mount -t tmpfs -o size=$((need / 2))k gpusynth-full-disk "$disk" || fail "cannot mount a tmpfs"
    run=$disk/run
    timeout 300 "$gpusynth" campaign "${quick[@]}" --out "$run" >"$work/full.out" 2>"$work/full.err" </dev/null
    status=$?
    cat "$work/full.err" >&2
    [ $status -eq 2 ] || fail "a full disk: exit status $status, not 2"
    grep -q "No space left on device" "$work/full.err" || fail "a full disk: no message saying so"
    check_shards "$run"
    lines=$(grep -c . "$run/campaign.jsonl")
    mount -o remount,size=$((need * 4))k "$disk" || fail "cannot grow the tmpfs"
    # The same command, as a user would after freeing space.
    timeout 300 "$gpusynth" campaign "${quick[@]}" --out "$run" >"$work/again.out" 2>"$work/again.err" </dev/null ||
      { cat "$work/again.err" >&2; fail "the campaign did not finish with space again"; }
    same_as_reference "$run" "$work/small-reference"
    echo "the disk filled after $lines problems; with space again the run finished as an uninterrupted one"
    ;;

  two-campaigns)
    small_reference
    run=$work/run
    export HDF5_USE_FILE_LOCKING=FALSE
    "$gpusynth" campaign "${quick[@]}" --out "$run" >"$work/first.out" 2>"$work/first.err" </dev/null &
    first=$!
    for _ in $(seq 300); do [ -s "$run/.lock" ] && break; sleep 0.1; done
    timeout 60 "$gpusynth" campaign "${quick[@]}" --out "$run" >"$work/second.out" 2>"$work/second.err" </dev/null
    status=$?
    cat "$work/second.err" >&2
    kill -0 $first 2>/dev/null || fail "the first campaign ended before the second started: make it longer"
    [ $status -eq 2 ] || fail "a second campaign on one --out: exit status $status, not 2"
    grep -q "pid $first" "$work/second.err" || fail "the refusal does not name the first campaign's pid ($first)"
    wait $first || { cat "$work/first.err" >&2; fail "the first campaign failed"; }
    same_as_reference "$run" "$work/small-reference"
    ;;

  *) fail "unknown case" ;;
esac
echo "PASS ($case_name)"
