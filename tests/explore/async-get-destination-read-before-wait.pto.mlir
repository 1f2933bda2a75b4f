// Broken on purpose, written at the PTO level: each of two ranks stages
// its input row in row 0 of its window and signals its peer; after the
// peer's signal it gets the peer's row 0 with a URMA pto.comm_tget_async
// straight into its output buffer (outside the window), and reads that
// buffer before the wait for the copy's completion. The copy writes its
// destination at some moment before the wait, so the read may see either.
//
// The explorer reports the read racing with the asynchronous copy's write
// of its destination, in the rank's own memory (dma24 M1: it tracked
// windows only, and found nothing).
!row = !pto.partition_tensor_view<tensor<1x64xf32>>
!cell = !pto.partition_tensor_view<tensor<1x1xi32>>
!tile = !pto.tile_buf<"vec", tensor<1x64xf32>, {valid = array<i64: 1, 64>}>
!view = !pto.tensor_view<tensor<?x?xf32>>
!cells = !pto.tensor_view<tensor<?x?xi32>>
module {
  func.func @exchange(%data: !pto.ptr<f32>, %sig: !pto.ptr<i32>, %in: !pto.ptr<f32>, %out: !pto.ptr<f32>, %ctx: !pto.ptr<i64>, %sctx: !pto.ptr<i64>) attributes {pld.kind = #pld.func_kind<"incore">, pld.signature = (tensor<2x64xf32, #pld.dist>, tensor<2x1xi32, #pld.dist>, tensor<1x64xf32>, tensor<1x64xf32>, !pld.ctx, !pld.ctx) -> (), pto.kernel_kind = #pto.kernel_kind<"vector">} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c64 = arith.constant 64 : index
    %c4_i64 = arith.constant 4 : i64
    %one = arith.constant 1 : i32
    %minus = arith.constant -1 : i32
    // me (rankId, the low half of slot 2) and the peer.
    %pair = "pto.load_scalar"(%ctx, %c2) : (!pto.ptr<i64>, index) -> i64
    %me32 = arith.trunci %pair : i64 to i32
    %me = arith.index_cast %me32 : i32 to index
    %peer = arith.subi %c1, %me : index
    %peer32 = arith.index_cast %peer : index to i32
    // The peer's window, as an element offset from ours (windowsIn at slot 4).
    %at_me = arith.addi %c4, %me : index
    %at_peer = arith.addi %c4, %peer : index
    %base_me = "pto.load_scalar"(%ctx, %at_me) : (!pto.ptr<i64>, index) -> i64
    %base_peer = "pto.load_scalar"(%ctx, %at_peer) : (!pto.ptr<i64>, index) -> i64
    %bytes = arith.subi %base_peer, %base_me : i64
    %elems = arith.divsi %bytes, %c4_i64 : i64
    %shift = arith.index_cast %elems : i64 to index
    %peer_data = "pto.addptr"(%data, %shift) : (!pto.ptr<f32>, index) -> !pto.ptr<f32>
    // Stage the input in row 0 of our window.
    %in_v = "pto.make_tensor_view"(%in, %c1, %c64, %c64, %c1) {layout = #pto.layout<"nd">, operandSegmentSizes = array<i32: 1, 2, 2>} : (!pto.ptr<f32>, index, index, index, index) -> !view
    %in_row = "pto.partition_view"(%in_v, %c0, %c0, %c1, %c64) {operandSegmentSizes = array<i32: 1, 2, 2>} : (!view, index, index, index, index) -> !row
    %t = "pto.alloc_tile"() {operandSegmentSizes = array<i32: 0, 0, 0>} : () -> !tile
    "pto.tload"(%in_row, %t) {operandSegmentSizes = array<i32: 1, 1, 0, 0, 0, 0>} : (!row, !tile) -> ()
    %mine = "pto.make_tensor_view"(%data, %c2, %c64, %c64, %c1) {layout = #pto.layout<"nd">, operandSegmentSizes = array<i32: 1, 2, 2>} : (!pto.ptr<f32>, index, index, index, index) -> !view
    %staging = "pto.partition_view"(%mine, %c0, %c0, %c1, %c64) {operandSegmentSizes = array<i32: 1, 2, 2>} : (!view, index, index, index, index) -> !row
    "pto.tstore"(%t, %staging) {operandSegmentSizes = array<i32: 1, 1, 0, 0>} : (!tile, !row) -> ()
    "pto.barrier"() {pipe = #pto.pipe<"PIPE_ALL">} : () -> ()
    // Signal the peer that our row is staged: cell (me, 0) of its signal.
    %sig_me = "pto.load_scalar"(%sctx, %at_me) : (!pto.ptr<i64>, index) -> i64
    %sig_peer = "pto.load_scalar"(%sctx, %at_peer) : (!pto.ptr<i64>, index) -> i64
    %sig_bytes = arith.subi %sig_peer, %sig_me : i64
    %sig_elems = arith.divsi %sig_bytes, %c4_i64 : i64
    %sig_shift = arith.index_cast %sig_elems : i64 to index
    %peer_sig = "pto.addptr"(%sig, %sig_shift) : (!pto.ptr<i32>, index) -> !pto.ptr<i32>
    %their_cells = "pto.make_tensor_view"(%peer_sig, %c2, %c1, %c1, %c1) {layout = #pto.layout<"nd">, operandSegmentSizes = array<i32: 1, 2, 2>} : (!pto.ptr<i32>, index, index, index, index) -> !cells
    %their_cell = "pto.partition_view"(%their_cells, %me, %c0, %c1, %c1) {operandSegmentSizes = array<i32: 1, 2, 2>} : (!cells, index, index, index, index) -> !cell
    "pto.comm_tnotify"(%their_cell, %one) {notifyOp = #pto.notify_op<"atomic_add">} : (!cell, i32) -> ()
    // Wait for the peer's signal: cell (peer, 0) of ours.
    %my_cells = "pto.make_tensor_view"(%sig, %c2, %c1, %c1, %c1) {layout = #pto.layout<"nd">, operandSegmentSizes = array<i32: 1, 2, 2>} : (!pto.ptr<i32>, index, index, index, index) -> !cells
    %my_cell = "pto.partition_view"(%my_cells, %peer, %c0, %c1, %c1) {operandSegmentSizes = array<i32: 1, 2, 2>} : (!cells, index, index, index, index) -> !cell
    "pto.comm_twait"(%my_cell, %one) {cmp = #pto.wait_cmp<"ge">} : (!cell, i32) -> ()
    // Get the peer's row 0 into the output, on the peer's URMA queue.
    %ws = "pto.load_scalar"(%ctx, %c0) : (!pto.ptr<i64>, index) -> i64
    %session = "pto.comm_build_async_session"(%ws) {engine = #pto.dma_engine<"urma">, operandSegmentSizes = array<i32: 0, 1>} : (i64) -> !pto.async_session
    %theirs = "pto.make_tensor_view"(%peer_data, %c2, %c64, %c64, %c1) {layout = #pto.layout<"nd">, operandSegmentSizes = array<i32: 1, 2, 2>} : (!pto.ptr<f32>, index, index, index, index) -> !view
    %their_row = "pto.partition_view"(%theirs, %c0, %c0, %c1, %c64) {operandSegmentSizes = array<i32: 1, 2, 2>} : (!view, index, index, index, index) -> !row
    %out_v = "pto.make_tensor_view"(%out, %c1, %c64, %c64, %c1) {layout = #pto.layout<"nd">, operandSegmentSizes = array<i32: 1, 2, 2>} : (!pto.ptr<f32>, index, index, index, index) -> !view
    %out_row = "pto.partition_view"(%out_v, %c0, %c0, %c1, %c64) {operandSegmentSizes = array<i32: 1, 2, 2>} : (!view, index, index, index, index) -> !row
    %get = "pto.comm_tget_async"(%out_row, %their_row, %session, %peer32) {operandSegmentSizes = array<i32: 1, 1, 1, 1>} : (!row, !row, !pto.async_session, i32) -> !pto.async_event
    // The output read while the copy may still write it.
    "pto.tload"(%out_row, %t) {operandSegmentSizes = array<i32: 1, 1, 0, 0, 0, 0>} : (!row, !tile) -> ()
    %done = "pto.comm_wait_async_event"(%get, %session) : (!pto.async_event, !pto.async_session) -> i1
    // Epilogue: the credit back, once the peer got our row too.
    "pto.comm_tnotify"(%their_cell, %one) {notifyOp = #pto.notify_op<"atomic_add">} : (!cell, i32) -> ()
    %two = arith.constant 2 : i32
    "pto.comm_twait"(%my_cell, %two) {cmp = #pto.wait_cmp<"ge">} : (!cell, i32) -> ()
    %back = arith.constant -2 : i32
    "pto.comm_tnotify"(%my_cell, %back) {notifyOp = #pto.notify_op<"atomic_add">} : (!cell, i32) -> ()
    return
  }
}
