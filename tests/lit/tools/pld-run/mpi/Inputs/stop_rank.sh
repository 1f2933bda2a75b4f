#!/bin/sh
# Runs KERNEL on 2 MPI processes under TRANSPORT with a deadline of 0.2 s,
# stops rank 1's process (SIGSTOP) once it waits, and continues it 4 s
# later; prints what pld-run said and mpirun's exit status. Rank 0 works
# for about 2 s, notifies rank 1, then waits on rank 1: for the last part
# the status board shows both ranks waiting, rank 1's entry stale (its cell
# holds), as for a process kept off the CPU on a loaded machine.
#
# Usage: stop_rank.sh TRANSPORT KERNEL OUT
transport=$1 kernel=$2 out=$3
mpirun --allow-run-as-root --oversubscribe -np 2 \
  pld-run "$kernel" --ranks 2 --input data=zeros --deadline 0.2 --transport "$transport" > "$out" 2>&1 &
job=$!
target=
for _ in $(seq 1 600); do
  for pid in $(pgrep -P "$job"); do
    if tr '\0' '\n' < "/proc/$pid/environ" 2>/dev/null | grep -qx "OMPI_COMM_WORLD_RANK=1"; then
      target=$pid
    fi
  done
  [ -n "$target" ] && break
  sleep 0.1
done
# Past compiling, into its wait (rank 0 works on for about 2 s).
sleep 1.2
kill -STOP "$target"
sleep 4
kill -CONT "$target"
wait "$job"
echo "mpirun exited with status $?"
cat "$out"
