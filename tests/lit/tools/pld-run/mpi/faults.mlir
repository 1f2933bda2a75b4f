// REQUIRES: mpirun
// pld-run under MPI reports as a thread run does: a deadlock names every
// rank's waited-on cell (found through the status board, not the stuck
// windows), on process 0 only, with exit status 3; options that need one
// address space and a --ranks other than the job's size are refused.
//
// The deadlocking and leaking kernels are those of the thread tests
// (../faults.mlir).
// RUN: split-file %s %t
// A run ended by --time-limit names each rank, the other processes' as
// the status board last showed them:
// RUN: not %mpirun -np 3 pld-run %S/../time-limit-ranks.mlir --ranks 3 --time-limit 3 --deadline 0.5 --transport mpi 2>&1 | FileCheck %s --check-prefix=LIMIT
// LIMIT: --time-limit (3.0s) reached while running @loner on 3 ranks, which had not finished {{.*}}; at the limit rank 0 waits (pto.comm_twait at {{.*}}time-limit-ranks.mlir:{{[0-9]+}}:8), rank 1 runs, in no wait, rank 2 waits (pto.comm_twait at {{.*}}time-limit-ranks.mlir:{{[0-9]+}}:8) (ranks 1, 2 as the status board showed {{.*}} ago)
// RUN: split-file %S/../faults.mlir %t/base
// RUN: not pld-run %t/base/deadlock.mlir --ranks 3 --deadline 0.3 2>&1 | FileCheck %s --check-prefix=DEADLOCK
// RUN: not %mpirun -np 3 pld-run %t/base/deadlock.mlir --ranks 3 --deadline 0.3 --transport mpi 2>&1 | FileCheck %s --check-prefix=DEADLOCK
// RUN: not %mpirun -np 3 pld-run %t/base/deadlock.mlir --ranks 3 --deadline 0.3 --transport mpi-rma 2>&1 | FileCheck %s --check-prefix=DEADLOCK
// RUN: sh -c '%mpirun -np 3 pld-run %t/base/deadlock.mlir --ranks 3 --deadline 0.3 --transport mpi > /dev/null 2>&1; test $? -eq 3'
// RUN: sh -c '%mpirun -np 3 pld-run %t/base/deadlock.mlir --ranks 3 --deadline 0.3 --transport mpi-rma > /dev/null 2>&1; test $? -eq 3'
// RUN: not %mpirun -np 2 pld-run %t/barrier.mlir --ranks 2 --transport mpi --explore 3 2>&1 | FileCheck %s --check-prefix=EXPLORE
// RUN: not %mpirun -np 2 pld-run %t/barrier.mlir --ranks 3 --transport mpi-rma 2>&1 | FileCheck %s --check-prefix=RANKS
// A shard program without --ranks runs on its grid's devices with threads,
// not under MPI, where the processes are the ranks: refused there as before.
// RUN: not %mpirun -np 2 pld-run %S/../../../../../examples/shard.mlir --transport mpi 2>&1 | FileCheck %s --check-prefix=GRID
// GRID: pld-run: error: {{.*}}shard.mlir: the shard program runs on a grid of 8 devices; run it on 8 ranks, not 2
// RUN: not pld-run %t/barrier.mlir --ranks 2 --transport mpi 2>&1 | FileCheck %s --check-prefix=LAUNCH
// Without mpirun, --explore under an MPI transport is refused as under
// mpirun (it was told to start with mpirun, which then refused it).
// RUN: not pld-run %t/barrier.mlir --ranks 2 --transport mpi --explore 3 2>&1 | FileCheck %s --check-prefix=EXPLORE
// It is a malformed command line (status 2), as other option conflicts.
// RUN: sh -c 'pld-run %t/barrier.mlir --ranks 2 --transport mpi --explore 3 > /dev/null 2>&1; test $? -eq 2'
// A rank that dies (killed while its peers wait) takes the job down, named
// by mpirun, instead of leaving it hanging.
// RUN: %S/Inputs/signal_rank.sh KILL 3 mpi-rma 1 %t/base/deadlock.mlir %t/killed.out | FileCheck %s --check-prefix=KILLED
// KILLED: mpirun exited with status {{[1-9][0-9]*}}
// KILLED: process rank 1 with PID {{[0-9]+}} on node {{.*}} exited on signal 9 (Killed)
// Credits left behind are found in every rank's window, through MPI under
// mpi-rma.
// RUN: not %mpirun -np 2 pld-run %t/base/leak.mlir --ranks 2 --transport mpi-rma 2>&1 | FileCheck %s --check-prefix=LEAK
// RUN: not %mpirun -np 2 pld-run %t/base/leak.mlir --ranks 2 --transport mpi 2>&1 | FileCheck %s --check-prefix=LEAK
// LEAK-DAG: pld-run: credit leak in %sig (arg0) at [1, 0]: rank 0's cell holds 1 (should be back to 0)
// LEAK-DAG: pld-run: credit leak in %sig (arg0) at [0, 0]: rank 1's cell holds 1 (should be back to 0)
// A store past the end of its tensor is refused at its op whichever
// window the address lands in (the partition leaves its tensor view).
// RUN: not pld-run %t/adjacent.mlir --ranks 3 2>&1 | FileCheck %s --check-prefix=ADJACENT
// RUN: not %mpirun -np 3 pld-run %t/adjacent.mlir --ranks 3 --transport mpi 2>&1 | FileCheck %s --check-prefix=ADJACENT
// RUN: not %mpirun -np 3 pld-run %t/adjacent.mlir --ranks 3 --transport mpi-rma 2>&1 | FileCheck %s --check-prefix=ADJACENT
// ADJACENT: pld-run: error: rank 0: {{.*}}adjacent.mlir:16:5: `pld.tile_remote_store` (pto.tstore): a store through a pto.partition_view that leaves its pto.make_tensor_view (elements 16..20 of dimension 0, which holds 4): an offset past the end of its tensor?
// ADJACENT-NOT: error
// A clean run says so once, from process 0.
// RUN: %mpirun -np 2 pld-run %t/barrier.mlir --ranks 2 --transport mpi-rma --check | FileCheck %s --check-prefix=CLEAN

