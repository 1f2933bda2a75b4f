#!/bin/sh
# An emulated cluster on one Linux machine for `pld-run --transport mpi|mpi-rma`
# (docs/tools/pld-run.md, "An emulated cluster"): up to three "nodes", each a
# network namespace with its own address on a bridge of the root namespace
# and, per process started on it, a UTS namespace with its own host name.
# Open MPI's mpirun (in the root namespace, the "login node") reaches a node
# through this script as its plm_rsh_agent instead of ssh, so its daemons and
# the ranks they start run inside the node; ranks on different nodes talk
# over TCP through the veths, and MPI_Comm_split_type(SHARED) splits them by
# node. The file system and /dev/shm stay shared, and the network is the
# kernel's loopback speed: it exercises everything of a cluster but remote
# memory and a real network.
#
# Needs root (CAP_NET_ADMIN, CAP_SYS_ADMIN), ip(8), unshare(1), mpirun
# (Open MPI 4.1), python3, split-file (LLVM) and pld-run in $PLD_BIN_DIR
# (default: the directory of the pld-run on PATH, else target/debug of this
# repository). Exits 77 (skipped) with a
# message when namespaces cannot be made here.
#
# Usage: emulated-nodes.sh [COMMAND]
#   run [DIR [PART...]]  set up, run the whole matrix (or its PARTs: sizes,
#                  accumulate, three, split, faults, ucx) in DIR (a fresh
#                  temporary directory by default), tear down (the default)
#   smoke DIR      set up, run a small part (the lit test's), tear down
#   probe          exit 0 when namespaces can be made here, else 77
#   up | down      set up (after tearing down leftovers) | tear down
#   mpirun ARGS..  mpirun across the nodes that are up; PLD_NODES=2+1 says
#                  how many processes each node takes (default 1+1)
#   agent NODE CMD (Open MPI's plm_rsh_agent: runs CMD on NODE)
# Every command that sets up tears down again on exit, failure or Ctrl-C,
# and holds a lock so that two runs on one machine take turns.
set -eu

NODES="pldnode1 pldnode2 pldnode3"
BRIDGE=pldbr0
SUBNET=10.213.77
LOCK=/run/lock/pld-emulated-nodes.lock

here=$(cd "$(dirname "$0")" && pwd)
self="$here/$(basename "$0")"
repo=$(cd "$here/../.." && pwd)
if [ -z "${PLD_BIN_DIR:-}" ]; then
  if command -v pld-run > /dev/null; then
    PLD_BIN_DIR=$(dirname "$(command -v pld-run)")
  else
    PLD_BIN_DIR=$repo/target/debug
  fi
fi
: "${LLVM_BIN_DIR:=/usr/lib/llvm-22/bin}"
inputs="$repo/tests/lit/tools/pld-run/mpi/Inputs"

say() { printf 'emulated-nodes: %s\n' "$*" >&2; }

skip() {
  say "skipped: $*"
  exit 77
}

# The node's address: pldnode2 is $SUBNET.12.
address() { echo "$SUBNET.1${1#pldnode}"; }

# Whether network and UTS namespaces, a veth pair and a bridge can be made.
probe() {
  [ "$(id -u)" -eq 0 ] || skip "needs root (network namespaces need CAP_NET_ADMIN)"
  for tool in ip unshare mpirun python3; do
    command -v "$tool" > /dev/null || skip "needs $tool"
  done
  ns=pldprobe$$
  if ! ip netns add "$ns" 2> /dev/null; then
    skip "cannot create a network namespace here (ip netns add: needs CAP_NET_ADMIN and CAP_SYS_ADMIN)"
  fi
  ok=1
  ip link add "pldp$$" type veth peer name eth0 netns "$ns" 2> /dev/null || ok=0
  ip netns exec "$ns" unshare --uts sh -c 'hostname pldprobe' 2> /dev/null || ok=0
  ip link del "pldp$$" 2> /dev/null || true
  ip netns del "$ns"
  [ "$ok" -eq 1 ] || skip "cannot create a veth pair or a UTS namespace here"
}

