#!/usr/bin/env bash
# slurm/campaign.sbatch on a real Slurm (munged + slurmctld + slurmd started on this machine by
# local_slurm.sh, all state under WORKDIR), 2 ranks on the CPU. One case per call:
#
#   slurm_test.sh CASE GPUSYNTH WORKDIR
#
#   campaign        sbatch, wait: the job completes first time, campaign.jsonl has each problem
#                   once, records.h5 (joined from 2 rank files) has each problem, every candidate
#                   once (h5py, `gpusynth trace summary RUN/`)
#   signal-requeue  `scancel --signal=TERM JOB` mid-campaign (what --signal=TERM@120 does at the
#                   time limit): the ranks exit 3, the script's own `scontrol requeue` runs the job
#                   again, it resumes and completes: the campaign case's results, nothing twice
#   slurm-requeue   `scontrol requeue JOB` mid-campaign (what a preemption in REQUEUE mode does:
#                   SIGTERM to the shell, srun and the ranks): Slurm requeues, the job resumes
#
# The batch script is slurm/campaign.sbatch with only its #SBATCH lines changed, as a user with
# a cluster would: the GPU line removed, one node of 2 tasks. Every wait has a deadline (a hang
# fails), and the daemons are stopped on every exit. Exit status 77 (a skip) when not root.
set -uo pipefail

case_name=$1
gpusynth=$2
base=$3
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
work=$base/$case_name
run=$work/run
export PATH=$PATH:/usr/sbin:/sbin

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

# The batch script as a user would edit it for this "cluster": its #SBATCH lines only.
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
    GPUSYNTH_DEVICE=cpu GPUSYNTH_ARGS="--batch 200 --seed 1 -q" timeout 30 sbatch --parsable "$script")
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
  cat "$work/job-$1.out" >&2
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
  grep -q "campaign finished" "$work/job-$job.out" || { show_job "$job"; fail "the script did not report the end"; }
  grep -q "joined from 2 files" "$work/job-$job.out" || { show_job "$job"; fail "the records were not joined from 2 ranks"; }
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
    cat "$work/job-$job.out"
    [ "$state" = COMPLETED ] || { show_job "$job"; fail "job $job: $state"; }
    [ "$(job_field "$job" Restarts)" = 1 ] || { show_job "$job"; fail "job $job ran $(job_field "$job" Restarts) times again, not once"; }
    log=$work/job-$job.out
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

  *) fail "unknown case" ;;
esac
echo "PASS ($case_name)"
