// REQUIRES: mpirun
// A process kept off the CPU while its wait's cell already holds is no
// deadlock: the status board's entry of its rank still says it waits, but
// the rank that declares a deadlock first reads every waiting rank's cell
// (and the board once more). It trusted the board alone, and a correct run
// ended "deadlock: every live rank has waited ...", status 3 (3 of 15 runs
// of 200 barriers on 8 ranks with --deadline 0.01 on a loaded machine).
// Here rank 1's process is stopped for 4 s, well past the 0.2 s deadline.
//
// RUN: %S/Inputs/stop_rank.sh mpi-rma %s %t.rma | FileCheck %s
// RUN: %S/Inputs/stop_rank.sh mpi %s %t.mpi | FileCheck %s
// CHECK: mpirun exited with status 0
// CHECK-NOT: deadlock
// CHECK: @k on 2 ranks (2 MPI processes under --transport {{mpi|mpi-rma}}): finished

!sig = tensor<2x1xi32, #pld.dist>
!data = tensor<1x64xf32, #pld.dist>
!tile = tensor<1x64xf32, #pld.tile>
func.func @k(%sig: !sig, %data: !data) attributes {pld.kind = #pld.func_kind<"incore">} {
  %ctx = "pld.system_get_comm_ctx"(%sig) : (!sig) -> !pld.ctx
  %me32 = "pld.system_rank"(%ctx) : (!pld.ctx) -> i32
  %me = arith.index_cast %me32 : i32 to index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // About 2 s of tile adds on rank 0.
  %n = arith.constant 500000000 : index
  %one = arith.constant 1 : i32
  %minus = arith.constant -1 : i32
  %peer = arith.subi %c1, %me : index
  %first = arith.cmpi eq, %me, %c0 : index
  scf.if %first {
    %t = "pld.tile_load"(%data, %c0, %c0) {operandSegmentSizes = array<i32: 1, 2, 0>} : (!data, index, index) -> !tile
    %s = scf.for %i = %c0 to %n step %c1 iter_args(%a = %t) -> (!tile) {
      %b = "pld.tile_add"(%a, %t) : (!tile, !tile) -> !tile
      scf.yield %b : !tile
    }
    "pld.tile_store"(%s, %data, %c0, %c0) : (!tile, !data, index, index) -> ()
    "pld.system_notify"(%sig, %peer, %me, %c0, %one) {op = #pld.notify_op<"atomic_add">} : (!sig, index, index, index, i32) -> ()
    "pld.system_wait"(%sig, %peer, %c0, %one) {cmp = #pld.wait_cmp<"ge">} : (!sig, index, index, i32) -> ()
    "pld.system_notify"(%sig, %me, %peer, %c0, %minus) {op = #pld.notify_op<"atomic_add">} : (!sig, index, index, index, i32) -> ()
  } else {
    "pld.system_wait"(%sig, %peer, %c0, %one) {cmp = #pld.wait_cmp<"ge">} : (!sig, index, index, i32) -> ()
    "pld.system_notify"(%sig, %me, %peer, %c0, %minus) {op = #pld.notify_op<"atomic_add">} : (!sig, index, index, index, i32) -> ()
    "pld.system_notify"(%sig, %peer, %me, %c0, %one) {op = #pld.notify_op<"atomic_add">} : (!sig, index, index, index, i32) -> ()
  }
  return
}
