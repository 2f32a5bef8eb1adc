#!/usr/bin/env bash
# slurm/*.sbatch on a real Slurm (munged + slurmctld + slurmd started on this machine by
# local_slurm.sh, all state under WORKDIR), on the CPU: this Slurm has no GPUs. One case per call:
#
#   slurm_test.sh CASE GPUSYNTH WORKDIR
#
#   campaign        sbatch, wait: the job completes first time, campaign.jsonl has each problem
#                   once, records.h5 (joined from the problems' shards) has each problem, every candidate
#                   once (h5py, `gpusynth trace summary RUN/`)
#   signal-requeue  `scancel --signal=TERM JOB` mid-campaign (what --signal=TERM@120 does at the
#                   time limit): the ranks exit 3, the script's own `scontrol requeue` runs the job
#                   again, it resumes and completes: the campaign case's results, nothing twice
#   slurm-requeue   `scontrol requeue JOB` mid-campaign (what a preemption in REQUEUE mode does:
#                   SIGTERM to the shell, srun and the ranks): Slurm requeues, the job resumes
#   elsewhere       slurm/campaign.sbatch as it is, submitted by a relative path from a directory
#                   under /tmp, only its size given to sbatch: it finds its repository through
#                   Slurm (scontrol's Command=), takes the binary and the suite from there, sources
#                   GPUSYNTH_SETUP, writes the run and the log in the submit directory: the
#                   campaign case's results
#   cpu-default     no script asks for a GPU, and each is accepted as it is (its size fitted to
#                   this node) by this Slurm, which refuses a GPU request ("Invalid generic
#                   resource"); campaign-array.sbatch and then analysis.sbatch run from /tmp
#   success-rates   slurm/success-rates.sbatch over 2 problems x 2 seeds (--plan, --range, bad
#                   inputs' one-line errors, one array task too many that fails alone); its
#                   summary counts what the same campaigns run here find
#
# The first three cases run slurm/campaign.sbatch with only its #SBATCH lines changed, as a user
# with a cluster would: one node of 2 tasks. The other cases give sbatch the sizes on its command
# line instead. Every wait has a deadline (a hang fails), and the daemons are stopped on every
# exit. Exit status 77 (a skip) when not root.
set -uo pipefail

case_name=$1
gpusynth=$2
base=$3
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
work=$base/$case_name
run=$work/run
log_prefix=$work/job- # a job's log is ${log_prefix}JOB.out
elsewhere=""          # a submit directory under /tmp, removed at the end
export PATH=$PATH:/usr/sbin:/sbin
# The scripts' settings come from the environment: only those each case gives.
unset "${!GPUSYNTH@}"

fail() {
  echo "FAIL ($case_name): $*" >&2
  exit 1
}

if [ "$(id -u)" -ne 0 ]; then
  echo "SKIP: the private Slurm's daemons run as root (SlurmUser=root); run as root"
  exit 77
fi

# A Python with h5py (Debian's is /usr/bin/python3; another python3 may come first in PATH).
python=""
for p in python3 /usr/bin/python3; do
  if "$p" -c 'import h5py' >/dev/null 2>&1; then python=$p; break; fi
done
[ -n "$python" ] || fail "no python3 with h5py (apt-get install python3-h5py)"

slurm_dir=$work/slurm
# Daemons of an earlier run of this case that was killed before its cleanup (a ctest timeout).
bash "$here/local_slurm.sh" stop "$slurm_dir"
rm -rf "$work"
mkdir -p "$work"
# shellcheck disable=SC2317  # called by the trap
cleanup() {
  local status=$?
  bash "$here/local_slurm.sh" stop "$slurm_dir"
  [ -z "$elsewhere" ] || rm -rf "$elsewhere"
  exit $status
}
trap cleanup EXIT
trap 'exit 130' INT TERM
conf=$(bash "$here/local_slurm.sh" start "$slurm_dir") || fail "the local Slurm did not start"
eval "$conf" # export SLURM_CONF=...