down() {
  for node in $NODES; do
    # Processes a broken run left on the node.
    for pid in $(ip netns pids "$node" 2> /dev/null); do
      kill -9 "$pid" 2> /dev/null || true
    done
    ip netns del "$node" 2> /dev/null || true
    ip link del "veth-$node" 2> /dev/null || true
  done
  ip link del "$BRIDGE" 2> /dev/null || true
}

up() {
  down
  ip link add "$BRIDGE" type bridge
  ip addr add "$SUBNET.1/24" dev "$BRIDGE"
  ip link set "$BRIDGE" up
  for node in $NODES; do
    ip netns add "$node"
    ip link add "veth-$node" type veth peer name eth0 netns "$node"
    ip link set "veth-$node" master "$BRIDGE" up
    ip -n "$node" addr add "$(address "$node")/24" dev eth0
    ip -n "$node" link set eth0 up
    ip -n "$node" link set lo up
  done
}

# Open MPI's remote shell: `agent NODE WORDS...` runs the words as one shell
# command line (as ssh does) inside NODE's network namespace, in a UTS
# namespace of its own whose host name is NODE.
agent() {
  node=$1
  shift
  exec ip netns exec "$node" unshare --uts sh -c 'hostname "$0" && eval "$1"' "$node" "$*"
}

# MPI's one-sided component between nodes (PLD_OSC): osc/rdma needs a
# network with RDMA, which TCP is not, and Debian's Open MPI disables the two
# that work over TCP (/etc/openmpi/openmpi-mca-params.conf: osc = ^ucx,pt2pt),
# so they are named here: pt2pt (the default) over the TCP BTL, or ucx with
# UCX's TCP transport (UCX would take shared memory between the nodes, which
# are one machine to it); rdma names none that works.
one_sided() {
  case ${PLD_OSC:-pt2pt} in
    pt2pt) echo "--mca osc sm,rdma,pt2pt" ;;
    ucx) echo "--mca osc sm,rdma,ucx -x UCX_TLS=tcp,self -x UCX_NET_DEVICES=eth0" ;;
    # Only the components that cannot reach another node over TCP, as
    # Debian's configuration leaves them (pld must say so, not fail darkly).
    rdma) echo "--mca osc sm,rdma" ;;
    *) say "PLD_OSC=$PLD_OSC: pt2pt, ucx or rdma"; exit 2 ;;
  esac
}

# mpirun across the nodes: PLD_NODES=2+1 puts 2 processes on pldnode1 and 1
# on pldnode2 (processes by rank, the first node first).
cluster_mpirun() {
  layout=${PLD_NODES:-1+1}
  # One positive count per node, `+` between them, at most one per node.
  nodes=$(echo "$NODES" | wc -w)
  if ! echo "$layout" | grep -Eqx '[1-9][0-9]*(\+[1-9][0-9]*)*' ||
    [ "$(echo "$layout" | tr '+' ' ' | wc -w)" -gt "$nodes" ]; then
    say "PLD_NODES=$layout: the processes of each node, joined by + (such as 2+1), for at most $nodes nodes"
    return 2
  fi
  hosts=$(mktemp /tmp/pld-hosts.XXXXXX)
  i=1
  for slots in $(echo "$layout" | tr '+' ' '); do
    echo "pldnode$i slots=$slots" >> "$hosts"
    i=$((i + 1))
  done
  status=0
  "${PLD_REAL_MPIRUN:-mpirun}" --hostfile "$hosts" \
    --mca plm_rsh_agent "$self agent" --mca plm_rsh_no_tree_spawn 1 \
    --mca oob_tcp_if_include "$SUBNET.0/24" \
    --mca btl tcp,self,vader --mca btl_tcp_if_include "$SUBNET.0/24" \
    $(one_sided) "$@" || status=$?
  rm -f "$hosts"
  return "$status"
}

