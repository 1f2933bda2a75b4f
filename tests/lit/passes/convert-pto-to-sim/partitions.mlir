// convert-pto-to-sim checks each pto.partition_view against the shape of
// its pto.make_tensor_view and moves a transfer of more than two
// dimensions slab by slab.
//
// RUN: pld-opt %s --pass-pipeline='builtin.module(convert-pto-to-sim)' | FileCheck %s

!view = !pto.tensor_view<tensor<?x?x?xf32>>
!part = !pto.partition_tensor_view<tensor<3x2x4xf32>>
!tile = !pto.tile_buf<"vec", tensor<6x4xf32>, {pad = 1 : i64, valid = array<i64: -1, -1>}>

// CHECK-LABEL: func.func @get_3d(
// Each partition: in every dimension offset < 0, size < 0, extent < 0 or
// extent - size < offset leaves the view; the first dimension that does
// (the selects) is named to pld_sim_view_outside with the view's address,
// and the address it returns stands in.
// CHECK: %[[ROOM:.*]] = arith.subi %{{.*}}, %{{.*}} : i64
// CHECK: arith.cmpi slt, %[[ROOM]], %{{.*}} : i64
// CHECK: %[[OUT:.*]] = scf.if %{{.*}} -> (!llvm.ptr) {
// CHECK-NEXT: %{{.*}} = arith.constant {{[0-9]+}} : i64
// CHECK-NEXT: %[[STANDIN:.*]] = func.call @pld_sim_view_outside(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (!llvm.ptr, i64, i64, i64, i64, i64) -> !llvm.ptr
// CHECK-NEXT: scf.yield %[[STANDIN]] : !llvm.ptr
// CHECK-NEXT: } else {
// CHECK-NEXT: scf.yield %{{.*}} : !llvm.ptr
// CHECK: scf.if %{{.*}} -> (!llvm.ptr) {
// CHECK: func.call @pld_sim_view_outside
// The 3x2x4 get: one copy of a 2x4 slab per index of the leading
// dimension, the slab's offsets from each view's own stride, each copy
// named by the op's site.
// CHECK: call @pld_sim_at(
// CHECK: scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK: %[[I:.*]] = arith.remui %{{.*}}, %{{.*}} : i64
// CHECK: arith.muli %[[I]], %{{.*}} : i64
// CHECK: func.call @pld_sim_at(
// CHECK-NOT: }
// CHECK: func.call @pld_sim_copy(
// CHECK-NEXT: }
// CHECK: return
func.func @get_3d(%arg0: !pto.ptr<f32>, %peer: !pto.ptr<f32>) attributes {pld.kind = #pld.func_kind<"incore">, pto.kernel_kind = #pto.kernel_kind<"vector">} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c6 = arith.constant 6 : index
  %c8 = arith.constant 8 : index
  %tile = "pto.alloc_tile"(%c6, %c4) {operandSegmentSizes = array<i32: 0, 1, 1>} : (index, index) -> !tile
  %mine = "pto.make_tensor_view"(%arg0, %c3, %c2, %c4, %c8, %c4, %c1) {layout = #pto.layout<"nd">, operandSegmentSizes = array<i32: 1, 3, 3>} : (!pto.ptr<f32>, index, index, index, index, index, index) -> !view
  %theirs = "pto.make_tensor_view"(%peer, %c3, %c2, %c4, %c8, %c4, %c1) {layout = #pto.layout<"nd">, operandSegmentSizes = array<i32: 1, 3, 3>} : (!pto.ptr<f32>, index, index, index, index, index, index) -> !view
  %dst = "pto.partition_view"(%mine, %c0, %c0, %c0, %c3, %c2, %c4) {operandSegmentSizes = array<i32: 1, 3, 3>} : (!view, index, index, index, index, index, index) -> !part
  %src = "pto.partition_view"(%theirs, %c0, %c0, %c0, %c3, %c2, %c4) {operandSegmentSizes = array<i32: 1, 3, 3>} : (!view, index, index, index, index, index, index) -> !part
  "pto.comm_tget"(%dst, %src, %tile) : (!part, !part, !tile) -> ()
  return
}
