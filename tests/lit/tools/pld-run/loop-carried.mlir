// A kernel that rebinds its data and signal in a loop (a barrier and an
// allreduce five times, the carries yielded back) runs on simulated ranks;
// its signal is found through the loop, so it starts at zero and no credit
// leaks. --check compares one call with the golden, so it refuses a
// collective inside a loop instead of reporting a wrong result.
//
// RUN: pld-run %s --ranks 2 --deadline 5 --stats 2>&1 | FileCheck %s
// RUN: pld-run %s --ranks 4 --deadline 5 2>&1 | FileCheck %s --check-prefix=FOUR
// RUN: not pld-run %s --ranks 2 --deadline 5 --check 2>&1 | FileCheck %s --check-prefix=CHECK-LOOP
// CHECK: @k on 2 ranks: finished
// CHECK-NOT: leak
// FOUR: @k on 4 ranks: finished
// CHECK-LOOP: loop-carried.mlir:[[#@LINE+10]]:11: error: --check cannot compare pld.tensor_allreduce: the pld.tensor_allreduce of @k is inside an scf.for, so it may run more than once

!data = tensor<1x64xf32, #pld.dist>
!sig = tensor<4x1xi32, #pld.dist>
func.func @k(%d: !data, %sig: !sig) attributes {pld.kind = #pld.func_kind<"incore">} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %r:2 = scf.for %i = %c0 to %c5 step %c1 iter_args(%x = %d, %s = %sig) -> (!data, !sig) {
    %s2 = "pld.tensor_barrier"(%s) : (!sig) -> !sig
    %x2 = "pld.tensor_allreduce"(%x, %s2) {op = #pld.reduce_op<"sum">} : (!data, !sig) -> !data
    scf.yield %x2, %s2 : !data, !sig
  }
  return
}
