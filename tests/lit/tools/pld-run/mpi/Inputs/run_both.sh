#!/bin/sh
# Runs DIR/src/NAME.mlir on P threads (checked against the golden) and on
# P MPI processes under TRANSPORT (each process checking its own rank),
# each with --output-dir, and compares every output file byte for byte.
# The two runs' reports are DIR/threads-NAME.out and DIR/TRANSPORT-NAME.out.
#
# Usage: run_both.sh P TRANSPORT DIR NAME
# Prints the number of identical files; exits 1 at the first difference
# or when the MPI run wrote other files than the thread run.
set -e
p=$1 transport=$2 dir=$3 k=$4
rm -rf "$dir/threads-$k" "$dir/$transport-$k"
pld-run "$dir/src/$k.mlir" --ranks "$p" --check --output-dir "$dir/threads-$k" > "$dir/threads-$k.out"
mpirun --allow-run-as-root --oversubscribe -np "$p" \
  pld-run "$dir/src/$k.mlir" --ranks "$p" --check --transport "$transport" \
  --output-dir "$dir/$transport-$k" > "$dir/$transport-$k.out"
n=0
for f in "$dir/threads-$k"/*.npy; do
  cmp "$f" "$dir/$transport-$k/$(basename "$f")"
  n=$((n + 1))
done
test "$n" -eq "$(ls "$dir/$transport-$k" | wc -l)"
echo "$n"
