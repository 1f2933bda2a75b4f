// Explore mode cuts a schedule that makes no progress: a million
// decisions in a row in which no rank wrote, notified, got past a wait or
// a test, moved a copy or ended (a rank polling with pto.comm.ttest for a
// cell nobody sets). Before, it cut every schedule after two million
// decisions in all, so a correct kernel that takes more (a ring allreduce
// on 64 ranks) was reported as "no progress", and a rank polling forever
// was let run freely after the cut and never ended (the schedule was
// reported only as "no device call" by the watchdog, status 3).
//
// RUN: rm -rf %t && split-file %s %t
// RUN: pld-run %t/barriers.mlir --ranks 2 --explore 1 | FileCheck %s --check-prefix=LONG
// LONG: @many on 2 ranks: 1 schedule explored (seeds 0 to 0) in {{.*}}, 2400002 steps: no race, missing fence, mixed notify, shared queue, leak or deadlock
// RUN: not pld-run %t/poll.pto.mlir --ranks 2 --explore 1 | FileCheck %s --check-prefix=POLL
// POLL: schedule 0 (--replay 0): no progress: after 1000001 steps the schedule had taken 1000000 in a row in which no rank wrote, notified, got past a wait or a test, moved a copy or ended (a rank polling with pto.comm.ttest forever?)
// POLL: @poll on 2 ranks: 1 schedule explored (seeds 0 to 0) in {{.*}}: 1 finding (first seen with seed 0)

//--- barriers.mlir
!sig = tensor<2x1xi32, #pld.dist>
func.func @many(%sig: !sig) attributes {pld.kind = #pld.func_kind<"incore">} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 400000 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%s = %sig) -> (!sig) {
    %s2 = "pld.tensor_barrier"(%s) : (!sig) -> !sig
    scf.yield %s2 : !sig
  }
  return
}

//--- poll.pto.mlir
module {
  func.func @poll(%arg0: !pto.ptr<i32>, %arg1: !pto.ptr<i64>) attributes {pld.kind = #pld.func_kind<"incore">, pld.signature = (tensor<2x1xi32, #pld.dist>, !pld.ctx) -> (), pto.kernel_kind = #pto.kernel_kind<"vector">} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %forever = arith.constant 1000000000000000 : index
    %one = arith.constant 1 : i32
    %v = "pto.make_tensor_view"(%arg0, %c2, %c1, %c1, %c1) {layout = #pto.layout<"nd">, operandSegmentSizes = array<i32: 1, 2, 2>} : (!pto.ptr<i32>, index, index, index, index) -> !pto.tensor_view<tensor<?x?xi32>>
    %cell = "pto.partition_view"(%v, %c0, %c0, %c1, %c1) {operandSegmentSizes = array<i32: 1, 2, 2>} : (!pto.tensor_view<tensor<?x?xi32>>, index, index, index, index) -> !pto.partition_tensor_view<tensor<1x1xi32>>
    %false = arith.constant false
    %true = arith.constant true
    %r = scf.while (%done = %false) : (i1) -> i1 {
      %more = arith.xori %done, %true : i1
      scf.condition(%more) %done : i1
    } do {
    ^bb0(%d: i1):
      %ok = "pto.comm_ttest"(%cell, %one) {cmp = #pto.wait_cmp<"ge">} : (!pto.partition_tensor_view<tensor<1x1xi32>>, i32) -> i1
      scf.yield %ok : i1
    }
    return
  }
}
