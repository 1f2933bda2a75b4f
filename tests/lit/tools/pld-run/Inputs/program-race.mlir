// A HOST program whose CHIP step calls a kernel that reads its peer's row
// before it waits for the peer's signal (tests/lit/tools/pld-run/explore.mlir).
!data = tensor<1x64xf32, #pld.dist>
!sig = tensor<2x1xi32, #pld.dist>
func.func @exchange(%data: !data, %sig: !sig, %out: !data) attributes {pld.kind = #pld.func_kind<"incore">} {
  %ctx = "pld.system_get_comm_ctx"(%data) : (!data) -> !pld.ctx
  %me32 = "pld.system_rank"(%ctx) : (!pld.ctx) -> i32
  %me = arith.index_cast %me32 : i32 to index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i32
  %minus = arith.constant -1 : i32
  %peer = arith.subi %c1, %me : index
  %peer32 = arith.index_cast %peer : index to i32
  %t = "pld.tile_load"(%out, %c0, %c0) {operandSegmentSizes = array<i32: 1, 2, 0>} : (!data, index, index) -> tensor<1x64xf32, #pld.tile>
  "pld.tile_store"(%t, %data, %c0, %c0) : (tensor<1x64xf32, #pld.tile>, !data, index, index) -> ()
  "pld.system_fence"() : () -> ()
  "pld.system_notify"(%sig, %peer, %me, %c0, %one) {op = #pld.notify_op<"atomic_add">} : (!sig, index, index, index, i32) -> ()
  %r = "pld.tile_remote_load"(%data, %peer32, %c0, %c0) {operandSegmentSizes = array<i32: 1, 1, 2, 0>} : (!data, i32, index, index) -> tensor<1x64xf32, #pld.tile>
  "pld.system_wait"(%sig, %peer, %c0, %one) {cmp = #pld.wait_cmp<"ge">} : (!sig, index, index, i32) -> ()
  "pld.tile_store"(%r, %out, %c0, %c0) : (tensor<1x64xf32, #pld.tile>, !data, index, index) -> ()
  "pld.system_notify"(%sig, %me, %peer, %c0, %minus) {op = #pld.notify_op<"atomic_add">} : (!sig, index, index, index, i32) -> ()
  return
}
func.func @step(%data: !data, %sig: !sig, %out: !data) attributes {pld.kind = #pld.func_kind<"chip">} {
  func.call @exchange(%data, %sig, %out) : (!data, !sig, !data) -> ()
  return
}
func.func @main() attributes {pld.kind = #pld.func_kind<"host">} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %b256 = arith.constant 256 : i64
  %b8 = arith.constant 8 : i64
  %ws = "pld.system_world_size"() : () -> i64
  %n = arith.index_cast %ws : i64 to index
  %db = "pld.tensor_alloc_window_buffer"(%b256) {name = "data"} : (i64) -> !pld.ptr
  %sb = "pld.tensor_alloc_window_buffer"(%b8) {name = "sig"} : (i64) -> !pld.ptr
  %ob = "pld.tensor_alloc_window_buffer"(%b256) {name = "out"} : (i64) -> !pld.ptr
  %d = "pld.tensor_window"(%db) : (!pld.ptr) -> !data
  %s = "pld.tensor_window"(%sb) : (!pld.ptr) -> !sig
  %o = "pld.tensor_window"(%ob) : (!pld.ptr) -> !data
  scf.for %r = %c0 to %n step %c1 {
    "pld.dispatch"(%r) ({
      func.call @step(%d, %s, %o) : (!data, !sig, !data) -> ()
      gpu.yield
    }) : (index) -> ()
  }
  %x = "pld.tensor_allreduce"(%o) {op = #pld.reduce_op<"sum">} : (!data) -> !data
  return
}
