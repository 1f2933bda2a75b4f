// Broken on purpose: each rank puts its row into its peer's window (fenced
// and signalled, as it should), but the peer reads the first element with
// a scalar read (pld.tensor_read) before it waits for the signal.
//
// The explorer reports the race of the scalar read with the remote store.
func.func @publish(%data: tensor<1x64xf32, #pld.dist>, %sig: tensor<2x1xi32, #pld.dist>, %src: tensor<1x64xf32>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %ctx = "pld.system_get_comm_ctx"(%data) : (tensor<1x64xf32, #pld.dist>) -> !pld.ctx
  %me32 = "pld.system_rank"(%ctx) : (!pld.ctx) -> i32
  %me = arith.index_cast %me32 : i32 to index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i32
  %minus = arith.constant -1 : i32
  %peer = arith.subi %c1, %me : index
  %peer32 = arith.index_cast %peer : index to i32
  %t = "pld.tile_load"(%src, %c0, %c0) {operandSegmentSizes = array<i32: 1, 2, 0>} : (tensor<1x64xf32>, index, index) -> tensor<1x64xf32, #pld.tile>
  "pld.tile_remote_store"(%t, %data, %peer32, %c0, %c0) : (tensor<1x64xf32, #pld.tile>, tensor<1x64xf32, #pld.dist>, i32, index, index) -> ()
  "pld.system_notify"(%sig, %peer, %me, %c0, %one) {op = #pld.notify_op<"atomic_add">} : (tensor<2x1xi32, #pld.dist>, index, index, index, i32) -> ()
  %first = "pld.tensor_read"(%data, %c0, %c0) : (tensor<1x64xf32, #pld.dist>, index, index) -> f32
  "pld.system_wait"(%sig, %peer, %c0, %one) {cmp = #pld.wait_cmp<"ge">} : (tensor<2x1xi32, #pld.dist>, index, index, i32) -> ()
  // The value read decides nothing here, but the read is made.
  %v = arith.fptosi %first : f32 to i32
  %zero = arith.constant 0 : i32
  %none = arith.muli %v, %zero : i32
  %back = arith.addi %minus, %none : i32
  "pld.system_notify"(%sig, %me, %peer, %c0, %back) {op = #pld.notify_op<"atomic_add">} : (tensor<2x1xi32, #pld.dist>, index, index, index, i32) -> ()
  return
}
