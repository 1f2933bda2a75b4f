// REQUIRES: mpirun
// A process that an MPI launcher started as one of several, without
// --transport mpi or mpi-rma, is refused before any work (status 1): it
// would run every rank on its own, and beside --transport mpi processes
// it would leave them waiting in MPI_Init. Each such process says so
// (naming the launcher's variable it saw and what to add); mpirun then
// ends the job. `timeout` turns a hang into status 124, which the tests
// refuse; no process is left behind. `mpirun -np 1` still runs threads.
//
// RUN: rm -rf %t && mkdir -p %t && cp %S/../../../../../examples/barrier.mlir %t/k.mlir
// All processes threads:
// RUN: sh -c 'timeout 60 %mpirun -np 2 pld-run %t/k.mlir --ranks 2 > %t/all.out 2> %t/all.err; test $? -eq 1'
// RUN: FileCheck %s --check-prefix=THREADS < %t/all.err
// RUN: not grep -q "finished in" %t/all.out
// Every line whole, however the processes' writes meet in mpirun's
// stderr (each line is one write; in pieces they interleaved mid-line):
// RUN: sh -c 'timeout 60 %mpirun -np 4 pld-run %t/k.mlir --ranks 4 > %t/four.out 2> %t/four.err; test $? -eq 1'
// RUN: grep -q "^pld-run: error: this process" %t/four.err
// RUN: sh -c '! grep "pld-run" %t/four.err | grep -v -x "pld-run: error: this process is one of several of an MPI job (OMPI_COMM_WORLD_SIZE=4), .* or start one process"'
// A mixed job, either way round:
// RUN: sh -c 'timeout 60 %mpirun -np 1 pld-run %t/k.mlir --ranks 2 --transport mpi : -np 1 pld-run %t/k.mlir --ranks 2 > %t/mixed.out 2> %t/mixed.err; test $? -eq 1'
// RUN: FileCheck %s --check-prefix=MIXED < %t/mixed.err
// RUN: sh -c 'timeout 60 %mpirun -np 1 pld-run %t/k.mlir --ranks 2 --transport threads : -np 1 pld-run %t/k.mlir --ranks 2 --transport mpi-rma > %t/mixed0.out 2> %t/mixed0.err; test $? -eq 1'
// RUN: FileCheck %s --check-prefix=MIXED0 < %t/mixed0.err
// RUN: sleep 1
// RUN: sh -c '! pgrep -f "^pld-run %t/k.mlir"'
// One process runs every rank as threads, as without mpirun:
// RUN: %mpirun -np 1 pld-run %t/k.mlir --ranks 2 | FileCheck %s --check-prefix=ONE
//
// THREADS: pld-run: error: this process is one of several of an MPI job (OMPI_COMM_WORLD_SIZE=2), but --transport threads (the default) runs every rank in each process on its own: add --transport mpi (or mpi-rma) to every process's command line (mpirun -np 2 pld-run {{.*}}k.mlir --ranks 2 --transport mpi), or start one process
// THREADS: pld-run: error: this process is one of several of an MPI job (OMPI_COMM_WORLD_SIZE=2)
// THREADS-NOT: pld-run:
// MIXED: pld-run: error: this process is one of several of an MPI job (OMPI_COMM_WORLD_SIZE=2), but --transport threads
// MIXED-NOT: pld-run:
// MIXED0: pld-run: error: this process is one of several of an MPI job (OMPI_COMM_WORLD_SIZE=2), but --transport threads (the default) runs every rank in each process on its own: add --transport mpi (or mpi-rma) to every process's command line (mpirun -np 2 pld-run {{.*}}k.mlir --ranks 2 --transport mpi), or start one process
// MIXED0-NOT: pld-run:
// ONE: @barrier on 2 ranks: finished in