# Runs `pld-run` programs on the nodes through the existing MPI test
# scripts (tests/lit/tools/pld-run/mpi/Inputs), which call `mpirun`: a
# wrapper of that name first on PATH sends them across the nodes.
enter_cluster() {
  dir=$1
  PLD_REAL_MPIRUN=$(command -v mpirun)
  export PLD_REAL_MPIRUN
  mkdir -p "$dir/bin"
  printf '#!/bin/sh\nexec "%s" mpirun "$@"\n' "$self" > "$dir/bin/mpirun"
  chmod +x "$dir/bin/mpirun"
  PATH="$dir/bin:$PLD_BIN_DIR:$LLVM_BIN_DIR:$PATH"
  export PATH
  : "${PLD_CACHE_DIR:=$dir/pld-cache}"
  export PLD_CACHE_DIR
}

# The layout of P processes over the nodes: P = 2 as 1+1, 3 as 2+1, 4 as
# 2+2 (PLD_THREE_NODES=1: 3 as 1+1+1).
layout() {
  case $1 in
    2) echo 1+1 ;;
    3) if [ "${PLD_THREE_NODES:-}" = 1 ]; then echo 1+1+1; else echo 2+1; fi ;;
    4) echo 2+2 ;;
    *) say "no layout for $1 processes"; exit 2 ;;
  esac
}

# Kernels (kernels.py) and HOST programs (programs.py) of P ranks under
# TRANSPORT across the nodes, every output file compared with a thread
# run's byte for byte (matrix.sh, program_matrix.sh).
kernels() {
  p=$1 transport=$2 dir=$3
  shift 3
  PLD_NODES=$(layout "$p") "$inputs/matrix.sh" "$p" "$transport" "$dir/k$p" "$@"
  spanned "$p" "$transport" "$dir/k$p" "$@"
}

programs() {
  p=$1 transport=$2 dir=$3
  shift 3
  PLD_NODES=$(layout "$p") "$inputs/program_matrix.sh" "$p" "$transport" "$dir/p$p" "$@"
  spanned "$p" "$transport" "$dir/p$p" "$@"
}

# Every run's headline says it spanned the layout's nodes.
spanned() {
  p=$1 transport=$2 dir=$3
  shift 3
  nodes=$(layout "$p" | tr '+' '\n' | wc -l)
  for k in "$@"; do
    grep -q "($p MPI processes on $nodes nodes under --transport $transport)" "$dir/$transport-$k.out" ||
      { say "$dir/$transport-$k.out: not on $nodes nodes"; return 1; }
  done
}

# How pld-run split P processes into nodes (PLD_MPI_SHOW_NODES=1).
show_split() {
  p=$1 transport=$2 dir=$3
  mkdir -p "$dir/split"
  python3 "$inputs/kernels.py" "$p" "$dir/split" > /dev/null
  PLD_MPI_SHOW_NODES=1 PLD_NODES=$(layout "$p") mpirun --allow-run-as-root --oversubscribe -np "$p" \
    pld-run "$dir/split/barrier.mlir" --ranks "$p" --transport "$transport" 2>&1 |
    grep '^pld-run: .*node'
}

# With no one-sided component that reaches another node (PLD_OSC=rdma),
# pld-run fails with status 1 and says why.
no_one_sided() {
  p=$1 transport=$2 dir=$3
  mkdir -p "$dir/rdma$p"
  python3 "$inputs/kernels.py" "$p" "$dir/rdma$p" > /dev/null
  status=0
  PLD_OSC=rdma PLD_NODES=$(layout "$p") mpirun --allow-run-as-root --oversubscribe -np "$p" \
    pld-run "$dir/rdma$p/barrier.mlir" --ranks "$p" --transport "$transport" \
    > "$dir/rdma$p/$transport.out" 2>&1 || status=$?
  echo "$p $transport with osc sm,rdma: status $status"
  grep '^pld-run: error' "$dir/rdma$p/$transport.out"
}

