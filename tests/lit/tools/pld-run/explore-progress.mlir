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
// LONG: @many on 2 ranks: 1 schedule explored (seed 0) in {{.*}}, 2400002 steps: no race, missing fence, mixed notify, shared queue, leak or deadlock
// RUN: not pld-run %t/poll.pto.mlir --ranks 2 --explore 1 | FileCheck %s --check-prefix=POLL
// POLL: schedule 0 (--replay 0): no progress: after 1000001 steps the schedule had taken 1000000 in a row in which no rank wrote, notified, got past a wait or a test, moved a copy or ended (a rank polling a flag with pto.comm_ttest or scalar reads forever? A loop of that many reads with nothing else between counts too); polling then: `pto.comm_ttest` at {{.*}}poll.pto.mlir:17:13 (ranks 0, 1)
// POLL: @poll on 2 ranks: 1 schedule explored (seed 0) in {{.*}}: 1 finding (first seen with seed 0)

// A rank that polls a flag by scalar reads (pld.tensor_read) is cut the
// same way, but no read can be made to hold: the rank polls on, and once
// no decision is taken for --deadline the schedule is named for what it
// is (it said "no device call", and the reads are device calls), the op
// named as written (it was the PTO op alone: recheck26, explore27 L2):
// RUN: sh -c 'pld-run %t/readpoll.mlir --ranks 2 --explore 1 --input sig=zeros --deadline 0.5 > %t/readpoll.out 2>&1; test $? -eq 3'
// RUN: FileCheck %s --check-prefix=READPOLL --input-file=%t/readpoll.out
// READPOLL: pld-run: error: schedule 0 of @spin on 2 ranks (--replay 0): no progress: 1000000 decisions in a row in which no rank wrote, notified, got past a wait or a test, moved a copy or ended, and a rank still polls (a flag read with pld.tensor_read that no rank sets?); polling then: `pld.tensor_read` (pto.load_scalar) at {{.*}}readpoll.mlir:9:12 (rank 0), which no schedule ends; stopped

//--- readpoll.mlir
func.func @spin(%sig: tensor<2x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %ctx = "pld.system_get_comm_ctx"(%sig) : (tensor<2x1xi32, #pld.dist>) -> !pld.ctx
  %me32 = "pld.system_rank"(%ctx) : (!pld.ctx) -> i32
  %c0 = arith.constant 0 : index
  %z = arith.constant 0 : i32
  %is0 = arith.cmpi eq, %me32, %z : i32
  scf.if %is0 {
    scf.while : () -> () {
      %v = "pld.tensor_read"(%sig, %c0, %c0) : (tensor<2x1xi32, #pld.dist>, index, index) -> i32
      %again = arith.cmpi eq, %v, %z : i32
      scf.condition(%again)
    } do {
      scf.yield
    }
  }
  return
}

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
