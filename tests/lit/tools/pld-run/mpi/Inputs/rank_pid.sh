#!/bin/sh
# Prints the process id of MPI rank RANK among the children of mpirun's
# process JOB, once it has started (waits up to 60 s; prints nothing if it
# never does).
#
# Usage: rank_pid.sh JOB RANK
job=$1 rank=$2
for _ in $(seq 1 600); do
  for pid in $(pgrep -P "$job"); do
    if tr '\0' '\n' < "/proc/$pid/environ" 2>/dev/null | grep -qx "OMPI_COMM_WORLD_RANK=$rank"; then
      echo "$pid"
      exit 0
    fi
  done
  sleep 0.1
done