# Four problems of PSB1: one solved at once, three that use the whole budget (several seconds
# each), so that a signal after the first result finds the others in flight.
suite=$work/suite
mkdir -p "$suite"
problems=(count-odds negative-to-zero small-or-large smallest)
for p in "${problems[@]}"; do cp "$root/problems/psb1/$p.json" "$suite/"; done

# The batch script as a user would edit it for this "cluster": its #SBATCH lines only (a GPU
# line, were there one, removed).
script=$work/campaign.sbatch
grep -v -e '^#SBATCH --gpus-per-task' "$root/slurm/campaign.sbatch" |
  sed -e 's/^#SBATCH --nodes=.*/#SBATCH --nodes=1/' -e 's/^#SBATCH --ntasks-per-node=.*/#SBATCH --ntasks-per-node=2/' \
    -e 's/^#SBATCH --cpus-per-task=.*/#SBATCH --cpus-per-task=1/' -e 's/^#SBATCH --time=.*/#SBATCH --time=10/' \
    -e "s|^#SBATCH --output=.*|#SBATCH --output=$work/job-%j.out|" >"$script"
diff <(grep -v '^#SBATCH' "$root/slurm/campaign.sbatch") <(grep -v '^#SBATCH' "$script") >/dev/null ||
  fail "the test's copy of campaign.sbatch differs outside its #SBATCH lines"
grep -q -e '^#SBATCH.*--gpu' "$script" && fail "the test's copy of campaign.sbatch still asks for GPUs"
for line in --nodes=1 --ntasks-per-node=2 --cpus-per-task=1 --time=10 "--output=$work/job-%j.out"; do
  grep -q -x -e "#SBATCH $line" "$script" || fail "the test could not set '#SBATCH $line' in its copy of campaign.sbatch"
done

# submit: sbatch from the repository root with the campaign's settings in the environment.
submit() {
  (cd "$root" && GPUSYNTH=$gpusynth GPUSYNTH_SUITE=$suite GPUSYNTH_RUN=$run GPUSYNTH_BUDGET=6000 \
    GPUSYNTH_DEVICE=cpu GPUSYNTH_ARGS="-g gp --batch 200 --seed 1 --record-every 1 -q" timeout 30 sbatch --parsable "$script")
}

job_field() { timeout 10 scontrol show job "$1" 2>/dev/null | grep -o -E "(^| )$2=[^ ]*" | head -1 | cut -d= -f2; }

# wait_for_end JOB SECONDS: until the job has ended (for good: a requeued job comes back as
# PENDING); prints its state.
wait_for_end() {
  local job=$1 state end=$((SECONDS + $2))
  while [ $SECONDS -lt $end ]; do
    state=$(job_field "$job" JobState)
    case $state in
      COMPLETED | FAILED | CANCELLED | TIMEOUT | NODE_FAIL | OUT_OF_MEMORY | BOOT_FAIL | DEADLINE | PREEMPTED)
        echo "$state"
        return 0
        ;;
    esac
    sleep 0.2
  done
  echo "still $state"
  return 1
}

show_job() {
  echo "--- job $1 log" >&2
  cat "${log_prefix}$1.out" >&2
  timeout 10 scontrol show job "$1" >&2
  echo "--- slurmctld.log (last lines)" >&2
  tail -15 "$slurm_dir/slurmctld.log" >&2
}

# The results of a run directory, one line per problem, in name order (seconds left out).
results() {
  python3 - "$1/campaign.jsonl" <<'EOF'
import json, sys
rows = [json.loads(line) for line in open(sys.argv[1]) if line.strip()]
names = [r["problem"] for r in rows]
for n in sorted({n for n in names if names.count(n) > 1}):
    print("DUPLICATED", n)
for r in sorted(rows, key=lambda r: r["problem"]):
    print(r["problem"], r["solved"], r["generalises"], r["candidates"], r["test_passed"], r["test_cases"])
EOF
}

