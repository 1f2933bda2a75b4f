// A run ended by --time-limit says where each rank was: here rank 1 loops
// for ever before the barrier that the others wait in (the message named
// no rank; under MPI it could blame the machine's load for the slowness
// the looping rank caused). Under MPI the other processes' ranks are as
// the status board last showed them (tools/pld-run/mpi/faults.mlir).
//
// RUN: not pld-run %s --ranks 3 --time-limit 2 --deadline 0.5 2>&1 | FileCheck %s
// CHECK: pld-run: error: --time-limit (2.0s) reached while running @loner on 3 ranks, which had not finished {{.*}}; at the limit rank 0 waits (pto.comm_twait at {{.*}}time-limit-ranks.mlir:[[# @LINE + 18]]:8), rank 1 runs, in no wait, rank 2 waits (pto.comm_twait at {{.*}}time-limit-ranks.mlir:[[# @LINE + 18]]:8){{$}}

!sig = tensor<3x1xi32, #pld.dist>
func.func @loner(%sig: !sig) attributes {pld.kind = #pld.func_kind<"incore">} {
  %ctx = "pld.system_get_comm_ctx"(%sig) : (!sig) -> !pld.ctx
  %me = "pld.system_rank"(%ctx) : (!pld.ctx) -> i32
  %one = arith.constant 1 : i32
  %is_one = arith.cmpi eq, %me, %one : i32
  %c0 = arith.constant 0 : index
  %c5 = arith.constant 5 : index
  %back = arith.constant -1 : index
  scf.if %is_one {
    // A step of -1 counts away from the bound: it never ends.
    %n = scf.for %i = %c0 to %c5 step %back iter_args(%a = %c0) -> (index) {
      %b = arith.addi %a, %i : index
      scf.yield %b : index
    }
  }
  %r = "pld.tensor_barrier"(%sig) : (!sig) -> !sig
  return
}
