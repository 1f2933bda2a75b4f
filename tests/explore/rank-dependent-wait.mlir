// Broken on purpose: the exchange of remote-load-without-wait.mlir with its
// wait in place, but only on ranks other than 0 (a rank-dependent branch
// around the wait). Rank 0 reads its peer's row with nothing ordering the
// read after the peer's store.
//
// The explorer reports the race of rank 0's remote load with the peer's
// store.
func.func @exchange(%data: tensor<1x64xf32, #pld.dist>, %sig: tensor<2x1xi32, #pld.dist>, %src: tensor<1x64xf32>, %out: tensor<1x64xf32>) attributes {pld.kind = #pld.func_kind<"incore">} {
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
  "pld.tile_store"(%t, %data, %c0, %c0) : (tensor<1x64xf32, #pld.tile>, tensor<1x64xf32, #pld.dist>, index, index) -> ()
  "pld.system_fence"() : () -> ()
  "pld.system_notify"(%sig, %peer, %me, %c0, %one) {op = #pld.notify_op<"atomic_add">} : (tensor<2x1xi32, #pld.dist>, index, index, index, i32) -> ()
  %not_first = arith.cmpi ne, %me, %c0 : index
  scf.if %not_first {
    "pld.system_wait"(%sig, %peer, %c0, %one) {cmp = #pld.wait_cmp<"ge">} : (tensor<2x1xi32, #pld.dist>, index, index, i32) -> ()
  }
  %r = "pld.tile_remote_load"(%data, %peer32, %c0, %c0) {operandSegmentSizes = array<i32: 1, 1, 2, 0>} : (tensor<1x64xf32, #pld.dist>, i32, index, index) -> tensor<1x64xf32, #pld.tile>
  "pld.tile_store"(%r, %out, %c0, %c0) : (tensor<1x64xf32, #pld.tile>, tensor<1x64xf32>, index, index) -> ()
  "pld.system_notify"(%sig, %me, %peer, %c0, %minus) {op = #pld.notify_op<"atomic_add">} : (tensor<2x1xi32, #pld.dist>, index, index, index, i32) -> ()
  return
}
