#!/bin/sh
# Pastes back the first pld-select-allreduce-modes that a
# --dump-pass-pipeline printed (file $1): runs it alone on $2.
set -e
pass=$(grep -m1 'pld-select-allreduce-modes{' "$1" | sed 's/^ *//; s/,$//')
exec pld-opt "$2" --pass-pipeline="builtin.module($pass)" -o /dev/null
