// REQUIRES: mpirun
// Ctrl-C and a dying process in program mode (a HOST program, one device
// per process), as interrupt.mlir and faults.mlir test them for one
// kernel: the program is program-faults.mlir's deadlock (devices 1 and 2
// wait for device 0, which skips the barrier; --deadline is long, so only
// the signal or the kill ends the job). SIGINT to mpirun ends the job with
// status 1 (Open MPI 4.1's) and no process left behind; a killed process
// takes the job down, named by mpirun, instead of leaving it hanging
// (signal_rank.sh gives a deadline of 60 s: a hang would end with status 3).
// `timeout -k` kills a hanging mpirun: the test then fails with 137.
//
// RUN: rm -rf %t && mkdir -p %t && split-file %S/../program-faults.mlir %t
// RUN: sh -c 'timeout -k 10 --preserve-status -s INT 5 %mpirun -np 3 pld-run %t/deadlock.mlir --ranks 3 --deadline 100 --transport mpi > /dev/null 2>&1; test $? -eq 1'
// RUN: sh -c 'timeout -k 10 --preserve-status -s INT 5 %mpirun -np 3 pld-run %t/deadlock.mlir --ranks 3 --deadline 100 --transport mpi-rma > /dev/null 2>&1; test $? -eq 1'
// RUN: sleep 2
// RUN: sh -c '! pgrep -f "^pld-run %t/deadlock.mlir"'
// RUN: %S/Inputs/signal_rank.sh KILL 3 mpi 1 %t/deadlock.mlir %t/killed.out | FileCheck %s --check-prefix=KILLED
// RUN: sleep 1
// RUN: sh -c '! pgrep -f "^pld-run %t/deadlock.mlir"'
// KILLED: mpirun exited with status {{[1-9][0-9]*}}
// KILLED: process rank 1 with PID {{[0-9]+}} on node {{.*}} exited on signal 9 (Killed)
