// A schedule that cannot end: a rank polls a flag no rank sets with
// pld.tensor_read (the explorer cuts the schedule after 1,000,000
// decisions without progress, but a read cannot be made to hold), or
// loops without any device call. The pass hung with no output; then it
// ended the process (a Python or C host's too) from a watchdog. Now the
// schedules run on a thread of their own: after 10 s without a decision
// the schedule is reported at the kernel, with its replay command, the
// pass fails and its thread is left behind (the ranks cannot be
// stopped). The ranks that poll on are named at the op they poll with.
// Each case takes those 10 s.
// RUN: split-file %s %t
// RUN: not pld-opt %t/poll.mlir --pass-pipeline='builtin.module(pld-to-pto, pld-explore-protocol{ranks=2 schedules=1})' -o /dev/null 2>&1 | FileCheck %s --check-prefix=POLL
// RUN: not pld-opt %t/spin.mlir --pass-pipeline='builtin.module(pld-to-pto, pld-explore-protocol{ranks=2 schedules=1})' -o /dev/null 2>&1 | FileCheck %s --check-prefix=SPIN
// POLL: poll.mlir:1:1: error: protocol explorer, 2 ranks, schedule seed 0 (pld-run {{.*}}poll.mlir --kernel poll --ranks 2 --replay 0 --input arg0={{[a-z]+}}): no progress: 1000000 decisions in a row in which no rank wrote, notified, got past a wait or a test, moved a copy or ended, and a rank still polls (a flag read with pld.tensor_read that no rank sets?); polling then: `pto.load_scalar` at {{.*}}poll.mlir:10:10 (rank 0); its ranks cannot be stopped: the pass stops exploring and leaves them running until the process ends
// POLL-NEXT: func.func @poll(
// SPIN: spin.mlir:1:1: error: protocol explorer, 2 ranks, schedule seed 0 (pld-run {{.*}}spin.mlir --kernel spin --ranks 2 --replay 0 --input arg0={{[a-z]+}}): no device call for 10 s: a rank loops without notifying, waiting, copying or reading a window, which the explorer cannot schedule around; its ranks cannot be stopped: the pass stops exploring and leaves them running until the process ends

//--- poll.mlir
func.func @poll(%sig: tensor<2x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %ctx = "pld.system_get_comm_ctx"(%sig) : (tensor<2x1xi32, #pld.dist>) -> !pld.ctx
  %me32 = "pld.system_rank"(%ctx) : (!pld.ctx) -> i32
  %me = arith.index_cast %me32 : i32 to index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i32
  %peer = arith.subi %c1, %me : index
  scf.while : () -> () {
    %x = "pld.tensor_read"(%sig, %peer, %c0) : (tensor<2x1xi32, #pld.dist>, index, index) -> i32
    %notyet = arith.cmpi slt, %x, %one : i32
    scf.condition(%notyet)
  } do {
    scf.yield
  }
  return
}

//--- spin.mlir
func.func @spin(%sig: tensor<2x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %ctx = "pld.system_get_comm_ctx"(%sig) : (tensor<2x1xi32, #pld.dist>) -> !pld.ctx
  %me = "pld.system_rank"(%ctx) : (!pld.ctx) -> i32
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r = scf.while (%i = %me) : (i32) -> i32 {
    %go = arith.cmpi sge, %i, %c0 : i32
    scf.condition(%go) %i : i32
  } do {
  ^bb0(%j: i32):
    %k = arith.muli %j, %c1 : i32
    scf.yield %k : i32
  }
  return
}
