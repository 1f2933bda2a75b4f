// REQUIRES: mpirun
// --time-limit and Ctrl-C under mpirun. A run over --time-limit ends as on
// threads: status 3 and the same message, once (from process 0; every
// process ends itself, the others a moment after process 0, and mpirun
// ends the job with the first status). SIGINT to mpirun ends the job:
// mpirun terminates every process (SIGTERM, then SIGKILL) and exits with
// status 1 (Open MPI 4.1's), leaving no process behind. `timeout -k`
// kills a hanging mpirun: the test then fails with 137.
//
// RUN: rm -rf %t && mkdir -p %t && split-file %S/../interrupt.mlir %t
// RUN: sh -c 'pld-run %S/../time-limit.mlir --ranks 2 --time-limit 3 2> %t/threads.err; test $? -eq 3'
// RUN: sh -c 'timeout -k 5 60 %mpirun -np 2 pld-run %S/../time-limit.mlir --ranks 2 --time-limit 3 --transport mpi 2> %t/mpi.err; test $? -eq 3'
// RUN: sh -c 'timeout -k 5 60 %mpirun -np 2 pld-run %S/../time-limit.mlir --ranks 2 --time-limit 3 --transport mpi-rma 2> %t/rma.err; test $? -eq 3'
// Where each rank was at the limit depends on the moment (and under MPI
// says how old the status board's view was): the rest is compared.
// RUN: grep '^pld-run: error' %t/threads.err | sed 's/; at the limit .*//' > %t/threads.msg
// RUN: grep '^pld-run: error' %t/mpi.err | sed 's/; at the limit .*//' | diff %t/threads.msg -
// RUN: grep '^pld-run: error' %t/rma.err | sed 's/; at the limit .*//' | diff %t/threads.msg -
// RUN: FileCheck %s --input-file=%t/threads.msg
// RUN: FileCheck %s --check-prefix=RANKS --input-file=%t/mpi.err
// CHECK: pld-run: error: --time-limit (3.0s) reached while running @forever on 2 ranks, which had not finished
// RANKS: ; at the limit rank 0 {{.*}}, rank 1 {{.*}} (rank 1 as the status board showed {{.*}} ago)
//
// RUN: sh -c 'timeout -k 10 --preserve-status -s INT 4 %mpirun -np 2 pld-run %t/spin.mlir --ranks 2 --transport mpi > /dev/null 2>&1; test $? -eq 1'
// RUN: sh -c 'timeout -k 10 --preserve-status -s INT 4 %mpirun -np 2 pld-run %t/waits.mlir --ranks 2 --deadline 100 --transport mpi-rma > /dev/null 2>&1; test $? -eq 1'
// RUN: sleep 2
// RUN: sh -c '! pgrep -f "^pld-run %t/spin.mlir" && ! pgrep -f "^pld-run %t/waits.mlir"'
//
// SIGINT to one process other than 0 (a rank spinning, a rank waiting):
// it says so itself, named, since process 0 may never get to (status 130,
// nothing said, before).
// RUN: %S/Inputs/signal_rank.sh INT 2 mpi 1 %t/spin.mlir %t/rank1.out | FileCheck %s --check-prefix=RANK1
// RUN: %S/Inputs/signal_rank.sh INT 2 mpi-rma 1 %t/waits.mlir %t/rank1-waits.out | FileCheck %s --check-prefix=RANK1-WAITS
// RANK1: mpirun exited with status 130
// RANK1: pld-run: process 1: interrupted while running @spin on 2 ranks
// RANK1-WAITS: mpirun exited with status 130
// RANK1-WAITS: pld-run: process 1: interrupted while running @barrier on 2 ranks
