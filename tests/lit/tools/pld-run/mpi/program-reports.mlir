// REQUIRES: mpirun
// A whole program under MPI reports as on threads, from process 0: a
// deadlock names every device's waited-on cell (status 3), credits left
// behind are found in every device's window (status 1), and --stats
// counts every device's round trips and traffic; --trace holds every
// device's timeline. The programs are those of the thread tests
// (../program-faults.mlir); mpirun's own lines are left out of the
// comparison.
//
// RUN: rm -rf %t && mkdir -p %t && split-file %S/../program-faults.mlir %t
// RUN: sh -c 'pld-run %t/deadlock.mlir --ranks 3 --deadline 0.2 2> %t/t-deadlock.err; test $? -eq 3'
// RUN: sh -c '%mpirun -np 3 pld-run %t/deadlock.mlir --ranks 3 --deadline 0.2 --transport mpi 2> %t/m-deadlock.err; test $? -eq 3'
// RUN: sh -c '%mpirun -np 3 pld-run %t/deadlock.mlir --ranks 3 --deadline 0.2 --transport mpi-rma 2> %t/r-deadlock.err; test $? -eq 3'
// Progress lines (`pld-run: running ...`, printed when a phase outlasts two
// seconds, as on a loaded machine) are left out on both sides.
// RUN: grep -v '[.][.][.]$' %t/t-deadlock.err > %t/t-deadlock.txt
// RUN: grep '^pld-run\|^  rank\|^  finished' %t/m-deadlock.err | grep -v '[.][.][.]$' | diff %t/t-deadlock.txt -
// RUN: grep '^pld-run\|^  rank\|^  finished' %t/r-deadlock.err | grep -v '[.][.][.]$' | diff %t/t-deadlock.txt -
// RUN: FileCheck %s --check-prefix=DEADLOCK --input-file=%t/r-deadlock.err
// RUN: FileCheck %s --check-prefix=DEADLOCK --input-file=%t/m-deadlock.err
// Each device is named by the kernel it waits in (which only its own
// process knew), the waiting op and its location.
// DEADLOCK: pld-run: deadlock: every live rank has waited for more than 200.0ms
// DEADLOCK-NEXT: rank 1 in @divergent (called at {{.*}}deadlock.mlir:15:3 in @step, dispatched at {{.*}}deadlock.mlir:27:5): waits for the i32 cell at rank 1's window, byte 0 (i32 cell 0 of the window) >= 1, which holds 0 (pto.comm_twait at {{.*}}deadlock.mlir:10:10)
// DEADLOCK-NEXT: rank 2 in @divergent (called at {{.*}}deadlock.mlir:15:3 in @step, dispatched at {{.*}}deadlock.mlir:27:5): waits for the i32 cell at rank 2's window, byte 0 (i32 cell 0 of the window) >= 1, which holds 0 (pto.comm_twait at {{.*}}deadlock.mlir:10:10)
//
// RUN: not pld-run %t/leak.mlir --ranks 2 2> %t/t-leak.err
// RUN: not %mpirun -np 2 pld-run %t/leak.mlir --ranks 2 --transport mpi-rma 2> %t/r-leak.err
// RUN: grep -v '[.][.][.]$' %t/t-leak.err > %t/t-leak.txt
// RUN: grep '^pld-run' %t/r-leak.err | grep -v '[.][.][.]$' | diff %t/t-leak.txt -
// RUN: FileCheck %s --check-prefix=LEAK --input-file=%t/r-leak.err
// LEAK: pld-run: credit leak in
//
// RUN: sed '/pld.tile_store/d' %t/wrong.mlir > %t/right.mlir
// RUN: pld-run %t/right.mlir --ranks 2 --stats --per-rank > %t/t-stats.out
// RUN: %mpirun -np 2 pld-run %t/right.mlir --ranks 2 --stats --per-rank --transport mpi --trace %t/m.json > %t/m-stats.out
// RUN: grep -A2 '  device  round trips' %t/t-stats.out > %t/t-counters
// RUN: grep -A2 '  device  round trips' %t/m-stats.out | diff %t/t-counters -
// RUN: FileCheck %s --check-prefix=STATS --input-file=%t/t-counters
// RUN: FileCheck %s --check-prefix=TRACE --input-file=%t/m.json
// STATS: device  round trips  notifies  waits  remote bytes read  remote bytes written
// STATS-NEXT: 0  1
// STATS-NEXT: 1  1
// TRACE-DAG: "pid": 0, "args": {"name": "rank 0"}
// TRACE-DAG: "pid": 1, "args": {"name": "rank 1"}
// TRACE-DAG: {"name": "wait", "ph": "X", "pid": 1,
