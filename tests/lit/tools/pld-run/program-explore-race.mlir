// Under --explore, a race against a HOST collective's builtin kernel names
// the collective the builtin serves, with its location (it said "rank 1's
// call in @main"): its accesses have no site of their own.
// RUN: not pld-run %s --ranks 3 --explore 20 2>&1 | FileCheck %s
// CHECK: race: rank {{[0-9]}}'s builtin kernel of pld.tensor_allreduce at {{.*}}program-explore-race.mlir:37:8 wrote bytes [0, 256) of rank {{[0-9]}}'s window (x_buf [0, 0]..[0, 63]), read by rank {{[0-9]}}'s `pld.tile_remote_load` (pto.tload) at {{.*}}program-explore-race.mlir:19:8; no signal orders them
// A HOST allreduce of x_buf, then every device reads its right neighbour's
// x_buf in a kernel, with no barrier in between: the read is not ordered
// after the neighbour's write of its allreduce result.
!row = tensor<1x64xf32, #pld.dist>
!tile = tensor<1x64xf32, #pld.tile>
func.func @read(%x: !row, %y: !row) attributes {pld.kind = #pld.func_kind<"incore">} {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1 : i32
  %ctx = "pld.system_get_comm_ctx"(%x) : (!row) -> !pld.ctx
  %me = "pld.system_rank"(%ctx) : (!pld.ctx) -> i32
  %nr = "pld.system_nranks"(%ctx) : (!pld.ctx) -> i32
  %p1 = arith.addi %me, %one : i32
  %peer = arith.remsi %p1, %nr : i32
  %t = "pld.tile_remote_load"(%x, %peer, %c0, %c0) {operandSegmentSizes = array<i32: 1, 1, 2, 0>} : (!row, i32, index, index) -> !tile
  "pld.tile_store"(%t, %y, %c0, %c0) : (!tile, !row, index, index) -> ()
  return
}
func.func @rstep(%x: !row, %y: !row) attributes {pld.kind = #pld.func_kind<"chip">} {
  func.call @read(%x, %y) : (!row, !row) -> ()
  return
}
func.func @main() attributes {pld.kind = #pld.func_kind<"host">} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %b = arith.constant 256 : i64
  %ws = "pld.system_world_size"() : () -> i64
  %n = arith.index_cast %ws : i64 to index
  %xb = "pld.tensor_alloc_window_buffer"(%b) {name = "x_buf"} : (i64) -> !pld.ptr
  %yb = "pld.tensor_alloc_window_buffer"(%b) {name = "y_buf"} : (i64) -> !pld.ptr
  %x = "pld.tensor_window"(%xb) : (!pld.ptr) -> !row
  %y = "pld.tensor_window"(%yb) : (!pld.ptr) -> !row
  %r = "pld.tensor_allreduce"(%x) {op = #pld.reduce_op<"sum">} : (!row) -> !row
  scf.for %d = %c0 to %n step %c1 {
    "pld.dispatch"(%d) ({
      func.call @rstep(%x, %y) : (!row, !row) -> ()
      gpu.yield
    }) : (index) -> ()
  }
  return
}