# Every rank's accumulating stores into rank 0 (accumulate.sh: threads, mpi,
# mpi-rma and mpi with pretended nodes of 2 on top of the real ones).
accumulate() {
  p=$1 dtype=$2 dir=$3
  PLD_NODES=$(layout "$p") "$inputs/accumulate.sh" "$dir/acc" "$p" "$dtype"
}

# A kernel that deadlocks (../faults.mlir): the same report as on threads,
# exit status 3.
deadlock() {
  p=$1 transport=$2 dir=$3
  mkdir -p "$dir/faults"
  split-file "$repo/tests/lit/tools/pld-run/faults.mlir" "$dir/faults/src"
  report() { grep -E '^(pld-run: deadlock|  rank [0-9]+ |  finished: )' "$1"; }
  status=0
  pld-run "$dir/faults/src/deadlock.mlir" --ranks "$p" --deadline 0.5 2> "$dir/faults/threads.err" || status=$?
  [ "$status" -eq 3 ] || { say "deadlock on threads: status $status"; return 1; }
  status=0
  PLD_NODES=$(layout "$p") mpirun --allow-run-as-root --oversubscribe -np "$p" \
    pld-run "$dir/faults/src/deadlock.mlir" --ranks "$p" --deadline 0.5 --transport "$transport" \
    2> "$dir/faults/$transport-$p.err" || status=$?
  [ "$status" -eq 3 ] || { say "deadlock under $transport: status $status"; return 1; }
  report "$dir/faults/threads.err" | sed 's/500.0ms/DEADLINE/' > "$dir/faults/threads.report"
  report "$dir/faults/$transport-$p.err" | sed 's/500.0ms/DEADLINE/' > "$dir/faults/$transport-$p.report"
  diff "$dir/faults/threads.report" "$dir/faults/$transport-$p.report"
  echo "$p $transport deadlock: status 3, $(wc -l < "$dir/faults/threads.report") report lines as on threads"
}

# The environment of process PID, a variable a line (nothing once it ended).
env_of() {
  cat "/proc/$1/environ" 2> /dev/null | tr '\0' '\n'
}

# Kills the process of rank RANK (on the second node) while its peers wait
# in a deadlocking kernel: mpirun must take the job down and name it.
killed() {
  p=$1 transport=$2 rank=$3 dir=$4
  out="$dir/faults/killed-$transport-$p.out"
  token="$$-$transport-$p"
  PLD_CLUSTER_TOKEN=$token PLD_NODES=$(layout "$p") mpirun --allow-run-as-root --oversubscribe \
    -np "$p" pld-run "$dir/faults/src/deadlock.mlir" --ranks "$p" --deadline 60 \
    --transport "$transport" > "$out" 2>&1 &
  job=$!
  target=
  for _ in $(seq 1 600); do
    for pid in $(pgrep -x pld-run); do
      if env_of "$pid" | grep -qx "OMPI_COMM_WORLD_RANK=$rank" &&
        env_of "$pid" | grep -qx "PLD_CLUSTER_TOKEN=$token"; then
        target=$pid
      fi
    done
    [ -n "$target" ] && break
    sleep 0.1
  done
  [ -n "$target" ] || { say "rank $rank never started"; kill "$job"; return 1; }
  host=$(nsenter --uts --target "$target" hostname)
  sleep 3
  kill -9 "$target"
  status=0
  wait "$job" || status=$?
  [ "$status" -ne 0 ] || { say "mpirun returned 0 after rank $rank was killed"; return 1; }
  grep -q "process rank $rank with PID $target on node $host exited on signal 9 (Killed)" "$out" ||
    { cat "$out" >&2; return 1; }
  echo "$p $transport killed rank $rank on $host: mpirun exited with status $status and named it"
}

locked() {
  exec 9> "$LOCK"
  flock 9
}