# check_complete JOB: the job completed, each problem is in campaign.jsonl once and in the
# joined records with every candidate once.
check_complete() {
  local job=$1
  [ "$(job_field "$job" ExitCode)" = "0:0" ] || { show_job "$job"; fail "job $job: exit code $(job_field "$job" ExitCode)"; }
  grep -q "campaign finished" "${log_prefix}$job.out" || { show_job "$job"; fail "the script did not report the end"; }
  grep -Eq "joined from [1-9][0-9]* files" "${log_prefix}$job.out" || { show_job "$job"; fail "the records were not joined"; }
  [ -e "$run/shards" ] && fail "the shards were not removed after the join"
  results "$run" >"$work/results.txt"
  cat "$work/results.txt"
  grep -q DUPLICATED "$work/results.txt" && fail "campaign.jsonl lists a problem more than once"
  [ "$(cut -d' ' -f1 "$work/results.txt" | tr '\n' ' ')" = "${problems[*]} " ] ||
    fail "campaign.jsonl does not list each of the ${#problems[@]} problems once"
  timeout 60 "$gpusynth" trace summary "$run" >"$work/summary.txt" 2>"$work/summary.err" ||
    { cat "$work/summary.err" >&2; fail "gpusynth trace summary $run"; }
  cat "$work/summary.txt"
  grep -q "problems solved" "$work/summary.txt" || fail "no total line in the trace summary"
  for p in "${problems[@]}"; do
    [ "$(grep -c "^$p	" "$work/summary.txt")" -eq 1 ] || fail "the trace summary does not show $p once"
  done
  [ -s "$work/summary.err" ] && { cat "$work/summary.err" >&2; fail "gpusynth trace summary warned"; }
  "$python" "$here/../cluster/check_records.py" "$run" || fail "h5py reads $run/records.h5 wrongly"
}

# wait_for_first_result JOB: until campaign.jsonl has a line (so the ranks are on the other
# problems); fails when the job ends first or after 120 s.
wait_for_first_result() {
  local end=$((SECONDS + 120))
  while [ $SECONDS -lt $end ]; do
    [ -s "$run/campaign.jsonl" ] && return 0
    case $(job_field "$1" JobState) in PENDING | CONFIGURING | RUNNING) ;; *) show_job "$1"; fail "job $1 ended before the signal" ;; esac
    sleep 0.2
  done
  show_job "$1"
  fail "no problem finished within 120 s"
}

