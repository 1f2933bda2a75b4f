#!/bin/sh
# Every rank of P adds its %src into rank 0's %acc (DTYPE elements), on
# threads and on P MPI processes under mpi, mpi-rma and mpi across two
# pretended nodes; prints, per run, how many of rank 0's elements equal
# the golden of accumulate.py (computed by Python, not by pld).
#
# Usage: accumulate.sh DIR P DTYPE
set -e
dir=$1/$3-$2 p=$2 t=$3
here=$(dirname "$0")
rm -rf "$dir" && mkdir -p "$dir"
python3 "$here/accumulate.py" make "$dir" "$p" "$t"
ins="--input src=$dir/src.rank{rank}.npy --input acc=$dir/acc.rank{rank}.npy"
pld-run "$dir/accum.mlir" --ranks "$p" $ins --output-dir "$dir/threads" > /dev/null
for run in mpi mpi-rma nodes; do
  case $run in
    nodes) transport=mpi per_node=2 ;;
    *) transport=$run per_node= ;;
  esac
  env ${per_node:+PLD_MPI_RANKS_PER_NODE=$per_node} \
    mpirun --allow-run-as-root --oversubscribe -np "$p" pld-run "$dir/accum.mlir" --ranks "$p" \
    --transport "$transport" $ins --output-dir "$dir/$run" > /dev/null
done
for run in threads mpi mpi-rma nodes; do
  printf '%s ' "$run"
  python3 "$here/accumulate.py" check "$dir" "$p" "$t" "$dir/$run"
done
