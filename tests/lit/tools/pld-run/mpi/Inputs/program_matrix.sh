#!/bin/sh
# Runs every program programs.py writes for P devices on P threads
# (checked against the golden) and on P MPI processes under TRANSPORT
# (each process checking its own device), and compares every output file
# (every buffer of every device, and the goldens) byte for byte, and every
# call's verdict line but its time.
#
# Usage: program_matrix.sh P TRANSPORT DIR PROGRAM...
# Prints "P TRANSPORT PROGRAM: N files identical, C calls ok" per program;
# exits 1 at the first difference.
set -e
p=$1 transport=$2 dir=$3
shift 3
python3 "$(dirname "$0")/programs.py" "$p" "$dir/src" > /dev/null
# A call's line without its time (the rest is the same in both runs).
calls() {
  grep '^  pld\.' "$1" | sed -E 's/, [0-9.]+(ns|µs|ms|s): /: /'
}
for k in "$@"; do
  n=$("$(dirname "$0")/run_both.sh" "$p" "$transport" "$dir" "$k")
  grep -q "^@main on $p devices ($p MPI processes\( on [0-9]* nodes\)\? under --transport $transport): " "$dir/$transport-$k.out"
  calls "$dir/threads-$k.out" > "$dir/threads-$k.calls"
  calls "$dir/$transport-$k.out" > "$dir/$transport-$k.calls"
  diff "$dir/threads-$k.calls" "$dir/$transport-$k.calls"
  c=$(grep -c ": ok on $p ranks\|: ok on [0-9]* ranks\|has no numeric result" "$dir/$transport-$k.calls")
  test "$c" -eq "$(wc -l < "$dir/$transport-$k.calls")"
  echo "$p $transport $k: $n files identical, $c calls ok"
done
