// Broken on purpose: a two-rank exchange whose notify names row me + 1 of
// the peer's [2, 1] signal instead of row me (an off-by-one the verifier
// cannot see: the row is computed). Rank 1's notify lands past the signal,
// in the window's padding, and rank 0's wait is never satisfied.
//
// The explorer reports the notify on a cell outside the kernel's signals
// (and the deadlock it leads to).
func.func @exchange(%sig: tensor<2x1xi32, #pld.dist>, %data: tensor<1x16xf32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %ctx = "pld.system_get_comm_ctx"(%sig) : (tensor<2x1xi32, #pld.dist>) -> !pld.ctx
  %me32 = "pld.system_rank"(%ctx) : (!pld.ctx) -> i32
  %me = arith.index_cast %me32 : i32 to index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i32
  %minus = arith.constant -1 : i32
  %peer = arith.subi %c1, %me : index
  %row = arith.addi %me, %c1 : index
  "pld.system_notify"(%sig, %peer, %row, %c0, %one) {op = #pld.notify_op<"atomic_add">} : (tensor<2x1xi32, #pld.dist>, index, index, index, i32) -> ()
  "pld.system_wait"(%sig, %peer, %c0, %one) {cmp = #pld.wait_cmp<"ge">} : (tensor<2x1xi32, #pld.dist>, index, index, i32) -> ()
  "pld.system_notify"(%sig, %me, %peer, %c0, %minus) {op = #pld.notify_op<"atomic_add">} : (tensor<2x1xi32, #pld.dist>, index, index, index, i32) -> ()
  return
}
