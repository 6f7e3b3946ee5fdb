#!/usr/bin/env bash
# Starts and stops a real Slurm cluster on this machine (slurmctld, one slurmd per node, munge auth)
# with fake GPUs, every file of it under one directory. Used by the GoogleTest Slurm fixtures and by
# developers.
#
#   scripts/slurm-local.sh start DIR [--nodes N] [GPUS] [CPUS]
#                                    prints "SLURM_CONF=DIR/slurm.conf", exit 0; GPUS (default 2)
#                                    and CPUS (default nproc) are per node
#   scripts/slurm-local.sh stop DIR  idempotent, exit 0 even when nothing runs
#   scripts/slurm-local.sh env DIR   prints "SLURM_CONF=..." of a running cluster
#
# One node (the default) is this machine under its own host name at 127.0.0.1. With --nodes N >= 2
# each node is a slurmd of its own (Debian's Slurm is built with multiple-slurmd support:
# `scontrol show config` says MULTIPLE_SLURMD = Yes), named tipcP-nK (P: the cluster's slurmctld
# port, K = 1..N), with its own port and its own loopback address 127.A.B.K (A.B: P's two bytes),
# so no packet leaves the machine. The names resolve through lines this script adds to /etc/hosts,
# each marked "# slurm-local DIR", and `stop` removes them again.
#
# start exits 3 when the Slurm/munge binaries are missing (the caller should skip, not fail), and
# another non-zero code for any other failure or on SIGINT/SIGTERM, after printing the reason and
# the daemons' log tails to stderr and stopping whatever it started. Written for Slurm 22.05 with
# munge on Debian 12, run as root; docs/slurm.md says how the tests use it.
set -euo pipefail

readonly START_TIMEOUT_S=30   # until sinfo says idle
readonly STOP_TIMEOUT_S=10    # SIGTERM grace before SIGKILL
readonly PORT_BASE=16817      # well below the ephemeral range, away from a system Slurm's 6817/6818
readonly PORT_TRIES=500
# Held by `start` from starting munged until the node is idle, and by `stop` while deciding about
# munged: a port is only seen as taken once a daemon listens on it, so two starts must not both pick
# the same free pair; and a stop must not end munged while another start is about to rely on it.
readonly LOCK_FILE=/tmp/slurm-local.lock
# First line of every slurm.conf we write; lets `stop` recognise a cluster made by this script.
readonly CONF_MARK='# written by scripts/slurm-local.sh'

readonly HOSTS_FILE=/etc/hosts

EXIT_MISSING=3
LOCK_HELD=0
START_DIR=""   # set while `start` has something to undo on failure (the EXIT trap)

die() { echo "slurm-local: $*" >&2; exit 1; }
usage() {
  echo "usage: $0 start DIR [--nodes N] [GPUS] [CPUS] | stop DIR | env DIR" >&2
  exit 2
}

# --- process helpers ----------------------------------------------------------------------------
now_ms() { local t=${EPOCHREALTIME/[.,]/}; echo $((t / 1000)); }

