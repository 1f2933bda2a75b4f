// A fault of the run is reported at the op it names (it was at the
// kernel's func.func, where --verify-diagnostics could not anchor it at
// the op; dma28 F4): here a store onto the kernel's signal cells.
// RUN: pld-opt %s --pass-pipeline='builtin.module(pld-explore-protocol{ranks=2 schedules=1})' --verify-diagnostics -o /dev/null

!tv = !pto.tensor_view<tensor<?x?xf32>>
!pv2 = !pto.partition_tensor_view<tensor<1x2xf32>>
!sv = !pto.tensor_view<tensor<?x?xi32>>
!cell = !pto.partition_tensor_view<tensor<1x1xi32>>
!tile = !pto.tile_buf<"vec", tensor<1x8xf32>, {valid = array<i64: -1, -1>}>
func.func @k(%data: !pto.ptr<f32>, %sig: !pto.ptr<i32>, %ctx: !pto.ptr<i64>, %sctx: !pto.ptr<i64>) attributes {pld.signature = (tensor<2x64xf32, #pld.dist>, tensor<2x1xi32, #pld.dist>, !pld.ctx, !pld.ctx) -> (), pto.kernel_kind = #pto.kernel_kind<"vector">} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c64 = arith.constant 64 : index
  %big = "pto.make_tensor_view"(%data, %c3, %c64, %c64, %c1) {layout = #pto.layout<"nd">, operandSegmentSizes = array<i32: 1, 2, 2>} : (!pto.ptr<f32>, index, index, index, index) -> !tv
  %first = "pto.partition_view"(%big, %c0, %c0, %c1, %c2) {operandSegmentSizes = array<i32: 1, 2, 2>} : (!tv, index, index, index, index) -> !pv2
  %past = "pto.partition_view"(%big, %c2, %c0, %c1, %c2) {operandSegmentSizes = array<i32: 1, 2, 2>} : (!tv, index, index, index, index) -> !pv2
  %t = "pto.alloc_tile"(%c1, %c2) {operandSegmentSizes = array<i32: 0, 1, 1>} : (index, index) -> !tile
  "pto.tload"(%first, %t) {operandSegmentSizes = array<i32: 1, 1, 0, 0, 0, 0>} : (!pv2, !tile) -> ()
  // expected-error @+1 {{pto.tstore: a copy into bytes 512..520 of rank}}
  "pto.tstore"(%t, %past) {operandSegmentSizes = array<i32: 1, 1, 0, 0>} : (!tile, !pv2) -> ()
  // The signal: a wait that holds at once makes %sig one.
  %zero = arith.constant 0 : i32
  %sv = "pto.make_tensor_view"(%sig, %c2, %c1, %c1, %c2) {layout = #pto.layout<"dn">, operandSegmentSizes = array<i32: 1, 2, 2>} : (!pto.ptr<i32>, index, index, index, index) -> !sv
  %cell = "pto.partition_view"(%sv, %c0, %c0, %c1, %c1) {operandSegmentSizes = array<i32: 1, 2, 2>} : (!sv, index, index, index, index) -> !cell
  "pto.comm_twait"(%cell, %zero) {cmp = #pto.wait_cmp<"ge">} : (!cell, i32) -> ()
  return
}
