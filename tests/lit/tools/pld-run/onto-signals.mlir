// A store whose view is larger than its tensor can stay inside the window
// and land on the signal after the tensor (a hand-written PTO kernel's
// `pto.make_tensor_view` of 3 rows over a 2-row parameter). It is refused
// at its op, in a plain run and under the explorer: before, the cells took
// the data's bits, and the run reported credit leaks holding them
// (1077936128) while waits went on, or not, on those bits.
// RUN: not pld-run %s --ranks 2 2>&1 | FileCheck %s
// CHECK: error: rank 0: {{.*}}onto-signals.mlir:[[@LINE+21]]:3: pto.tstore: a copy into bytes 512..520 of rank 0's window writes its signal cells from byte 512 (arg1 [0, 0]), which only notifies change (a view larger than its tensor? A signal is reset by a notify that sets it)
// CHECK-NOT: credit leak
// RUN: not pld-run %s --ranks 2 --explore 3 2>&1 | FileCheck %s --check-prefix=EXPLORE
// EXPLORE: schedule 0 (--replay 0): error: rank {{[01]}}: {{.*}}onto-signals.mlir:{{[0-9]+}}:3: pto.tstore: a copy into bytes 512..520 of rank {{[01]}}'s window writes its signal cells

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
  "pto.tstore"(%t, %past) {operandSegmentSizes = array<i32: 1, 1, 0, 0>} : (!tile, !pv2) -> ()
  // The signal: a wait that holds at once makes %sig one.
  %zero = arith.constant 0 : i32
  %sv = "pto.make_tensor_view"(%sig, %c2, %c1, %c1, %c2) {layout = #pto.layout<"dn">, operandSegmentSizes = array<i32: 1, 2, 2>} : (!pto.ptr<i32>, index, index, index, index) -> !sv
  %cell = "pto.partition_view"(%sv, %c0, %c0, %c1, %c1) {operandSegmentSizes = array<i32: 1, 2, 2>} : (!sv, index, index, index, index) -> !cell
  "pto.comm_twait"(%cell, %zero) {cmp = #pto.wait_cmp<"ge">} : (!cell, i32) -> ()
  return
}