// DEADLOCK: pld-run: deadlock: every live rank has waited for more than 300.0ms
// DEADLOCK-NEXT: rank 1 in @divergent: waits for the i32 cell at rank 1's window, byte 0 (i32 cell 0 of the window) >= 1, which holds 0
// DEADLOCK-NEXT: rank 2 in @divergent: waits for the i32 cell at rank 2's window, byte 0 (i32 cell 0 of the window) >= 1, which holds 0
// DEADLOCK-NEXT: finished: rank 0
// DEADLOCK-NEXT: rank 1 waits on %sig (arg0) at [0, 0], the signal of pld.tensor_barrier at {{.*}}deadlock.mlir:9:10
// DEADLOCK-NEXT: rank 2 waits on %sig (arg0) at [0, 0], the signal of pld.tensor_barrier at {{.*}}deadlock.mlir:9:10
// DEADLOCK-NOT: deadlock
// EXPLORE: pld-run: error: --explore and --replay schedule every rank's threads in one address space; they do not run under --transport mpi (run them without --transport)
// EXPLORE-NOT: error
// RANKS: pld-run: error: --ranks 3 but mpirun started 2 processes: under --transport mpi-rma each process is one rank (give --ranks 2, or start mpirun -np 3; --ranks is 2 when not given)
// LAUNCH: pld-run: error: --transport mpi and mpi-rma run one rank per MPI process: start pld-run with mpirun
// CLEAN: @b on 2 ranks (2 MPI processes under --transport mpi-rma): finished in
// CLEAN-NEXT: --check: pld.tensor_barrier has no numeric result to compare; every rank got through it and no credit is left
// CLEAN-NOT: finished

//--- barrier.mlir
func.func @b(%s: tensor<2x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %r = "pld.tensor_barrier"(%s) : (tensor<2x1xi32, #pld.dist>) -> tensor<2x1xi32, #pld.dist>
  return
}

//--- program.mlir
func.func @main(%d: tensor<64xf32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"host">} {
  %s = "pld.tensor_allreduce"(%d) {op = #pld.reduce_op<"sum">} : (tensor<64xf32, #pld.dist>) -> tensor<64xf32, #pld.dist>
  return
}

//--- adjacent.mlir
// Rank 0 stores its tile 16 rows (4096 bytes) past rank 1's 4-row %data:
// under --transport mpi the node's windows lie a page apart, and the store
// landed in rank 2's window, unreported, with exit 0.
func.func @adjacent(%data: tensor<4x64xf32, #pld.dist>, %sig: tensor<3x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %ctx = "pld.system_get_comm_ctx"(%sig) : (tensor<3x1xi32, #pld.dist>) -> !pld.ctx
  %me = "pld.system_rank"(%ctx) : (!pld.ctx) -> i32
  %c0i = arith.constant 0 : i32
  %c1i = arith.constant 1 : i32
  %c0 = arith.constant 0 : index
  %mi = arith.index_cast %me : i32 to index
  %far = arith.constant 16 : index
  %row = arith.addi %far, %mi : index
  %first = arith.cmpi eq, %me, %c0i : i32
  scf.if %first {
    %t = "pld.tile_load"(%data, %c0, %c0) {operandSegmentSizes = array<i32: 1, 2, 0>} : (tensor<4x64xf32, #pld.dist>, index, index) -> tensor<4x64xf32, #pld.tile>
    "pld.tile_remote_store"(%t, %data, %c1i, %row, %c0) : (tensor<4x64xf32, #pld.tile>, tensor<4x64xf32, #pld.dist>, i32, index, index) -> ()
  }
  return
}