# The whole matrix in DIR, or the parts named after it: sizes (kernels and
# programs, P = 2, 3, 4, both transports), accumulate, three (three nodes),
# split, faults; and ucx, which only runs when named (Open MPI 4.1's osc/ucx
# over TCP hangs now and then inside MPI_Accumulate: docs/tools/pld-run.md). (Functions of sh share their variables: the parts
# keep DIR in `top`, which no function sets.)
matrix() {
  top=$1
  shift
  for part in ${*:-sizes accumulate three split faults}; do
    case $part in
      sizes | accumulate | three | split | ucx | faults) "part_$part" ;;
      *) say "no part '$part' (sizes, accumulate, three, split, ucx, faults)"; exit 2 ;;
    esac
  done
}

part_sizes() {
  for n in 2 3 4; do
    for t in mpi mpi-rma; do
      kernels "$n" "$t" "$top" allreduce_mesh allreduce_max allreduce_ring barrier \
        broadcast reduce reduce_scatter allgather all_to_all all_to_all_v
      programs "$n" "$t" "$top" allreduce_mesh allreduce_ring allreduce_two_shot barrier \
        broadcast reduce_scatter reduce allgather all_to_all all_to_all_v chip_all_to_all_v
    done
  done
}

part_accumulate() {
  for n in 3 4; do
    for d in f32 f16; do
      accumulate "$n" "$d" "$top"
    done
  done
}

part_three() {
  PLD_THREE_NODES=1 kernels 3 mpi "$top/three" allreduce_mesh allreduce_ring all_to_all_v
  PLD_THREE_NODES=1 programs 3 mpi-rma "$top/three" allreduce_two_shot chip_all_to_all_v
  PLD_THREE_NODES=1 accumulate 3 f32 "$top/three"
}

part_split() {
  show_split 3 mpi "$top"
  PLD_THREE_NODES=1 show_split 3 mpi "$top/three"
  show_split 4 mpi-rma "$top"
  for t in mpi mpi-rma; do
    no_one_sided 4 "$t" "$top"
  done
}

part_ucx() {
  PLD_OSC=ucx kernels 4 mpi "$top/ucx" allreduce_mesh allreduce_ring all_to_all_v
  PLD_OSC=ucx programs 4 mpi-rma "$top/ucx" allreduce_two_shot chip_all_to_all_v
  PLD_OSC=ucx accumulate 4 f16 "$top/ucx"
}

part_faults() {
  for t in mpi mpi-rma; do
    deadlock 3 "$t" "$top"
    killed 3 "$t" 2 "$top"
  done
}

# The lit test's part (tests/lit/tools/pld-run/mpi/emulated-nodes.mlir).
smoke() {
  top=$1
  show_split 3 mpi "$top"
  no_one_sided 3 mpi "$top"
  kernels 3 mpi "$top" allreduce_ring
  programs 4 mpi-rma "$top" allreduce_two_shot
  PLD_THREE_NODES=1 accumulate 3 f32 "$top"
  deadlock 3 mpi "$top"
}

# Sets up, runs COMMAND in DIR (with the PARTS of the matrix), tears down
# (also on failure and Ctrl-C).
session() {
  command=$1 dir=$2
  shift 2
  probe
  locked
  trap 'down' EXIT
  trap 'exit 130' INT
  trap 'exit 143' TERM
  up
  mkdir -p "$dir"
  dir=$(cd "$dir" && pwd)
  enter_cluster "$dir"
  say "$(echo $NODES | wc -w) nodes up ($SUBNET.0/24 on $BRIDGE); running in $dir"
  "$command" "$dir" "$@"
  say "done"
}

case "${1:-run}" in
  run)
    [ $# -ge 2 ] || set -- run "$(mktemp -d /tmp/pld-emulated-nodes.XXXXXX)"
    shift
    session matrix "$@"
    ;;
  smoke) [ $# -eq 2 ] || { say "usage: $0 smoke DIR"; exit 2; }; session smoke "$2" ;;
  probe) probe ;;
  up) probe; locked; up ;;
  down) locked; down ;;
  agent) shift; agent "$@" ;;
  mpirun) shift; cluster_mpirun "$@" ;;
  *) say "unknown command '$1' (see the comment at the top of $self)"; exit 2 ;;
esac
