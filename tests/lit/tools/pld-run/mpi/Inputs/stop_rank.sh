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
target=$("$(dirname "$0")/rank_pid.sh" "$job" 1)
# Past compiling, into its wait (rank 0 works on for about 2 s).
sleep 1.2
kill -STOP "$target"
sleep 4
kill -CONT "$target"
wait "$job"
echo "mpirun exited with status $?"
cat "$out"
