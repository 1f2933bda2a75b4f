// REQUIRES: mpirun
// The processes of an MPI job agree before the run: a process that fails
// on the way (here: its rank's --input file is missing) ends the whole
// job at once with exit status 1, its error printed once by process 0
// and named by the process when only some failed, and none is left
// behind; processes started with different options or sources are told
// what differs. `timeout` turns a hang into a failure (status 124, not 1).
//
// RUN: rm -rf %t && split-file %s %t && mkdir -p %t/only0 %t/only1 %t/a %t/b
// RUN: python3 %S/../Inputs/npy.py write %t/only0/data.rank0.npy f4 1,64 3f800000
// RUN: python3 %S/../Inputs/npy.py write %t/only1/data.rank1.npy f4 1,64 3f800000
// RUN: mkdir -p %t/flat && python3 %S/../Inputs/npy.py write %t/flat/data.rank0.npy f4 1,4096 3f800000
// RUN: cp %t/sum.mlir %t/a/k.mlir && sed 's/"sum"/"max"/' %t/sum.mlir > %t/b/k.mlir
//
// The module from standard input reaches process 0 alone (mpirun's
// default): refused as such, once, before anything is read, instead of
// the other processes' finding an empty module.
// RUN: sh -c 'timeout 120 %mpirun -np 2 pld-run --ranks 2 --transport mpi < %t/sum.mlir > %t/stdin.out 2> %t/stdin.err; test $? -eq 1'
// RUN: FileCheck %s --check-prefix=STDIN < %t/stdin.err
// STDIN: pld-run: error: the module is read from standard input (no file named, or `-`), which mpirun gives to process 0 alone: under --transport mpi name the file (mpirun -np 2 pld-run FILE ...)
// STDIN-NOT: pld-run: error
//
// Rank 1's file missing, then rank 0's, in kernel mode:
// RUN: sh -c 'timeout 120 %mpirun -np 2 pld-run %t/sum.mlir --ranks 2 --transport mpi --input data=%t/only0/data.rank{rank}.npy > %t/r1.out 2> %t/r1.err; test $? -eq 1'
// RUN: FileCheck %s --check-prefix=RANK1 < %t/r1.err
// RUN: sh -c 'timeout 120 %mpirun -np 2 pld-run %t/sum.mlir --ranks 2 --transport mpi-rma --input data=%t/only1/data.rank{rank}.npy > %t/r0.out 2> %t/r0.err; test $? -eq 1'
// RUN: FileCheck %s --check-prefix=RANK0 < %t/r0.err
// RUN: not grep -q "running @sum" %t/r0.out
// In program mode (examples/allreduce.mlir), with three of four processes
// failing:
// RUN: sh -c 'timeout 120 %mpirun -np 4 pld-run %S/../../../../../examples/allreduce.mlir --ranks 4 --transport mpi --input data_buf=%t/flat/data.rank{rank}.npy > %t/p.out 2> %t/p.err; test $? -eq 1'
// RUN: FileCheck %s --check-prefix=PROGRAM < %t/p.err
//
// Different options, transports and sources:
// RUN: sh -c 'timeout 120 %mpirun -np 1 pld-run %t/sum.mlir --ranks 2 --transport mpi : -np 1 pld-run %t/sum.mlir --ranks 2 --transport mpi --check > /dev/null 2> %t/o.err; test $? -eq 1'
// RUN: FileCheck %s --check-prefix=OPTIONS < %t/o.err
// RUN: sh -c 'timeout 120 %mpirun -np 1 pld-run %t/sum.mlir --ranks 2 --transport mpi : -np 1 pld-run %t/sum.mlir --ranks 2 --transport mpi-rma > /dev/null 2> %t/t.err; test $? -eq 1'
// RUN: FileCheck %s --check-prefix=TRANSPORT < %t/t.err
// RUN: sh -c 'timeout 120 %mpirun -np 1 pld-run %t/sum.mlir --ranks 2 --transport mpi : -np 1 pld-run %t/sum.mlir --ranks 2 --transport mpi --time-limit 30 > /dev/null 2> %t/l.err; test $? -eq 1'
// RUN: FileCheck %s --check-prefix=LIMIT < %t/l.err
// The node count of PLD_MPI_RANKS_PER_NODE, which decides which ranks share
// memory, is compared too (processes counting differently hung):
// RUN: sh -c 'timeout 120 %mpirun -np 1 pld-run %t/sum.mlir --ranks 2 --transport mpi : -np 1 -x PLD_MPI_RANKS_PER_NODE=1 pld-run %t/sum.mlir --ranks 2 --transport mpi > /dev/null 2> %t/n.err; test $? -eq 1'
// RUN: FileCheck %s --check-prefix=NODES < %t/n.err
// NODES: pld-run: error: process 1 was started with PLD_MPI_RANKS_PER_NODE=1 but process 0 with PLD_MPI_RANKS_PER_NODE unset: every process must count the nodes alike
// NODES-NOT: pld-run:
// The compile cache is each process's own (it changes nothing a run
// computes): different cache options run together.
// RUN: timeout 120 %mpirun -np 1 pld-run %t/sum.mlir --ranks 2 --transport mpi --cache-dir %t/cache0 : -np 1 pld-run %t/sum.mlir --ranks 2 --transport mpi --no-cache | FileCheck %s --check-prefix=CACHE
// RUN: sh -c 'timeout 120 %mpirun -np 1 sh -c "cd %t/a && pld-run k.mlir --ranks 2 --transport mpi" : -np 1 sh -c "cd %t/b && pld-run k.mlir --ranks 2 --transport mpi" > /dev/null 2> %t/s.err; test $? -eq 1'
// RUN: FileCheck %s --check-prefix=SOURCE < %t/s.err
// The same --pld-cost-model naming files that differ (each process in a
// directory of its own): the model decides what mode = "auto" runs.
// RUN: printf '[sim]\nalpha = 1e-6\nbeta = 1e-9\ngamma = 0\noverhead = 1e-5\n' > %t/a/m.toml
// RUN: printf '[sim]\nalpha = 1e-9\nbeta = 1e-6\ngamma = 0\noverhead = 1e-5\n' > %t/b/m.toml
// RUN: sh -c 'timeout 120 %mpirun -np 1 sh -c "cd %t/a && pld-run %t/sum.mlir --ranks 2 --transport mpi --pld-cost-model m.toml" : -np 1 sh -c "cd %t/b && pld-run %t/sum.mlir --ranks 2 --transport mpi --pld-cost-model m.toml" > /dev/null 2> %t/m.err; test $? -eq 1'
// RUN: FileCheck %s --check-prefix=MODEL < %t/m.err
// MODEL: pld-run: error: process 1 read a different cost model (--pld-cost-model m.toml) than process 0 (the bytes differ)
// A file one process cannot read is said so (it was "a different k.mlir"):
// RUN: mkdir -p %t/empty
// RUN: sh -c 'timeout 120 %mpirun -np 1 sh -c "cd %t/a && pld-run k.mlir --ranks 2 --transport mpi" : -np 1 sh -c "cd %t/empty && pld-run k.mlir --ranks 2 --transport mpi" > /dev/null 2> %t/missing.err; test $? -eq 1'
// RUN: FileCheck %s --check-prefix=MISSING < %t/missing.err
// MISSING: pld-run: error: process 1 cannot read k.mlir: No such file or directory (os error 2)
// MISSING-NOT: pld-run:
// RUN: sh -c 'timeout 120 %mpirun -np 1 sh -c "cd %t/a && pld-run %t/sum.mlir --ranks 2 --transport mpi --pld-cost-model m.toml" : -np 1 sh -c "cd %t/empty && pld-run %t/sum.mlir --ranks 2 --transport mpi --pld-cost-model m.toml" > /dev/null 2> %t/nomodel.err; test $? -eq 1'
// RUN: FileCheck %s --check-prefix=NOMODEL < %t/nomodel.err
// NOMODEL: pld-run: error: process 1 cannot read cost model (--pld-cost-model m.toml): No such file or directory (os error 2)
// NOMODEL-NOT: pld-run:
// A process's own environment that pld-run refuses: the process still
// starts MPI and its error reaches process 0, which prints it (the job
// ended with mpirun's words only, or hung in MPI's start):
// RUN: sh -c 'timeout 120 %mpirun -np 1 pld-run %t/sum.mlir --ranks 2 --transport mpi : -np 1 -x PLD_NO_CACHE=maybe pld-run %t/sum.mlir --ranks 2 --transport mpi > /dev/null 2> %t/env.err; test $? -eq 1'
// RUN: FileCheck %s --check-prefix=ENV < %t/env.err
// ENV: pld-run: process 1: error: PLD_NO_CACHE=maybe: say 1, true, yes or on to turn the compile cache off
// ENV-NOT: pld-run:
// RUN: sh -c 'timeout 120 %mpirun -np 1 pld-run %t/sum.mlir --ranks 2 --transport mpi-rma : -np 1 -x PLD_MPI_SHOW_NODES=maybe pld-run %t/sum.mlir --ranks 2 --transport mpi-rma > /dev/null 2> %t/show.err; test $? -eq 1'
// RUN: FileCheck %s --check-prefix=SHOW < %t/show.err
// SHOW: pld-run: process 1: error: PLD_MPI_SHOW_NODES=maybe: say 1, true, yes or on to show the nodes
// A malformed node count on one process (a leading space too):
// RUN: sh -c 'timeout 120 %mpirun -np 1 pld-run %t/sum.mlir --ranks 2 --transport mpi : -np 1 -x "PLD_MPI_RANKS_PER_NODE= 2" pld-run %t/sum.mlir --ranks 2 --transport mpi > /dev/null 2> %t/count.err; test $? -eq 1'
// RUN: FileCheck %s --check-prefix=COUNT < %t/count.err
// COUNT: pld-run: error: process 1 was started with PLD_MPI_RANKS_PER_NODE set to something other than a positive integer but process 0 with PLD_MPI_RANKS_PER_NODE unset: every process must count the nodes alike
// COUNT-NOT: pld-run:
// Every process that counts differently is named, one line each (only the
// first was):
// RUN: sh -c 'timeout 120 %mpirun -np 1 -x PLD_MPI_RANKS_PER_NODE=2 pld-run %t/sum.mlir --ranks 3 --transport mpi : -np 2 -x PLD_MPI_RANKS_PER_NODE=3 pld-run %t/sum.mlir --ranks 3 --transport mpi > /dev/null 2> %t/counts.err; test $? -eq 1'
// RUN: FileCheck %s --check-prefix=COUNTS < %t/counts.err
// COUNTS: pld-run: error: process 1 was started with PLD_MPI_RANKS_PER_NODE=3 but process 0 with PLD_MPI_RANKS_PER_NODE=2: every process must count the nodes alike
// COUNTS-NEXT: pld-run: error: process 2 was started with PLD_MPI_RANKS_PER_NODE=3 but process 0 with PLD_MPI_RANKS_PER_NODE=2: every process must count the nodes alike
//
// Errors of the command line come first and are said once: without
// mpirun the hint is the user's own command; a --ranks out of range is
// that, not a count mismatch; a malformed option, once, not per process.
// RUN: not pld-run %t/sum.mlir --ranks 2 --transport mpi-rma --input 'data=a b' 2>&1 | FileCheck %s --check-prefix=HINT
// RUN: not %mpirun -np 2 pld-run %t/sum.mlir --ranks 65 --transport mpi 2>&1 | FileCheck %s --check-prefix=RANGE
// RUN: not %mpirun -np 2 pld-run %t/sum.mlir --ranks 2 --transport mpi --deadline 0 2>&1 | FileCheck %s --check-prefix=ONCE
// RUN: not %mpirun -np 2 pld-run %t/sum.mlir --ranks 2 --transport mpi --no-such-option 2>&1 | FileCheck %s --check-prefix=ONCE-CLAP
//
// No process of these jobs is left.
// RUN: sh -c 'pgrep -a -x pld-run | grep -F "%t/"; test $? -eq 1'
//
// RANK1: pld-run: process 1: error: cannot read '{{.*}}only0/data.rank1.npy' (for 'data' on rank 1): No such file or directory
// RANK1-NOT: pld-run:
// RANK0: pld-run: error: cannot read '{{.*}}only1/data.rank0.npy' (for 'data' on rank 0): No such file or directory
// RANK0-NOT: pld-run:
// PROGRAM: pld-run: process 1: error: cannot read '{{.*}}flat/data.rank1.npy'
// PROGRAM-NEXT: pld-run: process 2: error: cannot read '{{.*}}flat/data.rank2.npy'
// PROGRAM-NEXT: pld-run: process 3: error: cannot read '{{.*}}flat/data.rank3.npy'
// PROGRAM-NOT: pld-run:
// OPTIONS: pld-run: error: process 1 was started with different options than process 0: --check
// OPTIONS-NOT: pld-run:
// LIMIT: pld-run: error: process 1 was started with different options than process 0: --time-limit 30 (process 0: --time-limit 600)
// LIMIT-NOT: pld-run:
// CACHE: @sum on 2 ranks (2 MPI processes under --transport mpi): finished in
// TRANSPORT: pld-run: error: process 1 was started with different options than process 0: --transport mpi-rma (process 0: --transport mpi)
// HINT: pld-run: error: --transport mpi and mpi-rma run one rank per MPI process: start pld-run with mpirun (mpirun -np 2 pld-run {{.*}}sum.mlir --ranks 2 --transport mpi-rma --input 'data=a b')
// RANGE: error: invalid value '65' for '--ranks <RANKS>': ranks must be 1 to 64
// RANGE-NOT: invalid value
// ONCE: pld-run: error: --deadline takes a positive number of seconds
// ONCE-NOT: pld-run:
// ONCE-CLAP: error: unexpected argument '--no-such-option'
// ONCE-CLAP-NOT: unexpected argument
// SOURCE: pld-run: error: process 1 read a different k.mlir than process 0 (the bytes differ)

//--- sum.mlir
func.func @sum(%data: tensor<1x64xf32, #pld.dist>, %signal: tensor<2x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %r = "pld.tensor_allreduce"(%data, %signal) {op = #pld.reduce_op<"sum">} : (tensor<1x64xf32, #pld.dist>, tensor<2x1xi32, #pld.dist>) -> tensor<1x64xf32, #pld.dist>
  return
}

