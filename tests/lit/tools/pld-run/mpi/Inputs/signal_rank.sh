#!/bin/sh
# Starts KERNEL on P MPI processes under TRANSPORT (a deadline of 60 s: a
# hang of a deadlocking kernel would end with status 3), sends SIGNAL to
# the process of rank RANK 3 s after it started (into its run: compiling
# takes a moment), and prints mpirun's exit status and what the job said.
# With KILL: a rank that dies must take the job down, named, and never
# leave it hanging; with INT: the rank says it was interrupted.
#
# Usage: signal_rank.sh SIGNAL P TRANSPORT RANK KERNEL OUT
signal=$1 p=$2 transport=$3 rank=$4 kernel=$5 out=$6
mpirun --allow-run-as-root --oversubscribe -np "$p" \
  pld-run "$kernel" --ranks "$p" --deadline 60 --transport "$transport" > "$out" 2>&1 &
job=$!
target=$("$(dirname "$0")/rank_pid.sh" "$job" "$rank")
sleep 3
kill -s "$signal" "$target"
wait "$job"
echo "mpirun exited with status $?"
cat "$out"