case $case_name in
  campaign)
    job=$(submit) || fail "sbatch failed"
    echo "job $job submitted"
    state=$(wait_for_end "$job" 180) || { show_job "$job"; fail "job $job did not end within 180 s ($state)"; }
    [ "$state" = COMPLETED ] || { show_job "$job"; fail "job $job: $state"; }
    [ "$(job_field "$job" Restarts)" = 0 ] || { show_job "$job"; fail "job $job was requeued"; }
    check_complete "$job"
    cp "$work/results.txt" "$base/campaign-results.txt"
    ;;

  signal-requeue | slurm-requeue)
    [ -f "$base/campaign-results.txt" ] || fail "no results of the campaign case to compare with (slurm.campaign makes them)"
    job=$(submit) || fail "sbatch failed"
    echo "job $job submitted"
    wait_for_first_result "$job"
    if [ "$case_name" = signal-requeue ]; then
      timeout 10 scancel --signal=TERM "$job" || fail "scancel --signal=TERM $job"
    else
      timeout 10 scontrol requeue "$job" || fail "scontrol requeue $job"
    fi
    echo "job $job: $case_name after the first result"
    state=$(wait_for_end "$job" 240) || { show_job "$job"; fail "job $job did not end within 240 s ($state)"; }
    cat "${log_prefix}$job.out"
    [ "$state" = COMPLETED ] || { show_job "$job"; fail "job $job: $state"; }
    [ "$(job_field "$job" Restarts)" = 1 ] || { show_job "$job"; fail "job $job ran $(job_field "$job" Restarts) times again, not once"; }
    log=${log_prefix}$job.out
    stopped=$(grep -o 'stopped by SIGTERM with [0-9]*/4 problems finished' "$log") || fail "the ranks did not stop cleanly (exit 3) on SIGTERM"
    echo "first run: $stopped"
    finished=${stopped#stopped by SIGTERM with }
    [ "${finished%%/*}" -lt 4 ] || fail "every problem had finished before the signal: nothing was interrupted"
    grep -q "campaign stopped (status 3): requeueing" "$log" || fail "the script did not see status 3"
    if [ "$case_name" = signal-requeue ]; then
      grep -q "scontrol requeue failed" "$log" && fail "the script's own scontrol requeue failed"
    fi
    grep -q "run 2, .*2 ranks" "$log" || fail "the job did not run a second time"
    grep -q "([1-3] already done)" "$log" || fail "the second run did not resume"
    check_complete "$job"
    diff "$base/campaign-results.txt" "$work/results.txt" >&2 || fail "the resumed campaign's results differ from the uninterrupted one's"
    ;;

  elsewhere)
    # The repository as a user has it, but with the test's binary as its build and the four
    # problems as its problems/psb1, so that the defaults (GPUSYNTH, GPUSYNTH_SUITE unset) are
    # this test's: a copy of slurm/, unchanged.
    [ -f "$base/campaign-results.txt" ] || fail "no results of the campaign case to compare with (slurm.campaign makes them)"
    repo=$work/repo
    mkdir -p "$repo/problems/psb1" "$repo/build/release/jobs"
    cp -r "$root/slurm" "$repo/"
    cp "$suite"/*.json "$repo/problems/psb1/"
    ln -s "$(realpath "$gpusynth")" "$repo/build/release/jobs/gpusynth"
    elsewhere=$(mktemp -d "${TMPDIR:-/tmp}/gpusynth-slurm-elsewhere.XXXXXX") || fail "mktemp"
    # What a site's `module load` or `conda activate` does: change the environment (here the
    # campaign's settings: without them the budget would be 300000 and the results others),
    # reading a variable that is not set (an error under the scripts' `set -u`).
    cat >"$elsewhere/setup.sh" <<'SETUP'
echo "setup.sh sourced in $PWD$GPUSYNTH_TEST_NOT_SET"
export GPUSYNTH_BUDGET=6000 GPUSYNTH_ARGS="-g gp --batch 200 --seed 1 --record-every 1 -q"
SETUP
    script_path=$(realpath --relative-to="$elsewhere" "$repo/slurm/campaign.sbatch")
    echo "submitting $script_path from $elsewhere"
    # The #SBATCH lines as they are (2 nodes of 4 ranks of 8 CPUs, no GPU), but for the size of
    # this one 2-CPU node, given to sbatch; the log goes where the script says: the submit directory.
    job=$(cd "$elsewhere" && GPUSYNTH_SETUP=setup.sh timeout 30 sbatch --parsable --nodes=1 \
      --ntasks-per-node=2 --cpus-per-task=1 --time=10 "$script_path") || fail "sbatch failed"
    echo "job $job submitted"
    log_prefix=$elsewhere/slurm-gpusynth-campaign-
    run=$elsewhere/runs/psb1
    state=$(wait_for_end "$job" 180) || { show_job "$job"; fail "job $job did not end within 180 s ($state)"; }
    cat "${log_prefix}$job.out"
    [ "$state" = COMPLETED ] || { show_job "$job"; fail "job $job: $state"; }
    log=${log_prefix}$job.out
    grep -q "setup.sh sourced in $elsewhere" "$log" || fail "GPUSYNTH_SETUP was not sourced in the submit directory"
    found=$(grep -o 'repository [^ ]*$' "$log" | head -1 | cut -d' ' -f2)
    if ! { [ -n "$found" ] && [ "$(realpath "$found")" = "$(realpath "$repo")" ]; }; then
      fail "the script took '$found' for its repository, not $repo"
    fi
    grep -q "suite $repo/problems/psb1 -> runs/psb1, budget 6000, device auto; in $elsewhere" "$log" ||
      fail "not the repository's suite into the submit directory's runs/psb1 with the set-up's budget"
    [ ! -e "$repo/runs" ] || fail "the run went into the repository"
    check_complete "$job"
    diff "$base/campaign-results.txt" "$work/results.txt" >&2 || fail "the results differ from the campaign case's"
    ;;

  cpu-default)
    # No #SBATCH line asks for a GPU (or any generic resource).
    if grep -n -E '^#SBATCH.*(--gpu|--gres|--tres)' "$root"/slurm/*.sbatch; then
      fail "a script asks for GPUs in its #SBATCH lines (above): it would not run on a CPU-only partition"
    fi
    # The block that finds the repository and runs GPUSYNTH_SETUP is the same in every script.
    for f in "$root"/slurm/*.sbatch; do
      grep -q '^# --- End of the block. ---$' "$f" || fail "$f has no repository and set-up block"
    done
    blocks=$(for f in "$root"/slurm/*.sbatch; do
      sed -n '/^# --- The repository and the site/,/^# --- End of the block/p' "$f" | md5sum
    done | sort -u | wc -l)
    [ "$blocks" -eq 1 ] || fail "the repository and set-up block differs between the slurm/*.sbatch scripts"
    # This Slurm has no GPUs: a request for one is refused, as on a CPU-only partition.
    out=$(timeout 30 sbatch --test-only --nodes=1 --ntasks-per-node=2 --cpus-per-task=1 --gpus-per-task=1 \
      "$root/slurm/campaign.sbatch" 2>&1) && fail "this Slurm accepted a GPU request: the case proves nothing ($out)"
    echo "a GPU request: $out"
    [[ $out == *"Invalid generic resource"* ]] || fail "a GPU request was refused for another reason: $out"
    # Every script, as it is, given only sizes that fit this node.
    for s in campaign campaign-array selfplay; do
      out=$(timeout 30 sbatch --test-only --nodes=1 --ntasks-per-node=2 --cpus-per-task=1 "$root/slurm/$s.sbatch" 2>&1) ||
        fail "sbatch --test-only refused slurm/$s.sbatch: $out"
      echo "$s.sbatch: $out"
    done
    for s in analysis success-rates; do
      out=$(timeout 30 sbatch --test-only --cpus-per-task=1 "$root/slurm/$s.sbatch" 2>&1) ||
        fail "sbatch --test-only refused slurm/$s.sbatch: $out"
      echo "$s.sbatch: $out"
    done
    # campaign-array.sbatch for real (one suite, one task), from /tmp: its task starts the
    # repository's campaign.sbatch, on the CPU (GPUSYNTH_DEVICE=auto); analysis.sbatch after it.
    elsewhere=$(mktemp -d "${TMPDIR:-/tmp}/gpusynth-slurm-cpu.XXXXXX") || fail "mktemp"
    mkdir -p "$elsewhere/one"
    cp "$root/problems/psb1/smallest.json" "$elsewhere/one/"
    job=$(cd "$elsewhere" && GPUSYNTH=$gpusynth GPUSYNTH_SUITES=one GPUSYNTH_BUDGET=6000 \
      GPUSYNTH_ARGS="--batch 200 --seed 1 -q" timeout 30 sbatch --parsable --array=0 --ntasks-per-node=2 \
      --cpus-per-task=1 --time=10 "$root/slurm/campaign-array.sbatch") || fail "sbatch campaign-array.sbatch failed"
    echo "array job $job submitted"
    python_plots=""
    for p in python3 /usr/bin/python3; do
      if "$p" -c 'import h5py, matplotlib' >/dev/null 2>&1; then python_plots=$p; break; fi
    done
    if [ -n "$python_plots" ]; then
      analysis=$(cd "$elsewhere" && GPUSYNTH=$gpusynth GPUSYNTH_RUN=runs/one GPUSYNTH_PYTHON=$python_plots \
        timeout 30 sbatch --parsable --dependency="afterok:$job" --cpus-per-task=1 "$root/slurm/analysis.sbatch") ||
        fail "sbatch analysis.sbatch failed"
      echo "analysis job $analysis submitted"
    fi
    log_prefix=$elsewhere/slurm-gpusynth-suites-
    state=$(wait_for_end "${job}_0" 180) || { show_job "${job}_0"; fail "array task ${job}_0 did not end within 180 s ($state)"; }
    cat "${log_prefix}${job}_0.out"
    [ "$state" = COMPLETED ] || { show_job "${job}_0"; fail "array task ${job}_0: $state"; }
    log=${log_prefix}${job}_0.out
    grep -q "suite 0 of 1: one -> runs/one" "$log" || fail "campaign-array.sbatch did not take the suite 'one'"
    grep -q "suite one -> runs/one, budget 6000, device auto; in $elsewhere, repository $root" "$log" ||
      fail "campaign.sbatch did not run in $elsewhere from the repository $root"
    grep -q "on the cpu" "$log" || fail "the campaign did not run on the CPU"
    [ "$(grep -c '"problem":"smallest"' "$elsewhere/runs/one/campaign.jsonl")" -eq 1 ] ||
      fail "runs/one/campaign.jsonl does not have the problem once"
    if [ -n "$python_plots" ]; then
      log_prefix=$elsewhere/slurm-gpusynth-analysis-
      state=$(wait_for_end "$analysis" 120) || { show_job "$analysis"; fail "analysis job $analysis did not end within 120 s ($state)"; }
      cat "${log_prefix}$analysis.out"
      [ "$state" = COMPLETED ] || { show_job "$analysis"; fail "analysis job $analysis: $state"; }
      grep -q "^smallest	" "$elsewhere/runs/one/summary.tsv" || fail "no summary.tsv of runs/one"
      [ -s "$elsewhere/runs/one/plots/solve_rate.png" ] || fail "no plots of runs/one"
    else
      echo "analysis.sbatch not run: no python3 with h5py and matplotlib (apt-get install python3-matplotlib)"
    fi
    ;;

  success-rates)
    elsewhere=$(mktemp -d "${TMPDIR:-/tmp}/gpusynth-slurm-success.XXXXXX") || fail "mktemp"
    mkdir -p "$elsewhere/two"
    cp "$root/problems/psb1/count-odds.json" "$root/problems/psb1/smallest.json" "$elsewhere/two/"
    sr=$root/slurm/success-rates.sbatch
    # The study's settings: the same for --plan, the tasks and --summary (relative paths: in $elsewhere).
    export GPUSYNTH=$gpusynth GPUSYNTH_SUITE=two GPUSYNTH_SEEDS=1-2 GPUSYNTH_BUDGET=6000 GPUSYNTH_ARGS="--batch 200 -q"
    cd "$elsewhere" || fail "cd $elsewhere"
    plan=$(bash "$sr" --plan) || fail "--plan failed: $plan"
    echo "$plan"
    grep -q "^2 problems x 2 seeds = 4 tasks" <<<"$plan" || fail "--plan does not count 2 x 2 = 4 tasks"
    grep -q "^submit: *sbatch --array=0-3 " <<<"$plan" || fail "--plan does not say --array=0-3"
    [ "$(bash "$sr" --range)" = 0-3 ] || fail "--range is not 0-3"
    # one_line_error WHAT EXPECTED COMMAND...: the command fails (status 2) with one line saying EXPECTED.
    one_line_error() {
      local what=$1 expected=$2 out status
      shift 2
      out=$("$@" 2>&1)
      status=$?
      [ $status -eq 2 ] || fail "$what: exit status $status, not 2 ($out)"
      [ "$(printf '%s\n' "$out" | wc -l)" -eq 1 ] || fail "$what: not one line: $out"
      [[ $out == *"$expected"* ]] || fail "$what: '$out' does not say '$expected'"
      echo "$what: $out"
    }
    one_line_error "no suite" "no suite at nowhere" env GPUSYNTH_SUITE=nowhere bash "$sr" --plan
    one_line_error "no problem" "no problem nothing in $elsewhere/two" env GPUSYNTH_PROBLEMS=nothing bash "$sr" --plan
    one_line_error "bad seeds" "GPUSYNTH_SEEDS: '2-x'" env GPUSYNTH_SEEDS=1,2-x bash "$sr" --range
    one_line_error "no binary" "no gpusynth binary at $elsewhere/none" env GPUSYNTH="$elsewhere/none" SLURM_ARRAY_TASK_ID=0 bash "$sr"
    one_line_error "no array" "not an array task: submit with sbatch --array=0-3" bash "$sr"
    one_line_error "seed option" "GPUSYNTH_ARGS has --seed" env GPUSYNTH_ARGS="--seed 3" SLURM_ARRAY_TASK_ID=0 bash "$sr"
    one_line_error "no study" "no study at runs/success-two" bash "$sr" --summary
    # The 4 tasks and one too many, which must fail alone, saying so.
    job=$(timeout 30 sbatch --parsable --array=0-4 --cpus-per-task=1 --time=10 "$sr") || fail "sbatch failed"
    echo "array job $job submitted (0-4)"
    log_prefix=$elsewhere/slurm-gpusynth-success-
    for i in 0 1 2 3 4; do
      state=$(wait_for_end "${job}_$i" 240) || { show_job "${job}_$i"; fail "array task ${job}_$i did not end within 240 s ($state)"; }
      echo "task $i: $state"
      if [ $i -lt 4 ]; then
        [ "$state" = COMPLETED ] || { show_job "${job}_$i"; fail "array task ${job}_$i: $state"; }
        grep -q "campaign finished" "${log_prefix}${job}_$i.out" || { show_job "${job}_$i"; fail "task $i did not finish its campaign"; }
      else
        if ! { [ "$state" = FAILED ] && [ "$(job_field "${job}_4" ExitCode)" = 2:0 ]; }; then
          show_job "${job}_4"
          fail "array task 4 (out of range): $state, exit code $(job_field "${job}_4" ExitCode)"
        fi
        cat "${log_prefix}${job}_4.out"
        if ! { [ "$(wc -l <"${log_prefix}${job}_4.out")" -eq 1 ] &&
          grep -q -F "array index 4 is out of range: 2 problems x 2 seeds = 4 tasks, --array=0-3 (bash $root/slurm/success-rates.sbatch --plan)" "${log_prefix}${job}_4.out"; }; then
          fail "array task 4 did not fail with its one-line error"
        fi
      fi
    done
    cat "${log_prefix}${job}_1.out"
    grep -q "task 1 of 4: problem smallest (2 of 2), seed 1 -> runs/success-two/smallest/seed-1" "${log_prefix}${job}_1.out" ||
      fail "task 1 is not (smallest, seed 1)"
    summary=$(bash "$sr" --summary) || fail "--summary failed: $summary"
    echo "$summary"
    grep -q "every task finished: 4" <<<"$summary" || fail "the summary does not see the 4 tasks finished"
    # What the same campaigns find here, the whole suite at once per seed (each problem's seed is
    # derived from --seed and its name): solved, generalised, solved with seeds, median candidates.
    for seed in 1 2; do
      timeout 120 "$gpusynth" campaign --suite two --out "$work/expected-$seed" --budget 6000 --batch 200 -q \
        --seed "$seed" --record-every 0 --threads 1 --device cpu >/dev/null 2>&1 || fail "the campaign with --seed $seed here failed"
    done
    python3 - "$work" runs/success-two/summary.tsv <<'PY' || fail "the summary is not what the campaigns found"
import json, statistics, sys
work, tsv = sys.argv[1], sys.argv[2]
runs = {}
for seed in (1, 2):
    for line in open(f"{work}/expected-{seed}/campaign.jsonl"):
        r = json.loads(line)
        runs.setdefault(r["problem"], {})[seed] = r
expected = ["problem\tplanned\tfinished\tsolved\tgeneralised\tmedian_candidates\tsolved_seeds"]
for problem in sorted(runs):
    solved = [s for s in (1, 2) if runs[problem][s]["solved"]]
    median = f"{statistics.median(runs[problem][s]['candidates'] for s in solved):g}" if solved else "-"
    expected.append(f"{problem}\t2\t2\t{len(solved)}\t{sum(runs[problem][s]['generalises'] for s in solved)}\t{median}\t"
                    + (",".join(map(str, solved)) or "-"))
got = open(tsv).read().splitlines()
print("expected:", *expected, sep="\n  ")
if got != expected:
    print("summary.tsv:", *got, sep="\n  ")
    sys.exit(1)
PY
    ;;

  *) fail "unknown case" ;;
esac
echo "PASS ($case_name)"
