#!/bin/sh
# Starts KERNEL (which deadlocks) on P MPI processes under TRANSPORT, kills
# the process of rank RANK once it runs, and prints what mpirun said and
# its exit status: a rank that dies must take the job down, named, and
# never leave it hanging (the deadline of 60 s would end a hang with
# status 3, which the test refuses).
#
# Usage: kill_rank.sh P TRANSPORT RANK KERNEL OUT
p=$1 transport=$2 rank=$3 kernel=$4 out=$5
mpirun --allow-run-as-root --oversubscribe -np "$p" \
  pld-run "$kernel" --ranks "$p" --deadline 60 --transport "$transport" > "$out" 2>&1 &
job=$!
target=$("$(dirname "$0")/rank_pid.sh" "$job" "$rank")
# Let it get into its run (compiling takes a moment).
sleep 3
kill -9 "$target"
wait "$job"
echo "mpirun exited with status $?"
cat "$out"
