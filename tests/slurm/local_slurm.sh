#!/usr/bin/env bash
# A real, private Slurm on this machine: munged + slurmctld + slurmd, all state in one scratch
# directory, nothing in /etc read or written (../shared/ENVIRONMENT.md "A real Slurm on localhost").
#
#   local_slurm.sh start DIR   starts the three daemons; prints `export SLURM_CONF=DIR/slurm.conf`
#   local_slurm.sh stop DIR    stops them by the pids in their pid files (always safe to call)
#
# Client commands (sbatch, squeue, scontrol, scancel) find this Slurm through SLURM_CONF; they
# reach munged through the socket named in slurm.conf (AuthInfo). Must run as root: slurmd has
# to start tasks as the submitting user, and the daemons run as root (SlurmUser=root).
set -uo pipefail

command=${1:-}
dir=${2:-}
if [ -z "$command" ] || [ -z "$dir" ]; then
  echo "usage: local_slurm.sh start|stop DIR" >&2
  exit 2
fi

say() { echo "local_slurm: $*" >&2; }

# stop_daemon NAME PIDFILE: SIGTERM, then SIGKILL after 10 s; only the process in the pid file,
# and only while it is still NAME (a stale pid file may name a pid now used by another process).
stop_daemon() {
  local name=$1 pidfile=$2 pid
  [ -s "$pidfile" ] || return 0
  pid=$(cat "$pidfile")
  if [ "$(cat "/proc/$pid/comm" 2>/dev/null)" = "$name" ]; then
    kill -TERM "$pid" 2>/dev/null
    for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    if kill -0 "$pid" 2>/dev/null; then
      say "$name ($pid) ignored SIGTERM for 10 s: SIGKILL"
      kill -KILL "$pid" 2>/dev/null
    fi
  fi
  rm -f "$pidfile"
}

# Jobs still running have slurmstepd processes and tasks that no pid file names: they are
# cancelled, and waited for, before the daemons are stopped, so that nothing is left behind.
stop_all() {
  local end
  if [ -s "$dir/slurmctld.pid" ] && [ -f "$dir/slurm.conf" ] &&
    [ "$(cat "/proc/$(cat "$dir/slurmctld.pid")/comm" 2>/dev/null)" = slurmctld ]; then
    export SLURM_CONF=$dir/slurm.conf
    timeout 10 scancel --full --signal=KILL --user="$(id -un)" >/dev/null 2>&1
    timeout 10 scancel --user="$(id -un)" >/dev/null 2>&1
    end=$((SECONDS + 15))
    while [ $SECONDS -lt $end ] && [ -n "$(timeout 5 squeue -h -o %i 2>/dev/null)" ]; do sleep 0.2; done
  fi
  stop_daemon slurmd "$dir/slurmd.pid"
  stop_daemon slurmctld "$dir/slurmctld.pid"
  stop_daemon munged "$dir/munge/munged.pid"
}

# A free TCP port on this machine (asked of the kernel, so parallel runs do not collide).
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("", 0)); print(s.getsockname()[1])'; }

start_all() {
  local host cpus ctld_port d_port
  host=$(hostname -s)
  # At least 2, so that a 2-task job fits on a 1-core machine (config_overrides below).
  cpus=$(nproc)
  [ "$cpus" -ge 2 ] || cpus=2
  mkdir -p "$dir"
  dir=$(cd "$dir" && pwd)
  stop_all # a previous run's daemons, if its cleanup never ran
  # Daemons' own output (they log to files) goes to daemons.out: a caller reading this script's
  # output through a pipe must not wait for the daemons to close it.
  rm -rf "$dir/munge" "$dir/munge-socket" "$dir/ctld" "$dir/d" "$dir"/*.log "$dir/daemons.out"
  # munged wants the key 0600 and refuses a socket directory that others cannot search (o+x);
  # the key and the socket get separate directories so each can have its own mode.
  mkdir -p "$dir/munge" "$dir/munge-socket" "$dir/ctld" "$dir/d"
  chmod 700 "$dir/munge"
  chmod 755 "$dir/munge-socket"
  dd if=/dev/urandom of="$dir/munge/munge.key" bs=1024 count=1 status=none
  chmod 600 "$dir/munge/munge.key"
  munged --force --socket="$dir/munge-socket/munge.socket" --key-file="$dir/munge/munge.key" \
    --pid-file="$dir/munge/munged.pid" --log-file="$dir/munge/munged.log" \
    --seed-file="$dir/munge/munged.seed" </dev/null >>"$dir/daemons.out" 2>&1 ||
    { say "munged did not start"; cat "$dir/munge/munged.log" >&2; return 1; }

  ctld_port=$(free_port)
  d_port=$(free_port)
  cat >"$dir/slurm.conf" <<EOF
# Written by tests/slurm/local_slurm.sh: a one-node Slurm for tests, all state under $dir.
ClusterName=gpusynth-test
# Addresses given, so that nothing depends on how this machine resolves its own name.
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$d_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
# cred_expire also sets how long a requeued job waits before it may start again (its value +
# 1 s; 121 s by default): 10 keeps the requeue tests short.
AuthInfo=socket=$dir/munge-socket/munge.socket,cred_expire=10
CredType=cred/munge
StateSaveLocation=$dir/ctld
SlurmdSpoolDir=$dir/d
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
# No cgroups in containers: track processes by their parent pids, bind nothing.
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
# Debian's Open MPI starts its ranks only through PMIx.
MpiDefault=pmix
ReturnToService=2
# The node has the CPUs written here, whatever slurmd finds (not drained for "low CPUs").
SlurmdParameters=config_overrides
# Finished jobs stay visible to scontrol for 10 minutes (no accounting database here).
MinJobAge=600
# Schedule every 2 s, not every 30-60 s, so that a requeued job starts as soon as it may.
SchedulerParameters=sched_interval=2,bf_interval=2
MailProg=/bin/true
# Between SIGTERM and SIGKILL of a job's processes (the campaign needs a batch to stop).
KillWait=30
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus State=UNKNOWN
PartitionName=test Nodes=$host Default=YES MaxTime=INFINITE State=UP OverSubscribe=NO
EOF
  slurmctld -f "$dir/slurm.conf" </dev/null >>"$dir/daemons.out" 2>&1 || { say "slurmctld did not start"; cat "$dir/slurmctld.log" >&2; return 1; }
  slurmd -f "$dir/slurm.conf" </dev/null >>"$dir/daemons.out" 2>&1 || { say "slurmd did not start"; cat "$dir/slurmd.log" >&2; return 1; }
  # Ready when the node is idle (slurmd registered with slurmctld).
  for _ in $(seq 150); do
    if SLURM_CONF=$dir/slurm.conf sinfo -h -o '%t' 2>/dev/null | grep -q '^idle'; then
      say "up: $host, $cpus CPUs, slurmctld port $ctld_port, slurmd port $d_port, state in $dir"
      echo "export SLURM_CONF=$dir/slurm.conf"
      return 0
    fi
    sleep 0.1
  done
  say "the node did not become idle within 15 s"
  SLURM_CONF=$dir/slurm.conf sinfo >&2
  tail -20 "$dir/slurmctld.log" "$dir/slurmd.log" >&2
  return 1
}

case $command in
  start) start_all ;;
  stop) stop_all ;;
  *) echo "usage: local_slurm.sh start|stop DIR" >&2; exit 2 ;;
esac
