#!/bin/sh
# Runs every kernel kernels.py writes for P ranks on P threads (checked
# against the golden) and on P MPI processes under TRANSPORT, and compares
# every output file (every parameter of every rank) byte for byte.
#
# Usage: matrix.sh P TRANSPORT DIR KERNEL...
# Prints "P TRANSPORT KERNEL: N files identical" per kernel; exits 1 at the
# first difference.
set -e
p=$1 transport=$2 dir=$3
shift 3
python3 "$(dirname "$0")/kernels.py" "$p" "$dir/src" > /dev/null
for k in "$@"; do
  n=$("$(dirname "$0")/run_both.sh" "$p" "$transport" "$dir" "$k")
  # The run was one rank per MPI process, and every rank matched its golden.
  grep -q "on $p ranks ($p MPI processes\( on [0-9]* nodes\)\? under --transport $transport)" "$dir/$transport-$k.out"
  test "$(grep -c ': ok' "$dir/$transport-$k.out")" -eq "$p" || grep -q 'has no numeric result' "$dir/$transport-$k.out"
  echo "$p $transport $k: $n files identical"
done
