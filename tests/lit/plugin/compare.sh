#!/bin/sh
# Runs one pass pipeline through pld-opt and through Debian's stock mlir-opt
# with the pld plugin, on each FILE, and fails unless both print the same
# output, the same diagnostics and exit with the same status.
#
#   sh compare.sh PLUGIN IRDL PIPELINE FLAGS FILE...
#
# PIPELINE is the text inside builtin.module(...). FLAGS (one argument,
# maybe '') are options both tools take, given to both. The one normalisation:
# mlir-opt ends its --dump-pass-pipeline with an empty line that pld-opt
# does not print, so empty lines are not compared (diff -B); every other
# line must be the same.
set -u
plugin=$1 irdl=$2 pipeline=$3 flags=$4
shift 4
[ $# -gt 0 ] || { echo "compare.sh: no input files" >&2; exit 2; }
out=${TMPDIR:-/tmp}/pld-plugin-compare.$$
mkdir -p "$out"
trap 'rm -rf "$out"' EXIT
failed=0
for file in "$@"; do
  # shellcheck disable=SC2086 # FLAGS is a list of options
  pld-opt $flags --pass-pipeline="builtin.module($pipeline)" "$file" \
    >"$out/pld.out" 2>"$out/pld.err"
  pld_status=$?
  # shellcheck disable=SC2086
  mlir-opt --load-pass-plugin="$plugin" --irdl-file="$irdl" $flags \
    --pass-pipeline="builtin.module($pipeline)" "$file" \
    >"$out/plugin.out" 2>"$out/plugin.err"
  plugin_status=$?
  what="$file with builtin.module($pipeline) $flags"
  if [ "$pld_status" != "$plugin_status" ]; then
    echo "exit status differs on $what: pld-opt $pld_status, mlir-opt $plugin_status" >&2
    cat "$out/pld.err" "$out/plugin.err" >&2
    failed=1
  fi
  if ! diff -B "$out/pld.out" "$out/plugin.out" >"$out/diff" 2>&1; then
    echo "output differs on $what (< pld-opt, > mlir-opt with the plugin):" >&2
    head -n 40 "$out/diff" >&2
    failed=1
  fi
  if ! diff -B "$out/pld.err" "$out/plugin.err" >"$out/diff" 2>&1; then
    echo "diagnostics differ on $what (< pld-opt, > mlir-opt with the plugin):" >&2
    head -n 40 "$out/diff" >&2
    failed=1
  fi
done
exit $failed