# PID 1 in these sandboxes does not reap orphans, so a dead daemon stays a zombie and `kill -0`
# still succeeds on it. Alive means: /proc/PID/stat exists and its state is not Z (zombie) / X.
is_alive() {
  local pid=$1 line rest state
  read -r line 2>/dev/null <"/proc/$pid/stat" || return 1
  rest=${line##*) }       # the comm field is in parentheses and may contain spaces
  state=${rest%% *}
  [[ -n $state && $state != Z && $state != X ]]
}

# The pid is alive and its command name is $2 (guards against a pid reused by another program).
is_alive_as() {
  local pid=$1 want=$2 comm
  is_alive "$pid" || return 1
  read -r comm 2>/dev/null <"/proc/$pid/comm" || return 1
  [[ $comm == "$want" ]]
}

pid_from_file() {
  local file=$1 pid
  [[ -r $file ]] || return 1
  pid=$(tr -dc '0-9' <"$file")
  [[ -n $pid ]] || return 1
  echo "$pid"
}

# Live processes named $1 with $2 (our slurm.conf, as in "-f $2") among their arguments. Finds a
# daemon of this cluster whose pid file is missing or stale, or whose DIR was deleted under it.
pids_by_conf() {
  local name=$1 conf=$2 p cmd comm
  for p in /proc/[0-9]*; do
    p=${p#/proc/}
    read -r comm 2>/dev/null <"/proc/$p/comm" || continue
    [[ $comm == "$name" ]] || continue
    cmd=$(tr '\0' '\n' 2>/dev/null <"/proc/$p/cmdline") || continue
    if grep -qxF -- "$conf" <<<"$cmd" && is_alive "$p"; then echo "$p"; fi
  done
}

# SIGTERM the given pids, wait up to STOP_TIMEOUT_S for them to die, then SIGKILL the rest.
terminate() {
  local pids=() p deadline
  for p in "$@"; do is_alive "$p" && pids+=("$p"); done
  ((${#pids[@]})) || return 0
  kill -TERM "${pids[@]}" 2>/dev/null || true
  deadline=$((SECONDS + STOP_TIMEOUT_S))
  while ((SECONDS < deadline)); do
    local left=()
    for p in "${pids[@]}"; do is_alive "$p" && left+=("$p"); done
    ((${#left[@]})) || return 0
    pids=("${left[@]}")
    sleep 0.1
  done
  kill -KILL "${pids[@]}" 2>/dev/null || true
  for _ in {1..20}; do   # SIGKILL is not instant either; give it up to 2 s
    local any=0
    for p in "${pids[@]}"; do is_alive "$p" && any=1; done
    ((any)) || return 0
    sleep 0.1
  done
}

# Pids of all live descendants of the given pids (children first found via each process's ppid).
descendants() {
  local -A children=()
  local p c line rest fields
  for p in /proc/[0-9]*; do
    read -r line 2>/dev/null <"$p/stat" || continue
    rest=${line##*) }
    read -ra fields <<<"$rest"   # state ppid ...
    children[${fields[1]}]+="${p#/proc/} "
  done
  local queue=("$@") out=()
  while ((${#queue[@]})); do
    p=${queue[0]}; queue=("${queue[@]:1}")
    for c in ${children[$p]:-}; do out+=("$c"); queue+=("$c"); done
  done
  for p in "${out[@]}"; do is_alive "$p" && echo "$p"; done
  return 0
}

# --- lock (fd 9) --------------------------------------------------------------------------------
lock_acquire() {
  ((LOCK_HELD)) && return 0
  exec 9>"$LOCK_FILE"
  flock -w 60 9 || return 1
  LOCK_HELD=1
}

lock_release() {
  ((LOCK_HELD)) || return 0
  flock -u 9
  exec 9>&-
  LOCK_HELD=0
}

# --- configuration ------------------------------------------------------------------------------
port_in_use() {
  local port=$1
  if command -v ss >/dev/null; then
    # Local address is the 4th column: 0.0.0.0:P, [::]:P, *:P, 127.0.0.1:P ...
    ss -Hltn 2>/dev/null | awk -v p="$port" '{ n = split($4, a, ":"); if (a[n] == p) f = 1 } END { exit !f }'
  else
    (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null
  fi
}

# The ports named in the slurm.conf of every cluster of this script that still has a daemon,
# one a line. A cluster whose slurmctld is stopped for a moment (a test restarts it) keeps its
# port although nothing listens on it then: a start that took it meanwhile (its range from a
# lower P reaches it) left the restarted slurmctld with "Address already in use".
claimed_ports() {
  local p conf
  for p in $(pgrep -x slurmctld; pgrep -x slurmd); do
    conf=$(tr '\0' '\n' 2>/dev/null <"/proc/$p/cmdline" | grep -m1 '/slurm\.conf$' || true)
    [[ -n $conf && -f $conf && $(head -n1 "$conf" 2>/dev/null) == "$CONF_MARK" ]] || continue
    sed -n 's/^SlurmctldPort=\([0-9]*\).*/\1/p; s/^SlurmdPort=\([0-9]*\).*/\1/p; s/.* Port=\([0-9]*\).*/\1/p' "$conf"
  done | sort -u
}

# Prints P, the first port from PORT_BASE (step 2) such that nothing listens on P .. P+COUNT-1
# and no cluster of this script claims one of them: slurmctld gets P, the slurmd the ports
# after it. Must be called with LOCK_FILE held.
choose_ports() {
  local count=$1 i k p free claimed
  claimed=" $(claimed_ports | tr '\n' ' ') "
  for ((i = 0; i < PORT_TRIES; i++)); do
    p=$((PORT_BASE + 2 * i)) free=1
    for ((k = 0; k < count; k++)); do
      if [[ $claimed == *" $((p + k)) "* ]] || port_in_use "$((p + k))"; then free=0; break; fi
    done
    ((free)) && { echo "$p"; return 0; }
  done
  return 1
}

# --- nodes of a multi-node cluster --------------------------------------------------------------
node_name() { echo "tipc$1-n$2"; }                                 # CTLD_PORT K
node_addr() { echo "127.$(($1 >> 8 & 255)).$(($1 & 255)).$2"; }   # CTLD_PORT K

hosts_mark() { echo "# slurm-local $1"; }

# Drops the /etc/hosts lines of the cluster in DIR. /etc/hosts is rewritten in place (it may be a
# bind mount, which cannot be replaced by a rename), and only when it holds such lines.
hosts_remove() {
  local mark line kept=()
  mark=$(hosts_mark "$1")
  grep -qF -- " $mark" "$HOSTS_FILE" 2>/dev/null || return 0
  while IFS= read -r line || [[ -n $line ]]; do
    [[ $line == *" $mark" ]] || kept+=("$line")
  done <"$HOSTS_FILE"
  printf '%s\n' "${kept[@]}" >"$HOSTS_FILE"
}

# Adds "ADDR NAME # slurm-local DIR" for each node. Must be called with LOCK_FILE held.
hosts_add() {
  local dir=$1 port=$2 nodes=$3 k mark
  mark=$(hosts_mark "$dir")
  for ((k = 1; k <= nodes; k++)); do
    echo "$(node_addr "$port" "$k") $(node_name "$port" "$k") $mark"
  done >>"$HOSTS_FILE"
}

# Prints the NodeName lines: this machine alone, or NODES slurmd of their own (name, address, port).
node_lines() {
  local nodes=$1 ctld_port=$2 node_opts=$3 k
  if ((nodes == 1)); then
    echo "NodeName=$(hostname -s) NodeAddr=127.0.0.1 $node_opts"
    return 0
  fi
  for ((k = 1; k <= nodes; k++)); do
    echo "NodeName=$(node_name "$ctld_port" "$k") NodeHostname=$(hostname -s)" \
      "NodeAddr=$(node_addr "$ctld_port" "$k") Port=$((ctld_port + k)) $node_opts"
  done
}

write_config() {
  local dir=$1 nodes=$2 gpus=$3 cpus=$4 ctld_port=$5
  local host mem_kb mem_mb node_opts names
  host=$(hostname -s)
  mem_kb=$(awk '/^MemTotal:/ { print $2 }' /proc/meminfo)
  # Stay a bit below the real total: slurmd drains a node that reports less memory than configured.
  mem_mb=$((mem_kb * 95 / 100 / 1024 / nodes))
  node_opts="CPUs=$cpus RealMemory=$mem_mb"
  ((gpus > 0)) && node_opts+=" Gres=gpu:$gpus"
  node_opts+=" State=UNKNOWN"
  names=$(node_lines "$nodes" "$ctld_port" "" | sed 's/^NodeName=\([^ ]*\).*/\1/' | paste -sd,)

  cat >"$dir/slurm.conf" <<EOF
$CONF_MARK
ClusterName=localcluster
SlurmctldHost=$host(127.0.0.1)
# Root runs the daemons and the tests' jobs (srun as root).
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
# Chosen free at start so that several clusters (or a stale one from a crashed run) can coexist.
# Nodes of a multi-node cluster have ports of their own (Port= below).
SlurmctldPort=$ctld_port
SlurmdPort=$((ctld_port + 1))
# Job ids of clusters running at once differ too: a rank-env job step's MASTER_PORT is 29500 +
# job id mod 10000 (docs/slurm.md), so two clusters' first multi-rank trains would both want 29501.
FirstJobId=$(((ctld_port - PORT_BASE) / 2 % 10 * 1000 + 1))
StateSaveLocation=$dir/spool/ctld
# %n: the node's name, so that the slurmd of several nodes on this machine keep apart.
SlurmdSpoolDir=$dir/spool/d-%n
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd-%n.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd-%n.log
# No cgroups here: track processes via /proc, no task binding, no accounting (no slurmdbd).
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SwitchType=switch/none
MpiDefault=none
# The default /bin/mail is not installed; slurmctld logs an error for it on every start.
MailProg=/bin/true
SchedulerType=sched/backfill
# Schedule a waiting job as soon as resources free up (the defaults batch scheduling
# passes, which left many short test jobs waiting about a second each).
SchedulerParameters=sched_min_interval=0,batch_sched_delay=0,sched_interval=1,bf_interval=1
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
# Test timing: cancelled/timed-out jobs get SIGKILL 2 s after SIGTERM; finished jobs stay visible
# to squeue for 300 s; a dead slurmd or an srun that vanished (crashed test) is noticed in 30 s.
KillWait=2
MinJobAge=300
SlurmdTimeout=30
InactiveLimit=30
# Trust CPUs= below even where it exceeds the machine (tests may ask for more CPUs than exist).
SlurmdParameters=config_overrides
GresTypes=gpu
$(node_lines "$nodes" "$ctld_port" "$node_opts")
PartitionName=debug Nodes=$names Default=YES MaxTime=INFINITE State=UP OverSubscribe=NO
EOF

  # Fake GPUs: Slurm only stat()s the device files and wants character devices; /dev/null is one.
  # CUDA_VISIBLE_DEVICES in a job is the index of the allocated file in its node's list.
  : >"$dir/gres.conf"
  local name i
  for name in ${names//,/ }; do
    mkdir -p "$dir/fakegpu/$name"
    for ((i = 0; i < gpus; i++)); do
      ln -sfn /dev/null "$dir/fakegpu/$name/nvidia$i"
      echo "NodeName=$name Name=gpu File=$dir/fakegpu/$name/nvidia$i" >>"$dir/gres.conf"
    done
  done
}

# --- munge --------------------------------------------------------------------------------------
munge_works() { munge -n 2>/dev/null | unmunge >/dev/null 2>&1; }

# Starts munged unless a working one already runs; records its pid in DIR/munged.started so that
# `stop` shuts down only a munged this script started.
ensure_munged() {
  local dir=$1 pid
  munge_works && return 0
  install -d -o munge -g munge -m 0755 /run/munge
  install -d -o munge -g munge -m 0700 /var/log/munge /var/lib/munge
  if [[ ! -s /etc/munge/munge.key ]]; then
    install -d -o munge -g munge -m 0700 /etc/munge
    mungekey --create --keyfile=/etc/munge/munge.key >/dev/null
  fi
  chown munge:munge /etc/munge/munge.key
  chmod 0400 /etc/munge/munge.key
  # --force: a munged killed earlier leaves its socket behind, and munged refuses to start then.
  runuser -u munge -- /usr/sbin/munged --force </dev/null >/dev/null 2>&1 9>&- || return 1
  for _ in {1..50}; do
    munge_works && break
    sleep 0.1
  done
  munge_works || return 1
  pid=$(pid_from_file /run/munge/munged.pid) || return 1
  echo "$pid" >"$dir/munged.started"
}

# Stops the munged recorded in DIR/munged.started, unless other slurm daemons still need it: then
# the record moves to another cluster of this script (whose stop will end munged), if there is one.
stop_munged() {
  local dir=$1 pid p other
  pid=$(pid_from_file "$dir/munged.started") || { rm -f "$dir/munged.started"; return 0; }
  lock_acquire || echo "slurm-local: warning: could not lock $LOCK_FILE" >&2
  if is_alive_as "$pid" munged; then
    for p in $(pgrep -x slurmctld; pgrep -x slurmd); do
      is_alive "$p" || continue
      other=$(tr '\0' '\n' 2>/dev/null <"/proc/$p/cmdline" | grep -m1 '/slurm\.conf$' || true)
      other=${other%/slurm.conf}
      if [[ -n $other && $other != "$dir" && -f $other/slurm.conf ]] &&
         [[ $(head -n1 "$other/slurm.conf") == "$CONF_MARK" ]]; then
        echo "$pid" >"$other/munged.started"
      fi
      rm -f "$dir/munged.started"
      lock_release
      return 0   # someone still uses munged: leave it running
    done
    terminate "$pid"
  fi
  rm -f "$dir/munged.started"
  lock_release
}

# --- commands -----------------------------------------------------------------------------------
# Resolves DIR to an absolute path without creating it.
abs_dir() {
  local d=$1
  [[ $d == /* ]] || d=$PWD/$d
  if [[ -d $d ]]; then (cd "$d" && pwd -P); else echo "${d%/}"; fi
}

# The last lines of every daemon log of the cluster (one that is empty is named as such).
log_tails() {
  local dir=$1 f
  for f in "$dir"/log/*.log; do
    [[ -e $f ]] || continue
    if [[ -s $f ]]; then
      echo "---- tail of $f" >&2
      tail -n 25 "$f" >&2
    else
      echo "---- tail of $f: (empty)" >&2
    fi
  done
}

# Ends the cluster's jobs, its daemons, leftover job step daemons, and munged if we started it.
cmd_stop() {
  local dir conf pids=() p
  dir=$(abs_dir "$1")
  # No early return when DIR is gone: a test may have deleted it under a running cluster, whose
  # daemons are still found by their command line below.
  conf=$dir/slurm.conf

  # Cancel jobs while slurmctld is up, so their tasks are killed through Slurm (quick: KillWait=2)
  # instead of leaving orphaned slurmstepd/task processes behind when the daemons go away.
  if p=$(pid_from_file "$dir/slurmctld.pid") && is_alive_as "$p" slurmctld; then
    local jobs
    jobs=$(SLURM_CONF=$conf timeout 5 squeue -h -t pending,running,suspended -o %i 2>/dev/null || true)
    if [[ -n $jobs ]]; then
      # shellcheck disable=SC2086
      SLURM_CONF=$conf timeout 5 scancel $jobs 2>/dev/null || true
      # About KillWait + 1 s: enough for tasks that obey SIGTERM or die by the SIGKILL after
      # KillWait; a job still completing after that is swept up below.
      local deadline=$(($(now_ms) + 3000))
      while (($(now_ms) < deadline)); do
        [[ -z $(SLURM_CONF=$conf timeout 5 squeue -h -o %i 2>/dev/null || true) ]] && break
        sleep 0.1
      done
    fi
  fi

  local daemon f
  for daemon in slurmd slurmctld; do
    pids=()
    for f in "$dir/$daemon".pid "$dir/$daemon"-*.pid; do
      if p=$(pid_from_file "$f") && is_alive_as "$p" "$daemon"; then pids+=("$p"); fi
      rm -f "$f"
    done
    for p in $(pids_by_conf "$daemon" "$conf"); do [[ " ${pids[*]} " == *" $p "* ]] || pids+=("$p"); done
    ((${#pids[@]})) && terminate "${pids[@]}"
  done

  # Step daemons of this cluster that outlived slurmd (they hold our log or spool open), and the
  # job tasks under them.
  local steps=() fd
  for p in $(pgrep -x slurmstepd || true); do
    for fd in "/proc/$p/fd/"*; do
      if [[ $(readlink "$fd" 2>/dev/null) == "$dir"/* ]]; then steps+=("$p"); break; fi
    done
  done
  if ((${#steps[@]})); then
    local tasks
    mapfile -t tasks < <(descendants "${steps[@]}")
    kill -KILL "${steps[@]}" "${tasks[@]}" 2>/dev/null || true
  fi

  if lock_acquire; then
    hosts_remove "$dir"
    lock_release
  else
    echo "slurm-local: warning: could not lock $LOCK_FILE; $HOSTS_FILE not cleaned" >&2
  fi
  stop_munged "$dir"
}

cmd_env() {
  local dir p
  dir=$(abs_dir "$1")
  if ! p=$(pid_from_file "$dir/slurmctld.pid") || ! is_alive_as "$p" slurmctld; then
    die "no running cluster in $dir"
  fi
  echo "SLURM_CONF=$dir/slurm.conf"
}

# Failure during start: explain and exit non-zero; the EXIT trap shows the logs and undoes.
start_failed() {
  echo "slurm-local: start failed: $*" >&2
  exit 1
}

# The EXIT trap of `start`: unless it got to the end, stop whatever it started (also after
# SIGINT/SIGTERM, which exit through here).
start_cleanup() {
  local status=$?
  [[ -n $START_DIR ]] || return 0
  local dir=$START_DIR
  START_DIR=""
  lock_release
  ((status)) || status=1
  # After the stop: a daemon that had not written its log yet has written its shutdown by then.
  cmd_stop "$dir" || true
  log_tails "$dir"
  exit "$status"
}

# Whether every one of the cluster's NODES nodes is idle; fails the start when a daemon died.
cluster_idle() {
  local dir=$1 conf=$2 nodes=$3 states f p daemon
  states=$(SLURM_CONF=$conf timeout 5 sinfo -h -N -o %T 2>/dev/null || true)
  [[ $(grep -cx idle <<<"$states") == "$nodes" && $(wc -l <<<"$states") == "$nodes" ]] && return 0
  # Daemons that died are not coming back: fail now instead of at the deadline. (Their pid files
  # appear shortly after the fork, so only check once they exist.)
  for f in "$dir"/slurmctld.pid "$dir"/slurmd-*.pid; do
    daemon=${f##*/}
    daemon=${daemon%%[-.]*}
    if p=$(pid_from_file "$f") && ! is_alive_as "$p" "$daemon"; then
      start_failed "${f##*/} names $daemon $p, which died during start"
    fi
  done
  echo "${states//$'\n'/,}" >"$dir/sinfo-states"
  return 1
}

# Starts slurmctld and the slurmd of each node. The daemons fork into the background; their stdio
# must not keep the caller's pipes open (a test reading our stdout would otherwise wait for them).
# Early errors, before the log file is opened (e.g. a bad slurm.conf), go to the *-stderr.log files.
# Nor may they inherit the lock (fd 9): they would hold it forever and block every later start.
start_daemons() {
  local dir=$1 conf=$2 nodes=$3 port=$4 k name
  slurmctld -f "$conf" </dev/null >"$dir/log/slurmctld-stderr.log" 2>&1 9>&- ||
    start_failed "slurmctld exited with status $?"
  if ((nodes == 1)); then
    slurmd -f "$conf" </dev/null >"$dir/log/slurmd-stderr.log" 2>&1 9>&- ||
      start_failed "slurmd exited with status $?"
    return 0
  fi
  for ((k = 1; k <= nodes; k++)); do
    name=$(node_name "$port" "$k")
    slurmd -f "$conf" -N "$name" </dev/null >"$dir/log/slurmd-$name-stderr.log" 2>&1 9>&- ||
      start_failed "slurmd -N $name exited with status $?"
  done
}

cmd_start() {
  local dir nodes=1 gpus cpus b
  dir=$1; shift
  if [[ ${1:-} == --nodes ]]; then
    (($# >= 2)) || usage
    nodes=$2; shift 2
  fi
  (($# <= 2)) || usage
  gpus=${1:-2} cpus=${2:-}
  # Daemons live in /usr/sbin, which a non-login PATH may lack.
  PATH=$PATH:/usr/sbin
  for b in slurmctld slurmd sinfo squeue scancel munge unmunge munged; do
    if ! command -v "$b" >/dev/null; then
      echo "slurm-local: cannot start: $b not found (apt-get install slurmctld slurmd slurm-client munge)" >&2
      exit "$EXIT_MISSING"
    fi
  done

  [[ $nodes =~ ^[1-9][0-9]?$ ]] || die "--nodes must be a number from 1 to 99: $nodes"
  [[ $gpus =~ ^[0-9]+$ ]] || die "GPUS must be a number: $gpus"
  [[ -z $cpus ]] && cpus=$(nproc)
  [[ $cpus =~ ^[1-9][0-9]*$ ]] || die "CPUS must be a positive number: $cpus"

  dir=$(abs_dir "$dir")
  # slurm.conf has no quoting for paths.
  [[ $dir =~ [[:space:]] ]] && die "DIR must not contain whitespace: $dir"
  mkdir -p "$dir"
  dir=$(cd "$dir" && pwd -P)
  local conf=$dir/slurm.conf

  # A previous cluster in this DIR (e.g. from a crashed test run) is replaced, with its state and
  # logs, so that job ids, queues and log tails all belong to this run.
  cmd_stop "$dir"
  rm -rf "$dir/spool" "$dir/log" "$dir/fakegpu"
  mkdir -p "$dir/spool/ctld" "$dir/log"
  START_DIR=$dir
  trap start_cleanup EXIT
  trap 'exit 130' INT
  trap 'exit 143' TERM

  lock_acquire || start_failed "could not lock $LOCK_FILE"
  ensure_munged "$dir" || start_failed "munged did not start (see /var/log/munge/munged.log)"
  local port
  port=$(choose_ports "$((nodes + 1))") || start_failed "no $((nodes + 1)) free ports from $PORT_BASE"
  write_config "$dir" "$nodes" "$gpus" "$cpus" "$port"
  ((nodes == 1)) || hosts_add "$dir" "$port" "$nodes"
  start_daemons "$dir" "$conf" "$nodes" "$port"

  local deadline=$((SECONDS + START_TIMEOUT_S))
  until cluster_idle "$dir" "$conf" "$nodes"; do
    ((SECONDS < deadline)) || start_failed \
      "not all $nodes nodes idle after ${START_TIMEOUT_S}s (sinfo states: '$(cat "$dir/sinfo-states")')"
    sleep 0.1
  done
  rm -f "$dir/sinfo-states"
  lock_release
  START_DIR=""
  trap - EXIT INT TERM

  echo "SLURM_CONF=$conf"
}

main() {
  (($# >= 2)) || usage
  local cmd=$1; shift
  case $cmd in
    start) cmd_start "$@" ;;
    stop) (($# == 1)) || usage; cmd_stop "$1" ;;
    env) (($# == 1)) || usage; cmd_env "$1" ;;
    *) usage ;;
  esac
}

main "$@"
