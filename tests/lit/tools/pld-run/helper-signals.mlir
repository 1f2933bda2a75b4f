// A kernel whose signal is notified and waited on only in a helper kernel
// it calls (with its rank and its peer as index parameters): the signal is
// the kernel's (its cells start at zero, the explorer counts them as
// signal cells). Before, it was filled as data: the plain run deadlocked
// on a cell holding a pattern value, and the explorer reported its cells
// as outside the signals.
//
// RUN: pld-run %s --kernel k --ranks 2 | FileCheck %s --check-prefix=PLAIN
// RUN: pld-run %s --kernel k --ranks 2 --explore 20 | FileCheck %s --check-prefix=EXPLORE
// PLAIN: @k on 2 ranks: finished
// EXPLORE: @k on 2 ranks: 20 schedules explored {{.*}}: no race, missing fence, mixed notify, shared queue, leak or deadlock

!sig = tensor<2x1xi32, #pld.dist>
func.func private @handshake(%sig: !sig, %me: index, %peer: index) attributes {pld.kind = #pld.func_kind<"incore">} {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1 : i32
  %minus = arith.constant -1 : i32
  "pld.system_notify"(%sig, %peer, %me, %c0, %one) {op = #pld.notify_op<"atomic_add">} : (!sig, index, index, index, i32) -> ()
  "pld.system_wait"(%sig, %peer, %c0, %one) {cmp = #pld.wait_cmp<"ge">} : (!sig, index, index, i32) -> ()
  "pld.system_notify"(%sig, %me, %peer, %c0, %minus) {op = #pld.notify_op<"atomic_add">} : (!sig, index, index, index, i32) -> ()
  return
}
func.func @k(%sig: !sig) attributes {pld.kind = #pld.func_kind<"incore">} {
  %ctx = "pld.system_get_comm_ctx"(%sig) : (!sig) -> !pld.ctx
  %me32 = "pld.system_rank"(%ctx) : (!pld.ctx) -> i32
  %me = arith.index_cast %me32 : i32 to index
  %c1 = arith.constant 1 : index
  %peer = arith.subi %c1, %me : index
  func.call @handshake(%sig, %me, %peer) : (!sig, index, index) -> ()
  return
}
